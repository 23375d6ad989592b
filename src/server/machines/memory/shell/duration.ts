/**
 * A duration operand as GNU `sleep` and `timeout` read it: C's `strtod` in the C locale (leading blanks, a sign, a
 * decimal number with an optional exponent or a leading dot, a hexadecimal float `0x1.8p1`, `inf`/`infinity`),
 * then at most one suffix letter: `s` (the default), `m`, `h` or `d`. A negative or NaN value is invalid.
 * @see GNU coreutils sleep.c and timeout.c (xstrtod with cl_strtod, then apply_suffix); C11 7.22.1.3 (strtod)
 */

/** strtod's syntax (C locale) and one optional suffix; groups: sign, hex digits, hex fraction, binary exponent, decimal, infinity, suffix. */
const DURATION = /^[ \t\n\v\f\r]*([+-]?)(?:0x([0-9a-f]*)\.?([0-9a-f]*)(?:p([+-]?\d+))?|(\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?)|(inf(?:inity)?))([smhd]?)$/i;
const UNIT: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** The seconds `word` stands for (Infinity for `inf`), or null when GNU calls it an invalid time interval. */
export function parseDuration(word: string): number | null {
  const m = DURATION.exec(word);
  // `0x` with no hexadecimal digit is strtod's `0` followed by the letter x: two letters after the number.
  if (!m || (m[2] === '' && m[3] === '')) return null;
  const [, sign, hex, frac, exp, decimal, inf, unit] = m;
  let n: number;
  if (inf !== undefined) n = Infinity;
  else if (decimal !== undefined) n = Number(decimal);
  else n = (parseInt(`${hex}${frac}` || '0', 16) / 16 ** frac!.length) * 2 ** Number(exp ?? 0);
  if (sign === '-' && n !== 0) return null;
  return n * UNIT[unit!.toLowerCase()]!;
}
