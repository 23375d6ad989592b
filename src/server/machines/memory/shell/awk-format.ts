/**
 * awk's number and printf formatting, as C's printf (mawk's): `%c %d %i %o %u %x %X %e %E %f %F %g %G %s %%` with
 * the flags `- + space # 0`, width and precision (`*` from the arguments), and numbers shown as mawk shows them
 * (integers in int range as `%d`, others by `OFMT`/`CONVFMT`, `inf`, `-nan`).
 * Floating conversions print the double's exact value rounded ties to even, as glibc does (`%.0f` of 2.5 is 2).
 * @see https://pubs.opengroup.org/onlinepubs/9699919799/utilities/awk.html#tag_20_06_13_09
 */
import { exactDouble, exponentDigits, fixedDigits } from './long-double.ts';

interface Spec {
  flags: string;
  width: number | undefined;
  precision: number | undefined;
}

const pad = (s: string, spec: Spec, numeric: boolean): string => {
  const w = spec.width ?? 0;
  if (s.length >= w) return s;
  if (spec.flags.includes('-')) return s.padEnd(w);
  if (numeric && spec.flags.includes('0')) {
    const sign = /^[-+ ]|^0[xX]/.exec(s)?.[0] ?? '';
    return sign + s.slice(sign.length).padStart(w - sign.length, '0');
  }
  return s.padStart(w);
};

const signed = (s: string, negative: boolean, spec: Spec) => (negative ? `-${s}` : spec.flags.includes('+') ? `+${s}` : spec.flags.includes(' ') ? ` ${s}` : s);

/** `|v|` in C's `%f` with `p` decimals: the exact binary value rounded, ties to even. */
function fixed(v: number, p: number): string {
  const { int, frac } = fixedDigits(exactDouble(v), p);
  return p > 0 ? `${int}.${frac}` : int;
}

/** `|v|` in C's `%e` with `p` decimals: `d.ddde±XX`. */
function expo(v: number, p: number, upper: boolean): string {
  const { digits, exp } = exponentDigits(exactDouble(v), p);
  const s = `${digits[0]}${p > 0 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return upper ? s.toUpperCase() : s;
}

/** `|v|` in C's `%g` with precision `p` (`alt`: keep trailing zeros). */
export function general(v: number, p: number, upper: boolean, alt = false): string {
  const P = p === 0 ? 1 : p;
  if (v === 0) return alt ? fixed(0, P - 1) : '0';
  const X = exponentDigits(exactDouble(v), P - 1).exp;
  const s = P > X && X >= -4 ? fixed(v, P - 1 - X) : expo(v, P - 1, upper);
  if (alt) return s;
  // Trailing zeros of the fraction go, and a bare decimal point with them.
  const [mant, exp] = s.split(/(?=[eE])/) as [string, string | undefined];
  return (mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant) + (exp ?? '');
}

const special = (v: number, upper: boolean): string | undefined => {
  if (Number.isNaN(v)) return upper ? '-NAN' : '-nan';
  if (!Number.isFinite(v)) return `${v < 0 ? '-' : ''}${upper ? 'INF' : 'inf'}`;
  return undefined;
};

/** One conversion of `conv` for value `v` (a number or a string, already converted as the conversion wants). */
function convert(conv: string, spec: Spec, num: number, str: string): string {
  const upper = conv === 'X' || conv === 'E' || conv === 'G' || conv === 'F';
  switch (conv) {
    case 'c':
      return pad(str, spec, false);
    case 's':
      return pad(spec.precision !== undefined ? str.slice(0, spec.precision) : str, spec, false);
    case 'd': case 'i': case 'o': case 'x': case 'X': case 'u': {
      // mawk converts to a C int for %d/%i, clamped to ±2147483647 (NaN to the low end), and to an unsigned int
      // for the others, clamped to 0..4294967295 (NaN to 0).
      const INT = 2147483647;
      const clamped = conv === 'd' || conv === 'i' ? (Number.isNaN(num) ? -INT : Math.max(-INT, Math.min(INT, Math.trunc(num)))) : Number.isNaN(num) ? 0 : Math.max(0, Math.min(4294967295, Math.trunc(num)));
      const n = BigInt(clamped);
      const neg = n < 0n;
      let digits = (neg ? -n : n).toString(conv === 'o' ? 8 : conv === 'x' || conv === 'X' ? 16 : 10);
      if (upper) digits = digits.toUpperCase();
      if (spec.precision !== undefined) digits = spec.precision === 0 && n === 0n ? '' : digits.padStart(spec.precision, '0');
      if (spec.flags.includes('#') && conv === 'o' && !digits.startsWith('0')) digits = `0${digits}`;
      if (spec.flags.includes('#') && (conv === 'x' || conv === 'X') && n !== 0n) digits = `0${conv}${digits}`;
      const body = conv === 'd' || conv === 'i' ? signed(digits, neg, spec) : digits;
      return pad(body, spec.precision !== undefined ? { ...spec, flags: spec.flags.replace('0', '') } : spec, true);
    }
    default: {
      const sp = special(num, upper);
      if (sp) return pad(signed(sp.replace('-', ''), sp.startsWith('-') && !Number.isNaN(num), spec), { ...spec, flags: spec.flags.replace('0', '') }, false);
      const p = spec.precision ?? 6;
      const a = Math.abs(num);
      const neg = num < 0 || Object.is(num, -0);
      const body = conv === 'f' || conv === 'F' ? fixed(a, p) : conv === 'e' || conv === 'E' ? expo(a, p, upper) : general(a, p, upper, spec.flags.includes('#'));
      return pad(signed(spec.flags.includes('#') && p === 0 && !body.includes('.') && conv !== 'g' && conv !== 'G' ? `${body}.` : body, neg, spec), spec, true);
    }
  }
}

/**
 * `format` applied to `args` as awk's printf/sprintf: `toNum`/`toStr` convert an argument. Returns the text, or an
 * error with the text made before the conversion that failed (`partial`: mawk's printf has written it when it
 * stops): `missing`, a conversion with no argument left (mawk's `not enough arguments passed to …`), checked first;
 * `improper` with the conversion's number, a `%` that no conversion follows (`%z`, `%5`, `%1$s`, a final `%`: mawk's
 * `improper conversion(number N) in …`). Flags `-+ #0'` (the C locale groups no digits) and C's `h`/`l` length
 * letters are taken.
 */
export function awkSprintf<V>(format: string, args: V[], toNum: (v: V) => number, toStr: (v: V) => string): { text: string } | { error: 'missing' | 'improper'; conversion: number; partial: string } {
  let out = '';
  let next = 0;
  let conversion = 0;
  const take = (): V | undefined => args[next++];
  const spec = /%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?[hlL]*([cdiouxXeEfFgGs])/y;
  for (let i = 0; i < format.length; ) {
    const at = format.indexOf('%', i);
    if (at < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, at);
    if (format[at + 1] === '%') {
      out += '%';
      i = at + 2;
      continue;
    }
    conversion++;
    if (next >= args.length) return { error: 'missing', conversion, partial: out };
    spec.lastIndex = at;
    const m = spec.exec(format);
    if (!m) return { error: 'improper', conversion, partial: out };
    i = spec.lastIndex;
    let width: number | undefined;
    let flags = m[1]!.replace(/'/g, '');
    if (m[2] === '*') {
      const w = take();
      if (w === undefined) return { error: 'missing', conversion, partial: out };
      width = Math.trunc(toNum(w));
      if (width < 0) {
        flags += '-';
        width = -width;
      }
    } else if (m[2] !== undefined) width = Number(m[2]);
    let precision: number | undefined;
    if (m[3] === '*') {
      const p = take();
      if (p === undefined) return { error: 'missing', conversion, partial: out };
      precision = Math.max(0, Math.trunc(toNum(p)));
    } else if (m[3] !== undefined) precision = Number(m[3] || 0);
    const v = take();
    if (v === undefined) return { error: 'missing', conversion, partial: out };
    const conv = m[4]!;
    let str = '';
    let num = 0;
    if (conv === 'c') {
      // A number is a character code (a byte); a string gives its first character.
      // mawk prints a C string's first byte: the terminating NUL for an empty string.
      str = typeof v === 'number' ? String.fromCharCode(Math.trunc(v) & 255) : toStr(v).slice(0, 1) || '\0';
    } else if (conv === 's') str = toStr(v);
    else num = toNum(v);
    out += convert(conv, { flags, width, precision }, num, str);
  }
  return { text: out };
}

/** mawk's run-time error for a failed {@link awkSprintf} of `format` by `fn` (`printf` or `sprintf`). */
export function sprintfError(r: { error: 'missing' | 'improper'; conversion: number }, fn: string, format: string): string {
  return r.error === 'missing' ? `not enough arguments passed to ${fn}("${format}")` : `improper conversion(number ${r.conversion}) in ${fn}("${format}")`;
}

/** A number as awk shows it: integers within C's int range as such, others through `fmt` (OFMT or CONVFMT). */
export function numberText(v: number, fmt: string): string {
  if (Number.isInteger(v) && v >= -2147483647 && v <= 2147483647) return String(v);
  const sp = special(v, false);
  if (sp) return sp;
  const r = awkSprintf(fmt, [v], (x) => x, String);
  return 'text' in r ? r.text : String(v);
}
