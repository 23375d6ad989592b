import { describe, expect, it } from 'vitest';
import { lazyRequire, lazyRequireOptional, missingPackage, optionalPackageDir } from './lazy-require.ts';

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

describe('optional packages', () => {
  it('a missing optional package is named, with the feature that needs it and the install command of its tested range', () => {
    const load = lazyRequireOptional('spritzer-no-such-module', '--some-feature');
    expect(() => load()).toThrow('--some-feature needs the optional package spritzer-no-such-module, which is not installed: npm install spritzer-no-such-module');
    expect(missingPackage('better-sqlite3', '--data-dir').message).toBe(
      '--data-dir needs the optional package better-sqlite3, which is not installed: npm install better-sqlite3@~12.11.1',
    );
    expect(() => optionalPackageDir('spritzer-no-such-module', 'the sandbox engine')).toThrow(/^the sandbox engine needs the optional package spritzer-no-such-module/);
  });

  it('an installed optional package loads, and its directory is found', () => {
    expect(lazyRequireOptional<typeof import('node:path')>('node:path', 'x')().join('a', 'b')).toBe('a/b');
    expect(optionalPackageDir('node-pty', 'the sandbox engine')).toMatch(/node_modules\/node-pty$/);
  });

  it('an error inside an installed package is not reported as a missing package', () => {
    // yaml is installed; a path inside it that it does not export fails as require fails, naming that path
    const load = lazyRequireOptional('yaml/no-such-file', 'x');
    expect(() => load()).toThrow(/no-such-file/);
    expect(() => load()).not.toThrow(/optional package/);
  });
});
