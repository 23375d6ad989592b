/**
 * The policies of one sprite (docs/wire-reference.md §10): the network policy in force, with its read-only copy at
 * `/.sprite/policy/network.json` on the sprite's disk, and the privileges/resources policies whose shapes are
 * UNCONFIRMED (§10.3), kept as given. The policy lives outside the disk, so a checkpoint restore does not roll it
 * back; the copy is rewritten after every reboot of the machine. It validates nothing (core/network-policy.ts does).
 */
import type { MachineFs } from '../machines/port.ts';
import { defaultNetworkPolicy, NETWORK_POLICY_PATH, type NetworkPolicy } from '../core/network-policy.ts';
import { VfsError } from '../machines/port.ts';

/** Per-sprite policies. */
export class SpritePolicies {
  network: NetworkPolicy = defaultNetworkPolicy();
  other = new Map<'privileges' | 'resources', Record<string, unknown>>();
  /** Whether a network policy was ever set (only then does the sprite hold a copy). */
  private copied = false;

  /** `onNetwork` hears every network policy put in force (set or restored): the machine's enforcement hook. */
  constructor(
    private readonly fs: MachineFs,
    private readonly onNetwork?: (policy: NetworkPolicy) => void,
  ) {}

  /** Sets the network policy and writes its copy into the sprite (§10.2). Rejects with a `VfsError` when the path is blocked. */
  async setNetwork(policy: NetworkPolicy): Promise<void> {
    this.network = policy;
    this.copied = true;
    this.onNetwork?.(policy);
    await this.writeCopy();
  }

  /** Persistence hook (src/server/store): whether a network policy was ever set. */
  get networkSet(): boolean {
    return this.copied;
  }

  /** Persistence hook (src/server/store): the policies saved before a restart; the disk copy is already on the disk. */
  restore(network: NetworkPolicy, networkSet: boolean, other: Array<['privileges' | 'resources', Record<string, unknown>]>): void {
    this.network = network;
    this.copied = networkSet;
    this.other = new Map(other);
    this.onNetwork?.(network);
  }

  /** After a restore or reboot: the disk gets the copy of the policy in force again. */
  async afterRestore(): Promise<void> {
    if (!this.copied) return;
    try {
      await this.writeCopy();
    } catch (e) {
      // The restored tree may block the path (e.g. `/.sprite/policy` is a file); the API still answers the policy.
      if (!(e instanceof VfsError)) throw e;
    }
  }

  /** Pretty JSON with a trailing newline, mode 0444 (read-only for the sprite's processes). */
  private async writeCopy(): Promise<void> {
    const text = `${JSON.stringify(this.network, null, 2)}\n`;
    await this.fs.writeFile(NETWORK_POLICY_PATH, new TextEncoder().encode(text), { mkdirParents: true, mode: 0o444, noFollow: true });
  }
}
