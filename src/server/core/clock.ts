/**
 * The injected clock. Everything time-based in the model (status decay, service backoff, session linger,
 * task expiry) reads time and schedules timers through a `Clock`, so tests drive time with `FakeClock`
 * instead of sleeping. It owns no other state.
 */

/** An opaque timer handle. */
export type TimerHandle = { readonly id: number };

/**
 * The longest delay one timer takes: 2^31-1 ms (about 24.8 days). Node runs a timer with a longer delay after 1 ms
 * (with a `TimeoutOverflowWarning`); {@link runAfter} schedules any delay.
 * @see https://nodejs.org/api/timers.html#settimeoutcallback-delay-args
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Time source and timer scheduler; `now()` is epoch milliseconds. `setTimeout` takes delays up to
 * {@link MAX_TIMER_DELAY_MS}; a longer one fires after 1 ms, as Node's timers do.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * Runs `fn` once `ms` have passed on `clock`, however long that is: a delay over {@link MAX_TIMER_DELAY_MS} is a
 * chain of timers, each re-armed for the time left until the deadline (a duration an API accepts, such as
 * `max_run_after_disconnect=720h`, must not fire at once). Returns a function that cancels it (idempotent).
 */
export function runAfter(clock: Clock, ms: number, fn: () => void): () => void {
  const deadline = clock.now() + Math.max(0, ms);
  let handle: TimerHandle;
  const arm = (): void => {
    const left = deadline - clock.now();
    handle = left > MAX_TIMER_DELAY_MS ? clock.setTimeout(arm, MAX_TIMER_DELAY_MS) : clock.setTimeout(fn, left);
  };
  arm();
  return () => clock.clearTimeout(handle);
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
  /** Like Node's timers (and so {@link SystemClock}), a delay over {@link MAX_TIMER_DELAY_MS} fires after 1 ms. */
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.next++;
    const delay = ms > MAX_TIMER_DELAY_MS ? 1 : Math.max(0, ms);
    this.timers.set(id, { at: this.current + delay, fn });
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
