/**
 * `rsync` between local paths, as rsync 3 copies them: the source's trailing `/` (copy the directory's contents)
 * or not (copy the directory itself), `-r`, `-a` (`-rlptgoD`), `-l`, `-p`, `-t`, the quick check (size and time,
 * or content with `-c`; `-u` keeps a newer destination), `--delete` (within the directories sent, sparing excluded
 * names), `--exclude`/`--include` (first matching rule wins; a pattern with a `/` is matched against the path, one
 * without against the name, a trailing `/` matches directories only), `-n`, `-v`'s file list in rsync's
 * incremental order (a directory's files, then each directory and its own list), its `deleting`
 * and `created directory` lines and the two summary lines (their byte counts and speed are this engine's own: the
 * real ones depend on the wire protocol and the clock). `-z`, `-h`, `-g`, `-o`, `-D` change nothing between local
 * paths in a sprite. A remote `host:path`, and options not listed here (`--progress`, `--stats`, `-i`, …), fail
 * loudly, exit 2.
 * @see https://download.samba.org/pub/rsync/rsync.1 (OPTIONS, FILTER RULES, "--delete")
 */
import { defineCommand, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { SANDBOX_HINT } from './world.ts';
import { accessTime, subMsNanos } from './file-time.ts';
import { detachName } from './replace-file.ts';

interface Options {
  recursive: boolean;
  links: boolean;
  perms: boolean;
  times: boolean;
  verbose: boolean;
  quiet: boolean;
  dryRun: boolean;
  delete: boolean;
  update: boolean;
  checksum: boolean;
  filters: Array<{ include: boolean; re: RegExp; dirOnly: boolean; path: boolean }>;
}

/** One name in the transfer: its source path, destination path and the path filters and `-v` see. */
interface Entry {
  src: string;
  dest: string;
  /** The name `-v` prints (`./`, `src/lib/`, `main.py`). */
  shown: string;
  /** The path from the transfer's root, for filters (`/src/lib`). */
  rel: string;
  st: FsStat;
}

const loud = (what: string): ExecResult => ({ stdout: '', stderr: `rsync: ${what} is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 });
const SHORT: Record<string, (o: Options) => void> = {
  a: (o) => Object.assign(o, { recursive: true, links: true, perms: true, times: true }),
  r: (o) => (o.recursive = true),
  l: (o) => (o.links = true),
  p: (o) => (o.perms = true),
  t: (o) => (o.times = true),
  v: (o) => (o.verbose = true),
  q: (o) => (o.quiet = true),
  n: (o) => (o.dryRun = true),
  u: (o) => (o.update = true),
  c: (o) => (o.checksum = true),
  z: () => undefined,
  h: () => undefined,
  g: () => undefined,
  o: () => undefined,
  D: () => undefined,
};
const LONG: Record<string, string> = {
  archive: 'a', recursive: 'r', links: 'l', perms: 'p', times: 't', verbose: 'v', quiet: 'q', 'dry-run': 'n', update: 'u',
  checksum: 'c', compress: 'z', 'human-readable': 'h', group: 'g', owner: 'o', devices: 'D', specials: 'D',
};

/**
 * An rsync filter pattern as a test: `*` and `?` stay within one name, `**` crosses `/`; a pattern with a `/` (not
 * counting a trailing one) or `**` matches the whole path (from the root if it starts with `/`, else any tail of
 * whole names), one without matches the last name.
 */
function filterRule(include: boolean, pattern: string): Options['filters'][number] {
  const dirOnly = pattern.endsWith('/');
  const p = dirOnly ? pattern.slice(0, -1) : pattern;
  const path = p.includes('/') || p.includes('**');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') (re += '.*'), i++;
    else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = p.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else (re += `[${p.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`), (i = end);
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  const anchored = p.startsWith('/');
  return { include, dirOnly, path, re: new RegExp(path ? (anchored ? `^${re}$` : `(^|/)${re}$`) : `^${re}$`) };
}

/** Whether the filters leave `rel` out (the first rule that matches decides; none: it is sent). */
function excluded(o: Options, rel: string, isDir: boolean): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  for (const f of o.filters) {
    if (f.dirOnly && !isDir) continue;
    if (f.re.test(f.path ? rel : name)) return !f.include;
  }
  return false;
}

function parseArgs(args: string[]): { o: Options; operands: string[] } | ExecResult {
  const o: Options = { recursive: false, links: false, perms: false, times: false, verbose: false, quiet: false, dryRun: false, delete: false, update: false, checksum: false, filters: [] };
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      if (name === 'exclude' || name === 'include') {
        const value = eq < 0 ? args[++i] : a.slice(eq + 1);
        if (value === undefined) return { stdout: '', stderr: `rsync: option requires an argument -- '${name}'\n`, exitCode: 1 };
        o.filters.push(filterRule(name === 'include', value));
      } else if (name === 'delete') o.delete = true;
      else if (LONG[name] && eq < 0) SHORT[LONG[name]]!(o);
      else return loud(`option ${a}`);
    } else if (a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        const set = SHORT[c];
        if (!set) return loud(`option -${c}`);
        set(o);
      }
    } else operands.push(a);
  }
  return { o, operands };
}

const lstat = (fs: IFileSystem, p: string) => fs.lstat(p).catch(() => null);
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, k) => x === b[k]);
/**
 * A time in nanoseconds: rsync 3 compares modification times to the nanosecond where both sides keep them (its
 * `--modify-window` is 0), for `-u` and for a directory's line alike.
 */
const nanos = (d: Date) => BigInt(d.getTime()) * 1_000_000n + BigInt(subMsNanos(d));
/** Names in rsync's order: byte order of their UTF-8 text. */
const byName = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

class Transfer {
  out = '';
  err = '';
  total = 0;
  /** Names sent (files, links, directories). */
  names = 0;
  /** The destination directory this run made. */
  created: string | undefined;
  readonly dirTimes: Array<{ path: string; mtime: Date }> = [];
  constructor(
    readonly fs: IFileSystem,
    readonly o: Options,
    readonly umask: number,
  ) {}

  say(line: string) {
    if (this.o.verbose) this.out += `${line}\n`;
  }

  /** Sends one directory level: its files, then each directory followed by its own level (depth first). */
  async level(entries: Entry[]) {
    const files = entries.filter((e) => !e.st.isDirectory).sort((a, b) => byName(a.shown, b.shown));
    const dirs = entries.filter((e) => e.st.isDirectory).sort((a, b) => byName(a.shown, b.shown));
    this.names += files.length + (this.o.recursive ? dirs.length : 0);
    for (const e of files) await this.file(e);
    for (const e of dirs) {
      if (!this.o.recursive) {
        if (!this.o.quiet) this.out += `skipping directory ${e.shown === './' ? '.' : e.shown.replace(/\/$/, '')}\n`;
        continue;
      }
      await this.level(await this.dir(e));
    }
  }

  /** A directory entry: extraneous names deleted (`--delete`), made or updated, its line; returns its children. */
  async dir(e: Entry): Promise<Entry[]> {
    const { fs, o } = this;
    // The destination this run made is not sent into itself (`rsync -r . copy/`): the sender listed the source
    // before the receiver made it.
    const names = (await fs.readdir(e.src)).filter((n) => `${e.src}/${n}` !== this.created).sort(byName);
    const children: Entry[] = [];
    for (const n of names) {
      const st = await lstat(fs, `${e.src}/${n}`);
      const rel = `${e.rel}/${n}`;
      if (st && !excluded(o, rel, st.isDirectory)) children.push({ src: `${e.src}/${n}`, dest: `${e.dest}/${n}`, shown: `${e.shown === './' ? '' : e.shown}${n}${st.isDirectory ? '/' : ''}`, rel, st });
    }
    const have = await lstat(fs, e.dest);
    if (have && !have.isDirectory && !o.dryRun) await fs.rm(e.dest);
    const exists = have?.isDirectory === true;
    if (exists && o.delete) {
      const keep = new Set(children.map((c) => c.dest));
      for (const n of (await fs.readdir(e.dest)).sort(byName)) {
        const path = `${e.dest}/${n}`;
        const st = await lstat(fs, path);
        if (!keep.has(path) && st && !excluded(o, `${e.rel}/${n}`, st.isDirectory)) await this.remove(path, `${e.shown === './' ? '' : e.shown}${n}`, st);
      }
    }
    const mode = e.st.mode & 0o7777;
    // The destination rsync made itself (`created directory`) counts as new.
    const isNew = !exists || this.created === e.dest;
    const changed = isNew || (o.times && nanos(have.mtime) !== nanos(e.st.mtime)) || (o.perms && (have.mode & 0o7777) !== mode);
    if (!exists && !o.dryRun) await fs.mkdir(e.dest);
    if (!o.dryRun && (isNew || o.perms)) await fs.chmod(e.dest, o.perms ? mode : mode & ~this.umask);
    if (changed) this.say(e.shown);
    if (o.times && !o.dryRun) this.dirTimes.push({ path: e.dest, mtime: e.st.mtime });
    return children;
  }

  /** Deletes an extraneous name, a directory's contents first, each with its `deleting` line. */
  async remove(path: string, shown: string, st: FsStat) {
    if (st.isDirectory) {
      for (const n of (await this.fs.readdir(path)).sort(byName).reverse()) {
        const cst = await lstat(this.fs, `${path}/${n}`);
        if (cst) await this.remove(`${path}/${n}`, `${shown}/${n}`, cst);
      }
    }
    this.say(`deleting ${shown}${st.isDirectory ? '/' : ''}`);
    if (!this.o.dryRun) await this.fs.rm(path, { recursive: true, force: true });
  }

  /** A file or symbolic link: sent unless the quick check (or `-c`, `-u`) finds the destination current. */
  async file(e: Entry) {
    const { fs, o } = this;
    if (e.st.isSymbolicLink) {
      if (!o.links) {
        if (!o.quiet) this.out += `skipping non-regular file "${e.shown}"\n`;
        return;
      }
      const target = await fs.readlink(e.src);
      this.total += target.length;
      const have = await lstat(fs, e.dest);
      if (have?.isSymbolicLink && (await fs.readlink(e.dest)) === target) return;
      if (!o.dryRun) {
        if (have) await fs.rm(e.dest, { recursive: true, force: true });
        await fs.symlink(target, e.dest);
      }
      this.say(`${e.shown} -> ${target}`);
      return;
    }
    if (!e.st.isFile) {
      if (!o.quiet) this.out += `skipping non-regular file "${e.shown}"\n`;
      return;
    }
    this.total += e.st.size;
    const have = await lstat(fs, e.dest);
    const current = have?.isFile === true;
    if (current && o.update && nanos(have.mtime) > nanos(e.st.mtime)) return;
    const bytes = await fs.readFileBuffer(e.src);
    if (current && (o.checksum ? sameBytes(bytes, await fs.readFileBuffer(e.dest)) : have.size === e.st.size && nanos(have.mtime) === nanos(e.st.mtime))) {
      // Unchanged content: only the attributes asked for are brought over, silently.
      if (!o.dryRun && o.times) await fs.utimes(e.dest, accessTime(have), e.st.mtime);
      if (!o.dryRun && o.perms) await fs.chmod(e.dest, e.st.mode & 0o7777);
      return;
    }
    this.say(e.shown);
    if (o.dryRun) return;
    if (have && !current) await fs.rm(e.dest, { recursive: true, force: true });
    // rsync writes a temporary file and renames it over the destination: other hard links keep the old content.
    const kept = current ? await detachName(fs, e.dest) : undefined;
    await fs.writeFile(e.dest, bytes);
    // A new file gets the source's mode less the umask, an existing one keeps its own, unless -p.
    if (o.perms || !current) await fs.chmod(e.dest, o.perms ? e.st.mode & 0o7777 : e.st.mode & 0o777 & ~this.umask);
    else if (kept !== undefined) await fs.chmod(e.dest, kept);
    if (o.times) await fs.utimes(e.dest, accessTime(await fs.stat(e.dest)), e.st.mtime);
  }
}

async function rsync(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const parsed = parseArgs(args);
  if ('exitCode' in parsed) return parsed;
  const { o, operands } = parsed;
  if (operands.some((p) => /^[^/]*:/.test(p) || p.startsWith('rsync://'))) return loud('a remote host (host:path)');
  if (operands.length < 2) return loud('listing a source without a destination');
  const umask = (fs as { umask?: number }).umask ?? 0o022;
  const t = new Transfer(fs, o, umask);
  const destArg = operands[operands.length - 1]!;
  const dest = fs.resolvePath(cwd, destArg);
  const sources = operands.slice(0, -1);
  const top: Entry[] = [];
  let missing = false;
  let sendable = false;
  for (const s of sources) {
    const abs = fs.resolvePath(cwd, s);
    // `src/`, `.` and `src/.` send the directory's contents.
    const slash = s.endsWith('/') || s === '.' || s.endsWith('/.');
    const st = slash ? await fs.stat(abs).catch(() => null) : await lstat(fs, abs);
    if (!st) {
      t.err += `rsync: [sender] ${slash && s !== '/' ? 'change_dir' : 'link_stat'} "${abs}" failed: No such file or directory (2)\n`;
      missing = true;
      continue;
    }
    const name = abs.slice(abs.lastIndexOf('/') + 1);
    if (!st.isDirectory || o.recursive) sendable = true;
    if (st.isDirectory && slash) top.push({ src: abs, dest: '', shown: './', rel: '', st });
    else top.push({ src: abs, dest: '', shown: `${name}${st.isDirectory ? '/' : ''}`, rel: `/${name}`, st });
  }
  // Incremental recursion, and so its header, comes with -r.
  if (o.verbose && o.recursive) t.out += 'sending incremental file list\n';
  const destSt = await fs.stat(dest).catch(() => null);
  // One file to a name that is no directory (and not written as one) is a copy to that name.
  const toFile = top.length === 1 && !missing && sources.length === 1 && !top[0]!.st.isDirectory && !destSt?.isDirectory && !destArg.endsWith('/');
  if (toFile) top[0]!.dest = dest;
  else {
    // The destination is made once there is something to send (or a source is missing): `rsync dir dest`
    // without -r only skips the directory.
    if (!destSt && (sendable || missing)) {
      if (!o.dryRun) await fs.mkdir(dest);
      t.created = dest;
      t.say(`created directory ${destArg.replace(/\/+$/, '') || destArg}`);
    }
    for (const e of top) e.dest = e.shown === './' ? dest : `${dest}/${e.shown.replace(/\/$/, '')}`;
  }
  await t.level(top);
  // rsync sets only modification times (without --atimes): each keeps the access time it has.
  for (const d of t.dirTimes.reverse()) await fs.utimes(d.path, accessTime(await fs.stat(d.path)), d.mtime);
  if (o.verbose) {
    // rsync's counts are its protocol's bytes (about 48 sent and 15 received a name, plus the data), over at least
    // half a second; numbers from 1,000 take thousands separators as rsync writes them.
    const sent = t.total + 48 * t.names + 40;
    const received = 15 * t.names + 35;
    const n = (v: number, digits = 0) => v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    t.out += `\nsent ${n(sent)} bytes  received ${n(received)} bytes  ${n((sent + received) * 2, 2)} bytes/sec\ntotal size is ${n(t.total)}  speedup is ${n(t.total / (sent + received), 2)}${o.dryRun ? ' (DRY RUN)' : ''}\n`;
  }
  if (missing) {
    t.err += 'rsync error: some files/attrs were not transferred (see previous errors) (code 23) at main.c(1394) [sender=3.5.0]\n';
    return { stdout: t.out, stderr: t.err, exitCode: 23 };
  }
  return { stdout: t.out, stderr: t.err, exitCode: 0 };
}

/** `rsync` for just-bash's `customCommands`. */
export function rsyncCommand(): CustomCommand {
  return defineCommand('rsync', (args, ctx) => rsync(args, ctx.fs, ctx.cwd));
}
