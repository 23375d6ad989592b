import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH, withinJsonDepth } from './json-depth.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('exceedsJsonDepth', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}, like withinJsonDepth after a parse`, () => {
    for (const n of [0, 1, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1]) {
      const text = n === 0 ? '"x"' : nested(n);
      expect({ n, exceeds: exceedsJsonDepth(bytes(text)) }).toEqual({ n, exceeds: !withinJsonDepth(JSON.parse(text)) });
    }
  });

  it('counts objects and arrays together, siblings do not add up, and a custom max applies', () => {
    expect(exceedsJsonDepth(bytes('{"a":[{"b":[1]}]}'), 4)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":[{"b":[[1]]}]}'), 4)).toBe(true);
    expect(exceedsJsonDepth(bytes(`[${Array(1000).fill('[[1]]').join(',')}]`), 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included, and multi-byte UTF-8', () => {
    expect(exceedsJsonDepth(bytes(JSON.stringify({ s: '['.repeat(1000) })), 2)).toBe(false);
    expect(exceedsJsonDepth(bytes(JSON.stringify({ s: 'a\\"[[[[[[' + '"'.repeat(3) + '{{{{' })), 2)).toBe(false);
    expect(exceedsJsonDepth(bytes(JSON.stringify({ s: 'ü€😀[', t: ['é'] })), 2)).toBe(false);
    expect(exceedsJsonDepth(bytes(JSON.stringify({ s: '\\', t: [[[]]] })), 3)).toBe(true);
  });

  it('stops at the first level too deep: an unterminated 10 MB run of [ is refused without being parsed', () => {
    expect(exceedsJsonDepth(bytes('['.repeat(10 * 1024 * 1024)))).toBe(true);
  });
});
