/**
 * GNU `ls` over the sprite's filesystem, replacing just-bash's: which entries show (-a -A -B -I --hide), how
 * operands are split into files and directories and which symlinks are followed (-d -H -L), the sort orders
 * (-t -S -X -v -U -r --group-directories-first), the formats (one per line, -l, -C, -x, -m, -s, -R), type indicators
 * (-F -p --file-type) and quoting (ls-quote.ts). Output is never a terminal here: one name per line by default.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/ls-invocation.html (coreutils ls.c)
 */
import { compareTimes } from './file-time.ts';
import type { CustomCommand, ExecResult, FsStat, IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';
import { defineCommand } from 'just-bash';
import { inodeNumber, linkCount, ownerOf } from './devices.ts';
import { filevercmp } from './filevercmp.ts';
import { fnmatch } from './fnmatch.ts';
import { parseLsArgs, type LsOptions } from './ls-options.ts';
import { blockFigure, blocksOf, longRow, longTable, shownTime, type LongColumns, type LongRow } from './ls-long.ts';
import { hideControlChars, quoteName } from './ls-quote.ts';
import { OrderedOutput } from './output-order.ts';

/** One file as ls knows it. */
interface Entry {
  /** The name shown: the operand as typed, or the entry's name in its directory. */
  name: string;
  /** Absolute path. */
  path: string;
  /** Its status: the link itself, or what it points to where ls follows it. */
  st: FsStat;
  /** A symlink's target text (when `st` is the link's own). */
  target?: string;
  /** What a symlink points to, when that exists. */
  targetSt?: FsStat;
  /** The user may list the directory but not search it (r without x): only the name and its type are known. */
  unknown?: boolean;
}

/**
 * Whether a listing needs each entry's status, which a directory without x denies: GNU ls names the entries of such
 * a directory without complaint unless it must stat them (long format, sizes, classify's `*`, or a sort by them).
 */
const needsStatus = (o: LsOptions): boolean => o.format === 'long' || o.blocks || o.sort === 'time' || o.sort === 'size' || o.indicator === 'classify';

/** A stand-in status for an entry whose status the user may not get: its type from the directory, nothing else. */
const unknownStatus = (isDirectory: boolean): FsStat => ({ isFile: !isDirectory, isDirectory, isSymbolicLink: false, mode: 0, size: 0, mtime: new Date(0) });

interface Listing {
  /** The listing and its messages in the order GNU ls writes them (its `error()` flushes stdout first). */
  text: OrderedOutput;
  /** How many blocks (files, directories) are listed so far. */
  blocks: number;
  /** 0, 1 (a file inside a directory could not be read) or 2 (an operand could not be). */
  status: number;
}

const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

async function safe<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch {
    return undefined;
  }
}

/** Whether a directory entry named `name` is left out of the listing. */
function ignored(name: string, o: LsOptions): boolean {
  if (o.show !== 'all' && (name === '.' || name === '..')) return true;
  if (o.show === 'default' && name.startsWith('.')) return true;
  if (o.ignoreBackups && name.endsWith('~')) return true;
  if (o.ignore.some((p) => fnmatch(p, name, { period: true }))) return true;
  return o.show === 'default' && o.hide.some((p) => fnmatch(p, name, { period: true }));
}

const isDir = (e: Entry) => e.st.isDirectory || (e.st.isSymbolicLink && e.targetSt?.isDirectory === true);

/** The sort order of `o`, as a comparison (before `-r`); null keeps directory order (-U). */
function comparator(o: LsOptions): ((a: Entry, b: Entry) => number) | null {
  const byName = (a: Entry, b: Entry) => bytes(a.name, b.name);
  switch (o.sort) {
    case 'none':
      return null;
    case 'size':
      return (a, b) => b.st.size - a.st.size || byName(a, b);
    case 'time':
      return (a, b) => compareTimes(shownTime(b.st, o.time), shownTime(a.st, o.time)) || byName(a, b);
    case 'extension': {
      const ext = (n: string) => (n.lastIndexOf('.') < 0 ? '' : n.slice(n.lastIndexOf('.')));
      return (a, b) => bytes(ext(a.name), ext(b.name)) || byName(a, b);
    }
    case 'version':
      return (a, b) => filevercmp(a.name, b.name) || byName(a, b);
    case 'width':
      return (a, b) => a.name.length - b.name.length || byName(a, b);
    default:
      return byName;
  }
}

/** `entries` in `o`'s order (a stable sort, as GNU's merge sort). */
function sorted(entries: Entry[], o: LsOptions): Entry[] {
  const cmp = comparator(o);
  const list = [...entries];
  if (cmp) list.sort(o.reverse ? (a, b) => cmp(b, a) : cmp);
  if (!o.groupDirs) return list;
  return [...list.filter(isDir), ...list.filter((e) => !isDir(e))];
}

/** The indicator after a name (`/`, `*`, `@`…) for status `st`, or ''. */
function indicatorOf(st: FsStat | undefined, o: LsOptions): string {
  if (o.indicator === 'none' || !st) return '';
  if (st.isDirectory) return '/';
  if (o.indicator === 'slash') return '';
  if (st.isSymbolicLink) return '@';
  if (ownerOf(st).device) return '';
  return o.indicator === 'classify' && (st.mode & 0o111) !== 0 ? '*' : '';
}

/** Lists with one set of options over one filesystem. */
class Lister {
  private readonly cols: LongColumns;
  private readonly indicatorChars: string;

  constructor(
    private readonly fs: IFileSystem,
    private readonly cwd: string,
    private readonly o: LsOptions,
    now: number,
  ) {
    this.cols = { owner: o.owner, group: o.group, numeric: o.numeric, human: o.human, blockSize: o.blockSize, timeStyle: o.timeStyle, time: o.time, now };
    this.indicatorChars = o.indicator === 'classify' ? '*=>@|' : o.indicator === 'file-type' ? '=>@|' : '';
  }

  private quote(name: string): string {
    const q = quoteName(name, this.o.quoting, this.indicatorChars);
    return this.o.hideControl ? hideControlChars(q) : q;
  }

  /** The entry at `path`, following a symlink when `follow`; throws the filesystem's error. */
  private async entry(name: string, path: string, follow: boolean): Promise<Entry> {
    const st = follow ? await this.fs.stat(path) : await this.fs.lstat(path);
    if (!st.isSymbolicLink) return { name, path, st };
    return { name, path, st, target: await this.fs.readlink(path), targetSt: await safe(this.fs.stat(path)) };
  }

  /** A command-line operand as GNU's gobble_file reads it: followed per -H/-L, or when it names a directory. */
  private async operand(name: string): Promise<Entry> {
    const path = this.fs.resolvePath(this.cwd, name);
    if (name === '') throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    if (name.endsWith('/')) {
      // A trailing slash makes the kernel follow the name and demand a directory.
      const st = await this.fs.stat(path);
      if (!st.isDirectory) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      return { name, path, st };
    }
    const deref = this.o.deref ?? (this.o.directory || this.o.indicator === 'classify' || this.o.format === 'long' ? 'never' : 'dir-args');
    if (deref === 'args' || deref === 'always') return this.entry(name, path, true);
    if (deref === 'dir-args') {
      // Followed first; only a dangling link (ENOENT) falls back to the link itself, a loop is an error.
      let st: FsStat | undefined;
      try {
        st = await this.fs.stat(path);
      } catch (err) {
        if ((err as { code?: string }).code === 'ELOOP') throw err;
      }
      if (st?.isDirectory) return { name, path, st };
    }
    return this.entry(name, path, false);
  }

  /** The entries of the directory at `path`, unsorted; errors of single entries go to `listing`. */
  private async children(path: string, shown: string, listing: Listing): Promise<Entry[]> {
    const names = await this.fs.readdir(path);
    const all = this.o.show === 'all' ? ['.', '..', ...names] : names;
    const out: Entry[] = [];
    for (const n of all) {
      if (ignored(n, this.o)) continue;
      const child = n === '.' ? path : n === '..' ? this.fs.resolvePath(path, '..') : `${path.replace(/\/+$/, '')}/${n}`;
      try {
        out.push(await this.entry(n, child, this.o.deref === 'always'));
      } catch (err) {
        if ((err as { code?: string }).code === 'EACCES') {
          if (needsStatus(this.o)) {
            listing.text.err(`ls: cannot access ${errorName(shown === '.' ? n : joinPath(shown, n))}: ${strerror(err)}\n`);
            listing.status = Math.max(listing.status, 1);
          }
          const kinds = await safe(this.fs.readdirWithFileTypes?.(path) ?? Promise.reject(new Error('no types')));
          out.push({ name: n, path: child, st: unknownStatus(kinds?.find((k) => k.name === n)?.isDirectory === true), unknown: true });
          continue;
        }
        // -L and a dangling link: GNU names it, lists it as the link, and exits 1.
        listing.text.err(`ls: cannot access ${errorName(shown === '.' ? n : joinPath(shown, n))}: ${strerror(err)}\n`);
        listing.status = Math.max(listing.status, 1);
        const own = await safe(this.entry(n, child, false));
        if (own) out.push(own);
      }
    }
    return out;
  }

  /** The text of a block of files (one format for the whole block), with `total` first when `total`. */
  async format(entries: Entry[], total: boolean): Promise<string> {
    const o = this.o;
    const eol = o.eol;
    const kib = entries.map((e) => blocksOf(e.st));
    const figures = kib.map((k) => blockFigure(k, o.human, o.blockSize));
    const head = total && (o.format === 'long' || o.blocks) ? `total ${blockFigure(kib.reduce((a, b) => a + b, 0), o.human, o.blockSize)}${eol}` : '';
    const bw = Math.max(0, ...figures.map((f) => f.length));
    // `-i` puts each file's inode number first, then `-s` its blocks, each column right-aligned.
    const inodes = entries.map((e) => String(inodeNumber(e.st, e.path)));
    const iw = Math.max(0, ...inodes.map((f) => f.length));
    const prefix = o.inode || o.blocks ? entries.map((_, i) => `${o.inode ? `${inodes[i]!.padStart(iw)} ` : ''}${o.blocks ? `${figures[i]!.padStart(bw)} ` : ''}`) : [];
    if (o.format === 'long') {
      const rows: LongRow[] = [];
      for (const e of entries) {
        let name = this.quote(e.name);
        if (e.target !== undefined) name += ` -> ${this.quote(e.target)}${indicatorOf(e.targetSt, o)}`;
        else name += indicatorOf(e.st, o);
        if (e.unknown) rows.push({ mode: `${e.st.isDirectory ? 'd' : '-'}?????????`, links: '?', owner: '?', group: '?', size: '?', date: '', name: this.quote(e.name) });
        else rows.push(longRow(e.st, name, e.name.slice(e.name.lastIndexOf('/') + 1), this.cols, await linkCount(e.st, async () => (e.st.isDirectory ? this.links(e.path) : 1))));
      }
      // An unknown time is a `?` at the right of the date column (twelve wide when no date is known).
      const dateWidth = Math.max(0, ...rows.map((r) => r.date.length)) || 12;
      for (const r of rows) if (r.date === '') r.date = '?'.padStart(dateWidth);
      return head + longTable(rows, this.cols, prefix, eol);
    }
    const cells = entries.map((e, i) => `${prefix[i] ?? ''}${this.quote(e.name)}${indicatorOf(e.st, o)}`);
    if (o.format === 'one' || entries.length === 0) return head + cells.map((c) => c + eol).join('');
    if (o.format === 'commas') return head + commas(cells, o.width, eol);
    return head + grid(cells, o.format === 'columns', o.width, o.tabsize, eol);
  }

  /** The link count of a synthetic directory at `path`: its name, its `.`, and each subdirectory's `..` (ext4's count). */
  private async links(path: string): Promise<number> {
    let n = 2;
    for (const c of (await safe(this.fs.readdir(path))) ?? []) if ((await safe(this.fs.lstat(`${path.replace(/\/+$/, '')}/${c}`)))?.isDirectory) n++;
    return n;
  }

  /** Lists a directory (with its header when `header`), then, with -R, each subdirectory after it. */
  async directory(e: Entry, header: boolean, first: boolean, listing: Listing, commandLine: boolean): Promise<void> {
    let children: Entry[];
    try {
      children = await this.children(e.path, e.name, listing);
    } catch (err) {
      listing.text.err(`ls: cannot open directory ${errorName(e.name)}: ${strerror(err)}\n`);
      listing.status = Math.max(listing.status, commandLine ? 2 : 1);
      return;
    }
    const list = sorted(children, this.o);
    const text = await this.format(list, true);
    listing.blocks++;
    listing.text.out(`${first ? '' : '\n'}${header ? `${this.quote(e.name)}:\n` : ''}${text}`);
    if (!this.o.recursive) return;
    for (const c of list) {
      if (c.name === '.' || c.name === '..' || !c.st.isDirectory) continue;
      await this.directory({ ...c, name: joinPath(e.name, c.name) }, true, false, listing, false);
    }
  }

  /** The whole listing of `operands` (none: `.`). */
  async run(): Promise<ExecResult> {
    const o = this.o;
    const listing: Listing = { text: new OrderedOutput(), blocks: 0, status: 0 };
    const given = o.operands.length === 0 ? ['.'] : o.operands;
    const found: Entry[] = [];
    for (const name of given) {
      try {
        found.push(await this.operand(name));
      } catch (err) {
        listing.text.err(`ls: cannot access ${errorName(name)}: ${strerror(err)}\n`);
        listing.status = 2;
      }
    }
    const all = sorted(found, { ...o, groupDirs: false });
    const files = o.directory ? all : all.filter((e) => !e.st.isDirectory);
    const dirs = o.directory ? [] : all.filter((e) => e.st.isDirectory);
    if (files.length > 0) {
      listing.blocks++;
      listing.text.out(await this.format(o.groupDirs ? sorted(files, o) : files, false));
    }
    const header = o.recursive || files.length > 0 || given.length > 1 || dirs.length > 1;
    for (const d of dirs) await this.directory(d, header, listing.blocks === 0, listing, true);
    return listing.text.result(listing.status, 'before-errors');
  }
}

/** A file name in an error message, quoted as GNU's `quoteaf` does (the shell-escape-always style). */
const errorName = (name: string) => quoteName(name, 'shell-escape-always');

/** `dir/name` as GNU joins them (`./src` for `.`; one slash after a trailing one). */
function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** `-m`: names joined by `, `, wrapped before `width`. */
function commas(cells: string[], width: number, eol: string): string {
  let out = '';
  let pos = 0;
  cells.forEach((c, i) => {
    if (i > 0) {
      if (width === 0 || pos + c.length + 2 < width) {
        out += ', ';
        pos += 2;
      } else {
        out += `,${eol}`;
        pos = 0;
      }
    }
    out += c;
    pos += c.length;
  });
  return `${out}${eol}`;
}

/**
 * `-C` (down the columns, `vertical`) or `-x` (across): GNU's choice of the most columns that fit in `width`
 * (each column as wide as its longest name plus two, the last without the two, at least three), padded with tabs
 * of `tabsize` (0: spaces only) then spaces.
 */
function grid(cells: string[], vertical: boolean, width: number, tabsize: number, eol: string): string {
  const n = cells.length;
  const lengths = cells.map((c) => [...c].length);
  const maxIdx = width === 0 ? n : Math.max(1, Math.floor(width / 3));
  const maxCols = Math.min(maxIdx, n);
  let chosen = 1;
  let widths: number[] = [Math.max(...lengths)];
  for (let cols = maxCols; cols >= 1; cols--) {
    const rows = Math.ceil(n / cols);
    const w = new Array<number>(cols).fill(3);
    for (let i = 0; i < n; i++) {
      const col = vertical ? Math.floor(i / rows) : i % cols;
      w[col] = Math.max(w[col]!, lengths[i]! + (col === cols - 1 ? 0 : 2));
    }
    if (cols === 1 || width === 0 || w.reduce((a, b) => a + b, 0) < width) {
      chosen = cols;
      widths = w;
      break;
    }
  }
  const rows = Math.ceil(n / chosen);
  const pad = (from: number, to: number) => {
    let s = '';
    while (from < to) {
      if (tabsize > 0 && Math.floor(to / tabsize) > Math.floor((from + 1) / tabsize)) {
        s += '\t';
        from += tabsize - (from % tabsize);
      } else {
        s += ' ';
        from++;
      }
    }
    return s;
  };
  let out = '';
  for (let r = 0; r < rows; r++) {
    let pos = 0;
    const line = vertical ? Array.from({ length: chosen }, (_, c) => c * rows + r).filter((i) => i < n) : Array.from({ length: chosen }, (_, c) => r * chosen + c).filter((i) => i < n);
    line.forEach((i, c) => {
      out += cells[i];
      if (c === line.length - 1) return;
      out += pad(pos + lengths[i]!, pos + widths[c]!);
      pos += widths[c]!;
    });
    out += eol;
  }
  return out;
}

/** The line width ls assumes: `COLUMNS` when it is a positive number, else 80. */
function lineWidth(env: Map<string, string>, exported: Record<string, string> | undefined): number {
  const v = exported ? exported.COLUMNS : env.get('COLUMNS');
  return v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : 80;
}

/** `ls` for just-bash's `customCommands`; `now` (epoch ms) dates the long format's recent files. */
export function lsCommand(now: () => number): CustomCommand {
  return defineCommand('ls', async (args, ctx) => {
    const o = parseLsArgs(args, lineWidth(ctx.env, ctx.exportedEnv));
    if (!('operands' in o)) return { stdout: '', stderr: o.stderr, exitCode: 2 };
    return new Lister(ctx.fs, ctx.cwd, o, now()).run();
  });
}
