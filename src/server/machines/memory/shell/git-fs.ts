/**
 * The promise filesystem isomorphic-git drives (`readFile`, `writeFile`, `mkdir`, `rmdir`, `unlink`, `stat`, `lstat`,
 * `readdir`, `readlink`, `symlink`, `chmod`, `rm`) over a shell command's just-bash filesystem, so every object, ref
 * and index write of the shell engine's `git` lands in the sprite's own VFS and nowhere else. It owns the shape
 * isomorphic-git expects (Node's error `code`s, Node-like stats with the file type in `mode`), nothing of git.
 * @see https://isomorphic-git.org/docs/en/fs
 */
import type { IFileSystem } from 'just-bash';
import { SPRITE_GID, SPRITE_UID } from '../../../../protocol/sprite-tree.ts';

/** A Node-like stat, as isomorphic-git's `normalizeStats` reads it. */
export interface GitStat {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  size: number;
  ino: number;
  dev: number;
  uid: number;
  gid: number;
  mtimeMs: number;
  ctimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The `promises` member isomorphic-git binds (its `fs` option is `{ promises: GitFs }`). */
export interface GitFs {
  readFile(path: string, options?: { encoding?: string } | string): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, options?: { mode?: number; encoding?: string } | string): Promise<void>;
  mkdir(path: string, options?: unknown): Promise<void>;
  rmdir(path: string): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<GitStat>;
  lstat(path: string): Promise<GitStat>;
  readdir(path: string): Promise<string[]>;
  readlink(path: string): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
}

/** An error with Node's `code` (isomorphic-git tells a missing file by `code === 'ENOENT'`). */
function coded(err: unknown): Error & { code?: string } {
  const e = (err instanceof Error ? err : new Error(String(err))) as Error & { code?: string };
  if (typeof e.code !== 'string') {
    const m = /^(E[A-Z]+)\b/.exec(e.message);
    if (m) e.code = m[1];
    else if (/no such file/i.test(e.message)) e.code = 'ENOENT';
    else if (/not a directory/i.test(e.message)) e.code = 'ENOTDIR';
    else if (/file exists/i.test(e.message)) e.code = 'EEXIST';
  }
  return e;
}

/** `fn` with any rejection turned into a {@link coded} error. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw coded(err);
  }
}

const TYPE_BITS = { file: 0o100000, dir: 0o040000, symlink: 0o120000 } as const;

/**
 * The isomorphic-git filesystem over `fs` (a command context's `ctx.fs`). Paths are absolute. The stats carry no
 * inode (the VFS has none), so isomorphic-git's stat cache can match a rewritten file of the same size written in
 * the same millisecond: status and diff never trust it, they hash the working tree (git-repo.ts).
 */
export function gitFs(fs: IFileSystem): GitFs {
  const toStat = async (path: string, link: boolean): Promise<GitStat> => {
    const s = await guard(() => (link ? fs.lstat(path) : fs.stat(path)));
    const type = s.isSymbolicLink ? 'symlink' : s.isDirectory ? 'dir' : 'file';
    const owner = s as unknown as { uid?: number; gid?: number };
    const ms = s.mtime.getTime();
    return {
      type,
      mode: TYPE_BITS[type] | (s.mode & 0o7777),
      size: s.size,
      ino: 0,
      dev: 0,
      uid: owner.uid ?? SPRITE_UID,
      gid: owner.gid ?? SPRITE_GID,
      mtimeMs: ms,
      ctimeMs: ms,
      isFile: () => type === 'file',
      isDirectory: () => type === 'dir',
      isSymbolicLink: () => type === 'symlink',
    };
  };
  const encodingOf = (options: { encoding?: string } | string | undefined) => (typeof options === 'string' ? options : options?.encoding);
  return {
    async readFile(path, options) {
      const bytes = await guard(() => fs.readFileBuffer(path));
      const enc = encodingOf(options);
      return enc ? Buffer.from(bytes).toString(enc as BufferEncoding) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async writeFile(path, data, options) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      await guard(() => fs.writeFile(path, bytes));
      const mode = typeof options === 'object' ? options.mode : undefined;
      if (mode !== undefined) await guard(() => fs.chmod(path, mode & 0o777));
    },
    async mkdir(path) {
      if (await fs.exists(path)) throw coded(new Error(`EEXIST: file already exists, mkdir '${path}'`));
      await guard(() => fs.mkdir(path));
    },
    async rmdir(path) {
      const s = await toStat(path, true);
      if (s.type !== 'dir') throw coded(new Error(`ENOTDIR: not a directory, rmdir '${path}'`));
      if ((await guard(() => fs.readdir(path))).length > 0) throw coded(new Error(`ENOTEMPTY: directory not empty, rmdir '${path}'`));
      await guard(() => fs.rm(path, { recursive: true }));
    },
    rm: (path, options) => guard(() => fs.rm(path, { recursive: options?.recursive ?? false, force: options?.force ?? false })),
    async unlink(path) {
      const s = await toStat(path, true);
      if (s.type === 'dir') throw coded(new Error(`EISDIR: illegal operation on a directory, unlink '${path}'`));
      await guard(() => fs.rm(path));
    },
    stat: (path) => toStat(path, false),
    lstat: (path) => toStat(path, true),
    readdir: (path) => guard(() => fs.readdir(path)),
    readlink: (path) => guard(() => fs.readlink(path)),
    symlink: (target, path) => guard(() => fs.symlink(target, path)),
    chmod: (path, mode) => guard(() => fs.chmod(path, mode)),
  };
}
