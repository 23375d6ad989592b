/**
 * The x86-64 `long double` (80-bit extended: a 64-bit mantissa) that bash's `printf` parses its floating-point
 * arguments into (`strtold`) and prints with glibc's `%Lf`/`%Le`/`%Lg`/`%La`: exact binary values held as BigInt
 * (`m·2^e`), so that rounding is glibc's (exact decimal expansion, ties to even: `%.1f` of 2.25 is 2.2, of 0.45 is
 * 0.4 because 0.45 as a long double lies just under it).
 */

/** A parsed number: finite `m·2^e` (m < 2^64, 0 for zero), or infinity / not-a-number; `neg` is the sign bit. */
export type LongDouble = { kind: 'finite'; neg: boolean; m: bigint; e: number } | { kind: 'inf' | 'nan'; neg: boolean };

const TWO64 = 1n << 64n;
const TWO63 = 1n << 63n;

const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

/** The long double nearest to `num/den` (both ≥ 0), ties to even; infinity past the type's range. */
function fromRatio(neg: boolean, num: bigint, den: bigint): LongDouble {
  if (num === 0n) return { kind: 'finite', neg, m: 0n, e: 0 };
  let e = bitLength(num) - bitLength(den) - 64;
  const quotient = (k: number): [bigint, bigint, bigint] => {
    const n = k >= 0 ? num : num << BigInt(-k);
    const d = k >= 0 ? den << BigInt(k) : den;
    return [n / d, n % d, d];
  };
  let [q, r, d] = quotient(e);
  while (q >= TWO64) [q, r, d] = quotient(++e);
  while (q < TWO63) [q, r, d] = quotient(--e);
  if (2n * r > d || (2n * r === d && (q & 1n) === 1n)) q++;
  if (q === TWO64) {
    q >>= 1n;
    e++;
  }
  if (e + 63 > 16383) return { kind: 'inf', neg };
  return { kind: 'finite', neg, m: q, e };
}

/**
 * `strtold` on `s`: leading white space, a sign, then `inf`/`infinity`/`nan[(…)]`, a hexadecimal float (`0x1.8p3`) or
 * a decimal one (`1.5e3`). `end` is the index just past what was parsed (0 when nothing was: no digits).
 */
export function parseLongDouble(s: string): { value: LongDouble; end: number } {
  const m = /^[ \t\n\v\f\r]*([-+]?)/.exec(s)!;
  const neg = m[1] === '-';
  const rest = s.slice(m[0].length);
  const at = m[0].length;
  const special = /^(inf(inity)?|nan(\([0-9A-Za-z_]*\))?)/i.exec(rest);
  if (special) return { value: { kind: special[0][0]!.toLowerCase() === 'i' ? 'inf' : 'nan', neg }, end: at + special[0].length };
  const hex = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?/.exec(rest);
  if (hex && (hex[1]! + (hex[2] ?? '')).length > 0) {
    const exp = /^[pP]([-+]?\d+)/.exec(rest.slice(hex[0].length));
    const digits = hex[1]! + (hex[2] ?? '');
    const shift = (exp ? Number(exp[1]) : 0) - 4 * (hex[2] ?? '').length;
    const num = BigInt(`0x${digits}`) << BigInt(Math.max(0, shift));
    const value = Math.abs(shift) > 20000 ? (shift > 0 ? { kind: 'inf' as const, neg } : fromRatio(neg, 0n, 1n)) : fromRatio(neg, num, 1n << BigInt(Math.max(0, -shift)));
    return { value, end: at + hex[0].length + (exp ? exp[0].length : 0) };
  }
  const dec = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
  const digits = dec[1]! + (dec[2] ?? '');
  if (digits.length === 0) return { value: { kind: 'finite', neg: false, m: 0n, e: 0 }, end: 0 };
  const exp = /^[eE]([-+]?\d+)/.exec(rest.slice(dec[0].length));
  const p10 = (exp ? Number(exp[1]) : 0) - (dec[2] ?? '').length;
  const end = at + dec[0].length + (exp ? exp[0].length : 0);
  const n = BigInt(digits);
  if (n === 0n) return { value: { kind: 'finite', neg, m: 0n, e: 0 }, end };
  if (p10 + digits.length > 5000) return { value: { kind: 'inf', neg }, end };
  if (p10 + digits.length < -5000) return { value: { kind: 'finite', neg, m: 0n, e: 0 }, end };
  return { value: p10 >= 0 ? fromRatio(neg, n * 10n ** BigInt(p10), 1n) : fromRatio(neg, n, 10n ** BigInt(-p10)), end };
}

/**
 * A finite JS number's exact binary value as `m·2^e` (m < 2^53; the sign dropped), for printing it through
 * {@link fixedDigits}/{@link exponentDigits} with C's exact decimal expansion and ties to even (`%.0f` of 2.5 is 2):
 * what awk's printf does with a C double. `toFixed` rounds exact ties up and switches to exponents at 1e21.
 */
export function exactDouble(v: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // A subnormal has no hidden bit and the smallest exponent.
  return biased === 0 ? { m: fraction, e: -1074 } : { m: fraction | (1n << 52n), e: biased - 1075 };
}

/** round(|v|·10^p), ties to even, for a finite `v` and any integer p. */
function scaledRound(v: { m: bigint; e: number }, p: number): bigint {
  let num = v.m;
  let den = 1n;
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  if (v.e >= 0) num <<= BigInt(v.e);
  else den <<= BigInt(-v.e);
  const q = num / den;
  const r = num % den;
  return 2n * r > den || (2n * r === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** `%.{p}f`'s digits of |v| (no sign): the integer part, and `p` fraction digits. */
export function fixedDigits(v: { m: bigint; e: number }, p: number): { int: string; frac: string } {
  const s = scaledRound(v, p).toString().padStart(p + 1, '0');
  return { int: s.slice(0, s.length - p), frac: s.slice(s.length - p) };
}

/** `%.{p}e`'s digits of |v|: `p + 1` significant digits and the decimal exponent. */
export function exponentDigits(v: { m: bigint; e: number }, p: number): { digits: string; exp: number } {
  if (v.m === 0n) return { digits: '0'.repeat(p + 1), exp: 0 };
  let k = Math.floor((bitLength(v.m) - 1 + v.e) * Math.log10(2));
  for (;;) {
    const q = scaledRound(v, p - k);
    const s = q.toString();
    if (s.length > p + 1) k++;
    else if (s.length < p + 1) k--;
    else return { digits: s, exp: k };
  }
}

/** `%a`'s parts of |v| as glibc prints an x86 long double: the leading hex digit (8–f), the fraction, the exponent. */
export function hexDigits(v: { m: bigint; e: number }, precision: number | undefined): { lead: string; frac: string; exp: number } {
  if (v.m === 0n) return { lead: '0', frac: precision ? '0'.repeat(precision) : '', exp: 0 };
  let m = v.m;
  let exp = v.e + 60;
  if (precision !== undefined && precision < 15) {
    const drop = BigInt(4 * (15 - precision));
    const half = 1n << (drop - 1n);
    const r = m & ((1n << drop) - 1n);
    m >>= drop;
    if (r > half || (r === half && (m & 1n) === 1n)) m++;
    if (m >> BigInt(4 * precision) >= 16n) {
      m >>= 1n;
      exp++;
    }
    const s = m.toString(16);
    return { lead: s[0]!, frac: s.slice(1), exp };
  }
  const s = m.toString(16);
  const frac = s.slice(1);
  return { lead: s[0]!, frac: precision === undefined ? frac.replace(/0+$/, '') : frac.padEnd(precision, '0'), exp };
}
