/**
 * Policy handlers (sprites-wire.md §10): the network policy (GET `{rules}`, POST strict → 204, readable in the
 * sprite at `/.sprite/policy/network.json`), and the privileges/resources policies whose shapes are
 * UNCONFIRMED (§10.3): stored and echoed as given.
 */
import type { HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import { VfsError, type Vfs } from '../model/vfs.ts';
import { defaultNetworkPolicy, validateNetworkPolicy, writeNetworkPolicy, type NetworkPolicy } from '../model/policy.ts';

/**
 * Per-sprite policies, kept as a sprite addon. The network policy lives outside the sprite's filesystem, so a
 * checkpoint restore does not roll it back; its read-only copy in the sprite is rewritten after a restore.
 */
export class SpritePolicies {
  network: NetworkPolicy = defaultNetworkPolicy();
  other = new Map<'privileges' | 'resources', Record<string, unknown>>();
  /** The filesystem holding the copy, once a policy was set. */
  private copyIn?: Vfs;

  /** Sets the network policy and writes its copy to `/.sprite/policy/network.json` in `vfs` (§10.2). */
  setNetwork(vfs: Vfs, policy: NetworkPolicy): void {
    this.network = policy;
    this.copyIn = vfs;
    writeNetworkPolicy(vfs, policy);
  }

  /** Sprite-addon hook: the restored filesystem gets the copy of the policy in force again. */
  afterRestore(): void {
    if (!this.copyIn) return;
    try {
      writeNetworkPolicy(this.copyIn, this.network);
    } catch (e) {
      // The restored tree may block the path (e.g. `/.sprite/policy` is a file); the API still answers the policy.
      if (!(e instanceof VfsError)) throw e;
    }
  }

  shutdown(): void {}
}

function policiesOf(sprite: Sprite): SpritePolicies {
  return sprite.addons.get('policy') as SpritePolicies;
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
  setNetworkPolicy(req, res, { model }) {
    const sprite = model.get(req.params.name as string);
    policiesOf(sprite).setNetwork(sprite.vfs, validateNetworkPolicy(req.body));
    res.status(204).end();
  },
  ...opaque('privileges'),
  ...opaque('resources'),
};
