import { describe, expect, it } from 'vitest';
import { lazyRequire } from './lazy-require.ts';

describe('lazyRequire', () => {
  it('loads nothing until the first call, then returns the same module every time', () => {
    let picks = 0;
    const load = lazyRequire('node:path', (mod) => (picks++, mod as typeof import('node:path')));
    expect(picks).toBe(0);
    expect(load().join('a', 'b')).toBe('a/b');
    expect(load()).toBe(load());
    expect(picks).toBe(1);
  });

  it('throws the require error at the call, not before', () => {
    const load = lazyRequire('spritzer-no-such-module');
    expect(() => load()).toThrow(/Cannot find module/);
  });
});
