/**
 * How many sprites are in each status now, kept as sprites come, go and change, so that counting them costs what
 * changed since the last count, not a look at every sprite: listing N sprites a page at a time (each page carries
 * the org counters) stays O(N) in all even while their statuses change with the clock.
 *
 * A sprite's status depends on the clock and on inputs it reports (activity, sessions, its machine's boot); its
 * `statusAt(now)` says until when the status holds if only the clock moves. Each counted sprite is looked at again
 * when it reported a change ({@link StatusCounts.changed}), or when the clock reaches its `until` (a min-heap of
 * those times). A clock that goes back (a test's) counts everything again.
 * @see spec/openapi.yaml `listSprites` (the `running`/`warm`/`cold` counters), sprites.ts `Sprite.statusAt`
 */

/** What is counted: anything that can say its status at a time and until when it holds (epoch ms; Infinity). */
export interface StatusSource<S extends string> {
  statusAt(now: number): { status: S; until: number };
}

/** A moment a counted item's status may change; stale once the item's count names another one. */
interface Due<T> {
  at: number;
  item: T;
}

/**
 * Counts of items by status (see the module's comment). `add`, `changed`, `remove` and `clear` only note what
 * happened; `at(now)` brings the counts up to `now` and answers them.
 */
export class StatusCounts<S extends string, T extends StatusSource<S>> {
  private readonly counts: Record<S, number>;
  /** The status each item is counted under and its latest moment in the heap (null: not counted yet). */
  private readonly counted = new Map<T, { status: S; due: Due<T> | undefined } | null>();
  /** Items added or changed since the last count (counted again then). */
  private readonly dirty = new Set<T>();
  /** Min-heap on `at`. */
  private readonly heap: Due<T>[] = [];
  private lastNow = -Infinity;

  /** `statuses`: every status an item may have, each starting at 0. */
  constructor(private readonly statuses: readonly S[]) {
    this.counts = Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
  }

  /** Starts counting `item` (again, if it was); its status is read at the next count. */
  add(item: T): void {
    if (!this.counted.has(item)) this.counted.set(item, null);
    this.dirty.add(item);
  }

  /**
   * Something `item`'s status is computed from changed (not the clock): it is read again at the next count (an item
   * not counted is skipped then).
   */
  changed(item: T): void {
    this.dirty.add(item);
  }

  /** Stops counting `item`. */
  remove(item: T): void {
    const was = this.counted.get(item);
    if (was) this.counts[was.status] -= 1;
    this.counted.delete(item);
    this.dirty.delete(item);
  }

  /** Stops counting everything. */
  clear(): void {
    for (const s of this.statuses) this.counts[s] = 0;
    this.counted.clear();
    this.dirty.clear();
    this.heap.length = 0;
  }

  /** The number of items in each status at `now` (epoch ms), as a new object. */
  at(now: number): Record<S, number> {
    if (now < this.lastNow) {
      // The clock went back: statuses may have gone back too.
      for (const item of this.counted.keys()) this.dirty.add(item);
      this.heap.length = 0;
    }
    this.lastNow = now;
    for (const item of this.dirty) this.recount(item, now);
    this.dirty.clear();
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const due = this.pop();
      if (this.isCurrent(due)) this.recount(due.item, now);
    }
    return { ...this.counts };
  }

  /** Reads `item`'s status at `now`, moves it to that status's count and schedules its next look. */
  private recount(item: T, now: number): void {
    const was = this.counted.get(item);
    if (was === undefined) return;
    if (was) this.counts[was.status] -= 1;
    const { status, until } = item.statusAt(now);
    this.counts[status] += 1;
    const due = until === Infinity ? undefined : { at: until, item };
    this.counted.set(item, { status, due });
    if (due) this.push(due);
    // Entries of an earlier generation wait in the heap until their time; a sprite that changes often between counts
    // leaves many. Past twice the items, only the current ones are kept (sorted, which is a heap).
    if (this.heap.length > 2 * this.counted.size + 64) {
      const live = this.heap.filter((d) => this.isCurrent(d)).sort((a, b) => a.at - b.at);
      this.heap.length = 0;
      this.heap.push(...live);
    }
  }

  /** Moments waiting in the heap, stale ones included (for tests: it stays within twice the items). */
  get pending(): number {
    return this.heap.length;
  }

  /** Whether `due` is its item's latest moment (the item still counted). */
  private isCurrent(due: Due<T>): boolean {
    return this.counted.get(due.item)?.due === due;
  }

  private push(due: Due<T>): void {
    const h = this.heap;
    h.push(due);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.at <= due.at) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = due;
  }

  private pop(): Due<T> {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const child = r < h.length && h[r]!.at < h[l]!.at ? r : l;
        if (h[child]!.at >= last.at) break;
        h[i] = h[child]!;
        i = child;
      }
      h[i] = last;
    }
    return top;
  }
}
