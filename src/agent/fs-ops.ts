/**
 * The agent's filesystem operations: every `MachineFs` operation, done with real syscalls (`node:fs/promises`) in
 * the agent's own view of the disk. Inside the sandbox `/` is the sprite's root, so symlinks and `..` resolve in the
 * sprite's view by construction; with `--root DIR` (the agent's own tests on the host) sprite paths map under DIR.
 * It owns path mapping, result shapes and the error mapping to `{code, path, syscall}`; not framing, not VfsError.
 * @see src/server/machines/port.ts `MachineFs`, docs/wire-reference.md §8 (docs/agent-protocol.md lists the ops)
 */
import { constants, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { openBeneath } from './beneath.ts';
import { isKernelFile, resolvesIntoKernel } from './kernel-trees.ts';
import type { FileEntry, FileNodeType, FileStat, WireError } from '../protocol/agent.ts';
import { posixErrorText } from '../protocol/posix-errors.ts';
import { normalizePath } from '../protocol/paths.ts';

/**
 * A failed operation, reported to the host as `{code, message, path, syscall}` with the sprite-view path. The
 * message's text is the shared POSIX wording of `code` (src/protocol/posix-errors.ts) unless `description` is given.
 */
export class AgentFsError extends Error {
  constructor(
    readonly code: string,
    readonly path: string,
    readonly syscall: string,
    description = posixErrorText(code) ?? 'error',
  ) {
    super(`${code}: ${description}, ${syscall} '${path}'`);
  }

  /** The wire form of this error. */
  toWire(): WireError {
    return { code: this.code, message: this.message, path: this.path, syscall: this.syscall };
  }
}

/** The directory size the fs API reports (ext4's, as on real Sprites), whatever the storage under it says. */
const DIR_SIZE = 4096;
const PERMISSION_BITS = 0o7777;
const DEFAULT_DIR_MODE = 0o755;
const DEFAULT_FILE_MODE = 0o644;
/** The first buffer of a ranged read of a file whose size says nothing is left (a kernel file says 0): 64 KiB. */
const RANGE_FIRST_BUFFER = 64 * 1024;

/**
 * Maps a Node fs error to an AgentFsError about sprite path `path`. EPERM and EROFS read as EACCES (the fs API's
 * vocabulary, docs/wire-reference.md §8.9); other codes pass through with Node's description.
 */
export function toAgentFsError(err: unknown, path: string, syscall: string): AgentFsError {
  if (err instanceof AgentFsError) return err;
  const e = err as NodeJS.ErrnoException;
  let code = typeof e?.code === 'string' ? e.code : 'EIO';
  if (code === 'EPERM' || code === 'EROFS') code = 'EACCES';
  // The sandbox's disk quota is a btrfs qgroup (EDQUOT); the fs API says ENOSPC, as on the memory engines.
  if (isOutOfSpace(e)) code = 'ENOSPC';
  const fromNode = /^[A-Z0-9]+: ([^,]+),/.exec(String(e?.message ?? ''))?.[1];
  return new AgentFsError(code, path, e?.syscall ?? syscall, posixErrorText(code) ?? fromNode ?? 'error');
}

/** Linux's EDQUOT, which Node (libuv) has no name for ("Unknown system error -122"). */
const EDQUOT_ERRNO = -122;

/** Whether a Node fs error means the disk (or the sprite's quota) is full: ENOSPC or EDQUOT. */
export function isOutOfSpace(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  return e?.code === 'ENOSPC' || e?.code === 'EDQUOT' || e?.errno === EDQUOT_ERRNO;
}

/**
 * Cuts the file at `host` back to its first `size` bytes after a failed append. On a full btrfs qgroup even a
 * shrinking truncate fails with EDQUOT while an unlink works, so then the file is re-created with its first bytes,
 * mode and owner (a new inode: another hard link to it keeps the longer content).
 */
async function cutBack(host: string, size: number): Promise<void> {
  try {
    await fsp.truncate(host, size);
    return;
  } catch (err) {
    if (!isOutOfSpace(err)) throw err;
  }
  const st = await fsp.stat(host);
  const head = Buffer.alloc(size);
  const fh = await fsp.open(host, 'r');
  try {
    await fh.read(head, 0, size, 0);
  } finally {
    await fh.close();
  }
  await fsp.unlink(host);
  await fsp.writeFile(host, head, { mode: st.mode & 0o7777 });
  await fsp.chown(host, st.uid, st.gid);
  await fsp.chmod(host, st.mode & 0o7777);
}

/** Lexically normalises an absolute sprite path (`.`/`..`/`//` removed; `..` above `/` stays at `/`). Throws EINVAL otherwise. */
export function normalizeSpritePath(path: unknown, syscall = 'open'): string {
  if (typeof path !== 'string' || !path.startsWith('/') || path.includes('\0')) {
    throw new AgentFsError('EINVAL', String(path), syscall);
  }
  return normalizePath(path);
}

function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Byte-order name comparison (as the in-memory VFS sorts). */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function typeOf(st: Stats): FileNodeType {
  return st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'file';
}

/**
 * The filesystem as the agent serves it. `root` is `''` inside the sandbox (sprite paths are host paths) or a
 * directory that sprite paths map under (tests). `owner` is given when the agent may chown (it runs as root): every
 * node the fs API creates gets it (the sprite user, as the in-memory VFS does); `null` leaves the agent's own ids.
 */
export class AgentFs {
  constructor(
    private readonly root: string,
    private readonly owner: { uid: number; gid: number } | null,
  ) {}

  /** The host path of sprite path `p` (already normalised). */
  hostPath(p: string): string {
    if (!this.root) return p;
    return p === '/' ? this.root : this.root + p;
  }

  /** Runs `fn`, turning any fs error into an AgentFsError about `path`. */
  private async guard<T>(path: string, syscall: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toAgentFsError(err, path, syscall);
    }
  }

  private async statJson(p: string, follow: boolean, syscall: string): Promise<FileStat> {
    return this.guard(p, syscall, async () => {
      const host = this.hostPath(p);
      const st = follow ? await fsp.stat(host) : await fsp.lstat(host);
      return this.toFileStat(st, host);
    });
  }

  private async toFileStat(st: Stats, host: string): Promise<FileStat> {
    const type = typeOf(st);
    const out: FileStat = {
      type,
      mode: st.mode & PERMISSION_BITS,
      size: type === 'directory' ? DIR_SIZE : st.size,
      mtimeMs: Math.trunc(st.mtimeMs),
      uid: st.uid,
      gid: st.gid,
    };
    if (type === 'symlink') out.target = await fsp.readlink(host);
    return out;
  }

  private async own(p: string): Promise<void> {
    if (this.owner) await fsp.lchown(this.hostPath(p), this.owner.uid, this.owner.gid);
  }

  /** `stat` (follows symlinks). ENOENT, ENOTDIR, ELOOP, EACCES. */
  stat(path: string): Promise<FileStat> {
    return this.statJson(normalizeSpritePath(path, 'stat'), true, 'stat');
  }

  /** `lstat` (a final symlink is reported with its `target`). */
  lstat(path: string): Promise<FileStat> {
    return this.statJson(normalizeSpritePath(path, 'lstat'), false, 'lstat');
  }

  /**
   * Opens the file at host path `host` (sprite path `p`) for reading, following symlinks, without ever blocking: a
   * FIFO, a device or a socket is refused (EINVAL `not a regular file`) before a byte is read, a directory is EISDIR.
   * A FIFO opened for reading without a writer would block a thread of the agent for ever, and a device such as
   * `/dev/zero` never ends. The caller closes the handle.
   * @deviation real Sprites' answer for a special file is unknown (docs/fidelity.md "Special files in the fs API").
   */
  private async openRegular(host: string, p: string, syscall: string): Promise<FileHandle> {
    const fh = await fsp.open(host, constants.O_RDONLY | constants.O_NONBLOCK);
    let st: Stats;
    try {
      st = await fh.stat();
    } catch (err) {
      await fh.close();
      throw err;
    }
    if (st.isFile()) return fh;
    await fh.close();
    if (st.isDirectory()) throw new AgentFsError('EISDIR', p, syscall === 'open' ? 'read' : syscall);
    throw new AgentFsError('EINVAL', p, syscall, 'not a regular file');
  }

  /**
   * The bytes of a regular file (follows symlinks). EISDIR for a directory, EINVAL for a FIFO, device or socket
   * (`openRegular`). With `range`, at most `length` bytes from byte `offset` (fewer at the end of the file), read
   * without reading the rest.
   */
  async readFile(path: string, range?: { offset: number; length: number }): Promise<Buffer> {
    const p = normalizeSpritePath(path);
    return this.guard(p, 'open', async () => {
      const fh = await this.openRegular(this.hostPath(p), p, 'open');
      if (!range) {
        try {
          return await fh.readFile();
        } finally {
          await fh.close();
        }
      }
      try {
        return await readRange(fh, range, (await fh.stat()).size);
      } finally {
        await fh.close();
      }
    });
  }

  /**
   * Writes (or appends) `data`; a new file gets `mode` (default 0644) and the owner; `mode` also applies to an
   * existing file. `mkdirParents` creates missing ancestors (0755). Resolves with the file's stat after the write.
   * A path in `/proc` or `/sys`, or one that resolves into a kernel filesystem through a link, is EACCES: the file
   * is opened without truncation and checked before a byte is written. `noFollow` (writes made on the sprite's
   * behalf) follows no link at all (beneath.ts): a symlink in an ancestor is ELOOP, one at the path is replaced.
   */
  async writeFile(
    path: string,
    data: Uint8Array,
    opts: { mode?: number; mkdirParents?: boolean; append?: boolean; noFollow?: boolean } = {},
  ): Promise<FileStat> {
    const p = normalizeSpritePath(path);
    if (p === '/') throw new AgentFsError('EISDIR', p, 'open');
    // With noFollow a link at `p` is replaced, not followed: only where its directory lies decides.
    await this.refuseKernel(opts.noFollow ? parentOf(p) : p, 'open');
    const mode = opts.mode !== undefined ? opts.mode & PERMISSION_BITS : DEFAULT_FILE_MODE;
    const host = this.hostPath(p);
    if (!opts.noFollow && opts.mkdirParents) await this.mkdirAll(parentOf(p), DEFAULT_DIR_MODE, 'open');
    return this.guard(p, 'open', async () => {
      let fh: FileHandle;
      let existed: boolean;
      if (opts.noFollow) {
        const opened = await openBeneath(this.root, host, { mode, append: opts.append, mkdirParents: opts.mkdirParents, owner: this.owner });
        fh = opened.fh;
        existed = !opened.created;
      } else {
        existed = await fsp.stat(host).then(
          (st) => {
            if (st.isDirectory()) throw new AgentFsError('EISDIR', p, 'open');
            return true;
          },
          (err: NodeJS.ErrnoException) => {
            if (err.code !== 'ENOENT') throw err;
            return false;
          },
        );
        const { O_WRONLY, O_CREAT, O_NONBLOCK, O_APPEND } = constants;
        fh = await fsp.open(host, O_WRONLY | O_CREAT | O_NONBLOCK | (opts.append ? O_APPEND : 0), mode);
        if (await isKernelFile(fh, this.root)) {
          await fh.close();
          throw new AgentFsError('EACCES', p, 'open');
        }
      }
      try {
        const sizeBefore = existed && opts.append ? (await fh.stat()).size : 0;
        try {
          if (!opts.append) await fh.truncate(0);
          await fh.writeFile(data);
        } catch (err) {
          // Out of space (the disk quota): a new file goes away and an append is cut back, so nothing changes.
          // @deviation an overwrite of an existing file that runs out of space leaves it cut short (docs/fidelity.md).
          if (isOutOfSpace(err)) {
            await fh.close().catch(() => undefined);
            if (!existed) await fsp.unlink(host).catch(() => undefined);
            else if (opts.append) await cutBack(host, sizeBefore).catch(() => undefined);
            throw new AgentFsError('ENOSPC', p, 'open');
          }
          throw err;
        }
        if (!existed && this.owner) await fh.chown(this.owner.uid, this.owner.gid).catch(() => undefined);
        if (opts.mode !== undefined || !existed) await fh.chmod(mode);
        return await this.toFileStat(await fh.stat(), host);
      } finally {
        await fh.close().catch(() => undefined);
      }
    });
  }

  /**
   * EACCES unless what sprite path `p` resolves to lies outside the kernel's trees (kernel-trees.ts): the fs API
   * writes no `/proc` or `/sys` file, whatever link leads there. (`/proc/self/root/…` resolves to the sprite's own
   * root, so it stays writable, as on Linux.)
   */
  private async refuseKernel(p: string, syscall: string): Promise<void> {
    if (await resolvesIntoKernel(this.hostPath(p), this.root)) {
      throw new AgentFsError('EACCES', p, syscall);
    }
  }

  /** Creates each missing directory from `/` down to `p` (mode, owner). ENOTDIR when a file is in the way. */
  private async mkdirAll(p: string, mode: number, syscall: string): Promise<void> {
    const parts = p.split('/').filter(Boolean);
    let at = '/';
    for (const part of parts) {
      at = joinPath(at, part);
      const host = this.hostPath(at);
      await this.guard(at, syscall, async () => {
        try {
          await fsp.mkdir(host, { mode });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          const st = await fsp.stat(host);
          if (!st.isDirectory()) throw new AgentFsError('ENOTDIR', at, syscall);
          return;
        }
        await fsp.chmod(host, mode);
        await this.own(at).catch(() => undefined);
      });
    }
  }

  /** Creates a directory (mode default 0755, owner); `recursive` = `mkdir -p`. EEXIST, ENOENT, ENOTDIR. */
  async mkdir(path: string, opts: { recursive?: boolean; mode?: number } = {}): Promise<void> {
    const p = normalizeSpritePath(path, 'mkdir');
    await this.refuseKernel(p, 'mkdir');
    const mode = (opts.mode ?? DEFAULT_DIR_MODE) & PERMISSION_BITS;
    if (opts.recursive) return this.mkdirAll(p, mode, 'mkdir');
    await this.guard(p, 'mkdir', async () => {
      await fsp.mkdir(this.hostPath(p), { mode });
      await fsp.chmod(this.hostPath(p), mode);
      await this.own(p).catch(() => undefined);
    });
  }

  /**
   * The entries of a directory (following symlinks to it), in name order, each with its lstat; `recursive` walks
   * depth-first, a directory before its children, never following symlinked directories. ENOTDIR, ENOENT.
   */
  async readdir(path: string, opts: { recursive?: boolean } = {}): Promise<FileEntry[]> {
    const p = normalizeSpritePath(path, 'scandir');
    const out: FileEntry[] = [];
    const visit = async (dir: string): Promise<void> => {
      const names = await this.guard(dir, 'scandir', () => fsp.readdir(this.hostPath(dir)));
      names.sort(byName);
      for (const name of names) {
        const at = joinPath(dir, name);
        let stat: FileStat;
        try {
          stat = await this.statJson(at, false, 'lstat');
        } catch (err) {
          if (err instanceof AgentFsError && err.code === 'ENOENT') continue; // removed meanwhile
          throw err;
        }
        out.push({ name, path: at, stat });
        if (opts.recursive && stat.type === 'directory') await visit(at);
      }
    };
    await visit(p);
    return out;
  }

  /** Every path at and below `p` (lstat, no symlink followed): `p` first, then depth-first in name order. */
  private async listTree(p: string, syscall: string): Promise<Array<{ path: string; type: FileNodeType }>> {
    const top = await this.statJson(p, false, syscall);
    const out: Array<{ path: string; type: FileNodeType }> = [{ path: p, type: top.type }];
    if (top.type === 'directory') for (const e of await this.readdir(p, { recursive: true })) out.push({ path: e.path, type: e.stat.type });
    return out;
  }

  /**
   * Removes `path` (a final symlink itself); returns the removed paths, `path` first then its descendants
   * depth-first (the in-memory VFS's order). EINVAL for `/`; ENOENT unless `force`; ENOTEMPTY without `recursive`.
   */
  async rm(path: string, opts: { recursive?: boolean; force?: boolean } = {}): Promise<string[]> {
    const p = normalizeSpritePath(path, 'rm');
    if (p === '/') throw new AgentFsError('EINVAL', p, 'rm');
    await this.refuseKernel(p, 'rm');
    let tree: Array<{ path: string; type: FileNodeType }>;
    try {
      tree = await this.listTree(p, 'rm');
    } catch (err) {
      if (opts.force && err instanceof AgentFsError && err.code === 'ENOENT') return [];
      throw err;
    }
    const host = this.hostPath(p);
    if (tree[0]!.type === 'directory') {
      if (tree.length > 1 && !opts.recursive) throw new AgentFsError('ENOTEMPTY', p, 'rm');
      await this.guard(p, 'rm', () => fsp.rm(host, { recursive: true }));
    } else {
      await this.guard(p, 'rm', () => fsp.unlink(host));
    }
    return tree.map((t) => t.path);
  }

  /** POSIX rename (replaces an existing file at `dest`). EINVAL for `/`; ENOENT, EISDIR, ENOTDIR, ENOTEMPTY. */
  async rename(source: string, dest: string): Promise<void> {
    const s = normalizeSpritePath(source, 'rename');
    const d = normalizeSpritePath(dest, 'rename');
    if (s === '/' || d === '/') throw new AgentFsError('EINVAL', s === '/' ? s : d, 'rename');
    await this.refuseKernel(s, 'rename');
    await this.refuseKernel(d, 'rename');
    if (s === d) {
      await this.statJson(s, false, 'rename');
      return;
    }
    await this.guard(s, 'rename', async () => {
      try {
        await fsp.rename(this.hostPath(s), this.hostPath(d));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // The error names the side that is wrong: a missing source, else the destination.
        if (code === 'ENOENT') {
          const srcMissing = await fsp.lstat(this.hostPath(s)).then(() => false, () => true);
          if (!srcMissing) throw toAgentFsError(err, d, 'rename');
        } else if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') {
          throw toAgentFsError(code === 'EEXIST' ? Object.assign(err as object, { code: 'ENOTEMPTY' }) : err, d, 'rename');
        }
        throw err;
      }
    });
  }

  /**
   * Copies `source` (followed if a symlink) to exactly `dest`; a directory needs `recursive` (else EISDIR) and
   * merges into an existing directory; symlinks inside are copied as symlinks; copies keep the mode, get the owner
   * and a fresh mtime. Returns each copied pair with its size (0 for non-files), top first then depth-first.
   * EINVAL when `dest` is `source` or inside it; EISDIR file onto directory; ENOTDIR directory onto file.
   */
  async copy(source: string, dest: string, opts: { recursive?: boolean } = {}): Promise<Array<{ source: string; dest: string; size: number }>> {
    const s = normalizeSpritePath(source, 'copyfile');
    const d = normalizeSpritePath(dest, 'copyfile');
    await this.refuseKernel(d, 'copyfile');
    const top = await this.statJson(s, true, 'copyfile');
    if (top.type === 'directory' && !opts.recursive) throw new AgentFsError('EISDIR', s, 'copyfile');
    const realSrc = await this.guard(s, 'copyfile', () => fsp.realpath(this.hostPath(s)));
    const realDestParent = await this.guard(d, 'copyfile', () => fsp.realpath(this.hostPath(parentOf(d))));
    const realDest = d === '/' ? realDestParent : joinPath(realDestParent, d.slice(d.lastIndexOf('/') + 1));
    if (realDest === realSrc || realDest.startsWith(`${realSrc}/`)) throw new AgentFsError('EINVAL', d, 'copyfile');
    const copied: Array<{ source: string; dest: string; size: number }> = [];
    const copyNode = async (sp: string, dp: string, follow: boolean): Promise<void> => {
      const st = await this.statJson(sp, follow, 'copyfile');
      const hs = this.hostPath(sp);
      const hd = this.hostPath(dp);
      const existing = await fsp.lstat(hd).then((x) => typeOf(x), () => undefined);
      await this.guard(dp, 'copyfile', async () => {
        if (st.type === 'directory') {
          if (existing && existing !== 'directory') throw new AgentFsError('ENOTDIR', dp, 'copyfile');
          if (!existing) {
            await fsp.mkdir(hd, { mode: st.mode });
            await fsp.chmod(hd, st.mode);
            await this.own(dp).catch(() => undefined);
          }
          copied.push({ source: sp, dest: dp, size: 0 });
          const names = await fsp.readdir(hs);
          names.sort(byName);
          for (const name of names) await copyNode(joinPath(sp, name), joinPath(dp, name), false);
          return;
        }
        if (existing === 'directory') throw new AgentFsError('EISDIR', dp, 'copyfile');
        if (st.type === 'symlink') {
          if (existing) await fsp.unlink(hd);
          await fsp.symlink(st.target!, hd);
          await this.own(dp).catch(() => undefined);
          copied.push({ source: sp, dest: dp, size: 0 });
          return;
        }
        // The source is opened as `openRegular` does (a FIFO would block the copy for ever), then copied from that
        // very file through its descriptor, so it cannot be swapped for a FIFO in between.
        const src = await this.openRegular(hs, sp, 'copyfile');
        try {
          if (existing === 'symlink') await fsp.unlink(hd);
          await fsp.copyFile(`/proc/self/fd/${src.fd}`, hd, constants.COPYFILE_FICLONE);
        } finally {
          await src.close();
        }
        await fsp.chmod(hd, st.mode);
        await this.own(dp).catch(() => undefined);
        copied.push({ source: sp, dest: dp, size: st.size });
      });
    };
    await copyNode(s, d, true);
    return copied;
  }

  /** Sets permission bits (following a final symlink; symlinks below are skipped). Returns every changed path, top first. */
  async chmod(path: string, mode: number, opts: { recursive?: boolean } = {}): Promise<Array<{ path: string; mode: number }>> {
    const p = normalizeSpritePath(path, 'chmod');
    await this.refuseKernel(p, 'chmod');
    const m = mode & PERMISSION_BITS;
    const targets = await this.metaTargets(p, 'chmod', opts.recursive);
    const out: Array<{ path: string; mode: number }> = [];
    for (const at of targets) {
      await this.guard(at, 'chmod', () => fsp.chmod(this.hostPath(at), m));
      out.push({ path: at, mode: m });
    }
    return out;
  }

  /** Sets owner ids (`-1` keeps one), following a final symlink; symlinks below are skipped. Returns the resulting ids. */
  async chown(path: string, uid: number, gid: number, opts: { recursive?: boolean } = {}): Promise<Array<{ path: string; uid: number; gid: number }>> {
    const p = normalizeSpritePath(path, 'chown');
    await this.refuseKernel(p, 'chown');
    const targets = await this.metaTargets(p, 'chown', opts.recursive);
    const out: Array<{ path: string; uid: number; gid: number }> = [];
    for (const at of targets) {
      const host = this.hostPath(at);
      const st = await this.guard(at, 'chown', async () => {
        await fsp.chown(host, uid, gid);
        return fsp.stat(host);
      });
      out.push({ path: at, uid: st.uid, gid: st.gid });
    }
    return out;
  }

  /** `p` (must exist, followed) and, with `recursive` and a directory, every non-symlink below it, top first. */
  private async metaTargets(p: string, syscall: string, recursive?: boolean): Promise<string[]> {
    const top = await this.statJson(p, true, syscall);
    const out = [p];
    if (recursive && top.type === 'directory') {
      for (const e of await this.readdir(p, { recursive: true })) if (e.stat.type !== 'symlink') out.push(e.path);
    }
    return out;
  }
}

/**
 * At most `range.length` bytes from `range.offset`, up to the end of the file. The size the file had at `stat` only
 * sizes the first buffer: a kernel file (`/proc/cpuinfo`) says 0 and has bytes, and a file may grow while it is read,
 * so reading goes on (the buffer doubling, never past `range.length`) until a read returns nothing.
 */
async function readRange(fh: FileHandle, range: { offset: number; length: number }, size: number): Promise<Buffer> {
  let buf = Buffer.alloc(Math.min(range.length, Math.max(size - range.offset, RANGE_FIRST_BUFFER)));
  let got = 0;
  while (got < range.length) {
    if (got === buf.length) buf = Buffer.concat([buf, Buffer.alloc(Math.min(buf.length, range.length - buf.length))]);
    const { bytesRead } = await fh.read(buf, got, buf.length - got, range.offset + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}
