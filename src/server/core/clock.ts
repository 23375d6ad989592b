/**
 * The injected clock. Everything time-based in the model (status decay, service backoff, session linger,
 * task expiry) reads time and schedules timers through a `Clock`, so tests drive time with `FakeClock`
 * instead of sleeping. It owns no other state.
 */

/** An opaque timer handle. */
export type TimerHandle = { readonly id: number };

/** Time source and timer scheduler; `now()` is epoch milliseconds. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock: `Date.now()` and Node timers (unref'd, so they never keep the process alive). */
export class SystemClock implements Clock {
  private next = 1;
  private readonly timers = new Map<number, NodeJS.Timeout>();
  now(): number {
    return Date.now();
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    const t = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, Math.max(0, ms));
    t.unref();
    this.timers.set(id, t);
    return { id };
  }
  clearTimeout(handle: TimerHandle): void {
    const t = this.timers.get(handle.id);
    if (t) clearTimeout(t);
    this.timers.delete(handle.id);
  }
}

/** A manual clock for tests: time moves only through `advance(ms)`, which fires due timers in order. */
export class FakeClock implements Clock {
  private current: number;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  constructor(start = Date.UTC(2026, 0, 13, 10, 30, 0)) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), fn });
    return { id };
  }
  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle.id);
  }
  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let dueId = -1;
      let dueAt = Infinity;
      for (const [id, t] of this.timers) if (t.at <= target && t.at < dueAt) { dueAt = t.at; dueId = id; }
      if (dueId < 0) break;
      const t = this.timers.get(dueId)!;
      this.timers.delete(dueId);
      this.current = Math.max(this.current, t.at);
      t.fn();
    }
    this.current = target;
  }
  /** Number of pending timers (for leak assertions). */
  pending(): number {
    return this.timers.size;
  }
}

/** Epoch ms → RFC 3339 UTC (`2026-01-13T10:30:00.000Z`; ≤ 6 fractional digits, docs/wire-reference.md §1). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
