/**
 * The sandbox engine's one native helper, `spritzer-userns` (native/userns.c): it creates a sprite's user
 * namespace with its host id range, mounts the read-only base idmapped through it (open_tree, mount_setattr,
 * move_mount: util-linux 2.38's mount(8) has no `X-mount.idmap`) and the overlays, and becomes the namespace's root
 * before bubblewrap runs. This module compiles it once with the host's C compiler into a root-only cache and
 * answers its path. It runs nothing else.
 * @see docs/sandbox.md "User namespaces"
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../runtime/project-root.ts';
import { run } from './run.ts';

/** The helper's C source (shipped with the package). */
export const USERNS_SOURCE = join(PROJECT_ROOT, 'src/server/machines/sandbox/native/userns.c');
/** Where compiled helpers are kept, one file per source hash. */
export const NATIVE_CACHE = join(PROJECT_ROOT, '.cache/native');

/**
 * Resolves with the path of the compiled helper, compiling `source` with `cc` (then `gcc`) into `cacheDir` when no
 * binary of its content hash is there yet (a temp file renamed into place, so concurrent servers never run a
 * half-written one). The cache directory is made root-only (0700). Rejects, naming the package to install, when no
 * C compiler works.
 */
export async function userNamespaceHelper(source = USERNS_SOURCE, cacheDir = NATIVE_CACHE): Promise<string> {
  const text = await readFile(source);
  const out = join(cacheDir, `spritzer-userns-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
  if (await stat(out).then((s) => s.isFile() && s.uid === 0 && (s.mode & 0o022) === 0, () => false)) return out;
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await chmod(cacheDir, 0o700);
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  let lastError = '';
  for (const cc of ['cc', 'gcc']) {
    try {
      await run(cc, ['-O2', '-Wall', '-o', tmp, source], { timeoutMs: 120_000 });
      await chmod(tmp, 0o755);
      await rename(tmp, out);
      return out;
    } catch (err) {
      lastError = (err as Error).message;
    }
  }
  throw new Error(`the sandbox engine compiles a small helper (${source}) and needs a C compiler: apt-get install -y gcc libc6-dev (${lastError})`);
}
