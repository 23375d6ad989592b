import { describe, it, expect } from 'vitest';
import { MEMO_MAX_ENTRIES, MEMO_MAX_SCRIPT_CHARS, memoizeByScript } from './script-memo.ts';

describe('memoizeByScript', () => {
  it('works a script out once and answers the same value for the same text', () => {
    const seen: string[] = [];
    const f = memoizeByScript((s) => (seen.push(s), s.toUpperCase()));
    expect(f('echo a')).toBe('ECHO A');
    expect(f('echo a')).toBe('ECHO A');
    expect(f('echo b')).toBe('ECHO B');
    expect(seen).toEqual(['echo a', 'echo b']);
  });

  it('never keeps a script longer than the limit', () => {
    let calls = 0;
    const f = memoizeByScript((s) => ++calls + s.length);
    const long = 'x'.repeat(MEMO_MAX_SCRIPT_CHARS + 1);
    f(long);
    f(long);
    expect(calls).toBe(2);
    const edge = 'y'.repeat(MEMO_MAX_SCRIPT_CHARS);
    f(edge);
    f(edge);
    expect(calls).toBe(3);
  });

  it('forgets the least recently used script past its entry limit', () => {
    let calls = 0;
    const f = memoizeByScript((s) => (calls++, s));
    for (let i = 0; i <= MEMO_MAX_ENTRIES; i++) f(`s${i}`);
    expect(calls).toBe(MEMO_MAX_ENTRIES + 1);
    f(`s${MEMO_MAX_ENTRIES}`);
    expect(calls).toBe(MEMO_MAX_ENTRIES + 1);
    f('s0');
    expect(calls).toBe(MEMO_MAX_ENTRIES + 2);
  });

  it('keeps false as a value', () => {
    let calls = 0;
    const f = memoizeByScript((s) => (calls++, s === 'yes'));
    expect(f('no')).toBe(false);
    expect(f('no')).toBe(false);
    expect(calls).toBe(1);
  });

  it('does not keep a throw', () => {
    let calls = 0;
    const f = memoizeByScript((s) => {
      calls++;
      if (calls === 1) throw new Error('first');
      return s;
    });
    expect(() => f('a')).toThrow('first');
    expect(f('a')).toBe('a');
    expect(calls).toBe(2);
  });
});
