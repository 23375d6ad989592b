import { describe, expect, it } from 'vitest';
import { findNeedsCycle, startOrder, type NeedsOf } from './service-graph.ts';

/** A `needsOf` over a plain table that counts its calls (the work done). */
function graph(table: Record<string, string[]>): NeedsOf & { calls: number } {
  const fn = ((name: string) => {
    fn.calls += 1;
    return table[name];
  }) as unknown as NeedsOf & { calls: number };
  fn.calls = 0;
  return fn;
}

/** s0 ← s1 ← … ← s(n-1): each service needs the one before it. */
function chainTable(n: number): Record<string, string[]> {
  const t: Record<string, string[]> = {};
  for (let i = 0; i < n; i++) t[`s${i}`] = i === 0 ? [] : [`s${i - 1}`];
  return t;
}

describe('findNeedsCycle', () => {
  it('reports the path that would close a cycle, or null', () => {
    const g = graph({ a: [], b: ['a'], c: ['b'] });
    expect(findNeedsCycle('a', ['c'], g)).toEqual(['a', 'c', 'b', 'a']);
    expect(findNeedsCycle('d', ['c', 'a'], g)).toBeNull();
    expect(findNeedsCycle('a', ['a'], g)).toEqual(['a', 'a']);
  });

  it('is linear and iterative: a 20,000-long chain is walked once, without overflowing the stack', () => {
    const n = 20_000;
    const g = graph(chainTable(n));
    const cycle = findNeedsCycle('s0', [`s${n - 1}`], g);
    expect(cycle).toHaveLength(n + 1);
    expect(cycle!.slice(0, 3)).toEqual(['s0', `s${n - 1}`, `s${n - 2}`]);
    expect(g.calls).toBeLessThanOrEqual(n);
    const g2 = graph(chainTable(n));
    expect(findNeedsCycle('new', [`s${n - 1}`, `s${n - 2}`], g2)).toBeNull();
    expect(g2.calls).toBeLessThanOrEqual(n);
  });
});

describe('startOrder', () => {
  it('puts needs first, depth first in needs order, each once, skipping unknown names', () => {
    const g = graph({ web: ['db', 'cache'], db: ['disk'], cache: ['disk', 'ghost'], disk: [], solo: [] });
    expect(startOrder(['web'], g)).toEqual(['disk', 'db', 'cache', 'web']);
    expect(startOrder(['solo', 'web', 'db'], g)).toEqual(['solo', 'disk', 'db', 'cache', 'web']);
    expect(startOrder(['ghost'], g)).toEqual([]);
  });

  it('is linear and iterative on a 20,000-long chain', () => {
    const n = 20_000;
    const g = graph(chainTable(n));
    const order = startOrder([`s${n - 1}`], g);
    expect(order).toHaveLength(n);
    expect(order[0]).toBe('s0');
    expect(order.at(-1)).toBe(`s${n - 1}`);
    expect(g.calls).toBeLessThanOrEqual(n + 1);
  });
});
