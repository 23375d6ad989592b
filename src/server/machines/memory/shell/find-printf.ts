/**
 * `find -printf FORMAT` as findutils formats a file: the escapes (`\n`, `\0`, `\NNN`, `\c`; another one is kept as
 * written, with GNU's warning), the directives (`%p`, `%P`, `%f`, `%h`, `%H`, `%d`, `%D`, `%y`, `%Y`, `%m`, `%M`, `%s`,
 * `%k`, `%b`, `%n`, `%i`, `%u`, `%g`, `%U`, `%G`, `%l`, `%t`, `%T@`, `%Tk`… with strftime's letters) with their field
 * widths and precision (`%-10p`, `%5s`, `%.3p`) and `%m`'s `#` and `0` flags (`%#m` is `0644`); a letter findutils
 * does not know is printed as written, with its warning; a `%` ending the format is GNU's error. `%a`/`%A` print the
 * access time; the sprite keeps no change time, so `%c`/`%C` print the modification time, and none is a birth time
 * (`%B` is empty). A directive needing facts the sprite lacks (`%S`, `%F`, `%Z`) is refused.
 * @see https://www.gnu.org/software/findutils/manual/html_node/find_html/Format-Directives.html
 */
import { accessTime, nanosText, secondsAndNanos } from './file-time.ts';
import type { FsStat } from 'just-bash';
import { DISK_DEVICE, inodeNumber, ownerOf } from './devices.ts';
import { permissions } from './ls-long.ts';
import { GROUP_NAMES, USER_NAMES } from '../accounts.ts';

/** What a directive may print about one file. */
export interface FileFacts {
  /** The path as find names it (`./src/x`). */
  path: string;
  /** The starting point it was found under. */
  start: string;
  depth: number;
  /** Its status (the link's own, unless find follows links). */
  st: FsStat;
  /** What a symlink points to (`%Y`), when it exists. */
  targetSt?: FsStat;
  /** A symlink's target text (`%l`). */
  target?: string;
  /** Link count (`%n`). */
  links: number;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `f`, `d`, `l` or `c` (a device) for a status; `N` when there is none (a dangling link's target). */
export function typeLetter(st: FsStat | undefined): string {
  if (!st) return 'N';
  if (ownerOf(st).device) return 'c';
  return st.isSymbolicLink ? 'l' : st.isDirectory ? 'd' : 'f';
}

/** `-rw-r--r--` of a status, with its type letter. */
export function symbolicMode(st: FsStat): string {
  const t = typeLetter(st);
  return (t === 'f' ? '-' : t) + permissions(st.mode);
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** The fraction findutils prints after seconds: the nine digits of the nanoseconds and a tenth, always 0. */
const fraction = (d: Date) => `${nanosText(d)}0`;

/** The day of the year of `d` (UTC), from 0. */
const yday = (d: Date) => Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000);

/** ISO 8601's week-based year and week of `d` (strftime's `%G` and `%V`): weeks start on Monday, week 1 holds Jan 4. */
function isoWeek(d: Date): { year: number; week: number } {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  t.setUTCDate(t.getUTCDate() + 3 - ((t.getUTCDay() + 6) % 7)); // the Thursday of its week decides the year
  const year = t.getUTCFullYear();
  return { year, week: 1 + Math.floor((t.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) };
}

/** One `%T<k>` field of `d` (UTC); a letter strftime does not know is printed as written (`%Tq` is `%q`). */
function timeField(d: Date, k: string): string {
  const secs = secondsAndNanos(d).seconds;
  const h12 = d.getUTCHours() % 12 || 12;
  const fields: Record<string, () => string> = {
    '@': () => `${secs}.${fraction(d)}`,
    Y: () => String(d.getUTCFullYear()),
    y: () => pad2(d.getUTCFullYear() % 100),
    m: () => pad2(d.getUTCMonth() + 1),
    d: () => pad2(d.getUTCDate()),
    e: () => String(d.getUTCDate()).padStart(2),
    H: () => pad2(d.getUTCHours()),
    I: () => pad2(h12),
    k: () => String(d.getUTCHours()).padStart(2),
    l: () => String(h12).padStart(2),
    M: () => pad2(d.getUTCMinutes()),
    S: () => `${pad2(d.getUTCSeconds())}.${fraction(d)}`,
    p: () => (d.getUTCHours() < 12 ? 'AM' : 'PM'),
    r: () => `${pad2(h12)}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`,
    T: () => `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${fraction(d)}`,
    X: () => `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${fraction(d)}`,
    Z: () => 'UTC',
    a: () => DAYS[d.getUTCDay()]!,
    A: () => DAY_NAMES[d.getUTCDay()]!,
    b: () => MONTHS[d.getUTCMonth()]!,
    h: () => MONTHS[d.getUTCMonth()]!,
    B: () => MONTH_NAMES[d.getUTCMonth()]!,
    c: () => `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} ${d.getUTCFullYear()}`,
    D: () => `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${pad2(d.getUTCFullYear() % 100)}`,
    x: () => `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${pad2(d.getUTCFullYear() % 100)}`,
    F: () => `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`,
    j: () => String(yday(d) + 1).padStart(3, '0'),
    s: () => String(secs),
    U: () => pad2(Math.floor((yday(d) + 7 - d.getUTCDay()) / 7)),
    w: () => String(d.getUTCDay()),
    u: () => String(d.getUTCDay() || 7),
    C: () => pad2(Math.floor(d.getUTCFullYear() / 100)),
    W: () => pad2(Math.floor((yday(d) + 7 - ((d.getUTCDay() + 6) % 7)) / 7)),
    G: () => String(isoWeek(d).year),
    g: () => pad2(isoWeek(d).year % 100),
    V: () => pad2(isoWeek(d).week),
    R: () => `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`,
    P: () => (d.getUTCHours() < 12 ? 'am' : 'pm'),
    z: () => '+0000',
    n: () => '\n',
    t: () => '\t',
    '%': () => '%',
    '+': () => `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}+${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${fraction(d)}`,
  };
  return fields[k]?.() ?? `%${k}`;
}

/** ctime(3)'s form with findutils' fraction: `Thu Jan  2 03:04:05.5000000000 2020`. */
function ctimeOf(d: Date): string {
  const t = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${fraction(d)}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${t} ${d.getUTCFullYear()}`;
}

/**
 * A checked format: the pieces to print and GNU's warnings about it (an unknown escape or directive, printed as
 * written); or GNU's error about it (`error`, status 1); or the directive or escape it cannot print (`what`).
 */
export type CompiledFormat =
  | { ok: true; pieces: Array<string | ((f: FileFacts) => string)>; warnings: string }
  | { ok: false; what: string; error?: undefined }
  | { ok: false; error: string; what?: undefined };

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** The directives findutils knows (any other letter is printed as written); those it takes a time letter after. */
const KNOWN = new Set('aAbBcCdDfFgGhHiklmMnpPsStTuUyYZ');
const TIMED = new Set('ABCT');
/** Directives needing facts the sprite does not keep: sparseness, the filesystem's type, an SELinux context. */
const REFUSED = new Set('SFZ');

/** The value of directive `c` (with `%T`-style `k`) for a file. */
function directive(c: string, k: string): (f: FileFacts) => string {
  const base = (p: string) => (p === '/' ? '/' : p.replace(/\/+$/, '').slice(p.replace(/\/+$/, '').lastIndexOf('/') + 1));
  const rel = (f: FileFacts) => (f.path === f.start ? '' : f.path.slice(f.start.length + (f.start.endsWith('/') ? 0 : 1)));
  const owner = (f: FileFacts) => ownerOf(f.st);
  const simple: Record<string, (f: FileFacts) => string> = {
    p: (f) => f.path,
    P: rel,
    f: (f) => base(f.path),
    h: (f) => {
      const p = f.path.replace(/\/+$/, '');
      const slash = p.lastIndexOf('/');
      return slash < 0 ? '.' : p.slice(0, slash) || '/';
    },
    H: (f) => f.start,
    d: (f) => String(f.depth),
    D: (f) => String(typeof f.st.dev === 'number' ? f.st.dev : DISK_DEVICE),
    y: (f) => typeLetter(f.st),
    Y: (f) => (f.st.isSymbolicLink ? (f.targetSt ? typeLetter(f.targetSt) : 'N') : typeLetter(f.st)),
    m: (f) => (f.st.mode & 0o7777).toString(8),
    M: (f) => symbolicMode(f.st),
    s: (f) => String(f.st.size),
    k: (f) => String(f.st.isDirectory ? 4 : f.st.isSymbolicLink ? 0 : Math.ceil(f.st.size / 4096) * 4),
    b: (f) => String(f.st.isDirectory ? 8 : f.st.isSymbolicLink ? 0 : Math.ceil(f.st.size / 4096) * 8),
    n: (f) => String(f.links),
    i: (f) => String(inodeNumber(f.st, f.path)),
    u: (f) => USER_NAMES[owner(f).uid] ?? String(owner(f).uid),
    g: (f) => GROUP_NAMES[owner(f).gid] ?? String(owner(f).gid),
    U: (f) => String(owner(f).uid),
    G: (f) => String(owner(f).gid),
    l: (f) => f.target ?? '',
    t: (f) => ctimeOf(f.st.mtime),
    a: (f) => ctimeOf(accessTime(f.st)),
    c: (f) => ctimeOf(f.st.mtime),
    // No birth time is known: findutils prints nothing then (`%B` takes a time letter like `%T`).
    B: () => '',
  };
  if (c === 'B') return simple.B!;
  if (TIMED.has(c)) return (f) => timeField(c === 'A' ? accessTime(f.st) : f.st.mtime, k);
  return simple[c]!;
}

/** `v` in a field of `width` (`-`: on the left); only `%m` (printed with printf's `%o`) takes `0` and `#`. */
function field(v: string, c: string, flags: string, width: number, precision: string | undefined): string {
  if (c === 'm') {
    if (flags.includes('#') && v !== '0') v = `0${v}`;
    if (precision !== undefined) v = v.padStart(Number(precision), '0');
  } else if (precision !== undefined) v = v.slice(0, Number(precision));
  if (v.length >= width) return v;
  if (flags.includes('-')) return v.padEnd(width);
  return v.padStart(width, c === 'm' && flags.includes('0') ? '0' : ' ');
}

/** Compiles a `-printf` format once, for every file it prints. */
export function compileFormat(fmt: string): CompiledFormat {
  const pieces: Array<string | ((f: FileFacts) => string)> = [];
  let lit = '';
  let warnings = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch === '\\' && i + 1 < fmt.length) {
      const e = fmt[++i]!;
      if (e === 'c') {
        pieces.push(lit);
        return { ok: true, pieces, warnings };
      }
      const oct = /^[0-7]{1,3}/.exec(fmt.slice(i));
      if (oct) {
        lit += String.fromCharCode(parseInt(oct[0], 8));
        i += oct[0].length - 1;
      } else if (ESCAPES[e] !== undefined) lit += ESCAPES[e];
      else {
        warnings += `find: warning: unrecognized escape \`\\${e}'\n`;
        lit += `\\${e}`;
      }
    } else if (ch === '%') {
      if (i + 1 >= fmt.length) return { ok: false, error: 'find: error: % at end of format string\n' };
      const m = /^([-+ #0]*)(\d*)(?:\.(\d+))?([a-zA-Z%@+])/.exec(fmt.slice(i + 1));
      if (!m) return { ok: false, what: `the -printf directive %${fmt[i + 1]}` };
      const [all, flags, width, precision, c] = m as unknown as [string, string, string, string | undefined, string];
      i += all.length;
      // `%%` is a percent sign; with flags or a width (`%5%`) findutils prints them as written, without the last `%`.
      if (c === '%') {
        lit += all.length === 1 ? '%' : `%${all.slice(0, -1)}`;
        continue;
      }
      if (!KNOWN.has(c)) {
        warnings += `find: warning: unrecognized format directive \`%${c}'\n`;
        lit += `%${all}`;
        continue;
      }
      if (REFUSED.has(c)) return { ok: false, what: `the -printf directive %${c}` };
      let k = '';
      if (TIMED.has(c)) {
        k = fmt[i + 1] ?? '';
        i++;
      }
      const fn = directive(c, k);
      pieces.push(lit);
      lit = '';
      const w = Number(width || 0);
      pieces.push((f) => field(fn(f), c, flags, w, precision));
    } else lit += ch;
  }
  pieces.push(lit);
  return { ok: true, pieces, warnings };
}

/** The text of a compiled format for one file. */
export function formatFile(format: Array<string | ((f: FileFacts) => string)>, f: FileFacts): string {
  return format.map((p) => (typeof p === 'string' ? p : p(f))).join('');
}
