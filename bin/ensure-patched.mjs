// The patched shell interpreter: spritzer's `shell` engine needs just-bash with every patch under patches/just-bash
// applied (scripts/patch-just-bash.mjs, run by `npm ci`'s postinstall). A server started on an unpatched or stale
// copy — `npm start` while `npm ci` still runs, or after a pull that brought new patches — would answer with the
// interpreter's own wrong behaviours, silently. It owns that check and nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ROOT } from './ensure-built.mjs';

const mtimeMs = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

/**
 * Applies the patches when just-bash's marker (`dist/bundle/spritzer-patches.json`, written by the patcher) is
 * missing or older than a patch file: cheap otherwise (one readdir and a stat per patch). The patcher itself compares
 * the patch set's digest, so it changes nothing when the copy is current. Exits the process with 1 and the patcher's
 * message when patching fails (a server on a wrong interpreter must not start).
 */
export function ensurePatched(root = ROOT) {
  const script = join(root, 'scripts/patch-just-bash.mjs');
  const dir = join(root, 'patches/just-bash');
  if (!existsSync(script) || !existsSync(dir)) return;
  let pkgDir;
  try {
    pkgDir = resolve(dirname(createRequire(join(root, 'package.json')).resolve('just-bash')), '..', '..');
  } catch {
    return; // not installed: the server's own import says so
  }
  const marker = mtimeMs(join(pkgDir, 'dist/bundle/spritzer-patches.json'));
  const newest = Math.max(...readdirSync(dir).map((f) => mtimeMs(join(dir, f))));
  if (marker >= 0 && marker >= newest) return;
  const run = spawnSync(process.execPath, [script], { cwd: root, stdio: ['ignore', 2, 2] });
  if (run.status !== 0) {
    process.stderr.write('spritzer: the shell interpreter could not be patched (see above); run `npm ci`\n');
    process.exit(1);
  }
}
