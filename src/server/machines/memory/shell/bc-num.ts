/**
 * bc's numbers: decimals of any size held as scaled integers (`n / 10^s`), and the arithmetic GNU bc does on them,
 * each result truncated (toward zero) to the scale the bc manual gives: `+ -` the larger of the operands' scales,
 * `*` min(a+b, max(scale, a, b)), `/` the current scale, `sqrt` max(scale, the operand's scale).
 * @see https://www.gnu.org/software/bc/manual/html_mono/bc.html "Expressions"
 */

/** A decimal: `n / 10^s`. */
export interface Num {
  n: bigint;
  s: number;
}

export const TEN = (k: number): bigint => 10n ** BigInt(k);
export const zero: Num = { n: 0n, s: 0 };
/** `a` with `s` fraction digits: padded with zeros, or cut (toward zero). */
export const rescale = (a: Num, s: number): Num => (s >= a.s ? { n: a.n * TEN(s - a.s), s } : { n: a.n / TEN(a.s - s), s });
/** A decimal literal in base 10 (`1.5`, `.2`, `3`). */
export const num = (text: string): Num => {
  const [i, f = ''] = text.split('.');
  return { n: BigInt((i || '0') + f), s: f.length };
};
/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export const cmp = (a: Num, b: Num): number => {
  const s = Math.max(a.s, b.s);
  const x = rescale(a, s).n;
  const y = rescale(b, s).n;
  return x < y ? -1 : x > y ? 1 : 0;
};
export const add = (a: Num, b: Num): Num => {
  const m = Math.max(a.s, b.s);
  return { n: rescale(a, m).n + rescale(b, m).n, s: m };
};
export const sub = (a: Num, b: Num): Num => add(a, { n: -b.n, s: b.s });
/** `a * b` under `scale`. */
export const mul = (a: Num, b: Num, scale: number): Num => rescale({ n: a.n * b.n, s: a.s + b.s }, Math.min(a.s + b.s, Math.max(scale, a.s, b.s)));
/** `a / b` under `scale`; the caller checks `b` is not zero. */
export const div = (a: Num, b: Num, scale: number): Num => ({ n: (a.n * TEN(scale + b.s)) / (b.n * TEN(a.s)), s: scale });
/** `sqrt(a)` under `scale`, for `a` ≥ 0: the root truncated to max(scale, a's scale) digits. */
export function sqrt(a: Num, scale: number): Num {
  const s = Math.max(scale, a.s);
  const target = rescale(a, 2 * s).n;
  let r = BigInt(Math.floor(Math.sqrt(Number(target))));
  // Newton's step from the float guess, then the last unit: the float is far off for numbers past 2^53.
  if (r > 0n) for (let k = 0; k < 400 && (r * r > target || (r + 1n) * (r + 1n) <= target); k++) r = (r + target / r) / 2n;
  while (r * r > target) r--;
  while ((r + 1n) * (r + 1n) <= target) r++;
  return { n: r, s };
}
/**
 * `length(a)`: the significant digits, as GNU bc counts them: the integer part's digits and the scale, or only the
 * scale (at least 1) when the integer part is 0 (`length(.05)` 2, `length(0)` 1, `length(100.00)` 5).
 */
export function digits(a: Num): number {
  const whole = (a.n < 0n ? -a.n : a.n) / TEN(a.s);
  return whole === 0n ? Math.max(1, a.s) : whole.toString().length + a.s;
}
