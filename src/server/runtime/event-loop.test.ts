import { describe, expect, it } from 'vitest';
import { YIELD_ABOVE_BYTES, filterInTurns, yieldAfter } from './event-loop.ts';

describe('yieldAfter', () => {
  it('keeps small steps on the microtask queue, and lets a whole loop iteration (with its I/O) pass after large ones', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('immediate'));
    setImmediate(() => setImmediate(() => order.push('next iteration')));
    const small = yieldAfter(YIELD_ABOVE_BYTES).then(() => order.push('small'));
    const large = yieldAfter(YIELD_ABOVE_BYTES + 1).then(() => order.push('large'));
    await Promise.all([small, large]);
    expect(order).toEqual(['small', 'immediate', 'next iteration', 'large']);
  });
});

describe('filterInTurns', () => {
  it('keeps what items.filter keeps, in order, and lets the event loop run once a slice of time has passed', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    let clock = 0;
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    // Each clock read moves 5 ms: every check (one per 64 items) finds the 10 ms slice spent.
    const kept = await filterInTurns(items, (n) => n % 3 === 0, 10, () => (clock += 5));
    expect(kept).toEqual(items.filter((n) => n % 3 === 0));
    expect(turns).toBeGreaterThan(0);
  });

  it('runs in one go while the slice is not spent', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const kept = await filterInTurns(Array.from({ length: 1000 }, (_, i) => i), () => true, 10, () => 0);
    expect(kept).toHaveLength(1000);
    expect(ran).toBe(false);
  });
});
