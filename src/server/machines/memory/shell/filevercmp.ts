/**
 * Version order of file names as gnulib's `filevercmp` gives it (GNU `ls -v`, `sort -V`): runs of digits compare
 * as numbers, letters before other characters, `~` before everything, and a file suffix (`.tar.gz`) compared only
 * when the rest ties. A pure function over strings compared byte by byte (the C locale).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Version-sort-ordering.html (gnulib filevercmp.c)
 */

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The weight of the byte at `pos` (0 past the end): digits 0, letters themselves, `~` −1, the rest after letters. */
function order(s: Buffer, pos: number, len: number): number {
  if (pos === len) return 0;
  const c = s[pos]!;
  if (isDigit(c)) return 0;
  if (isAlpha(c)) return c;
  if (c === 0x7e) return -1;
  return 256 + c;
}

/** Debian's version comparison of `a[0, alen)` and `b[0, blen)`: negative, 0 or positive. */
function verrevcmp(a: Buffer, alen: number, b: Buffer, blen: number): number {
  let i = 0;
  let j = 0;
  while (i < alen || j < blen) {
    let firstDiff = 0;
    while ((i < alen && !isDigit(a[i]!)) || (j < blen && !isDigit(b[j]!))) {
      const ac = order(a, i, alen);
      const bc = order(b, j, blen);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (i < alen && a[i] === 0x30) i++;
    while (j < blen && b[j] === 0x30) j++;
    while (i < alen && j < blen && isDigit(a[i]!) && isDigit(b[j]!)) {
      if (!firstDiff) firstDiff = a[i]! - b[j]!;
      i++;
      j++;
    }
    if (i < alen && isDigit(a[i]!)) return 1;
    if (j < blen && isDigit(b[j]!)) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

/** Length of `s` without its file suffix: the longest tail matching `(\.[A-Za-z~][A-Za-z0-9~]*)*`, never all of it. */
function prefixLength(s: Buffer): number {
  const n = s.length;
  let prefix = 0;
  let i = 0;
  while (i < n) {
    i++;
    prefix = i;
    while (i + 1 < n && s[i] === 0x2e && (isAlpha(s[i + 1]!) || s[i + 1] === 0x7e)) {
      for (i += 2; i < n && (isAlpha(s[i]!) || isDigit(s[i]!) || s[i] === 0x7e); i++);
    }
  }
  return prefix;
}

/**
 * Compares two file names in version order: negative when `a` sorts first. `""` sorts first, then `.`, then `..`,
 * then other names starting with `.`, then the rest.
 */
export function filevercmp(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length === 0) return y.length === 0 ? 0 : -1;
  if (y.length === 0) return 1;
  if (a[0] === '.') {
    if (b[0] !== '.') return -1;
    if (a === '.') return b === '.' ? 0 : -1;
    if (b === '.') return 1;
    if (a === '..') return b === '..' ? 0 : -1;
    if (b === '..') return 1;
  } else if (b[0] === '.') return 1;
  const xp = prefixLength(x);
  const yp = prefixLength(y);
  const onePass = xp === x.length && yp === y.length;
  const result = verrevcmp(x, xp, y, yp);
  return result || onePass ? result : verrevcmp(x, x.length, y, y.length);
}
