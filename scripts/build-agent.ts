/**
 * Bundles the in-sprite agent (`src/agent/main.ts`) into one ESM file, `dist/agent/agent.mjs`, with esbuild. The
 * native `node-pty` stays outside the bundle: the launcher binds its package at `/.sprite/agent/node_modules/node-pty`
 * (on the host it resolves from the project's node_modules). It owns the build only.
 * Run: `npm run build:agent` (tests call `buildAgent()` themselves).
 */
import { rename } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the bundle goes by default. */
export const AGENT_BUNDLE = resolve(projectRoot, 'dist/agent/agent.mjs');

/**
 * Builds the bundle to `outfile` (default {@link AGENT_BUNDLE}), atomically (a temp file renamed into place, so
 * concurrent builds never leave a half-written file). Resolves with the output path.
 */
export async function buildAgent(outfile = AGENT_BUNDLE): Promise<string> {
  const tmp = `${outfile}.${process.pid}.${Date.now()}.tmp`;
  await build({
    entryPoints: [resolve(projectRoot, 'src/agent/main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['node-pty'],
    logLevel: 'warning',
    legalComments: 'none',
  });
  await rename(tmp, outfile);
  return outfile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildAgent(process.argv[2] ? resolve(process.argv[2]) : undefined);
  process.stdout.write(`built ${out}\n`);
}
