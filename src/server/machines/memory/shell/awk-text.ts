/**
 * How mawk 1.3.4 turns text into numbers and reads escapes, shared by awk-parse.ts (string constants) and awk-run.ts
 * (input fields, `-v` and operand assignments):
 * - a string used as a number is what C's `strtod` reads at its start (mawk cast.c): decimal, hexadecimal
 *   (`0x1A` is 26, `0x1p3` 8), `inf`/`infinity` and `nan` in any case, after blanks; 0 when nothing is read;
 * - an input string is a "strnum" (compares as a number) when, blanks (space, tab, CR, FF, VT) aside, it starts with
 *   a digit, a sign or a dot, ends with a digit or a dot, and strtod reads all of it without overflow or underflow
 *   (mawk cast.c check_strnum): `0x10` is one, `0x1A` (ends in a letter), `nan`, `1e999` are not;
 * - the escapes of a string constant are `\n \t \f \b \r \a \v \\ \"`, one to three octal digits and `\x` with one
 *   or two hex digits; any other backslash stays with the character after it (`"x\/y"` is `x\/y`) (mawk scan.c
 *   rm_escape).
 * @see https://invisible-island.net/mawk/manpage/mawk.html
 */

/** The number C's `strtod` reads at the start of `s`: its value, how many characters it took (0: none), and
 * whether glibc would report ERANGE (a finite text overflowing to infinity, or underflowing below the normal range). */
export function strtodPrefix(s: string): { value: number; length: number; erange: boolean } {
  const m = /^[ \t\n\v\f\r]*([-+]?)(?:0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP]([-+]?\d+))?|(\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(inf(?:inity)?)|(nan)(?:\([0-9A-Za-z_]*\))?)/i.exec(s);
  if (!m) return { value: 0, length: 0, erange: false };
  const sign = m[1] === '-' ? -1 : 1;
  let value: number;
  let digits: string;
  if (m[2] !== undefined) {
    const [whole = '', frac = ''] = m[2].split('.');
    digits = whole + frac;
    value = [...digits].reduce((acc, d) => acc * 16 + parseInt(d, 16), 0) * 2 ** (Number(m[3] ?? 0) - 4 * frac.length);
  } else if (m[4] !== undefined) {
    digits = m[4];
    value = Number(m[0].trim().replace(/^[-+]/, ''));
  } else {
    return { value: m[5] !== undefined ? sign * Infinity : NaN, length: m[0].length, erange: false };
  }
  const nonzero = /[1-9a-fA-F]/.test(digits);
  const erange = !Number.isFinite(value) || (nonzero && Math.abs(value) < 2.2250738585072014e-308);
  return { value: sign * value, length: m[0].length, erange };
}

/** A string used as a number, as mawk casts it (strtod of its start, 0 when none). */
export const awkNumber = (s: string): number => strtodPrefix(s).value;

/** mawk's blanks around a numeric string (scan_code SC_SPACE: no newline). */
const BLANK = /[ \t\f\r\v]/;

/** The number an input string stands for when it is a strnum (mawk check_strnum), else undefined. */
export function strnumValue(s: string): number | undefined {
  let a = 0;
  let b = s.length;
  while (a < b && BLANK.test(s[a]!)) a++;
  if (a === b) return undefined;
  while (BLANK.test(s[b - 1]!)) b--;
  if (!/[0-9.]/.test(s[b - 1]!) || !/[0-9+\-.]/.test(s[a]!)) return undefined;
  const r = strtodPrefix(s.slice(a, b));
  return r.length === b - a && !r.erange ? r.value : undefined;
}

const ESC: Record<string, string> = { n: '\n', t: '\t', f: '\f', b: '\b', r: '\r', a: '\x07', v: '\v', '\\': '\\', '"': '"' };

/** `s` with mawk's string escapes replaced (rm_escape); a backslash before any other character stays. */
export function rmEscape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const d = s[i + 1];
    if (c !== '\\' || d === undefined) {
      out += c;
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1));
    const hex = d === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(s.slice(i + 2)) : null;
    if (ESC[d] !== undefined) out += ESC[d];
    else if (oct) out += String.fromCharCode(parseInt(oct[0], 8) & 255);
    else if (hex) out += String.fromCharCode(parseInt(hex[0], 16));
    else out += `\\${d}`;
    i += oct && ESC[d] === undefined ? oct[0].length : hex ? 1 + hex[0].length : 1;
  }
  return out;
}
