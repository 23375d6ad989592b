import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from './json-shape.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

/** Elements plus members of a parsed value, counted the slow way. */
function itemsOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const children = Object.values(v as object);
  return children.length + children.reduce((n: number, c) => n + itemsOf(c), 0);
}

describe('jsonShapeProblem', () => {
  it('counts exactly the elements and members a parse would find', () => {
    const texts = ['1', '"a,b"', '[]', '{}', '[1]', '[1,[2,3]]', '{"a":[],"b":{"c":[{},[]]}}', ' [ 1 , { "k" : [ "x" , "]" ] } ] ', JSON.stringify({ s: 'a\\"[,', t: ['é', '😀', null] })];
    for (const t of texts) {
      const n = itemsOf(JSON.parse(t));
      expect({ t, within: jsonShapeProblem(bytes(t), { maxItems: n }) }).toEqual({ t, within: undefined });
      if (n > 0) expect({ t, over: jsonShapeProblem(bytes(t), { maxItems: n - 1 }) }).toEqual({ t, over: 'items' });
    }
  });

  it('refuses depth past the bound and stops at the first level too deep', () => {
    expect(jsonShapeProblem(bytes('[[[]]]'), { maxDepth: 3 })).toBeUndefined();
    expect(jsonShapeProblem(bytes('[[[[]]]]'), { maxDepth: 3 })).toBe('depth');
    expect(jsonShapeProblem(bytes('['.repeat(10 * 1024 * 1024)), { maxDepth: 64 })).toBe('depth');
  });

  it('stops at the first item too many of an array of millions', () => {
    expect(jsonShapeProblem(bytes(`[${'0,'.repeat(4_000_000)}0]`), { maxItems: 1000 })).toBe('items');
  });

  it('with no bounds finds nothing, and brackets and commas inside strings never count', () => {
    expect(jsonShapeProblem(bytes(nestedText(500)), {})).toBeUndefined();
    expect(jsonShapeProblem(bytes(JSON.stringify(['[[[[,,,,{{{{'])), { maxDepth: 1, maxItems: 1 })).toBeUndefined();
  });
});

function nestedText(n: number): string {
  return '['.repeat(n) + ']'.repeat(n);
}
