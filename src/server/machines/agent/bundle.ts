/**
 * Where the agent's files are on the host, and how its bundle is built: `dist/agent/agent.mjs` (esbuild, one ESM
 * file, node-pty left outside), the node-pty package directory and the node binary that the launcher bind-mounts
 * into a sprite (`/.sprite/agent/agent.mjs`, `/.sprite/agent/node_modules/node-pty`, `/.sprite/bin/node`).
 * It owns the build and these paths; it does not launch anything. Runs on the host only, never inside a sprite.
 * @see docs/agent-protocol.md "Running it"
 */
import { rename, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { optionalPackageDir } from '../../runtime/lazy-require.ts';
import { PROJECT_ROOT } from '../../runtime/project-root.ts';

const projectRoot = PROJECT_ROOT;

/** The bundle's default location (absolute). */
export const AGENT_BUNDLE = resolve(projectRoot, 'dist/agent/agent.mjs');

/** What the launcher binds into a sprite: absolute host paths. */
export interface AgentFiles {
  /** The bundled agent (`/.sprite/agent/agent.mjs` inside). */
  bundle: string;
  /** The node-pty package directory (`/.sprite/agent/node_modules/node-pty` inside, read-only). */
  nodePtyDir: string;
  /** The node binary running spritzer (`/.sprite/bin/node` inside, read-only). */
  node: string;
}

/**
 * Builds the bundle to `outfile` (default {@link AGENT_BUNDLE}) atomically: a temp file renamed into place, so
 * concurrent builds never leave a half-written file. Resolves with the output path. Needs the `esbuild` package.
 */
export async function buildAgent(outfile = AGENT_BUNDLE): Promise<string> {
  const { build } = await import('esbuild');
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

/**
 * The files a launcher needs, building the bundle first when it is missing (`rebuild: true` always builds).
 * Rejects when node-pty is not installed.
 */
export async function agentFiles(opts: { rebuild?: boolean } = {}): Promise<AgentFiles> {
  const exists = await stat(AGENT_BUNDLE).then(() => true, () => false);
  const bundle = opts.rebuild || !exists ? await buildAgent() : AGENT_BUNDLE;
  const nodePtyDir = optionalPackageDir('node-pty', 'the sandbox and container engines (the in-sprite agent runs TTY sessions with it)');
  return { bundle, nodePtyDir, node: process.execPath };
}
