/**
 * The bounded address → names memory behind the egress gate's raw-address rule.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NAMES_PER_ADDRESS, MAX_RESOLVED_ADDRESSES, ResolvedNames } from './resolved-names.ts';

describe('ResolvedNames', () => {
  it('keeps at most the most recent addresses; a forgotten address has no names', () => {
    const r = new ResolvedNames(3, 4);
    for (const a of ['1', '2', '3', '4']) r.remember(a, `n${a}`);
    expect(r.size).toBe(3);
    expect(r.namesOf('1')).toEqual([]);
    expect(r.namesOf('4')).toEqual(['n4']);
  });

  it('an address looked up or resolved again is kept over older ones', () => {
    const r = new ResolvedNames(2, 4);
    r.remember('a', 'x');
    r.remember('b', 'y');
    expect(r.namesOf('a')).toEqual(['x']); // a is now the most recent
    r.remember('c', 'z');
    expect([r.namesOf('a'), r.namesOf('b'), r.namesOf('c')]).toEqual([['x'], [], ['z']]);
    r.remember('a', 'x'); // again: no duplicate name
    expect(r.namesOf('a')).toEqual(['x']);
  });

  it('keeps the newest names of one address, once each', () => {
    const r = new ResolvedNames(8, 2);
    for (const n of ['p', 'q', 'p', 'r']) r.remember('a', n);
    expect(r.namesOf('a')).toEqual(['p', 'r']);
  });

  it('the defaults bound a flood of names', () => {
    const r = new ResolvedNames();
    for (let i = 0; i < MAX_RESOLVED_ADDRESSES * 3; i++) {
      for (let j = 0; j < MAX_NAMES_PER_ADDRESS + 3; j++) r.remember(`10.${i}`, `h${j}.example.com`);
    }
    expect(r.size).toBe(MAX_RESOLVED_ADDRESSES);
    expect(r.namesOf(`10.${MAX_RESOLVED_ADDRESSES * 3 - 1}`)).toHaveLength(MAX_NAMES_PER_ADDRESS);
    expect(r.namesOf('10.0')).toEqual([]);
  });
});
