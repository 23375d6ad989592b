/**
 * A checkpoint's `history` (its ancestor ids, oldest first) stored as a persistent linked list: each checkpoint
 * keeps a pointer to its parent's history plus the parent's id, so N checkpoints in a chain take O(N) space, not
 * O(N²), and the array is derived only when a checkpoint is rendered. It also answers the `?history=` filter in
 * one pass. It knows nothing of snapshots, sprites or HTTP.
 * @see docs/wire-reference.md §7.2 (`history`), §7.3 (`?history=<version>`)
 */

/** The ancestor ids of one checkpoint; immutable, shared with its descendants. */
export class CheckpointHistory {
  /** The history of a checkpoint without a parent. */
  static readonly EMPTY = new CheckpointHistory(null, null, 0);

  private constructor(
    /** The newest ancestor id (the parent), or null for the empty history. */
    readonly last: string | null,
    /** The history before `last` (the parent's own history). */
    readonly before: CheckpointHistory | null,
    /** Number of ids. */
    readonly length: number,
  ) {}

  /** This history followed by `id` (a child of the checkpoint `id`): O(1), shares this one. */
  append(id: string): CheckpointHistory {
    return new CheckpointHistory(id, this, this.length + 1);
  }

  /** The ids, oldest first. O(length). */
  toArray(): string[] {
    const out = new Array<string>(this.length);
    let i = this.length;
    for (let at: CheckpointHistory | null = this; at && at.last !== null; at = at.before) out[--i] = at.last;
    return out;
  }

  /** Whether `id` is among the ids. O(length). */
  includes(id: string): boolean {
    for (let at: CheckpointHistory | null = this; at && at.last !== null; at = at.before) if (at.last === id) return true;
    return false;
  }
}

/**
 * The items (in their order) whose `history` contains `id` — the `?history=<version>` filter. Each shared history
 * node is looked at once (results are remembered per node), so the cost is linear in the number of checkpoints
 * that ever existed in these chains, not quadratic. `meter.steps` counts the nodes looked at (tests).
 * @see docs/wire-reference.md §7.3
 */
export function withAncestor<T extends { history: CheckpointHistory }>(items: readonly T[], id: string, meter?: { steps: number }): T[] {
  const known = new Map<CheckpointHistory, boolean>();
  const contains = (history: CheckpointHistory): boolean => {
    const path: CheckpointHistory[] = [];
    let at: CheckpointHistory | null = history;
    let found = false;
    while (at && at.last !== null) {
      const memo = known.get(at);
      if (memo !== undefined) {
        found = memo;
        break;
      }
      if (meter) meter.steps += 1;
      path.push(at);
      if (at.last === id) {
        found = true;
        break;
      }
      at = at.before;
    }
    for (const node of path) known.set(node, found);
    return found;
  };
  return items.filter((item) => contains(item.history));
}
