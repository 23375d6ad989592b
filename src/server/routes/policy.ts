/**
 * Policy handlers (docs/wire-reference.md §10): the network policy (GET `{rules}`, POST strict → 204, readable in the
 * sprite at `/.sprite/policy/network.json`), and the privileges/resources policies whose shapes are
 * UNCONFIRMED (§10.3): stored and echoed as given.
 */
import type { HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import type { SpritePolicies } from '../model/sprite-policies.ts';
import { validateNetworkPolicy } from '../core/network-policy.ts';

function policiesOf(sprite: Sprite): SpritePolicies {
  return sprite.policies;
}

function opaque(kind: 'privileges' | 'resources'): HandlerMap {
  const cap = kind[0].toUpperCase() + kind.slice(1);
  return {
    [`get${cap}Policy`](req, res, { model }) {
      res.json(policiesOf(model.get(req.params.name as string)).other.get(kind) ?? {});
    },
    [`set${cap}Policy`](req, res, { model }) {
      const body = (req.body ?? {}) as Record<string, unknown>;
      policiesOf(model.get(req.params.name as string)).other.set(kind, body);
      res.json(body);
    },
    [`delete${cap}Policy`](req, res, { model }) {
      policiesOf(model.get(req.params.name as string)).other.delete(kind);
      res.status(204).end();
    },
  };
}

/** Handlers of the policy family, by operationId. */
export const policyHandlers: HandlerMap = {
  /** `GET …/policy/network` → `{rules}` (default `{"rules":[]}`). */
  getNetworkPolicy(req, res, { model }) {
    res.json(policiesOf(model.get(req.params.name as string)).network);
  },

  /** `POST …/policy/network` → 204 (JS and GO require exactly 204; §10.2, DISAGREEMENT 9). */
  async setNetworkPolicy(req, res, { model }) {
    const sprite = model.get(req.params.name as string);
    await policiesOf(sprite).setNetwork(validateNetworkPolicy(req.body));
    res.status(204).end();
  },
  ...opaque('privileges'),
  ...opaque('resources'),
};
