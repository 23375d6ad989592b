/**
 * The just-bash `IFileSystem` adapter over a sprite's VFS: every file a shell command reads or writes is the
 * sprite's own, so exec, the fs API and checkpoints see one tree. It adds two read-only views the VFS does not
 * hold: the character devices under `/dev` (`/dev/null` swallows writes) and stub entries `/bin/<cmd>` and
 * `/usr/bin/<cmd>` for the simulated commands. It deliberately does not write just-bash's default layout
 * (`/bin`, `/dev`, `/proc`) into the VFS: it has no `mkdirSync`/`writeFileSync`, so just-bash skips that step.
 */
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from 'just-bash';
import { unsafeBytesFromLatin1, type ByteString } from 'just-bash';
import { Vfs, VfsError, type VfsStat } from '../model/vfs.ts';
import { yieldAfter } from './event-loop.ts';

type ReadFileOptions = Parameters<IFileSystem['readFile']>[1];
type WriteFileOptions = Parameters<IFileSystem['writeFile']>[2];
type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem['readdirWithFileTypes']>>>[number];

/** Paths that behave like character devices: reads give nothing, writes vanish. */
const DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty', '/dev/stdin', '/dev/stdout', '/dev/stderr']);
const DEVICE_MODE = 0o666;
const STUB_MODE = 0o755;
const STUB_DIRS = ['/bin/', '/usr/bin/'];

/** Options of {@link BashFs}. */
export interface BashFsOptions {
  /**
   * Names of the simulated commands. For each, `/bin/<name>` and `/usr/bin/<name>` stat as executable files when
   * the VFS holds nothing there, so `/bin/ls`, `which ls` and a `path=/usr/bin/env` exec resolve to the built-in.
   */
  commands?: ReadonlySet<string>;
  /** Epoch ms for the synthetic entries' mtime (the injected clock). */
  now?: () => number;
}

/**
 * A just-bash filesystem whose storage is `vfs`. Paths arrive absolute from just-bash and are normalised here.
 * Errors are the VFS's `VfsError`s, whose messages already read `ENOENT: no such file or directory, open '/x'`
 * as just-bash's own filesystems phrase them (commands turn that prefix into `No such file or directory`).
 * @see ../../../node_modules/just-bash/dist/fs/interface.d.ts, docs/architecture.md "Machines and engines"
 * @deviation Hard links (`ln` without `-s`) are copies: the VFS has no inodes, so later writes do not propagate.
 */
export class BashFs implements IFileSystem {
  private readonly commands: ReadonlySet<string>;
  private readonly now: () => number;

  constructor(
    private readonly vfs: Vfs,
    opts: BashFsOptions = {},
  ) {
    this.commands = opts.commands ?? new Set();
    this.now = opts.now ?? Date.now;
  }

  async readFile(path: string, options?: ReadFileOptions): Promise<string> {
    const text = Buffer.from(this.bytes(path)).toString(encodingOf(options) ?? 'utf8');
    await yieldAfter(text.length);
    return text;
  }

  async readFileBytes(path: string): Promise<ByteString> {
    const text = Buffer.from(this.bytes(path)).toString('latin1');
    await yieldAfter(text.length);
    return unsafeBytesFromLatin1(text);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    const data = this.bytes(path);
    await yieldAfter(data.length);
    return data;
  }

  async writeFile(path: string, content: FileContent, options?: WriteFileOptions): Promise<void> {
    this.write(path, content, options, false);
  }

  async appendFile(path: string, content: FileContent, options?: WriteFileOptions): Promise<void> {
    this.write(path, content, options, true);
  }

  async exists(path: string): Promise<boolean> {
    const p = Vfs.normalize(path);
    return this.vfs.exists(p) || this.synthetic(p) !== null;
  }

  async stat(path: string): Promise<FsStat> {
    return this.statWith(path, (p) => this.vfs.stat(p));
  }

  async lstat(path: string): Promise<FsStat> {
    return this.statWith(path, (p) => this.vfs.lstat(p));
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    this.vfs.mkdir(path, { recursive: options?.recursive ?? false });
  }

  async readdir(path: string): Promise<string[]> {
    return this.vfs.readdir(path).map((e) => e.name);
  }

  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    return this.vfs.readdir(path).map((e) => ({
      name: e.name,
      isFile: e.stat.type === 'file',
      isDirectory: e.stat.type === 'directory',
      isSymbolicLink: e.stat.type === 'symlink',
    }));
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    this.vfs.rm(path, { recursive: options?.recursive ?? false, force: options?.force ?? false });
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    this.vfs.copy(src, dest, { recursive: options?.recursive ?? false });
  }

  async mv(src: string, dest: string): Promise<void> {
    this.vfs.rename(src, dest);
  }

  resolvePath(base: string, path: string): string {
    return Vfs.normalize(path, base);
  }

  getAllPaths(): string[] {
    return this.vfs.allPaths();
  }

  async chmod(path: string, mode: number): Promise<void> {
    this.vfs.chmod(path, mode);
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    this.vfs.symlink(target, linkPath);
  }

  async link(existingPath: string, newPath: string): Promise<void> {
    if (this.vfs.exists(newPath) || isSymlink(this.vfs, newPath)) throw new VfsError('EEXIST', Vfs.normalize(newPath), 'link');
    this.vfs.copy(existingPath, newPath);
  }

  async readlink(path: string): Promise<string> {
    return this.vfs.readlink(path);
  }

  async realpath(path: string): Promise<string> {
    const p = Vfs.normalize(path);
    return this.synthetic(p) && !this.vfs.exists(p) ? p : this.vfs.realpath(p);
  }

  async utimes(path: string, _atime: Date, mtime: Date): Promise<void> {
    const p = Vfs.normalize(path);
    if (DEVICES.has(p) && !this.vfs.exists(p)) return;
    this.vfs.utimes(p, mtime.getTime());
  }

  /** The bytes at `path`, or nothing for a device. */
  private bytes(path: string): Uint8Array {
    const p = Vfs.normalize(path);
    if (!this.vfs.exists(p)) {
      const synthetic = this.synthetic(p);
      if (synthetic === 'device') return new Uint8Array(0);
      if (synthetic === 'stub') return new TextEncoder().encode(`#!/bin/bash\n# Built-in command: ${p.slice(p.lastIndexOf('/') + 1)}\n`);
    }
    return this.vfs.readFile(p);
  }

  private write(path: string, content: FileContent, options: WriteFileOptions, append: boolean): void {
    const p = Vfs.normalize(path);
    if (DEVICES.has(p) && !this.vfs.exists(p)) return;
    const data = typeof content === 'string' ? Buffer.from(content, encodingOf(options) ?? 'utf8') : content;
    this.vfs.writeFile(p, new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { append });
  }

  private statWith(path: string, stat: (p: string) => VfsStat): FsStat {
    const p = Vfs.normalize(path);
    try {
      return toFsStat(stat(p));
    } catch (err) {
      const synthetic = this.synthetic(p);
      if (!(err instanceof VfsError) || err.code !== 'ENOENT' || synthetic === null) throw err;
      const mode = synthetic === 'device' ? DEVICE_MODE : STUB_MODE;
      return { isFile: true, isDirectory: false, isSymbolicLink: false, mode, size: 0, mtime: new Date(this.now()) };
    }
  }

  /** Which synthetic entry `p` (normalised) is, if any. */
  private synthetic(p: string): 'device' | 'stub' | null {
    if (DEVICES.has(p)) return 'device';
    const dir = STUB_DIRS.find((d) => p.startsWith(d));
    if (dir && this.commands.has(p.slice(dir.length))) return 'stub';
    return null;
  }
}

function encodingOf(options: ReadFileOptions | WriteFileOptions): BufferEncoding | undefined {
  if (typeof options === 'string') return options;
  return options?.encoding ?? undefined;
}

function isSymlink(vfs: Vfs, path: string): boolean {
  try {
    return vfs.lstat(path).type === 'symlink';
  } catch {
    return false;
  }
}

function toFsStat(s: VfsStat): FsStat {
  return {
    isFile: s.type === 'file',
    isDirectory: s.type === 'directory',
    isSymbolicLink: s.type === 'symlink',
    mode: s.mode,
    size: s.size,
    mtime: new Date(s.mtimeMs),
  };
}
