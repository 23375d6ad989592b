#!/usr/bin/env node
/**
 * Applies the interpreter patches in `patches/just-bash/*.mjs` to the installed just-bash (run by `postinstall`).
 *
 * Why not patch-package: just-bash ships one minified bundle whose lines run to 50 KB, so a line diff of a
 * one-token fix is a 100 KB patch nobody can review. Each patch here is instead a list of exact snippet edits
 * (`{ find, replace }`) with what it fixes and where the same change goes in just-bash's sources (`upstream`), small
 * enough to read and to send upstream. Every `find` must occur exactly once in the pristine file, or the run fails
 * loudly: an upgrade of just-bash that moves the code stops the install instead of shipping an unpatched interpreter.
 *
 * Idempotent: the pristine files are kept under `node_modules/.spritzer/just-bash-pristine/` and every run applies
 * all patches to them afresh, so adding or editing a patch only needs a rerun. The marker
 * `node_modules/just-bash/dist/bundle/spritzer-patches.json` (inside the files just-bash publishes, so the bundled copy carries it) records the digest of the patch set; a copy already patched with the
 * same set (the one `bundleDependencies` ships inside the package) is left as it is.
 *
 * Usage: `node scripts/patch-just-bash.mjs [--check]` (`--check` exits 1 when the installed copy is not patched
 * with the current set, and writes nothing).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Applies a patch's edits to a file's text.
 * @param {string} text the pristine file
 * @param {{ name: string, edits: { find: string, replace: string }[] }} patch
 * @returns {string} the patched text
 * @throws {Error} naming the patch and edit when a `find` occurs zero or several times
 */
export function applyEdits(text, patch) {
  let out = text;
  patch.edits.forEach(({ find, replace }, i) => {
    const first = out.indexOf(find);
    if (first < 0) throw new Error(`just-bash patch ${patch.name}, edit ${i + 1}: snippet not found (was just-bash upgraded?)`);
    if (out.indexOf(find, first + 1) >= 0) throw new Error(`just-bash patch ${patch.name}, edit ${i + 1}: snippet occurs more than once`);
    out = out.slice(0, first) + replace + out.slice(first + find.length);
  });
  return out;
}

/**
 * Loads every patch under `dir`, in file-name order.
 * @param {string} dir the patches directory
 * @returns {Promise<{ name: string, file: string, title: string, upstream: string, edits: { find: string, replace: string }[] }[]>}
 */
export async function loadPatches(dir) {
  const names = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort() : [];
  const patches = [];
  for (const f of names) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)).default;
    for (const key of ['file', 'title', 'upstream', 'edits']) {
      if (!mod?.[key]) throw new Error(`just-bash patch ${f}: missing "${key}"`);
    }
    patches.push({ name: f.replace(/\.mjs$/, ''), ...mod });
  }
  return patches;
}

/** The digest of a patch set: changes when any patch's edits, order or target file change. */
export function patchSetDigest(patches) {
  const h = createHash('sha256');
  for (const p of patches) h.update(JSON.stringify([p.name, p.file, p.edits]));
  return h.digest('hex');
}

/**
 * Patches an installed just-bash in place.
 * @param {{ pkgDir: string, pristineDir: string, patches: Awaited<ReturnType<typeof loadPatches>>, check?: boolean }} o
 * @returns {{ changed: boolean, files: string[] }} whether anything was written, and the files patched
 * @throws {Error} when a file is neither pristine nor patched by this set (and no pristine copy is kept)
 */
export function patchInstalled({ pkgDir, pristineDir, patches, check = false }) {
  const markerPath = join(pkgDir, 'dist', 'bundle', 'spritzer-patches.json');
  const digest = patchSetDigest(patches);
  const marker = existsSync(markerPath) ? JSON.parse(readFileSync(markerPath, 'utf8')) : undefined;
  const files = [...new Set(patches.map((p) => p.file))];
  if (marker?.digest === digest) return { changed: false, files };
  if (check) throw new Error('just-bash is not patched with the current patch set: run `node scripts/patch-just-bash.mjs`');
  const previously = new Set(marker?.files ?? []);
  for (const file of new Set([...files, ...previously])) {
    const target = join(pkgDir, file);
    const pristine = join(pristineDir, file);
    if (!existsSync(pristine)) {
      if (previously.has(file)) throw new Error(`just-bash ${file} was patched but its pristine copy is gone: reinstall just-bash (rm -rf node_modules/just-bash && npm ci)`);
      mkdirSync(dirname(pristine), { recursive: true });
      copyFileSync(target, pristine);
    }
    let text = readFileSync(pristine, 'utf8');
    for (const p of patches.filter((q) => q.file === file)) text = applyEdits(text, p);
    writeFileSync(target, text);
  }
  writeFileSync(markerPath, `${JSON.stringify({ digest, files, patches: patches.map((p) => p.name) }, null, 2)}\n`);
  return { changed: true, files };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Where Node resolves just-bash from this package: the top-level copy in a checkout, the bundled one in an install.
  let pkgDir;
  try {
    pkgDir = resolve(dirname(createRequire(join(root, 'package.json')).resolve('just-bash')), '..', '..');
  } catch {
    console.error('patch-just-bash: just-bash is not installed');
    process.exit(1);
  }
  try {
    const patches = await loadPatches(join(root, 'patches', 'just-bash'));
    const r = patchInstalled({ pkgDir, pristineDir: join(root, 'node_modules', '.spritzer', 'just-bash-pristine'), patches, check: process.argv.includes('--check') });
    if (r.changed) console.log(`patch-just-bash: ${patches.length} patch(es) applied to ${r.files.join(', ')}`);
  } catch (e) {
    console.error(String(e.message ?? e));
    process.exit(1);
  }
}
