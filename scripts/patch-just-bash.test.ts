import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { applyEdits, loadPatches, patchInstalled, patchSetDigest } from './patch-just-bash.mjs';

const patch = (name: string, edits: { find: string; replace: string }[], file = 'dist/bundle/index.js') => ({ name, file, title: name, upstream: 'x', edits });

describe('interpreter patches (scripts/patch-just-bash.mjs)', () => {
  it('replaces each snippet once and refuses a snippet that is missing or ambiguous', () => {
    expect(applyEdits('a(1);b(2);', patch('p', [{ find: 'b(2)', replace: 'b(3)' }]))).toBe('a(1);b(3);');
    expect(() => applyEdits('a(1);', patch('gone', [{ find: 'c(1)', replace: 'c(2)' }]))).toThrow(/gone, edit 1: snippet not found/);
    expect(() => applyEdits('a(1);a(1);', patch('twice', [{ find: 'a(1)', replace: 'a(2)' }]))).toThrow(/twice, edit 1: snippet occurs more than once/);
  });

  it('the digest changes with any edit, and not with the title', () => {
    const a = patchSetDigest([patch('p', [{ find: 'x', replace: 'y' }])]);
    expect(patchSetDigest([{ ...patch('p', [{ find: 'x', replace: 'y' }]), title: 'other' }])).toBe(a);
    expect(patchSetDigest([patch('p', [{ find: 'x', replace: 'z' }])])).not.toBe(a);
  });

  describe('on an installed copy', () => {
    let dir: string;
    let pkgDir: string;
    let pristineDir: string;
    const target = () => join(pkgDir, 'dist/bundle/index.js');
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'spritzer-patch-test-'));
      pkgDir = join(dir, 'just-bash');
      pristineDir = join(dir, 'pristine');
      mkdirSync(join(pkgDir, 'dist/bundle'), { recursive: true });
      writeFileSync(target(), 'f(1);g(1);');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('patches from the pristine copy every time, so editing a patch and rerunning gives the new result', () => {
      expect(patchInstalled({ pkgDir, pristineDir, patches: [patch('one', [{ find: 'f(1)', replace: 'f(2)' }])] }).changed).toBe(true);
      expect(readFileSync(target(), 'utf8')).toBe('f(2);g(1);');
      // Same set again: nothing written.
      expect(patchInstalled({ pkgDir, pristineDir, patches: [patch('one', [{ find: 'f(1)', replace: 'f(2)' }])] }).changed).toBe(false);
      // An edited patch applies to the pristine text, not on top of the old result.
      patchInstalled({ pkgDir, pristineDir, patches: [patch('one', [{ find: 'f(1)', replace: 'f(3)' }]), patch('two', [{ find: 'g(1)', replace: 'g(2)' }])] });
      expect(readFileSync(target(), 'utf8')).toBe('f(3);g(2);');
      // Dropping every patch restores the pristine file.
      patchInstalled({ pkgDir, pristineDir, patches: [] });
      expect(readFileSync(target(), 'utf8')).toBe('f(1);g(1);');
    });

    it('leaves a copy patched with the same set alone without a pristine copy (the bundled copy in an install)', () => {
      const patches = [patch('one', [{ find: 'f(1)', replace: 'f(2)' }])];
      patchInstalled({ pkgDir, pristineDir, patches });
      rmSync(pristineDir, { recursive: true });
      expect(patchInstalled({ pkgDir, pristineDir, patches }).changed).toBe(false);
      expect(readFileSync(target(), 'utf8')).toBe('f(2);g(1);');
      // A different set without the pristine copy cannot be applied safely: a loud error, the file untouched.
      expect(() => patchInstalled({ pkgDir, pristineDir, patches: [patch('one', [{ find: 'f(1)', replace: 'f(9)' }])] })).toThrow(/pristine copy is gone/);
      expect(readFileSync(target(), 'utf8')).toBe('f(2);g(1);');
    });

    it('--check refuses a copy not patched with the current set and writes nothing', () => {
      expect(() => patchInstalled({ pkgDir, pristineDir, patches: [patch('one', [{ find: 'f(1)', replace: 'f(2)' }])], check: true })).toThrow(/not patched/);
      expect(readFileSync(target(), 'utf8')).toBe('f(1);g(1);');
    });
  });

  it('the repository patches load, each with what it fixes and where it goes upstream, and the installed just-bash carries them', async () => {
    const patches = await loadPatches(join(import.meta.dirname, '..', 'patches', 'just-bash'));
    expect(patches.length).toBeGreaterThan(0);
    for (const p of patches) expect(p.upstream).toMatch(/^src\//);
    // Exits non-zero when `npm install` was not rerun after a patch changed.
    execFileSync(process.execPath, [join(import.meta.dirname, 'patch-just-bash.mjs'), '--check']);
  });

  it('docs/fidelity.md lists every patch in its "Interpreter patches" table, and no patch that is gone', async () => {
    const patches = await loadPatches(join(import.meta.dirname, '..', 'patches', 'just-bash'));
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'fidelity.md'), 'utf8');
    const start = doc.indexOf('### Interpreter patches');
    expect(start).toBeGreaterThan(0);
    const table = doc.slice(start, doc.indexOf('\n\n', doc.indexOf('| patch |', start)));
    const rows = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(patches.map((p) => p.name).sort());
  });
});
