/**
 * The just-bash `IFileSystem` adapter over a sprite's VFS: every file a shell command reads or writes is the
 * sprite's own, so exec, the fs API and checkpoints see one tree. It adds two read-only views the VFS does not
 * hold: the character devices under `/dev` (`/dev/null` swallows writes, `/dev/zero` and `/dev/urandom` read as
 * zeros and random bytes) and stub entries `/bin/<cmd>` and `/usr/bin/<cmd>` for the simulated commands (also
 * listed by `ls /bin`), and with `proc` a small read-only `/proc` (proc.ts). Paths over Linux's limits
 * fail with ENAMETOOLONG, NUL in a path with EINVAL (a newline is allowed, as on Linux). It deliberately does not write just-bash's default layout
 * (`/bin`, `/dev`, `/proc`) into the VFS: it has no `mkdirSync`/`writeFileSync`, so just-bash skips that step.
 */
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from 'just-bash';
import { unsafeBytesFromLatin1, type ByteString } from 'just-bash';
import { Vfs, type VfsInodeStat } from '../vfs.ts';
import { SPRITE_GID, SPRITE_UID } from '../../../../protocol/sprite-tree.ts';
import { spriteUserInGroup } from '../accounts.ts';
import { VfsError } from '../../port.ts';
import { checkPath as checkVfsPath } from '../../port.ts';
import { deviceBytes, DISK_DEVICE, withOwner } from './devices.ts';
import { fixedPid, lazyPid, procDir, procFile, procLink, type ProcInfo } from './proc.ts';
import { LAST_LEVEL_VARIABLE } from './shell-level.ts';
import { accessBits, REAL_ACCESS_VARIABLE, runsAsRoot } from './run-as.ts';
import { clockTime, fileTime, subMsNanos } from './file-time.ts';
import { yieldAfter } from '../../../runtime/event-loop.ts';
import { shellTextBytes } from './shell-text.ts';
import { nodeFsCall } from './node-fs.ts';

type ReadFileOptions = Parameters<IFileSystem['readFile']>[1];
type WriteFileOptions = Parameters<IFileSystem['writeFile']>[2];
type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem['readdirWithFileTypes']>>>[number];

/** Paths that behave like character devices: writes vanish; reads as `deviceBytes` gives them. */
const DEVICES = new Set(['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty', '/dev/stdin', '/dev/stdout', '/dev/stderr']);
const DEVICE_MODE = 0o666;
/** `/dev` as `ls /dev` lists it: the devices above, and `fd` (a link to `/proc/self/fd`) when there is a `/proc`. */
const DEV_DIR = '/dev';
/** A descriptor's entry under `/proc/self/fd` or `/proc/PID/fd` (proc.ts lists which), each read as a device. */
const FD_ENTRY = /^(\/proc\/(?:self|\d+)\/fd)\/(\d+)$/;
/** A path below the `/dev/fd` link, read through it (`/dev/fd/1` is `/proc/self/fd/1`). */
const throughDevFd = (p: string): string => (p.startsWith('/dev/fd/') ? `/proc/self/fd${p.slice('/dev/fd'.length)}` : p);
/** A path whose lexical normal form may name another entry than the kernel's lookup: a `..`, a final `/` or `.`. */
const KERNEL_FORM = /(?:^|\/)\.\.(?:\/|$)|[^/]\/+$|\/\.$/;
const STUB_MODE = 0o755;
const STUB_DIRS = ['/bin/', '/usr/bin/'];
/**
 * Stubs that are symlinks to another command's stub in the same directory, as Debian and Ubuntu install them:
 * `sh` → `dash` (dash's postinst), so `readlink /bin/sh` is `dash` and `readlink -f /bin/sh` is `/usr/bin/dash`.
 */
const STUB_LINKS: Readonly<Record<string, string>> = { sh: 'dash' };
/** Stubs of another mode than {@link STUB_MODE}: the set-user-ID programs of Ubuntu (`[ -u /usr/bin/passwd ]`). */
const STUB_MODES: Readonly<Record<string, number>> = { passwd: 0o4755, su: 0o4755, sudo: 0o4755, mount: 0o4755, umount: 0o4755 };
/** The name of the command whose stub `p` (in a stub directory) is. */
const stubName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
/** The flag on a chmod that sets the mode a file was just created with (patches/just-bash/python-created-file-mode). */
const CREATION_MODE = 0o1000000;

/** Options of {@link BashFs}. */
export interface BashFsOptions {
  /**
   * Names of the simulated commands. For each, `/bin/<name>` and `/usr/bin/<name>` stat as executable files when
   * the VFS holds nothing there, so `/bin/ls`, `which ls` and a `path=/usr/bin/env` exec resolve to the built-in.
   */
  commands?: ReadonlySet<string>;
  /** Epoch ms for the synthetic entries' mtime (the injected clock). */
  now?: () => number;
  /** The process `/proc/self` describes; without it there is no `/proc` (proc.ts). */
  proc?: ProcInfo;
  /**
   * Whether the sprite user's commands hold an exec session's file capabilities (CAP_CHOWN, CAP_DAC_OVERRIDE,
   * CAP_FOWNER, CAP_FSETID), as on production: permission bits do not stop them (a file needs some x bit to be
   * executed), they chmod, chown and touch anyone's files, and what they create stays theirs. False for a service's
   * commands (the plain sprite user). Default true. @see docs/fidelity.md "Root-level writes"
   */
  capabilities?: boolean;
  /**
   * Whether the process has a controlling terminal (a TTY exec). Without one, opening `/dev/tty` fails with ENXIO
   * (`No such device or address`), as open(2) does on Linux; with one, the engine's output sinks take its writes.
   */
  tty?: boolean;
}

/** Bits of `access`: read, write, execute (search for a directory). */
type Want = 4 | 2 | 1;

/**
 * A just-bash filesystem whose storage is `vfs`. Paths arrive absolute from just-bash and are normalised here.
 * Errors are the VFS's `VfsError`s, whose messages already read `ENOENT: no such file or directory, open '/x'`
 * as just-bash's own filesystems phrase them (commands turn that prefix into `No such file or directory`).
 * @see ../../../node_modules/just-bash/dist/fs/interface.d.ts, docs/architecture.md "Machines and engines"
 */
export class BashFs implements IFileSystem {
  private readonly commands: ReadonlySet<string>;
  private readonly now: () => number;
  private readonly proc: ProcInfo | undefined;
  private readonly tty: boolean;
  /**
   * Whether this view acts as root (a command under `sudo`): no permission checks, and what it creates is root's.
   * Otherwise it acts as the sprite user, as a command on a real sprite does (holding an exec session's
   * capabilities or not: `capable`).
   */
  private readonly asRoot: boolean = false;
  /** Whether the sprite user holds an exec session's file capabilities (`BashFsOptions.capabilities`). */
  private readonly capable: boolean;
  /** A shell whose file tests are access(2)'s real-id answer (run-as.ts `REAL_ACCESS_VARIABLE`: coreutils' `test`). */
  private readonly realAccess: boolean = false;
  /**
   * The file mode creation mask of the shell running the current command (bash's `umask` builtin sets it, the
   * interpreter hands each command its shell's): a new file gets `0666 & ~umask`, a new directory `0777 & ~umask`,
   * a copy its source's mode `& ~umask`, as open(2), mkdir(2) and GNU cp give them. A process starts with 0022.
   */
  umask = 0o022;

  constructor(
    private readonly vfs: Vfs,
    opts: BashFsOptions = {},
  ) {
    this.commands = opts.commands ?? new Set();
    this.now = opts.now ?? Date.now;
    this.proc = opts.proc;
    this.tty = opts.tty ?? false;
    this.capable = opts.capabilities ?? true;
  }

  /**
   * Whether permission bits do not stop this view's user: root (under `sudo`), or the sprite user holding
   * CAP_DAC_OVERRIDE and CAP_FOWNER (an exec session's; generic_permission(), inode_owner_or_capable()).
   */
  private get overrides(): boolean {
    return this.asRoot || this.capable;
  }

  /**
   * This filesystem as the command `name` (run with `args`, found at `path`, given the `exported` environment) sees
   * it: the same files, with `/proc/self` describing that command (`cat /proc/self/comm` prints `cat`, `readlink
   * /proc/self/exe` names `/usr/bin/readlink`, `/proc/self/environ` holds `exported`). The interpreter calls it for
   * each command it runs (interpreter patches `proc-self-command`, `proc-self-environ`, `proc-subshell-pid`); builtins
   * keep the shell's view. `shellPid` is the pid of the shell running the command (`$BASHPID`): a subshell's has its
   * `/proc` entry. `cwd` is the directory the command runs in (`/proc/self/cwd` names it, symbolic links resolved);
   * the command gets a pid of its own when its `/proc/self` is first asked for, unless it runs in the shell's process
   * or is the process of a pipeline stage (`execParent`: that process's parent; its pid is `shellPid`).
   * @returns a view sharing every file and setting with this one
   */
  forCommand(name: string, args: readonly string[], path: string, env?: ReadonlyMap<string, string>, exported?: Readonly<Record<string, string>>, shellPid?: number, cwd?: string, execParent?: number): BashFs {
    const asRoot = env ? runsAsRoot(env) : this.asRoot;
    if (!this.proc && asRoot === this.asRoot) return this;
    const props: PropertyDescriptorMap = { asRoot: { value: asRoot } };
    // The last command of a `bash -c` script runs in the shell's own process (shell-level.ts marks it); a command
    // of a substitution in its words runs in a subshell (another $BASHPID), even with the mark in its environment.
    const inPlace = env?.has(LAST_LEVEL_VARIABLE) === true && (shellPid === undefined || shellPid === this.proc?.pid);
    const subshell = this.proc && shellPid !== undefined && shellPid !== this.proc.pid ? { subshell: shellPid } : {};
    if (this.proc) {
      const direct = execParent !== undefined && shellPid !== undefined;
      const own = inPlace ? {} : direct ? { pid: fixedPid(shellPid), ppid: execParent } : this.proc.allocatePid ? { pid: lazyPid(this.proc.allocatePid) } : {};
      const where = cwd === undefined ? {} : { cwd: this.physical(cwd) };
      const limits = env ? { shellVariables: env } : {};
      props.proc = { value: { ...this.proc, ...subshell, command: { name, args: [...args], path, ...(exported ? { env: exported } : {}), ...(inPlace ? { inPlace } : {}), ...own, ...where, ...limits } } };
    }
    return Object.create(this, props) as BashFs;
  }

  /** `dir` with its symbolic links resolved, as the kernel keeps a process's directory (`dir` itself when it is gone). */
  private physical(dir: string): string {
    try {
      return this.vfs.realpath(Vfs.normalize(dir));
    } catch {
      return dir;
    }
  }

  /** Whether the command this view is for runs in the shell's own process (the last command of `bash -c`). */
  runsInShellProcess(): boolean {
    return this.proc?.command?.inPlace === true;
  }

  /**
   * This filesystem as a shell with environment `env` uses it for its own redirections: as root when `env` is
   * sudo's (`sudo bash -c 'echo x > /etc/f'`), else as the sprite user. The interpreter calls it for each shell
   * it starts (interpreter patch `shell-user-view`).
   * @returns a view sharing every file and setting with this one (this one when the user is the same)
   */
  forShell(env: ReadonlyMap<string, string>): BashFs {
    const asRoot = runsAsRoot(env);
    const realAccess = env.has(REAL_ACCESS_VARIABLE);
    if (asRoot === this.asRoot && realAccess === this.realAccess) return this;
    return Object.create(this, { asRoot: { value: asRoot }, realAccess: { value: realAccess } }) as BashFs;
  }

  /**
   * Whether this view's user may read (4), write (2) or execute/search (1) `path` with its effective ids and
   * capabilities, as faccessat(AT_EACCESS) answers and as open(2) decides (`test -r/-w/-x`: bash asks with
   * AT_EACCESS; interpreter patch `test-file-access`): the owner's, group's or others' bits for the plain sprite user;
   * anything but executing a file without an x bit for root and for the sprite user holding CAP_DAC_OVERRIDE.
   * False for a missing path.
   */
  async access(path: string, want: Want): Promise<boolean> {
    return this.accessAs(path, want, this.realAccess ? this.asRoot : this.overrides);
  }

  /**
   * access(2) itself (node's `fs.access`, Python's `os.access`): it checks the real ids, and for a user other than
   * root it drops every capability first (fs/open.c `access_override_creds`), so the sprite user gets its
   * permission bits' answer even in an exec session. False for a missing path.
   */
  async accessReal(path: string, want: Want): Promise<boolean> {
    return this.accessAs(path, want, this.asRoot);
  }

  private async accessAs(path: string, want: Want, overrides: boolean): Promise<boolean> {
    try {
      // Without the overrides every directory on the way must be searchable too (path resolution's EACCES).
      if (!overrides) this.reach(this.kernel(path), 'access', false);
      const st = await this.stat(path);
      return (accessBits(ownerFacts(st), overrides, st.isDirectory) & want) !== 0;
    } catch {
      return false;
    }
  }

  /**
   * One of node's fs calls for a program js-exec runs in `cwd` (`json`: node-fs.ts's request; the worker's sync
   * bridge hands it here, patch js-exec-worker-fs-handler). Resolves with the JSON answer.
   */
  spzNodeFs(cwd: string, json: string): Promise<string> {
    return nodeFsCall(this, cwd, json);
  }

  async readFile(path: string, options?: ReadFileOptions): Promise<string> {
    const text = Buffer.from(this.bytes(path)).toString(encodingOf(options) ?? 'utf8');
    await yieldAfter(text.length);
    return text;
  }

  async readFileBytes(path: string): Promise<ByteString> {
    // One pass over a large file, not three (copy, copy, string): the stored bytes straight into the string, so a
    // `cat` of a 60 MiB file holds the event loop no longer than making that string (docs/limits.md).
    const p = this.kernel(path);
    this.reach(p, 'open');
    if (this.vfs.exists(p)) this.permit(p, 0o4);
    const data = this.vfs.exists(p) ? this.vfs.readFileShared(p) : this.bytes(p);
    const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
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
    const p = this.kernel(path);
    if (!this.reachable(p)) return false;
    return this.vfs.exists(p) || this.synthetic(p) !== null;
  }

  async stat(path: string): Promise<FsStat> {
    const p = this.kernel(path);
    const synthetic = this.synthetic(p);
    if (synthetic === 'proclink') return this.stat(this.procTarget(p));
    if (synthetic === 'stublink' && !this.lexists(p)) return this.stat(this.stubTarget(p));
    return this.statWith(path, (q) => this.vfs.stat(q));
  }

  async lstat(path: string): Promise<FsStat> {
    return this.statWith(path, (p) => this.vfs.lstat(p));
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const p = this.kernel(path);
    checkPath(p, 'mkdir');
    // The first directory to make is made in a directory that must let the user add entries (`mkdir -p` too).
    const first = options?.recursive ? this.firstMissing(p) : p;
    if (first === null) return;
    this.mayChangeEntries(first, 'mkdir', true);
    this.vfs.mkdir(p, { recursive: options?.recursive ?? false, mode: 0o777 & ~this.umask });
    this.ownCreated(first, true);
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((e) => e.name);
  }

  /** The VFS entries, plus (in `/bin` and `/usr/bin`) the built-in commands' stubs the VFS does not hold, by name. */
  async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const listed = this.proc && this.kernel(path) === '/dev/fd' ? '/proc/self/fd' : throughDevFd(this.kernel(path));
    const proc = this.proc && !this.vfs.exists(listed) ? procDir(listed, this.proc) : null;
    if (proc) {
      const kind = (name: string) => this.synthetic(`${listed}/${name}`);
      return proc.map((name) => ({ name, isFile: kind(name) === 'proc' || kind(name) === 'device', isDirectory: kind(name) === 'procdir', isSymbolicLink: kind(name) === 'proclink' }));
    }
    if (this.kernel(path) === DEV_DIR && !this.vfs.exists(DEV_DIR)) {
      const devices = [...DEVICES].map((p) => ({ name: p.slice(DEV_DIR.length + 1), isFile: true, isDirectory: false, isSymbolicLink: false }));
      if (this.proc) devices.push({ name: 'fd', isFile: false, isDirectory: false, isSymbolicLink: true });
      return devices.sort((a, b) => (a.name < b.name ? -1 : 1));
    }
    this.mayList(this.kernel(path));
    const entries: DirentEntry[] = this.vfs.readdir(path).map((e) => ({
      name: e.name,
      isFile: e.stat.type === 'file',
      isDirectory: e.stat.type === 'directory',
      isSymbolicLink: e.stat.type === 'symlink',
    }));
    // `ls /bin/` names the directory through the `/bin` link: the kernel's lookup ends in `/usr/bin/`.
    const p = this.kernel(path).replace(/(.)\/+$/, '$1');
    if (!STUB_DIRS.includes(`${p}/`)) return entries;
    const held = new Set(entries.map((e) => e.name));
    for (const name of this.commands) {
      const link = this.synthetic(`${p}/${name}`) === 'stublink';
      if (!held.has(name)) entries.push({ name, isFile: !link, isDirectory: false, isSymbolicLink: link });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Removes `path` once this view's user may remove every entry it takes away (else EACCES/EPERM and nothing goes).
   * @deviation GNU `rm -r` removes what it may and reports each entry it may not; here a tree holding one entry the
   * user may not remove stays whole.
   */
  async rm(path: string, options?: RmOptions): Promise<void> {
    const p = this.kernel(path);
    if (this.lexists(p)) {
      this.mayChangeEntries(p, 'rm');
      // Emptying a directory removes entries from it and from every directory below.
      if (options?.recursive && this.vfs.lstat(p).type === 'directory') {
        for (const e of [{ path: p }, ...this.vfs.readdir(p, { recursive: true })]) {
          if (this.vfs.lstat(e.path).type === 'directory') for (const c of this.vfs.readdir(e.path)) this.mayChangeEntries(c.path, 'rm');
        }
      }
    }
    this.vfs.rm(p, { recursive: options?.recursive ?? false, force: options?.force ?? false });
  }

  /**
   * Copies `src` to `dest` as this view's user may: the source must be readable (a directory readable and
   * searchable), the destination writable or creatable. What a recursive copy may not read below the top is left
   * out (a file) or left empty (a directory), as GNU `cp -r` copies the rest, and the copy then fails with EACCES
   * naming each such source path, one message a line (copy-move.ts words them as GNU does).
   */
  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const s = this.kernel(src);
    const d = this.kernel(dest);
    checkPath(d, 'copyfile');
    this.reach(s, 'open');
    const denied = this.vfs.exists(s) ? this.unreadable(s, options?.recursive ?? false) : [];
    if (denied[0]?.path === s) throw new VfsError('EACCES', s, denied[0].syscall);
    this.reach(d, 'open');
    const fresh = !this.vfs.exists(d);
    if (fresh) this.mayChangeEntries(d, 'copyfile');
    else if (this.vfs.stat(d).type === 'file') this.permit(d, 0o2);
    this.vfs.copy(s, d, { recursive: options?.recursive ?? false });
    // A copy is created as open(2) creates a file: the source's mode less the mask (`cp -p` sets the mode after).
    if (fresh && this.umask !== 0) this.maskTree(d);
    if (fresh) this.ownCreated(d, true);
    if (denied.length === 0) return;
    for (const miss of denied) {
      const copy = `${d}${miss.path.slice(s.length)}`;
      if (miss.dir) for (const e of this.vfs.readdir(copy)) this.vfs.rm(e.path, { recursive: true, force: true });
      else this.vfs.rm(copy, { force: true });
    }
    const err = new VfsError('EACCES', denied[0]!.path, denied[0]!.syscall);
    err.message = denied.map((m) => new VfsError('EACCES', m.path, m.syscall).message).join('\n');
    throw err;
  }

  async mv(src: string, dest: string): Promise<void> {
    const s = this.kernel(src);
    const d = this.kernel(dest);
    checkPath(d, 'rename');
    if (this.lexists(s)) {
      this.mayChangeEntries(s, 'rename');
      this.mayChangeEntries(d, 'rename');
    }
    this.vfs.rename(s, d);
  }

  /**
   * The absolute path `path` names from the directory `base`, as the kernel looks it up (Vfs.lookupPath): normal
   * form, except that a `..` after a symbolic link climbs from the link's target, and a trailing slash after a
   * file or a symlink stays so that the lookup fails with ENOTDIR, or follows the link.
   */
  resolvePath(base: string, path: string): string {
    const p = this.kernel(path.startsWith('/') ? path : `${base}/${path}`);
    // Nothing there yet (`cp f new/`, `rsync -a src/ dst/`): the commands weigh the slash of their operand themselves.
    return p.length > 1 && p.endsWith('/') && !this.lexists(p.slice(0, -1)) ? p.slice(0, -1) : p;
  }

  /**
   * `path` (absolute) in the form every method here works with: `Vfs.normalize`'s, unless it holds a `..` or ends
   * in a slash or `.`, which only a lookup through the tree can take as the kernel does (`lookupPath`). The
   * directories this view adds (`/proc/self/`, `/dev/fd/`) take a trailing slash as directories do.
   */
  private kernel(path: string): string {
    if (!KERNEL_FORM.test(path)) return Vfs.normalize(path);
    const p = this.vfs.lookupPath(path);
    if (p.length > 1 && p.endsWith('/')) {
      const kind = this.synthetic(p.slice(0, -1));
      if (kind === 'procdir' || kind === 'proclink' || (kind === null && this.proc && p === '/dev/fd/')) return p.slice(0, -1);
    }
    return p;
  }

  getAllPaths(): string[] {
    return this.vfs.allPaths();
  }

  async chmod(path: string, mode: number): Promise<void> {
    // The mode a program asked for when it created the file (Python's open, through its worker): less the umask.
    if (mode & CREATION_MODE) mode &= 0o7777 & ~this.umask;
    // Only the owner (or root, or a holder of CAP_FOWNER) may change a file's mode: chmod(2)'s EPERM.
    if (!this.overrides && this.vfs.exists(path) && this.vfs.stat(path).uid !== SPRITE_UID) throw new VfsError('EPERM', this.kernel(path), 'chmod');
    this.vfs.chmod(path, mode);
  }

  /**
   * Sets the owner (`-1` keeps an id), following symlinks: root, or the sprite user holding CAP_CHOWN (an exec
   * session's). The plain sprite user (a service's) may only give a file it owns one of its own groups (`sprite`,
   * `sudo`, `users`), keeping its owner, as chown(2) lets an owner; anything else is chown(2)'s EPERM.
   */
  async chown(path: string, uid: number, gid: number): Promise<void> {
    if (!this.overrides) {
      const st = this.vfs.exists(path) ? this.vfs.stat(path) : undefined;
      const ownGroup = st !== undefined && st.uid === SPRITE_UID && (uid === -1 || uid === st.uid) && (gid === -1 || gid === st.gid || spriteUserInGroup(gid));
      if (!ownGroup) throw new VfsError('EPERM', this.kernel(path), 'chown');
    }
    this.vfs.chown(path, uid, gid);
  }

  async symlink(target: string, linkPath: string): Promise<void> {
    const p = this.kernel(linkPath);
    checkPath(p, 'symlink');
    this.mayChangeEntries(p, 'symlink', true);
    this.vfs.symlink(target, p);
  }

  /** A hard link: `newPath` becomes another name of the file at `existingPath` (a final symlink is linked itself). */
  async link(existingPath: string, newPath: string): Promise<void> {
    const p = this.kernel(newPath);
    checkPath(p, 'link');
    this.mayChangeEntries(p, 'link', true);
    this.vfs.link(existingPath, p);
  }

  async readlink(path: string): Promise<string> {
    const p = this.kernel(path);
    this.reach(p, 'readlink');
    const synthetic = this.synthetic(p);
    if (synthetic === 'stublink' && !this.lexists(p)) return STUB_LINKS[stubName(p)]!;
    return synthetic === 'proclink' ? procLink(p, this.proc!)! : this.vfs.readlink(p);
  }

  async realpath(path: string): Promise<string> {
    const p = this.kernel(path);
    const synthetic = this.synthetic(p);
    if (synthetic === 'proclink') return this.realpath(this.procTarget(p));
    if (synthetic === 'stublink' && !this.lexists(p)) return this.realpath(this.stubTarget(p));
    this.reach(p, 'realpath');
    if (!synthetic || this.vfs.exists(p)) return this.vfs.realpath(p);
    // A stub is in its directory as the kernel finds it (`/bin/ls` is `/usr/bin/ls` through the `/bin` link).
    if (synthetic === 'stub') return `${this.vfs.realpath(p.slice(0, p.lastIndexOf('/')))}/${stubName(p)}`;
    return p;
  }

  /**
   * Sets the access and modification times of `path` (following symlinks) to `atime` and `mtime`, with their
   * nanoseconds (file-time.ts).
   * @deviation Sets the time of any file the user can name: utime(2) would want the owner (or write permission).
   */
  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    const p = this.kernel(path);
    if (DEVICES.has(p) && !this.vfs.exists(p)) return;
    this.vfs.utimes(p, mtime.getTime(), { ns: subMsNanos(mtime), atime: { ms: atime.getTime(), ns: subMsNanos(atime) } });
  }

  /** `utimes` on a symlink itself, not its target (utimensat with AT_SYMLINK_NOFOLLOW: `touch -h`). */
  async lutimes(path: string, atime: Date, mtime: Date): Promise<void> {
    this.vfs.utimes(this.kernel(path), mtime.getTime(), { ns: subMsNanos(mtime), noFollow: true, atime: { ms: atime.getTime(), ns: subMsNanos(atime) } });
  }

  /** Throws ENXIO for opening `/dev/tty` (normalised `p`) without a controlling terminal, as open(2) does. */
  private openTerminal(p: string): void {
    if (p !== '/dev/tty' || this.tty || this.vfs.exists(p)) return;
    throw Object.assign(new Error(`ENXIO: no such device or address, open '${p}'`), { code: 'ENXIO', path: p, syscall: 'open' });
  }

  /** The bytes at `path`, or nothing for a device. */
  private bytes(path: string): Uint8Array {
    const p = this.kernel(path);
    this.openTerminal(p);
    if (!this.vfs.exists(p)) {
      const synthetic = this.synthetic(p);
      if (synthetic === 'proclink') return this.bytes(this.procTarget(p));
      if (synthetic === 'stublink' && !this.lexists(p)) return this.bytes(this.stubTarget(p));
      if (synthetic === 'device') return deviceBytes(p);
      if (synthetic === 'proc') return procFile(p, this.proc!)!;
      if (synthetic === 'stub') return stubBytes(p);
    }
    this.reach(p, 'open');
    this.permit(p, 0o4);
    return this.vfs.readFile(p);
  }

  /**
   * Throws EACCES unless this view's user may search (x) every directory on the way to `p` (normalised), as path
   * resolution asks of each component: `cat d/f`, `ls d/e`, `[ -e d/f ]` fail under a `chmod 600 d` (or 000) as
   * path_resolution(7) says, for the plain sprite user. Root and CAP_DAC_OVERRIDE search anything; a missing or
   * non-directory component is the lookup's to report.
   */
  private reach(p: string, syscall: string, overrides = this.overrides): void {
    if (overrides) return;
    for (let at = p.indexOf('/', 1); at > 0; at = p.indexOf('/', at + 1)) this.searchable(p.slice(0, at), p, syscall);
    if (p !== '/') this.searchable('/', p, syscall);
  }

  /** Throws EACCES (for `p`) when the directory `dir` exists and this view's user may not search it. */
  private searchable(dir: string, p: string, syscall: string): void {
    let st: VfsInodeStat;
    try {
      st = this.vfs.stat(dir);
    } catch {
      return;
    }
    if (st.type === 'directory' && (accessBits(st, false, true) & 1) === 0) throw new VfsError('EACCES', p, syscall);
  }

  /** Whether `reach` lets this view's user get to `p`. */
  private reachable(p: string): boolean {
    try {
      this.reach(p, 'stat');
      return true;
    } catch {
      return false;
    }
  }

  /** Throws EACCES unless this view's user may list the directory `p`: reach it, and read it (opendir(3)). */
  private mayList(p: string): void {
    this.reach(p, 'scandir');
    if (this.overrides || !this.vfs.exists(p)) return;
    const st = this.vfs.stat(p);
    if (st.type === 'directory' && (accessBits(st, false, true) & 4) === 0) throw new VfsError('EACCES', p, 'scandir');
  }

  /**
   * What this view's user may not read of the tree at `p` (with `recursive`, below it too), depth first in name
   * order: a file without r (`open`), a directory without r (`scandir`) or x (`stat`); nothing below those is listed.
   */
  private unreadable(p: string, recursive: boolean): Array<{ path: string; dir: boolean; syscall: string }> {
    if (this.overrides) return [];
    const st = this.vfs.stat(p);
    const bits = accessBits(st, false, st.type === 'directory');
    if (st.type !== 'directory') return st.type === 'file' && (bits & 4) === 0 ? [{ path: p, dir: false, syscall: 'open' }] : [];
    if (!recursive) return [];
    if ((bits & 5) !== 5) return [{ path: p, dir: true, syscall: bits & 1 ? 'scandir' : 'stat' }];
    return this.vfs.readdir(p).flatMap((e) => (e.stat.type === 'symlink' ? [] : this.unreadable(e.path, true)));
  }

  /**
   * Throws EACCES when this view's user may not read (`want` 0o4) or write (0o2) the existing regular file `p`
   * (`accessBits`): only the plain sprite user (a service's command: `chmod 444 f; echo x > f` fails) is held to the
   * permission bits; root under `sudo` and an exec session's sprite user (CAP_DAC_OVERRIDE) are not.
   */
  private permit(p: string, want: 0o4 | 0o2): void {
    if (this.overrides || !this.vfs.exists(p)) return;
    const st = this.vfs.stat(p);
    if (st.type !== 'file') return;
    if ((accessBits(st, false, false) & want) === 0) throw new VfsError('EACCES', p);
  }

  /**
   * Throws unless this view's user may add or remove the entry `p` in its directory: write and search permission on
   * the directory (EACCES: `touch /usr/bin/x`, `mkdir /workspace`, `rm /etc/passwd` as the plain sprite user), and
   * in a sticky directory (`/tmp`) an existing entry must be the user's, or the directory (EPERM). Root, and the
   * sprite user holding CAP_DAC_OVERRIDE and CAP_FOWNER (an exec session's), may do anything.
   * `create`: `p` is to be made, and something already there is the caller's EEXIST, not a permission error.
   */
  private mayChangeEntries(p: string, syscall: string, create = false): void {
    if (this.overrides || p === '/') return;
    this.reach(p, syscall);
    if (create && this.lexists(p)) return; // creating over an entry: EEXIST first
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    let dir: VfsInodeStat;
    try {
      dir = this.vfs.stat(parent);
    } catch {
      return; // a missing parent: the VFS says ENOENT/ENOTDIR itself
    }
    if (dir.type !== 'directory') return;
    if ((accessBits(dir, false, true) & 3) !== 3) throw new VfsError('EACCES', p, syscall);
    if (!(dir.mode & 0o1000) || dir.uid === SPRITE_UID || !this.lexists(p)) return;
    if (this.vfs.lstat(p).uid !== SPRITE_UID) throw new VfsError('EPERM', p, syscall);
  }

  /** Gives root what a root view just created at `p` (with `tree`, everything below it). Symlinks keep their owner. */
  private ownCreated(p: string, tree: boolean): void {
    if (!this.asRoot || !this.lexists(p) || this.vfs.lstat(p).type === 'symlink') return;
    this.vfs.chown(p, 0, 0, { recursive: tree });
  }

  /** The first component of `p` (normalised) that does not exist, or null when all do. */
  private firstMissing(p: string): string | null {
    if (this.lexists(p)) return null;
    let at = p;
    for (;;) {
      const parent = at.slice(0, at.lastIndexOf('/')) || '/';
      if (parent === at || this.lexists(parent)) return at;
      at = parent;
    }
  }

  /** Whether something (even a dangling symlink) is at `p`. */
  private lexists(p: string): boolean {
    try {
      this.vfs.lstat(p);
      return true;
    } catch {
      return false;
    }
  }

  private write(path: string, content: FileContent, options: WriteFileOptions, append: boolean): void {
    const p = this.kernel(path);
    checkPath(p);
    this.openTerminal(p);
    if (DEVICES.has(p) && !this.vfs.exists(p)) return;
    this.reach(p, 'open');
    this.permit(p, 0o2);
    const encoding = encodingOf(options) ?? 'utf8';
    // Text may hold bytes that are not UTF-8, each kept as U+DC00 + byte (shell-text.ts).
    const data = typeof content === 'string' ? (encoding === 'utf8' || encoding === 'utf-8' ? shellTextBytes(content) : Buffer.from(content, encoding)) : content;
    const fresh = !this.vfs.exists(p);
    if (fresh) this.mayChangeEntries(p, 'open');
    const created = fresh ? { mode: 0o666 & ~this.umask } : {};
    this.vfs.writeFile(p, new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { append, ...created });
    if (fresh) this.ownCreated(p, false);
  }

  /** Clears the mask's bits from `p` and, for a directory, everything under it (symlinks keep their mode). */
  private maskTree(p: string): void {
    const st = this.vfs.lstat(p);
    if (st.type === 'symlink') return;
    this.vfs.chmod(p, st.mode & ~this.umask);
    if (st.type === 'directory') for (const e of this.vfs.readdir(p)) this.maskTree(`${p === '/' ? '' : p}/${e.name}`);
  }

  private statWith(path: string, stat: (p: string) => VfsInodeStat): FsStat {
    const p = this.kernel(path);
    checkPath(p, 'stat');
    this.reach(p, 'stat');
    try {
      const s = stat(p);
      // The device and inode number let `[ a -ef b ]`, cp and mv tell two files apart, and two names of one file
      // (hard links) alike: "cp: 'a' and 'b' are the same file".
      return withOwner({ ...toFsStat(s), dev: DISK_DEVICE, ino: s.ino, identity: `vfs:${s.ino}` }, { uid: s.uid, gid: s.gid, nlink: s.nlink });
    } catch (err) {
      const synthetic = this.synthetic(p);
      if (!(err instanceof VfsError) || err.code !== 'ENOENT' || synthetic === null) throw err;
      const dir = synthetic === 'procdir';
      const link = synthetic === 'proclink' || synthetic === 'stublink';
      const mode = synthetic === 'device' ? DEVICE_MODE : dir ? STUB_MODE : synthetic === 'proc' ? 0o444 : link ? 0o777 : (STUB_MODES[stubName(p)] ?? STUB_MODE);
      // A command's stub has the size of what reading it gives (`stat -c %F` says `regular file`, not `empty`); a
      // link's size is its target's length.
      const size = synthetic === 'stub' ? stubBytes(p).byteLength : synthetic === 'stublink' ? STUB_LINKS[stubName(p)]!.length : 0;
      const base = { isFile: !dir && !link, isDirectory: dir, isSymbolicLink: link, mode, size, mtime: new Date(this.now()) };
      return withOwner(base, { uid: 0, gid: 0, device: synthetic === 'device' });
    }
  }

  /** Where the `/proc` link `p` leads, as an absolute path (`/proc/self` names its pid, a sibling). */
  private procTarget(p: string): string {
    const target = procLink(p, this.proc!)!;
    return target.startsWith('/') ? target : `${p.slice(0, p.lastIndexOf('/'))}/${target}`;
  }

  /** Where the stub link `p` leads: its target's stub, in the same directory. */
  private stubTarget(p: string): string {
    return `${p.slice(0, p.lastIndexOf('/') + 1)}${STUB_LINKS[stubName(p)]}`;
  }

  /** Which synthetic entry `p` (normalised) is, if any. */
  private synthetic(p: string): 'device' | 'stub' | 'stublink' | 'proc' | 'procdir' | 'proclink' | null {
    // `/proc/self` is a link to the reader's `/proc/PID` (which lists as the directory it is).
    if (p === '/proc/self' && this.proc) return 'proclink';
    const fd = this.proc ? FD_ENTRY.exec(throughDevFd(p)) : null;
    if (DEVICES.has(p) || (fd && procDir(fd[1]!, this.proc!)?.includes(fd[2]!))) return 'device';
    if (p === DEV_DIR || (this.proc && procDir(p, this.proc))) return 'procdir';
    if (this.proc && procLink(p, this.proc)) return 'proclink';
    if (this.proc && procFile(p, this.proc)) return 'proc';
    const dir = STUB_DIRS.find((d) => p.startsWith(d));
    const name = dir ? p.slice(dir.length) : '';
    if (dir && this.commands.has(name)) return Object.hasOwn(STUB_LINKS, name) && this.commands.has(STUB_LINKS[name]!) ? 'stublink' : 'stub';
    return null;
  }
}

/** What reading the stub of a built-in command (`/usr/bin/NAME`) gives. */
const stubBytes = (p: string): Uint8Array => new TextEncoder().encode(`#!/bin/bash\n# Built-in command: ${p.slice(p.lastIndexOf('/') + 1)}\n`);

/**
 * `checkPath` (Linux's PATH_MAX/NAME_MAX, no NUL) with the error message a command prints after its own prefix, as
 * strerror reads: `touch: cannot touch 'x…': File name too long`. The error stays a `VfsError` with its `code`
 * (ENAMETOOLONG, EINVAL). A newline or carriage return in a name is allowed here, as Linux allows it (`touch
 * $'a\nb'`): the refusal of such paths is for the ones a client gives the fs API or the watch.
 */
function checkPath(path: string, syscall = 'open'): void {
  try {
    // Each of \n and \r is one byte, as the stand-in is: the length limits still count it.
    checkVfsPath(/[\n\r]/.test(path) ? path.replace(/[\n\r]/g, '_') : path, syscall);
  } catch (err) {
    if (err instanceof VfsError) err.message = err.code === 'ENAMETOOLONG' ? 'File name too long' : 'Invalid argument';
    throw err;
  }
}

function encodingOf(options: ReadFileOptions | WriteFileOptions): BufferEncoding | undefined {
  if (typeof options === 'string') return options;
  return options?.encoding ?? undefined;
}

/** The mode and owner of a stat `BashFs` made. */
function ownerFacts(st: FsStat): { mode: number; uid: number; gid: number } {
  const o = st as FsStat & { uid?: number; gid?: number };
  return { mode: st.mode, uid: o.uid ?? SPRITE_UID, gid: o.gid ?? SPRITE_GID };
}

function toFsStat(s: VfsInodeStat): FsStat {
  return {
    isFile: s.type === 'file',
    isDirectory: s.type === 'directory',
    isSymbolicLink: s.type === 'symlink',
    mode: s.mode,
    size: s.size,
    // A time the clock stamped shows nine plausible digits; one set with nanoseconds, those.
    mtime: s.mtimeNs === undefined ? clockTime(s.mtimeMs) : fileTime(s.mtimeMs, s.mtimeNs),
    atime: s.atimeNs === undefined ? clockTime(s.atimeMs) : fileTime(s.atimeMs, s.atimeNs),
  } as FsStat;
}
