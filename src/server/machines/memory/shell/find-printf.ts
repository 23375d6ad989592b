/**
 * `find -printf FORMAT` as findutils formats a file: the escapes (`\n`, `\0`, `\NNN`, `\c`), the directives (`%p`,
 * `%P`, `%f`, `%h`, `%H`, `%d`, `%y`, `%Y`, `%m`, `%M`, `%s`, `%k`, `%b`, `%n`, `%i`, `%u`, `%g`, `%U`, `%G`, `%l`, `%t`,
 * `%T@`, `%Tk`…) with their field widths (`%-10p`, `%5s`). The sprite keeps one time per file, so `%a`/`%c` and
 * `%A`/`%C` print the modification time; `%i` the inode number. A directive needing facts the sprite lacks (`%D`,
 * `%S`…) is refused.
 * @see https://www.gnu.org/software/findutils/manual/html_node/find_html/Format-Directives.html
 */
import { nanosText, secondsAndNanos } from './file-time.ts';
import type { FsStat } from 'just-bash';
import { inodeNumber, ownerOf } from './devices.ts';
import { permissions } from './ls-long.ts';

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

const NAMES: Record<number, string> = { 0: 'root', 1000: 'sprite', 65534: 'nogroup' };
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

/** One `%T<k>` field of `d` (UTC); null for a letter findutils does not know. */
function timeField(d: Date, k: string): string | null {
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
    j: () => String(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1).padStart(3, '0'),
    s: () => String(secs),
    U: () => pad2(Math.floor((Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 7 - d.getUTCDay()) / 7)),
    w: () => String(d.getUTCDay()),
    '+': () => `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}+${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${fraction(d)}`,
  };
  return fields[k]?.() ?? null;
}

/** ctime(3)'s form with findutils' fraction: `Thu Jan  2 03:04:05.5000000000 2020`. */
function ctimeOf(d: Date): string {
  const t = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${fraction(d)}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${t} ${d.getUTCFullYear()}`;
}

/** A checked format: the pieces to print, or the directive or escape it cannot print. */
export type CompiledFormat = { ok: true; pieces: Array<string | ((f: FileFacts) => string)> } | { ok: false; what: string };

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** The value of directive `c` (with `%T`-style `k`) for a file. */
function directive(c: string, k: string): ((f: FileFacts) => string) | null {
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
    y: (f) => typeLetter(f.st),
    Y: (f) => (f.st.isSymbolicLink ? (f.targetSt ? typeLetter(f.targetSt) : 'N') : typeLetter(f.st)),
    m: (f) => (f.st.mode & 0o7777).toString(8),
    M: (f) => symbolicMode(f.st),
    s: (f) => String(f.st.size),
    k: (f) => String(f.st.isDirectory ? 4 : f.st.isSymbolicLink ? 0 : Math.ceil(f.st.size / 4096) * 4),
    b: (f) => String(f.st.isDirectory ? 8 : f.st.isSymbolicLink ? 0 : Math.ceil(f.st.size / 4096) * 8),
    n: (f) => String(f.links),
    i: (f) => String(inodeNumber(f.st, f.path)),
    u: (f) => NAMES[owner(f).uid] ?? String(owner(f).uid),
    g: (f) => NAMES[owner(f).gid] ?? String(owner(f).gid),
    U: (f) => String(owner(f).uid),
    G: (f) => String(owner(f).gid),
    l: (f) => f.target ?? '',
    t: (f) => ctimeOf(f.st.mtime),
    a: (f) => ctimeOf(f.st.mtime),
    c: (f) => ctimeOf(f.st.mtime),
  };
  if (simple[c]) return simple[c]!;
  if ('TAC'.includes(c) && k && timeField(new Date(0), k) !== null) return (f) => timeField(f.st.mtime, k)!;
  return null;
}

/** Compiles a `-printf` format once, for every file it prints. */
export function compileFormat(fmt: string): CompiledFormat {
  const pieces: Array<string | ((f: FileFacts) => string)> = [];
  let lit = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch === '\\' && i + 1 < fmt.length) {
      const e = fmt[++i]!;
      if (e === 'c') {
        pieces.push(lit);
        return { ok: true, pieces };
      }
      const oct = /^[0-7]{1,3}/.exec(fmt.slice(i));
      if (oct) {
        lit += String.fromCharCode(parseInt(oct[0], 8));
        i += oct[0].length - 1;
      } else if (ESCAPES[e] !== undefined) lit += ESCAPES[e];
      else return { ok: false, what: `the escape \\${e} in -printf` };
    } else if (ch === '%') {
      const m = /^([-+ #0]*)(\d*)(?:\.(\d+))?([a-zA-Z%@])/.exec(fmt.slice(i + 1));
      if (!m) {
        if (i + 1 >= fmt.length) return { ok: false, what: 'a trailing % in -printf' };
        return { ok: false, what: `the -printf directive %${fmt[i + 1]}` };
      }
      const [all, flags, width, precision, c] = m as unknown as [string, string, string, string | undefined, string];
      i += all.length;
      if (c === '%') {
        lit += '%';
        continue;
      }
      let k = '';
      if ('TAC'.includes(c)) {
        k = fmt[i + 1] ?? '';
        i++;
      }
      const fn = directive(c, k);
      if (!fn) return { ok: false, what: `the -printf directive %${c}${k}` };
      pieces.push(lit);
      lit = '';
      const w = Number(width || 0);
      pieces.push((f) => {
        let v = fn(f);
        if (precision !== undefined) v = v.slice(0, Number(precision));
        return v.length >= w ? v : flags.includes('-') ? v.padEnd(w) : v.padStart(w, flags.includes('0') && /^\d/.test(v) ? '0' : ' ');
      });
    } else lit += ch;
  }
  pieces.push(lit);
  return { ok: true, pieces };
}

/** The text of a compiled format for one file. */
export function formatFile(format: Array<string | ((f: FileFacts) => string)>, f: FileFacts): string {
  return format.map((p) => (typeof p === 'string' ? p : p(f))).join('');
}
