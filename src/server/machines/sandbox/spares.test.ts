/**
 * The spare pool's bookkeeping, with fake spares: it fills to its size one boot at a time, hands spares out and
 * refills, skips unusable ones, retries failed boots later (with an injected timer), and disposes everything at
 * close, including a spare whose boot was in flight.
 */
import { describe, expect, it } from 'vitest';
import { SparePool } from './spares.ts';

interface Fake {
  n: number;
  ok: boolean;
}

function pool(size: number, opts: { fail?: number; refillDelayMs?: number } = {}) {
  let booted = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let failures = opts.fail ?? 0;
  const disposed: number[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const errors: string[] = [];
  const p = new SparePool<Fake>(size, {
    boot: async () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight -= 1;
      if (failures > 0) {
        failures -= 1;
        throw new Error('boot failed');
      }
      return { n: ++booted, ok: true };
    },
    dispose: async (s) => {
      disposed.push(s.n);
    },
    usable: (s) => s.ok,
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    onError: (err) => errors.push(err.message),
  }, 1000, opts.refillDelayMs ?? 0);
  return { p, disposed, timers, errors, stats: () => ({ booted, maxInFlight }) };
}

describe('SparePool', () => {
  it('fills to its size one boot at a time, hands spares out in order and boots replacements', async () => {
    const { p, stats } = pool(2);
    p.fill();
    await p.settled();
    expect(p.available).toBe(2);
    expect(stats()).toEqual({ booted: 2, maxInFlight: 1 });
    expect(p.take()?.n).toBe(1);
    expect(p.take()?.n).toBe(2);
    expect(p.take()).toBeUndefined();
    await p.settled();
    expect(p.available).toBe(2);
    expect(p.take()?.n).toBe(3);
  });

  it('waits refillDelayMs after a take before booting the replacement', async () => {
    const { p, timers, stats } = pool(1, { refillDelayMs: 300 });
    p.fill();
    await p.settled();
    expect(p.take()?.n).toBe(1);
    expect(p.take()).toBeUndefined();
    expect(timers.map((t) => t.ms)).toEqual([300]);
    expect(stats().booted).toBe(1);
    const settled = p.settled();
    timers.shift()!.fn();
    await settled;
    expect(p.available).toBe(1);
    expect(stats().booted).toBe(2);
  });

  it('size 0 never boots and never hands anything out', async () => {
    const { p, stats } = pool(0);
    p.fill();
    expect(p.take()).toBeUndefined();
    await p.settled();
    expect(stats().booted).toBe(0);
  });

  it('disposes an unusable spare instead of handing it out', async () => {
    const { p, disposed } = pool(2);
    p.fill();
    await p.settled();
    const first = p.take()!;
    expect(first.n).toBe(1);
    await p.settled();
    // Spares 2 and 3 are waiting; 2 crashes.
    (p as unknown as { ready: Fake[] }).ready[0]!.ok = false;
    expect(p.take()?.n).toBe(3);
    expect(disposed).toEqual([2]);
  });

  it('retries a failed boot after a growing wait, and reports the error', async () => {
    const { p, timers, errors } = pool(1, { fail: 2 });
    p.fill();
    await p.settled();
    expect(p.available).toBe(0);
    expect(errors).toEqual(['boot failed']);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers.shift()!.fn();
    await p.settled();
    expect(timers.map((t) => t.ms)).toEqual([2000]);
    timers.shift()!.fn();
    await p.settled();
    expect(p.available).toBe(1);
  });

  it('close disposes every spare, a boot in flight included, and stops refilling', async () => {
    const { p, disposed, stats } = pool(2);
    p.fill();
    await p.settled();
    p.take();
    // A replacement is now booting.
    await p.close();
    expect(disposed.sort()).toEqual([2, 3]);
    expect(p.take()).toBeUndefined();
    expect(stats().booted).toBe(3);
  });
});
