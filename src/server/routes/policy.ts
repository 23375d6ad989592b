/**
 * Policy handlers (docs/wire-reference.md §10): the network policy (GET `{rules}`, POST strict → 204, readable in the
 * sprite at `/.sprite/policy/network.json`), and the privileges/resources policies whose shapes are
 * UNCONFIRMED (§10.3): stored and echoed as given.
 */
import type { HandlerFor, HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import type { SpritePolicies } from '../model/sprite-policies.ts';
import { validateNetworkPolicy } from '../core/network-policy.ts';

function policiesOf(sprite: Sprite): SpritePolicies {
  return sprite.policies;
}

/** The policies whose shape is UNCONFIRMED: each is stored and echoed as given. */
type OpaqueKind = 'privileges' | 'resources';

/** `GET …/policy/{kind}` → the stored policy, `{}` before any was set. */
function getOpaque(kind: OpaqueKind): HandlerFor<'getPrivilegesPolicy' | 'getResourcesPolicy'> {
  return ({ path }, res, { model }) => {
    res.json(policiesOf(model.get(path.name)).other.get(kind) ?? {});
  };
}

/** `POST …/policy/{kind}` → 200 echoing the body (any JSON object, the validator made sure), which replaces the stored policy. */
function setOpaque(kind: OpaqueKind): HandlerFor<'setPrivilegesPolicy' | 'setResourcesPolicy'> {
  return ({ path, body }, res, { model }) => {
    policiesOf(model.get(path.name)).other.set(kind, body);
    res.json(body);
  };
}

/** `DELETE …/policy/{kind}` → 204; the policy reads `{}` again. */
function deleteOpaque(kind: OpaqueKind): HandlerFor<'deletePrivilegesPolicy' | 'deleteResourcesPolicy'> {
  return ({ path }, res, { model }) => {
    policiesOf(model.get(path.name)).other.delete(kind);
    res.status(204).end();
  };
}

/** Handlers of the policy family, by operationId. */
export const policyHandlers: HandlerMap = {
  /** `GET …/policy/network` → `{rules}` (default `{"rules":[]}`). */
  getNetworkPolicy({ path }, res, { model }) {
    res.json(policiesOf(model.get(path.name)).network);
  },

  /** `POST …/policy/network` → 204 (JS and GO require exactly 204; §10.2, DISAGREEMENT 9). */
  async setNetworkPolicy({ path, body }, res, { model }) {
    const sprite = model.get(path.name);
    await policiesOf(sprite).setNetwork(validateNetworkPolicy(body));
    res.status(204).end();
  },
  getPrivilegesPolicy: getOpaque('privileges'),
  setPrivilegesPolicy: setOpaque('privileges'),
  deletePrivilegesPolicy: deleteOpaque('privileges'),
  getResourcesPolicy: getOpaque('resources'),
  setResourcesPolicy: setOpaque('resources'),
  deleteResourcesPolicy: deleteOpaque('resources'),
};
