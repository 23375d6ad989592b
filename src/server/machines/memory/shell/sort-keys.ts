/**
 * The comparisons of GNU sort (coreutils 9), in the C locale (byte order) as a sprite's shell runs it: keys
 * (`-k F[.C][OPTS][,F[.C][OPTS]]` over blank- or `-t`-separated fields) and the orderings `-n`, `-g`, `-h`, `-M`,
 * `-V` (gnulib's filevercmp), `-d`, `-f`, `-i`, `-b`, `-r`, with GNU's last-resort byte comparison of whole lines.
 * Lines are byte strings (one char per byte). Option parsing and I/O are sort-command.ts's.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html
 */

/** One key (or the whole line) and how it orders. */
export interface SortKey {
  /** 0-based start field and char; `sword` -1 for the line's start. */
  sword: number;
  schar: number;
  /** 0-based end field (-1: the line's end) and 1-based end char (0: the field's end). */
  eword: number;
  echar: number;
  skipStart: boolean;
  skipEnd: boolean;
  numeric: boolean;
  general: boolean;
  human: boolean;
  month: boolean;
  version: boolean;
  random: boolean;
  dictionary: boolean;
  fold: boolean;
  printable: boolean;
  reverse: boolean;
}

export const blankKey = (): SortKey => ({ sword: -1, schar: 0, eword: -1, echar: 0, skipStart: false, skipEnd: false, numeric: false, general: false, human: false, month: false, version: false, random: false, dictionary: false, fold: false, printable: false, reverse: false });

/** Applies ordering letters (`bdfghiMnRrV`) to `key`; returns the first letter that is none, or undefined. */
export function applyOrdering(key: SortKey, letters: string, end = false): string | undefined {
  for (const c of letters) {
    if (c === 'b') end ? (key.skipEnd = true) : (key.skipStart = true);
    else if (c === 'd') key.dictionary = true;
    else if (c === 'f') key.fold = true;
    else if (c === 'g') key.general = true;
    else if (c === 'h') key.human = true;
    else if (c === 'i') key.printable = true;
    else if (c === 'M') key.month = true;
    else if (c === 'n') key.numeric = true;
    else if (c === 'R') key.random = true;
    else if (c === 'r') key.reverse = true;
    else if (c === 'V') key.version = true;
    else return c;
  }
  return undefined;
}

/** Whether `key` has any ordering option of its own (else it takes the global ones). */
export const hasOrdering = (k: SortKey) => k.skipStart || k.skipEnd || k.numeric || k.general || k.human || k.month || k.version || k.random || k.dictionary || k.fold || k.printable || k.reverse;

const isBlank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n';

/** GNU's begfield/limfield: the [start, end) of `key` in `line` with field separator `tab` (undefined: blanks). */
function span(line: string, key: SortKey, tab: string | undefined): [number, number] {
  const lim = line.length;
  let beg = 0;
  if (key.sword >= 0) {
    let n = key.sword;
    if (tab !== undefined) {
      while (beg < lim && n--) {
        while (beg < lim && line[beg] !== tab) beg++;
        if (beg < lim) beg++;
      }
    } else {
      while (beg < lim && n--) {
        while (beg < lim && isBlank(line[beg])) beg++;
        while (beg < lim && !isBlank(line[beg])) beg++;
      }
    }
  }
  if (key.skipStart) while (beg < lim && isBlank(line[beg])) beg++;
  beg = Math.min(lim, beg + key.schar);
  let end = lim;
  if (key.eword >= 0) {
    end = 0;
    let n = key.echar === 0 ? key.eword + 1 : key.eword;
    if (tab !== undefined) {
      while (end < lim && n--) {
        while (end < lim && line[end] !== tab) end++;
        if (end < lim && (n || key.echar)) end++;
      }
    } else {
      while (end < lim && n--) {
        while (end < lim && isBlank(line[end])) end++;
        while (end < lim && !isBlank(line[end])) end++;
      }
    }
    if (key.echar !== 0) {
      if (key.skipEnd) while (end < lim && isBlank(line[end])) end++;
      end = Math.min(lim, end + key.echar);
    }
  }
  return [beg, Math.max(beg, end)];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** -n: the leading number (blanks skipped, optional `-`, digits, `.` fraction), compared exactly. */
function numeric(a: string, b: string): number {
  const parse = (s: string) => {
    const m = /^[ \t]*(-?)(\d*)(?:\.(\d*))?/.exec(s)!;
    const int = m[2]!.replace(/^0+/, '');
    const frac = (m[3] ?? '').replace(/0+$/, '');
    const zero = int === '' && frac === '';
    return { neg: m[1] === '-' && !zero, int, frac };
  };
  const x = parse(a);
  const y = parse(b);
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const mag = x.int.length !== y.int.length ? x.int.length - y.int.length : cmp(x.int, y.int) || cmp(x.frac, y.frac);
  return x.neg ? -mag : mag;
}

/** -g: strtod's reading; what is no number sorts first, then NaN, then the numbers. */
function general(a: string, b: string): number {
  const parse = (s: string): [number, number] => {
    const m = /^[ \t]*([-+]?(?:inf(?:inity)?|nan|0x[0-9a-f]+(?:\.[0-9a-f]*)?(?:p[-+]?\d+)?|(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?))/i.exec(s);
    if (!m) return [0, 0];
    const v = /^[-+]?0x/i.test(m[1]!) ? Number.parseInt(m[1]!, 16) : Number(m[1]!.replace(/^([-+]?)inf(inity)?$/i, '$1Infinity'));
    return Number.isNaN(v) ? [1, 0] : [2, v];
  };
  const [ra, va] = parse(a);
  const [rb, vb] = parse(b);
  return ra !== rb ? ra - rb : va < vb ? -1 : va > vb ? 1 : 0;
}

const UNITS = 'KMGTPEZYRQ';
/** -h: the sign, then the SI suffix (`K` < `M` < …), then the number. */
function human(a: string, b: string): number {
  const order = (s: string) => {
    const m = /^[ \t]*(-?)\d*(?:\.\d*)?([kKMGTPEZYRQ]?)/.exec(s)!;
    const u = m[2] === '' ? 0 : UNITS.indexOf(m[2]!.toUpperCase()) + 1;
    return m[1] === '-' ? -u : u;
  };
  return order(a) - order(b) || numeric(a, b);
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const month = (s: string) => MONTHS.indexOf(s.replace(/^[ \t]+/, '').slice(0, 3).toUpperCase()) + 1;

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
/** gnulib's `order`: digits 0, letters themselves, `~` before everything, other bytes after letters. */
const order = (c: string) => (isDigit(c) ? 0 : isAlpha(c) ? c.charCodeAt(0) : c === '~' ? -1 : c.charCodeAt(0) + 256);

function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const ac = i === a.length ? 0 : order(a[i]!);
      const bc = j === b.length ? 0 : order(b[j]!);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!firstDiff) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

/** The length of `s` without its file suffix (`(\.[A-Za-z~][A-Za-z0-9~]*)*$`), as gnulib's file_prefixlen. */
function prefixLength(s: string): number {
  let prefix = 0;
  for (let i = 0; ; ) {
    if (i === s.length) return prefix;
    i++;
    prefix = i;
    while (i + 1 < s.length && s[i] === '.' && (isAlpha(s[i + 1]) || s[i + 1] === '~')) {
      for (i += 2; i < s.length && (isAlpha(s[i]) || isDigit(s[i]) || s[i] === '~'); i++);
    }
  }
}

/** -V: gnulib's filevercmp. */
export function versionCompare(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? -1 : 1;
  if (a[0] === '.' || b[0] === '.') {
    if (a[0] !== '.') return 1;
    if (b[0] !== '.') return -1;
    for (const special of ['.', '..']) {
      if (a === special || b === special) return a === b ? 0 : a === special ? -1 : 1;
    }
  }
  const ap = prefixLength(a);
  const bp = prefixLength(b);
  const result = verrevcmp(a.slice(0, ap), b.slice(0, bp));
  return result || (ap === a.length && bp === b.length) ? result : verrevcmp(a, b);
}

/** The text `-d`, `-i` and `-f` compare: only blanks and alphanumerics, only printable bytes, upper-cased. */
function translated(s: string, k: SortKey): string {
  let t = s;
  if (k.dictionary) t = t.replace(/[^A-Za-z0-9 \t]/g, '');
  else if (k.printable) t = t.replace(/[^\x20-\x7e]/g, '');
  return k.fold ? t.toUpperCase() : t;
}

/** A stable pseudo-random rank of a key, for -R (equal keys sort together, as GNU's hash does). */
function hashed(s: string, salt: number): number {
  let h = salt >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Compares two lines by `keys` (none: the whole line by the global options), then GNU's last resort. */
export function compareLines(a: string, b: string, keys: SortKey[], o: { tab?: string; stable: boolean; reverse: boolean; salt: number }): number {
  for (const k of keys) {
    const [as, ae] = span(a, k, o.tab);
    const [bs, be] = span(b, k, o.tab);
    const x = a.slice(as, ae);
    const y = b.slice(bs, be);
    let d: number;
    if (k.random) d = hashed(x, o.salt) - hashed(y, o.salt);
    else if (k.numeric) d = numeric(x, y);
    else if (k.general) d = general(x, y);
    else if (k.human) d = human(x, y);
    else if (k.month) d = month(x) - month(y);
    else if (k.version) d = versionCompare(x, y);
    else if (k.dictionary || k.printable || k.fold) d = cmp(translated(x, k), translated(y, k));
    else d = cmp(x, y);
    if (d) return k.reverse ? -Math.sign(d) : Math.sign(d);
  }
  // Without keys the whole line is the comparison itself, under -s and -u too.
  if (o.stable && keys.length > 0) return 0;
  const d = cmp(a, b);
  return o.reverse ? -d : d;
}
