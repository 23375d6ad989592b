/**
 * GNU `stat` over the sprite's filesystem, replacing just-bash's: the default report, `-c`/`--format`/`--printf`
 * with every directive a sprite has facts for (field widths and flags as printf's: `%-10s`, `%04a`), `-t` (terse),
 * `-L`, and `-f` (the filesystem: ext4, as a sprite's disk is). Times are the sprite's modification time (it keeps
 * one); inode numbers are stable per path.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/stat-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { DEVICE_NUMBERS, DISK_DEVICE, inodeNumber, linkCount, ownerOf } from './devices.ts';
import { symbolicMode, typeLetter } from './find-printf.ts';
import { quoteName } from './ls-quote.ts';
import { OrderedOutput } from './output-order.ts';
import { accessTime, nanosText, secondsAndNanos, secondsText } from './file-time.ts';
import { GROUP_NAMES, USER_NAMES } from '../accounts.ts';

const HINT = 'run spritzer with --exec sandbox';
/** The disk's 4 KiB blocks (a sprite's 100 GB disk). */
const DISK_BLOCKS = Math.floor(100e9 / 4096);
const refuse = (what: string): ExecResult => ({ stdout: '', stderr: `stat: ${what} is not available in the shell engine; ${HINT}\n`, exitCode: 2 });

function typeName(st: FsStat): string {
  if (ownerOf(st).device) return 'character special file';
  if (st.isSymbolicLink) return 'symbolic link';
  if (st.isDirectory) return 'directory';
  return st.size === 0 ? 'regular empty file' : 'regular file';
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** `2020-01-02 03:04:05.000000000 +0000`. */
function fullTime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${nanosText(d)} +0000`;
}
const seconds = (d: Date) => String(secondsAndNanos(d).seconds);
/** The seconds directives: with a precision (`%.9Y`, `%.Y` as nine) they print that many decimals, not a cut string. */
const SECONDS_DIRECTIVES = new Set(['X', 'Y', 'Z']);

/** What one file's directives print. */
interface Facts {
  name: string;
  /** `%N` quotes names (`-c`), or prints them as they are (the default report). */
  quote: boolean;
  path: string;
  st: FsStat;
  target: string;
  links: number;
}

/** The value of file directive `c`, or null for one GNU stat does not have or the sprite cannot answer. */
function fileDirective(c: string, f: Facts, precision?: number): string | null {
  const { st } = f;
  const o = ownerOf(st);
  const dev = DEVICE_NUMBERS[f.path.slice(f.path.lastIndexOf('/') + 1)] ?? [0, 0];
  const blocks = st.isDirectory ? 8 : st.isSymbolicLink || o.device ? 0 : Math.ceil(st.size / 4096) * 8;
  const type = o.device ? 0o20000 : st.isDirectory ? 0o40000 : st.isSymbolicLink ? 0o120000 : 0o100000;
  const epoch = (d: Date) => (precision === undefined ? seconds(d) : secondsText(d, precision));
  const values: Record<string, () => string> = {
    a: () => (st.mode & 0o7777).toString(8),
    A: () => symbolicMode(st),
    b: () => String(blocks),
    B: () => '512',
    d: () => String(o.device ? 6 : DISK_DEVICE),
    D: () => (o.device ? 6 : DISK_DEVICE).toString(16),
    f: () => ((st.mode & 0o7777) | type).toString(16),
    F: () => typeName(st),
    g: () => String(o.gid),
    G: () => GROUP_NAMES[o.gid] ?? 'UNKNOWN',
    h: () => String(f.links),
    i: () => String(inodeNumber(st, f.path)),
    m: () => '/',
    n: () => f.name,
    N: () => {
      const q = (n: string) => (f.quote ? quoteName(n, 'shell-escape-always') : n);
      return st.isSymbolicLink ? `${q(f.name)} -> ${q(f.target)}` : q(f.name);
    },
    o: () => '4096',
    s: () => String(st.size),
    r: () => (o.device ? String(dev[0] * 256 + dev[1]) : '0'),
    R: () => (o.device ? (dev[0] * 256 + dev[1]).toString(16) : '0'),
    t: () => (o.device ? dev[0].toString(16) : '0'),
    T: () => (o.device ? dev[1].toString(16) : '0'),
    u: () => String(o.uid),
    U: () => USER_NAMES[o.uid] ?? 'UNKNOWN',
    // @deviation The sprite keeps no birth times: `-` and 0, GNU's words for an unknown one.
    w: () => '-',
    W: () => '0',
    x: () => fullTime(accessTime(st)),
    X: () => epoch(accessTime(st)),
    y: () => fullTime(st.mtime),
    Y: () => epoch(st.mtime),
    z: () => fullTime(st.mtime),
    Z: () => epoch(st.mtime),
  };
  const [major, minor] = o.device ? [0, 6] : [DISK_DEVICE >> 8, 0];
  const split: Record<string, number> = { Hd: major, Ld: minor, Hr: o.device ? dev[0] : 0, Lr: o.device ? dev[1] : 0 };
  if (split[c] !== undefined) return String(split[c]);
  return values[c]?.() ?? null;
}

/** The value of filesystem directive `c` (`stat -f`). */
function fsDirective(c: string, name: string, usedBytes: number, files: number): string | null {
  const used = Math.ceil(usedBytes / 4096);
  const values: Record<string, string> = {
    n: name,
    i: '0',
    l: '255',
    t: 'ef53',
    T: 'ext2/ext3',
    b: String(DISK_BLOCKS),
    f: String(DISK_BLOCKS - used),
    a: String(DISK_BLOCKS - used),
    s: '4096',
    S: '4096',
    c: '6553600',
    d: String(6553600 - files),
  };
  return values[c] ?? null;
}

/**
 * Expands a stat format: `%%`, directives with printf flags and widths (`%-10s`, `%04a`, `%.3y`), and with
 * `escapes` (--printf) backslash escapes. Returns the text, or the directive or escape it cannot print.
 */
function expand(fmt: string, escapes: boolean, value: (c: string, precision?: number) => string | null): { text: string } | { missing: string } {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch === '\\' && escapes && i + 1 < fmt.length) {
      const e = fmt[++i]!;
      const map: Record<string, string> = { n: '\n', t: '\t', '0': '\0', '\\': '\\', a: '\x07', r: '\r', '"': '"', b: '\b', f: '\f', v: '\v', e: '\x1b' };
      const oct = /^[0-7]{1,3}/.exec(fmt.slice(i));
      if (oct && e !== '0') {
        out += String.fromCharCode(parseInt(oct[0], 8));
        i += oct[0].length - 1;
      } else if (map[e] !== undefined) out += map[e];
      else out += `\\${e}`;
      continue;
    }
    if (ch !== '%') {
      out += ch;
      continue;
    }
    const m = /^([-#0 +']*)(\d*)(?:\.(\d*))?([a-zA-Z%])?/.exec(fmt.slice(i + 1))!;
    i += m[0].length;
    const c = m[4];
    if (c === undefined) {
      out += '%';
      continue;
    }
    if (c === '%') {
      out += '%';
      continue;
    }
    let key = c;
    if ((c === 'H' || c === 'L') && /[dr]/.test(fmt[i + 1] ?? '')) key += fmt[++i];
    const decimals = SECONDS_DIRECTIVES.has(key) && m[3] !== undefined;
    let v = value(key, decimals ? Number(m[3] || 9) : undefined);
    if (v === null) return { missing: `%${key}` };
    const [flags, width] = [m[1]!, Number(m[2] || 0)];
    if (m[3] !== undefined && !decimals) v = v.slice(0, Number(m[3] || 0));
    if (v.length < width) v = flags.includes('-') ? v.padEnd(width) : flags.includes('0') && /^\d+$/.test(v) ? v.padStart(width, '0') : v.padStart(width);
    out += v;
  }
  return { text: out };
}

const DEFAULT_FORMAT =
  '  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %h\n' +
  'Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n';
const DEVICE_FORMAT = DEFAULT_FORMAT.replace('Links: %h\n', 'Links: %-5h Device type: %Hr,%Lr\n');
const TERSE_FORMAT = '%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n';
const FS_DEFAULT = '  File: "%n"\n    ID: %-8i Namelen: %-7l Type: %T\nBlock size: %-10s Fundamental block size: %S\nBlocks: Total: %-10b Free: %-10f Available: %a\nInodes: Total: %-10c Free: %d\n';
const FS_TERSE = '%n %i %l %t %s %S %b %f %a %c %d\n';

/** The link count: the file's own, or for a synthetic directory as ext4 keeps it: 2, and one per subdirectory. */
async function linksOf(fs: IFileSystem, path: string, st: FsStat): Promise<number> {
  return linkCount(st, () => subdirLinks(fs, path, st));
}

async function subdirLinks(fs: IFileSystem, path: string, st: FsStat): Promise<number> {
  if (!st.isDirectory) return 1;
  let n = 2;
  for (const c of await fs.readdir(path).catch(() => [] as string[])) if ((await fs.lstat(`${path.replace(/\/+$/, '')}/${c}`).catch(() => null))?.isDirectory) n++;
  return n;
}

/** What `stat` needs besides the command context: the disk's used bytes and file count (`-f`). */
export interface StatDisk {
  usedBytes: () => number;
  files: () => number;
}

async function stat(args: string[], fs: IFileSystem, cwd: string, disk: StatDisk): Promise<ExecResult> {
  let format: string | undefined;
  let escapes = false;
  let follow = false;
  let terse = false;
  let filesystem = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '-c' || a === '--format') format = `${args[++i] ?? ''}\n`;
    else if (a.startsWith('--format=')) format = `${a.slice(9)}\n`;
    else if (a === '--printf' || a.startsWith('--printf=')) {
      format = a === '--printf' ? (args[++i] ?? '') : a.slice(9);
      escapes = true;
    } else if (a === '-L' || a === '--dereference') follow = true;
    else if (a === '-t' || a === '--terse') terse = true;
    else if (a === '-f' || a === '--file-system') filesystem = true;
    else if (a.startsWith('--')) return { stdout: '', stderr: `stat: unrecognized option '${a}'\nTry 'stat --help' for more information.\n`, exitCode: 1 };
    else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'L') follow = true;
        else if (c === 't') terse = true;
        else if (c === 'f') filesystem = true;
        else if (c === 'c') {
          format = `${a.slice(j + 1) || (args[++i] ?? '')}\n`;
          break;
        } else return { stdout: '', stderr: `stat: invalid option -- '${c}'\nTry 'stat --help' for more information.\n`, exitCode: 1 };
      }
    } else operands.push(a);
  }
  if (operands.length === 0) return { stdout: '', stderr: "stat: missing operand\nTry 'stat --help' for more information.\n", exitCode: 1 };
  // GNU stat reports through error(), which flushes what it printed so far: program order.
  const text = new OrderedOutput();
  for (const name of operands) {
    const path = fs.resolvePath(cwd, name);
    let st: FsStat;
    try {
      st = follow || filesystem ? await fs.stat(path) : await fs.lstat(path);
    } catch (err) {
      const code = (err as { code?: string }).code;
      const why = code === 'ELOOP' ? 'Too many levels of symbolic links' : code === 'ENOTDIR' ? 'Not a directory' : code === 'EACCES' ? 'Permission denied' : 'No such file or directory';
      text.err(filesystem ? `stat: cannot read file system information for '${name}': ${why}\n` : `stat: cannot ${follow ? 'stat' : 'statx'} '${name}': ${why}\n`);
      continue;
    }
    let r: { text: string } | { missing: string };
    if (filesystem) r = expand(format ?? (terse ? FS_TERSE : FS_DEFAULT), escapes, (c) => fsDirective(c, name, disk.usedBytes(), disk.files()));
    else {
      const facts: Facts = { name, quote: format !== undefined, path, st, target: st.isSymbolicLink ? await fs.readlink(path).catch(() => '') : '', links: await linksOf(fs, path, st) };
      const fmt = format ?? (terse ? TERSE_FORMAT : ownerOf(st).device ? DEVICE_FORMAT : DEFAULT_FORMAT);
      r = expand(fmt, escapes, (c, precision) => fileDirective(c, facts, precision));
    }
    if ('missing' in r) return refuse(`the format directive ${r.missing}`);
    text.out(r.text);
  }
  return text.result(text.stderr ? 1 : 0, 'before-errors');
}

/** `stat` for just-bash's `customCommands`; `disk` answers `stat -f`. */
export function statCommands(disk: StatDisk): CustomCommand[] {
  return [defineCommand('stat', (args, ctx) => stat(args, ctx.fs, ctx.cwd, disk))];
}
