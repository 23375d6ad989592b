/**
 * Long delays on the injected clock: Node runs a timer whose delay passes 2^31-1 ms after 1 ms (FakeClock does the
 * same), so a duration of weeks given straight to a timer ends at once; runAfter chains timers up to the deadline.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, MAX_TIMER_DELAY_MS, runAfter } from './clock.ts';

const DAY_MS = 24 * 3_600_000;

describe('FakeClock, like Node timers', () => {
  it('fires a timer whose delay is over 2^31-1 ms after 1 ms, and one of exactly 2^31-1 ms on time', () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('30 days'), 30 * DAY_MS);
    clock.setTimeout(() => fired.push('max'), MAX_TIMER_DELAY_MS);
    clock.advance(1);
    expect(fired).toStrictEqual(['30 days']);
    clock.advance(MAX_TIMER_DELAY_MS - 2);
    expect(fired).toStrictEqual(['30 days']);
    clock.advance(1);
    expect(fired).toStrictEqual(['30 days', 'max']);
  });
});

describe('runAfter', () => {
  it('runs after 30 days, not a millisecond earlier', () => {
    const clock = new FakeClock();
    let fired = 0;
    runAfter(clock, 30 * DAY_MS, () => fired++);
    clock.advance(30 * DAY_MS - 1);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('runs a delay of years exactly on time, and short delays as one timer', () => {
    const clock = new FakeClock();
    const start = clock.now();
    const at: number[] = [];
    runAfter(clock, 3 * 365 * DAY_MS, () => at.push(clock.now() - start));
    runAfter(clock, 10_000, () => at.push(clock.now() - start));
    expect(clock.pending()).toBe(2);
    clock.advance(4 * 365 * DAY_MS);
    expect(at).toStrictEqual([10_000, 3 * 365 * DAY_MS]);
  });

  it('cancels at any link of the chain and leaves no timer behind', () => {
    const clock = new FakeClock();
    let fired = 0;
    const cancelEarly = runAfter(clock, 60 * DAY_MS, () => fired++);
    const cancelLate = runAfter(clock, 60 * DAY_MS, () => fired++);
    cancelEarly();
    clock.advance(40 * DAY_MS);
    cancelLate();
    cancelLate();
    expect(clock.pending()).toBe(0);
    clock.advance(40 * DAY_MS);
    expect(fired).toBe(0);
  });

  it('runs a zero or negative delay on the next turn of the clock', () => {
    const clock = new FakeClock();
    let fired = 0;
    runAfter(clock, 0, () => fired++);
    runAfter(clock, -5, () => fired++);
    expect(fired).toBe(0);
    clock.advance(0);
    expect(fired).toBe(2);
  });
});
