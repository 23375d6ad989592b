/**
 * Where the agent's files are on the host, and how its bundle is built: `dist/agent/agent.mjs` (esbuild, one ESM
 * file, node-pty left outside), the node-pty package directory and the node binary that the launcher bind-mounts
 * into a sprite (`/.sprite/agent/agent.mjs`, `/.sprite/agent/node_modules/node-pty`, `/.sprite/bin/node`).
 * It owns the build and these paths; it does not launch anything. Runs on the host only, never inside a sprite.
 * @see docs/agent-protocol.md "Running it"
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
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

/** The agent's entry point, relative to the project root. */
const AGENT_ENTRY = 'src/agent/main.ts';

/** Where a build lists the source files it bundled (`<bundle>.inputs.json`: paths relative to the project root). */
function inputsFile(outfile: string): string {
  return `${outfile}.inputs.json`;
}

/**
 * Builds the bundle to `outfile` (default {@link AGENT_BUNDLE}) atomically: a temp file renamed into place, so
 * concurrent builds never leave a half-written file, beside the list of the sources it holds (see
 * {@link isStale}). Resolves with the output path. Needs the `esbuild` package.
 */
export async function buildAgent(outfile = AGENT_BUNDLE): Promise<string> {
  const { build } = await import('esbuild');
  const tmp = `${outfile}.${process.pid}.${Date.now()}.tmp`;
  const result = await build({
    metafile: true,
    // The metafile's input paths are relative to this directory, as isStale reads them.
    absWorkingDir: projectRoot,
    entryPoints: [resolve(projectRoot, AGENT_ENTRY)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['node-pty'],
    logLevel: 'warning',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes('node_modules/'));
  await writeFile(`${tmp}.inputs`, JSON.stringify(inputs));
  await rename(`${tmp}.inputs`, inputsFile(outfile));
  await rename(tmp, outfile);
  return outfile;
}

/**
 * Whether the bundle at `outfile` is older than a source it was built from (paths listed by {@link buildAgent},
 * relative to `root`): a checkout that moved on (`git pull`, a branch switch) must not boot sprites with the agent
 * of an older protocol. A bundle whose sources are absent (an installed package ships the bundle alone) is taken as
 * current; one without a list is stale beside a source tree (an older build) and current elsewhere. Resolves false
 * when the bundle is missing (the caller builds it anyway).
 */
export async function isStale(outfile = AGENT_BUNDLE, root = projectRoot): Promise<boolean> {
  const built = await stat(outfile).then((s) => s.mtimeMs, () => undefined);
  if (built === undefined) return false;
  const listed = await readFile(inputsFile(outfile), 'utf8').then((t) => JSON.parse(t) as string[], () => undefined);
  // A bundle without a list beside a source tree was built by an older spritzer: build it again, once.
  if (!listed) return stat(resolve(root, AGENT_ENTRY)).then(() => true, () => false);
  const times = await Promise.all(listed.map((path) => stat(resolve(root, path)).then((s) => s.mtimeMs, () => undefined)));
  return times.some((t) => t !== undefined && t > built);
}

/**
 * The files a launcher needs, building the bundle first when it is missing or older than its sources
 * ({@link isStale}; `rebuild: true` always builds). Rejects when node-pty is not installed.
 */
export async function agentFiles(opts: { rebuild?: boolean } = {}): Promise<AgentFiles> {
  const exists = await stat(AGENT_BUNDLE).then(() => true, () => false);
  const bundle = opts.rebuild || !exists || (await isStale()) ? await buildAgent() : AGENT_BUNDLE;
  const nodePtyDir = optionalPackageDir('node-pty', 'the sandbox and container engines (the in-sprite agent runs TTY sessions with it)');
  return { bundle, nodePtyDir, node: process.execPath };
}
