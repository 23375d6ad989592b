// The built server: `dist/server/main.js` (tsc -p tsconfig.build.json, `npm run build`). It owns the "is dist stale?"
// check and the rebuild; it does not run the server. Stale = dist/server/main.js missing or older than any source
// under src/ (tests excluded), tsconfig.json or tsconfig.build.json. A rebuild needs the `typescript` dev dependency;
// without it a present dist is used as it is, and a missing one is a clear error.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in bin/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The built entry point. */
export const BUILT_MAIN = join(ROOT, 'dist/server/main.js');

function mtimeMs(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/** Newest modification time (ms) of the inputs of the build. */
export function newestSource() {
  let newest = Math.max(mtimeMs(join(ROOT, 'tsconfig.json')), mtimeMs(join(ROOT, 'tsconfig.build.json')));
  let entries = [];
  try {
    entries = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true });
  } catch {
    // No sources (a packed install or the container image): dist/ is all there is.
  }
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, mtimeMs(join(entry.parentPath ?? entry.path, entry.name)));
  }
  return newest;
}

/** True when dist/server/main.js is missing or older than a source. */
export function isStale() {
  const built = mtimeMs(BUILT_MAIN);
  return built < 0 || built < newestSource();
}

/**
 * Builds dist/ when it is stale (tsc's diagnostics go to stderr). Exits the process with 1 and a message when the
 * build fails or cannot run and there is no dist to fall back on.
 */
export function ensureBuilt() {
  if (!isStale()) return;
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    if (mtimeMs(BUILT_MAIN) >= 0) return; // no compiler (production install): run what was built
    process.stderr.write('spritzer: dist/ is missing and typescript is not installed; run `npm ci` (or `npm run build`)\n');
    process.exit(1);
  }
  process.stderr.write('spritzer: building dist/ (sources changed)…\n');
  const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: ['ignore', 2, 2] });
  if (run.status !== 0) {
    process.stderr.write('spritzer: the build failed (npm run build shows why)\n');
    process.exit(1);
  }
}

// `node bin/ensure-built.mjs`: build when stale, then exit (bench/run.ts does this before it times any start).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureBuilt();
