/**
 * Writes that the agent makes on a sprite's behalf (service logs, the network policy copy, the `sprite-env` shim,
 * `/.sprite` files, `/etc/hostname` on adoption), which must never follow a link the sprite's code can plant: every
 * ancestor is walked with `lstat` (a symlink is refused with ELOOP), the file is opened with `O_NOFOLLOW`, and the
 * open file is checked to be the very path asked for (`/proc/self/fd/N`), a regular file with one link; a symlink,
 * a hard link or any other node at the final path is replaced (unlinked, then created with `O_EXCL`), never written
 * through. It owns that walk; not error mapping (fs-ops.ts), not the fs API's own writes (which follow links inside
 * the sprite's view, as on Sprites).
 * @see docs/security.md "Host-side writes"
 */
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/** Raised when a path component is a symlink or the opened file is not the one asked for (code ELOOP). */
function loop(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ELOOP: a symbolic link in the way, open '${host}'`), { code: 'ELOOP', syscall: 'open' });
}

/** How often a replaced final node may be re-planted by the sprite before the write gives up (ELOOP). */
const REPLACE_ATTEMPTS = 3;

/**
 * Walks `dirs` (host paths from the outermost down, each an ancestor of the file) with `lstat`: each must be a real
 * directory; a missing one is created (`mode`, `owner`) when `mkdirParents`, else ENOENT; a symlink is ELOOP.
 */
async function walkAncestors(dirs: string[], mkdirParents: boolean, mode: number, owner: { uid: number; gid: number } | null): Promise<void> {
  for (const dir of dirs) {
    let st = await fsp.lstat(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT' || !mkdirParents) throw err;
      return undefined;
    });
    if (!st) {
      await fsp.mkdir(dir, { mode }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      st = await fsp.lstat(dir);
      if (st.isDirectory()) {
        await fsp.chmod(dir, mode);
        if (owner) await fsp.lchown(dir, owner.uid, owner.gid);
      }
    }
    if (st.isSymbolicLink()) throw loop(dir);
    if (!st.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, open '${dir}'`), { code: 'ENOTDIR', syscall: 'open' });
  }
}

/** The ancestors of host path `host` below `base`, outermost first (`base` itself excluded). */
function ancestorsBelow(base: string, host: string): string[] {
  const rel = host.slice(base.length).split('/').filter(Boolean);
  const dirs: string[] = [];
  for (let i = 1; i < rel.length; i++) dirs.push(`${base}/${rel.slice(0, i).join('/')}`);
  return dirs;
}

/**
 * Makes host path `dir` a real directory beneath `base`, following no link: every ancestor is walked (created 0755
 * when missing, ELOOP when a symlink), a symlink or file at `dir` itself is removed, and `owner` gets `dir` by
 * `lchown`. @see `openBeneath`
 */
export async function mkdirBeneath(base: string, dir: string, owner: { uid: number; gid: number } | null): Promise<void> {
  await walkAncestors(ancestorsBelow(base, dir), true, 0o755, null);
  const st = await fsp.lstat(dir).catch(() => undefined);
  if (st && !st.isDirectory()) await fsp.unlink(dir);
  await walkAncestors([dir], true, 0o755, owner);
  if (owner) await fsp.lchown(dir, owner.uid, owner.gid);
}

/**
 * Opens host path `host` for writing beneath `base` (a host directory that is trusted: `''` for `/`), following no
 * link: the ancestors below `base` are walked (see `walkAncestors`), a final node that is not a regular file with a
 * single link is unlinked and the file created with `O_EXCL|O_NOFOLLOW`; the open file must resolve to `host`
 * itself (an ancestor swapped for a link meanwhile is caught here). Resolves with the handle and whether it created
 * the file; the caller writes and closes. ELOOP when a link is in the way, ENOTDIR, ENOENT without `mkdirParents`.
 */
export async function openBeneath(
  base: string,
  host: string,
  opts: { mode: number; append?: boolean; mkdirParents?: boolean; dirMode?: number; owner?: { uid: number; gid: number } | null },
): Promise<{ fh: FileHandle; created: boolean }> {
  const rel = host.slice(base.length).split('/').filter(Boolean);
  await walkAncestors(ancestorsBelow(base, host), !!opts.mkdirParents, opts.dirMode ?? 0o755, opts.owner ?? null);
  const expected = `${base ? await fsp.realpath(base) : ''}/${rel.join('/')}`;
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_APPEND } = constants;
  for (let attempt = 0; attempt < REPLACE_ATTEMPTS; attempt++) {
    const st = await fsp.lstat(host).catch(() => undefined);
    if (st && (!st.isFile() || st.nlink > 1)) {
      if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${host}'`), { code: 'EISDIR', syscall: 'open' });
      await fsp.unlink(host).catch(() => undefined);
      continue;
    }
    const created = !st;
    const flags = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | (opts.append ? O_APPEND : 0) | (created ? O_CREAT | O_EXCL : 0);
    let fh: FileHandle;
    try {
      fh = await fsp.open(host, flags, opts.mode);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Re-planted (EEXIST), removed (ENOENT) or turned into a link (ELOOP) between the lstat and the open: look again.
      if (code === 'EEXIST' || code === 'ENOENT' || code === 'ELOOP') continue;
      throw err;
    }
    const real = await fsp.readlink(`/proc/self/fd/${fh.fd}`).catch(() => '');
    const now = await fh.stat();
    if (real !== expected || !now.isFile() || now.nlink > 1) {
      await fh.close();
      throw loop(host);
    }
    return { fh, created };
  }
  throw loop(host);
}
