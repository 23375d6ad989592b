import { describe, expect, it } from 'vitest';
import { YIELD_ABOVE_BYTES, yieldAfter } from './event-loop.ts';

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
