/**
 * Building the inspector's static files: `src/ui/main.ts` (plain DOM + xterm.js) bundled by esbuild into
 * `dist/ui/` (app.js, app.css, index.html), on demand when missing or older than its sources, like the agent
 * bundle (src/server/machines/agent/bundle.ts). It owns the build and the output path; serving is in ./index.ts.
 */
import { copyFile, mkdir, readdir, rename, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../runtime/project-root.ts';

const projectRoot = PROJECT_ROOT;

/** Where the built inspector lives (absolute). */
export const UI_DIST = resolve(projectRoot, 'dist/ui');
/** Where its sources live (absolute). */
export const UI_SRC = resolve(projectRoot, 'src/ui');

/**
 * Bundles the inspector into `outdir` (default {@link UI_DIST}): built in a temp directory, then each file
 * renamed into place. Resolves with `outdir`. Needs the `esbuild` package (a devDependency).
 */
export async function buildInspector(outdir = UI_DIST): Promise<string> {
  const { build } = await import('esbuild');
  const tmp = `${outdir}.${process.pid}.${Date.now()}.tmp`;
  await mkdir(tmp, { recursive: true });
  await build({
    entryPoints: { app: join(UI_SRC, 'main.ts') },
    outdir: tmp,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    minify: true,
    loader: { '.css': 'css' },
    logLevel: 'warning',
    legalComments: 'none',
  });
  await copyFile(join(UI_SRC, 'index.html'), join(tmp, 'index.html'));
  await mkdir(outdir, { recursive: true });
  for (const f of await readdir(tmp)) await rename(join(tmp, f), join(outdir, f));
  const { rm } = await import('node:fs/promises');
  await rm(tmp, { recursive: true, force: true });
  return outdir;
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? await newestMtime(p) : (await stat(p)).mtimeMs);
  }
  return newest;
}

let pending: Promise<string> | undefined;

/**
 * Builds the inspector once per process when `dist/ui/app.js` is missing or older than any file under
 * `src/ui` (a packed install without sources or esbuild serves what is there). Resolves with the directory.
 */
export function ensureInspector(): Promise<string> {
  pending ??= (async () => {
    const built = await stat(join(UI_DIST, 'app.js')).then((s) => s.mtimeMs, () => 0);
    const sources = await newestMtime(UI_SRC).catch(() => 0);
    if (built > 0 && (sources === 0 || built >= sources)) return UI_DIST;
    return buildInspector();
  })();
  pending.catch(() => {
    pending = undefined;
  });
  return pending;
}
