/**
 * node's fs calls that js-exec's own fs lacks, served on the main thread over the sprite's files (BashFs: the running
 * user's permissions, the umask, hard links). The worker's `__spzFs(json)` (patch js-exec-worker-fs) carries one
 * request; node-fs-source.ts (part of the node prelude) builds node's Stats, `fs.accessSync`, `openSync`/`readSync`/
 * `writeSync`, `truncateSync`, `utimesSync`, `linkSync`, the `flag`/`mode` options of `writeFileSync` and
 * `mkdirSync`, and `unlinkSync`/`rmdirSync`/`rmSync`'s errors on it. A failure throws `CODE: text, syscall` (libuv's
 * lowercase strerror text, as node's messages read); the prelude adds the path the code gave. Source of the
 * behaviour: node 20's lib/fs.js over Linux's syscalls.
 */
import type { IFileSystem } from 'just-bash';
import { DISK_DEVICE, inodeNumber, ownerOf } from './devices.ts';
import { accessTime, subMsNanos } from './file-time.ts';

/** libuv's text for the codes these calls give (uv_strerror). */
const UV_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'illegal operation on a directory',
  ENOTDIR: 'not a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  ELOOP: 'too many symbolic links encountered',
  ENAMETOOLONG: 'name too long',
  EBADF: 'bad file descriptor',
  EIO: 'i/o error',
  ENOSPC: 'no space left on device',
};

/** An error node's prelude turns into node's (code, errno, syscall, path). */
const uvError = (code: string, syscall: string): Error => new Error(`${code}: ${UV_TEXT[code] ?? 'unknown error'}, ${syscall}`);

/** The POSIX code of an error BashFs threw (its `code`, or the `CODE:` its message starts with). */
const codeOf = (e: unknown): string => (e as { code?: string } | null)?.code ?? /^([A-Z]+):/.exec(String((e as Error)?.message))?.[1] ?? 'EIO';

/** Runs `f`; an error it throws becomes node's for `syscall`. */
async function as<T>(syscall: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw uvError(codeOf(e), syscall);
  }
}

/** One request of the prelude. `path`s are as the code gave them (relative to the program's working directory). */
type Request =
  | { op: 'access'; path: string; mode: number }
  | { op: 'stat'; path: string; follow: boolean }
  | { op: 'open'; path: string; read: boolean; write: boolean; create: boolean; excl: boolean; trunc: boolean; mode?: number }
  | { op: 'write'; path: string; data: string; position: number | null }
  | { op: 'read'; path: string; position: number; length: number }
  | { op: 'truncate'; path: string; len: number }
  | { op: 'utimes'; path: string; atime?: number; mtime: number }
  | { op: 'link'; existing: string; path: string }
  | { op: 'mkdir'; path: string; mode?: number; recursive: boolean }
  | { op: 'unlink'; path: string }
  | { op: 'rmdir'; path: string }
  | { op: 'rm'; path: string; recursive: boolean; force: boolean };

/**
 * The filesystem node's calls are served on: the shell's view of the sprite (BashFs in bash-fs.ts, which calls this
 * module), with its user's umask and permission check (`want`: 4 read, 2 write, 1 search/execute).
 */
export interface NodeFsHost extends IFileSystem {
  readonly umask: number;
  /** What open(2) lets the user do (effective ids and capabilities). */
  access(path: string, want: 4 | 2 | 1): Promise<boolean>;
  /** What access(2) answers (real ids, no capability for a user other than root). */
  accessReal(path: string, want: 4 | 2 | 1): Promise<boolean>;
}

/**
 * Serves one request (`json`: a {@link Request}) for a program running in `cwd` on `fs`; resolves with the JSON
 * answer, or rejects with `CODE: text, syscall`.
 */
export async function nodeFsCall(fs: NodeFsHost, cwd: string, json: string): Promise<string> {
  const q = JSON.parse(json) as Request;
  const abs = (p: string): string => fs.resolvePath(cwd, p);
  const lstat = async (p: string) => { try { return await fs.lstat(p); } catch { return undefined; } };
  const masked = (mode: number): number => mode & 0o7777 & ~fs.umask;
  switch (q.op) {
    case 'stat': {
      // node's Stats fields as Linux's stat(2) gives them for the sprite's files (stat-command.ts's rules: 4 KiB
      // blocks, the disk's device number, the type bits in the mode). The files keep no change or birth time: ctime
      // and birthtime are the mtime.
      const p = abs(q.path);
      const syscall = q.follow ? 'stat' : 'lstat';
      const st = await as(syscall, () => (q.follow ? fs.stat(p) : fs.lstat(p)));
      const o = ownerOf(st);
      const type = o.device ? 0o20000 : st.isDirectory ? 0o40000 : st.isSymbolicLink ? 0o120000 : 0o100000;
      const blocks = st.isDirectory ? 8 : st.isSymbolicLink || o.device ? 0 : Math.ceil(st.size / 4096) * 8;
      const nlink = (st as { nlink?: number }).nlink ?? (st.isDirectory ? 2 : 1);
      const timeMs = st.mtime.getTime() + subMsNanos(st.mtime) / 1e6;
      const read = accessTime(st);
      const atimeMs = read.getTime() + subMsNanos(read) / 1e6;
      return JSON.stringify({ atimeMs, dev: o.device ? 6 : DISK_DEVICE, mode: (st.mode & 0o7777) | type, nlink, uid: o.uid, gid: o.gid, rdev: 0, blksize: 4096, ino: inodeNumber(st, p), size: st.size, blocks, timeMs, isFile: st.isFile && !o.device, isDirectory: st.isDirectory, isSymbolicLink: st.isSymbolicLink, isDevice: o.device });
    }
    case 'access': {
      const p = abs(q.path);
      await as('access', () => fs.stat(p));
      // access(2) asks each bit the mode names, with the real ids and no capability; F_OK (0) only that the path resolves.
      for (const bit of [4, 2, 1] as const) if (q.mode & bit && !(await fs.accessReal(p, bit))) throw uvError('EACCES', 'access');
      return '{}';
    }
    case 'open': {
      // open(2) with node's flags (node-fs-source.ts parses 'r', 'w', 'a', 'wx', '+' and O_* numbers into these).
      const p = abs(q.path);
      const st = await lstat(p);
      if (st && q.create && q.excl) throw uvError('EEXIST', 'open');
      const target = st ? await as('open', () => fs.stat(p)) : undefined;
      if (!target) {
        if (!q.create) throw uvError('ENOENT', 'open');
        await as('open', () => fs.writeFile(p, new Uint8Array(0)));
        // open(2)'s mode applies to a file it creates, less the umask (BashFs already gave 0666 less the umask).
        if (q.mode !== undefined) await as('open', () => fs.chmod(p, masked(q.mode!)));
        return '{}';
      }
      if (target.isDirectory && q.write) throw uvError('EISDIR', 'open');
      if ((q.write && !(await fs.access(p, 2))) || (q.read && !(await fs.access(p, 4)))) throw uvError('EACCES', 'open');
      if (q.trunc && q.write) await as('open', () => fs.writeFile(p, new Uint8Array(0)));
      return '{}';
    }
    case 'write': {
      const p = abs(q.path);
      const data = Buffer.from(q.data, 'base64');
      if (q.position === null) {
        await as('write', () => fs.appendFile(p, data));
      } else {
        const old = Buffer.from(await as('write', () => fs.readFileBuffer(p)));
        const end = Math.max(old.length, q.position + data.length);
        const next = Buffer.alloc(end);
        old.copy(next);
        data.copy(next, q.position);
        await as('write', () => fs.writeFile(p, next));
      }
      return JSON.stringify({ written: data.length });
    }
    case 'read': {
      const bytes = Buffer.from(await as('read', () => fs.readFileBuffer(abs(q.path))));
      return JSON.stringify({ data: bytes.subarray(q.position, q.position + q.length).toString('base64') });
    }
    case 'truncate': {
      // node's truncateSync opens the file (r+) and ftruncates it: its errors are open's.
      const p = abs(q.path);
      const old = Buffer.from(await as('open', () => fs.readFileBuffer(p)));
      if (!(await fs.access(p, 2))) throw uvError('EACCES', 'open');
      const next = Buffer.alloc(Math.max(0, q.len));
      old.copy(next, 0, 0, Math.min(old.length, next.length));
      await as('open', () => fs.writeFile(p, next));
      return '{}';
    }
    case 'utimes': {
      const p = abs(q.path);
      await as('utime', () => fs.stat(p));
      await as('utime', () => fs.utimes(p, new Date(q.atime ?? q.mtime), new Date(q.mtime)));
      return '{}';
    }
    case 'link': {
      const from = abs(q.existing), to = abs(q.path);
      if (!(await lstat(from))) throw uvError('ENOENT', 'link');
      if (await lstat(to)) throw uvError('EEXIST', 'link');
      await as('link', () => fs.link(from, to));
      return '{}';
    }
    case 'mkdir': {
      // With `recursive`, node answers the first directory it made, as the code spelt it (`a` for `a/b/c`), or
      // nothing when all were there.
      let first: string | null = null;
      const created: string[] = [];
      if (q.recursive) {
        // mkdir -p's rule: what is there already must be a directory (a file is EEXIST, as mkdir(2) answers).
        const there = await lstat(abs(q.path));
        if (there && !(await as('mkdir', () => fs.stat(abs(q.path)))).isDirectory) throw uvError('EEXIST', 'mkdir');
        const parts = q.path.split('/');
        for (let i = 1; i <= parts.length; i++) {
          const prefix = parts.slice(0, i).join('/');
          if (prefix === '' || /(^|\/)\.\.?$/.test(prefix)) continue;
          const st = await lstat(abs(prefix));
          if (!st) { first ??= prefix; created.push(abs(prefix)); }
        }
      } else if (!(await lstat(abs(q.path)))) created.push(abs(q.path));
      await as('mkdir', () => fs.mkdir(abs(q.path), { recursive: q.recursive }));
      if (q.mode !== undefined) for (const d of created) await as('mkdir', () => fs.chmod(d, masked(q.mode!)));
      return JSON.stringify({ first });
    }
    case 'unlink': {
      const p = abs(q.path);
      const st = await lstat(p);
      if (!st) { await as('unlink', () => fs.lstat(p)); throw uvError('ENOENT', 'unlink'); }
      if (st.isDirectory) throw uvError('EISDIR', 'unlink');
      await as('unlink', () => fs.rm(p));
      return '{}';
    }
    case 'rmdir': {
      const p = abs(q.path);
      const st = await lstat(p);
      if (!st) { await as('rmdir', () => fs.lstat(p)); throw uvError('ENOENT', 'rmdir'); }
      if (!st.isDirectory) throw uvError('ENOTDIR', 'rmdir');
      if ((await fs.readdir(p)).length > 0) throw uvError('ENOTEMPTY', 'rmdir');
      await as('rmdir', () => fs.rm(p));
      return '{}';
    }
    case 'rm': {
      // node's rmSync lstats the path first: a missing one is lstat's ENOENT (nothing with `force`), a directory
      // without `recursive` its ERR_FS_EISDIR (the prelude words it).
      const p = abs(q.path);
      const st = await lstat(p);
      if (!st) { if (q.force) return '{}'; await as('lstat', () => fs.lstat(p)); throw uvError('ENOENT', 'lstat'); }
      if (st.isDirectory && !q.recursive) throw uvError('EISDIR', 'rm');
      await as('rm', () => fs.rm(p, { recursive: q.recursive, force: q.force }));
      return '{}';
    }
    default:
      throw uvError('EINVAL', 'fs');
  }
}
