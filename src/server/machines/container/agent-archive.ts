/**
 * The tar archive the container engine copies into every sprite before it starts (`putArchive` at `/`): the agent's
 * bundle at `/.sprite/agent/agent.mjs`, the run-as helper at `/.sprite/agent/spritzer-runas` (RUNAS_PATH: the agent
 * starts processes through it, giving an exec session's processes their capabilities), node-pty's runtime files
 * (lib, package.json, the native addon) under `/.sprite/agent/node_modules/node-pty`, the empty `/.sprite/run`, and
 * `/home/sprite` owned by the sprite user (1001:1001). So any image with `node` (20, for node-pty's ABI) becomes a sprite. It owns the
 * archive only; it starts nothing.
 * @see docs/agent-protocol.md "Running it", docs/container.md
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { lazyRequire } from '../../runtime/lazy-require.ts';
import { RUNAS_PATH, SPRITE_GID, SPRITE_UID } from '../../../protocol/sprite-tree.ts';

/** tar-stream, loaded on the first archive (src/server/runtime/lazy-require.ts), not at every start. */
const loadTar = lazyRequire<typeof import('tar-stream')>('tar-stream', (mod) => mod);


/** node-pty files the agent needs at run time (sources, deps and other platforms' prebuilds are left out). */
function nodePtyWanted(rel: string): boolean {
  return rel === 'package.json' || rel.startsWith('lib/') || rel === 'lib' || rel === 'build' || rel === 'build/Release' || /^build\/Release\/[^/]+\.node$/.test(rel);
}

/**
 * Builds the archive in memory. `bundle` is the host path of `agent.mjs`; `nodePtyDir` the node-pty package
 * directory (absent: no TTY inside); `runAs` the compiled run-as helper (agent/native.ts; absent: none). Rejects
 * when a file cannot be read.
 */
export async function agentArchive(bundle: string, nodePtyDir?: string, runAs?: string): Promise<Buffer> {
  const tar = loadTar().pack();
  const chunks: Buffer[] = [];
  tar.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    tar.on('end', resolve);
    tar.on('error', reject);
  });
  const dir = (name: string, mode = 0o755, uid = 0, gid = 0) => tar.entry({ name, type: 'directory', mode, uid, gid });
  dir('.sprite');
  dir('.sprite/bin');
  dir('.sprite/agent');
  dir('.sprite/run', 0o700);
  dir('home', 0o755);
  dir('home/sprite', 0o755, SPRITE_UID, SPRITE_GID);
  tar.entry({ name: '.sprite/agent/agent.mjs', mode: 0o644 }, await readFile(bundle));
  if (runAs) tar.entry({ name: RUNAS_PATH.slice(1), mode: 0o755 }, await readFile(runAs));
  if (nodePtyDir) {
    dir('.sprite/agent/node_modules');
    const walk = async (abs: string): Promise<void> => {
      for (const name of (await readdir(abs)).sort()) {
        const p = join(abs, name);
        const rel = relative(nodePtyDir, p);
        const st = await lstat(p);
        if (st.isDirectory()) {
          if (!rel.startsWith('lib') && rel !== 'build' && rel !== 'build/Release') continue;
          dir(`.sprite/agent/node_modules/node-pty/${rel}`);
          await walk(p);
        } else if (st.isFile() && nodePtyWanted(rel)) {
          tar.entry({ name: `.sprite/agent/node_modules/node-pty/${rel}`, mode: st.mode & 0o777 }, await readFile(p));
        }
      }
    };
    dir('.sprite/agent/node_modules/node-pty');
    await walk(nodePtyDir);
  }
  tar.finalize();
  await done;
  return Buffer.concat(chunks);
}
