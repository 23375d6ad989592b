/**
 * The two baseline servers (bench/baselines/*.ts) compiled to plain JavaScript with esbuild, so they start under
 * plain `node` like the built spritzer does (`bin/spritzer.mjs` → dist/): before, they ran under `--import tsx`,
 * whose loader thread added ≈ 1–2 s to their cold start and ≈ 40 MiB to their RSS, which flattered spritzer's
 * ratios. Packages stay external (resolved from node_modules at run time, as in spritzer). It owns that build only.
 * @see docs/performance.md "Busy loops, lazy imports, fair baselines" (each server in its own process, started
 * alike), https://esbuild.github.io/api/#build
 */
import { buildSync } from 'esbuild';
import { join } from 'node:path';

/** Where the compiled baselines go, under the repository root (so node_modules resolves). */
export const BASELINE_OUT_DIR = '.tmp/bench-baselines';

const built = new Map<string, string>();

/**
 * Compiles `source` (a path relative to `root`, e.g. `bench/baselines/bare-node.ts`) once per process to
 * `<root>/.tmp/bench-baselines/<name>.mjs` and returns that path relative to `root`. Throws esbuild's error when
 * the source does not compile.
 */
export function builtBaseline(root: string, source: string): string {
  const hit = built.get(source);
  if (hit) return hit;
  const name = source.replace(/^.*\//, '').replace(/\.ts$/, '.mjs');
  const out = join(BASELINE_OUT_DIR, name);
  buildSync({ entryPoints: [join(root, source)], outfile: join(root, out), bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', logLevel: 'error' });
  built.set(source, out);
  return out;
}
