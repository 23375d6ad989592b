import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePatched } from '../bin/ensure-patched.mjs';

/** A checkout in miniature: the patcher, one patch, and a just-bash whose bundle the patch edits. */
function checkout(): { root: string; bundle: string; patch: string } {
  const root = mkdtempSync(join(tmpdir(), 'ensure-patched-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(import.meta.dirname, 'patch-just-bash.mjs'), join(root, 'scripts', 'patch-just-bash.mjs'));
  writeFileSync(join(root, 'package.json'), '{"name":"x","type":"module"}');
  const pkg = join(root, 'node_modules', 'just-bash');
  mkdirSync(join(pkg, 'dist', 'bundle'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"just-bash","main":"dist/bundle/index.js"}');
  const bundle = join(pkg, 'dist', 'bundle', 'index.js');
  writeFileSync(bundle, 'export const answer = "unpatched";\n');
  mkdirSync(join(root, 'patches', 'just-bash'), { recursive: true });
  const patch = join(root, 'patches', 'just-bash', 'answer.mjs');
  writeFileSync(patch, 'export default { title: "t", upstream: "u", file: "dist/bundle/index.js", edits: [{ find: "\\"unpatched\\"", replace: "\\"patched\\"" }] };\n');
  return { root, bundle, patch };
}

describe('ensurePatched (the server never starts on an unpatched shell interpreter)', () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));

  it('patches a just-bash that was never patched, and leaves a current one alone', () => {
    const c = checkout();
    root = c.root;
    ensurePatched(c.root);
    expect(readFileSync(c.bundle, 'utf8')).toContain('"patched"');
    writeFileSync(c.bundle, 'export const answer = "patched"; // untouched\n');
    ensurePatched(c.root);
    expect(readFileSync(c.bundle, 'utf8')).toContain('// untouched');
  });

  it('patches again when a patch file is newer than the applied set (a pull that brought new patches)', () => {
    const c = checkout();
    root = c.root;
    ensurePatched(c.root);
    writeFileSync(c.patch, 'export default { title: "t", upstream: "u", file: "dist/bundle/index.js", edits: [{ find: "\\"unpatched\\"", replace: "\\"patched twice\\"" }] };\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(c.patch, later, later);
    ensurePatched(c.root);
    expect(readFileSync(c.bundle, 'utf8')).toContain('"patched twice"');
  });
});
