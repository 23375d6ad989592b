import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedNames } from './sorted-names.ts';

/** What a page must be: the sorted names with the prefix, strictly after `after`, at most `limit` of them. */
function expected(all: Iterable<string>, prefix: string, after: string | null, limit: number): string[] {
  return [...new Set(all)]
    .filter((n) => n.startsWith(prefix) && (after === null || n > after))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
}

describe('sorted sprite names (list pages)', () => {
  it('pages through names in code-unit order, after a token, under a prefix', () => {
    const s = new SortedNames();
    for (const n of ['b', 'a1', 'a', 'a-b', 'c', 'ab']) s.add(n);
    expect(s.size).toBe(6);
    expect(s.page('', null, 10)).toEqual(['a', 'a-b', 'a1', 'ab', 'b', 'c']);
    expect(s.page('', null, 2)).toEqual(['a', 'a-b']);
    expect(s.page('', 'a-b', 2)).toEqual(['a1', 'ab']);
    expect(s.page('a', null, 10)).toEqual(['a', 'a-b', 'a1', 'ab']);
    expect(s.page('a', 'a1', 10)).toEqual(['ab']);
    // A token before the prefix starts at the prefix; one past it ends the list.
    expect(s.page('b', 'a', 10)).toEqual(['b']);
    expect(s.page('a', 'b', 10)).toEqual([]);
    // A token that is not a held name still pages from the next name after it.
    expect(s.page('', 'a0', 10)).toEqual(['a1', 'ab', 'b', 'c']);
    expect(s.page('z', null, 10)).toEqual([]);
  });

  it('adds a name once, and removes only names it holds', () => {
    const s = new SortedNames();
    s.add('x');
    s.add('x');
    s.remove('y');
    expect(s.size).toBe(1);
    s.remove('x');
    expect(s.page('', null, 5)).toEqual([]);
    s.add('m');
    s.add('n');
    s.clear();
    expect(s.size).toBe(0);
    expect(s.page('', null, 5)).toEqual([]);
  });

  it('matches filter-and-sort for any names, removals, prefixes, tokens and limits', () => {
    const name = fc.stringMatching(/^[a-c0-9-]{1,4}$/);
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), fc.array(name, { maxLength: 10 }), fc.stringMatching(/^[a-c]{0,2}$/), fc.option(name, { nil: null }), fc.integer({ min: 1, max: 12 }), (adds, removes, prefix, after, limit) => {
        const s = new SortedNames();
        const model = new Set<string>();
        for (const n of adds) {
          s.add(n);
          model.add(n);
        }
        for (const n of removes) {
          s.remove(n);
          model.delete(n);
        }
        expect(s.size).toBe(model.size);
        expect(s.page(prefix, after, limit)).toEqual(expected(model, prefix, after, limit));
      }),
      { seed: 20261201, numRuns: 500 },
    );
  });
});
