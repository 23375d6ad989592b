/**
 * bash's `printf` builtin formatting (bash's builtins/printf.def with glibc's printf under it, in the sprite's C.UTF-8
 * locale): the format's escapes, every conversion (`diouxX eEfFgGaA c s b q Q (…)T %`) with its flags, width and
 * precision (`*` from the arguments), the format reused while arguments remain, and bash's messages. Works on byte
 * strings (one char per byte) so the output is the bytes bash writes.
 * @see https://www.gnu.org/software/bash/manual/bash.html#index-printf
 */
import { exponentDigits, fixedDigits, hexDigits, parseLongDouble, type LongDouble } from './long-double.ts';

/** What one `printf` run gives: its output bytes, messages (without the `bash: ` prefix), status and their order. */
export interface PrintfRun {
  stdout: string;
  /** Each message with the stdout length at which bash writes it (its stdout is flushed after each format pass). */
  messages: Array<{ at: number; text: string }>;
  status: number;
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

/** A string's bytes, decoded as UTF-8 (invalid sequences keep their bytes as U+FFFD-free latin1 chars). */
function decodeFirstChar(bytes: string): number | undefined {
  if (bytes === '') return undefined;
  const b0 = bytes.charCodeAt(0);
  const len = b0 < 0x80 ? 1 : b0 >= 0xf0 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc0 ? 2 : 1;
  const text = Buffer.from(bytes.slice(0, len), 'latin1').toString('utf8');
  const cp = text.codePointAt(0)!;
  return cp === 0xfffd && len > 1 ? b0 : cp;
}

/** UTF-8 bytes of a code point as a byte string. */
const utf8Of = (cp: number): string => Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/**
 * Expands the backslash escapes of a format (`inFormat`) or of a `%b` argument, as bash's `tescape` does: `\a \b \e
 * \E \f \n \r \t \v \\`, octal (`\NNN` in a format; `\0NNN` or `\NNN` in `%b`), `\xHH`, `\uHHHH`, `\UHHHHHHHH`; a
 * format also takes `\" \' \?`; `%b` stops all output at `\c`. Unknown escapes stay as written.
 */
function expandEscapes(s: string, inFormat: boolean, warn: (text: string) => void): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i]!;
    if (n in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[n];
    else if (inFormat && (n === '"' || n === "'" || n === '?')) out += n;
    else if (/[0-7]/.test(n)) {
      const max = !inFormat && n === '0' ? 4 : 3;
      const digits = /^[0-7]*/.exec(s.slice(i, i + max))![0];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (n === 'x' || n === 'u' || n === 'U') {
      const max = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const digits = /^[0-9a-fA-F]*/.exec(s.slice(i + 1, i + 1 + max))![0];
      if (digits === '') {
        warn(n === 'x' ? 'missing hex digit for \\x' : `missing unicode digit for \\${n}`);
        out += `\\${n}`;
        continue;
      }
      const v = parseInt(digits, 16);
      out += n === 'x' ? String.fromCharCode(v) : v <= 0x10ffff ? utf8Of(v) : `\\${n}${digits}`;
      i += digits.length;
    } else if (n === 'c' && !inFormat) return { text: out, stop: true };
    else out += `\\${n}`;
  }
  return { text: out, stop: false };
}

const isPrintable = (cp: number): boolean => cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp < 0xa0);

/** bash's `ansic_quote`: `$'…'` with C escapes, non-printable bytes as `\NNN`, printable UTF-8 characters as they are. */
function ansicQuote(s: string): string {
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\x1b': '\\E', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', "'": "\\'" };
  let out = "$'";
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    const cp = decodeFirstChar(s.slice(i))!;
    const len = cp >= 0x80 && cp !== s.charCodeAt(i) ? utf8Of(cp).length : 1;
    if (named[c]) out += named[c];
    else if (len > 1 ? isPrintable(cp) : isPrintable(s.charCodeAt(i)) && s.charCodeAt(i) < 0x80) out += s.slice(i, i + len);
    else out += `\\${s.charCodeAt(i).toString(8).padStart(3, '0')}`;
    i += len;
  }
  return `${out}'`;
}

/** True when `s` holds a byte or character that is not printable (bash's `ansic_shouldquote`). */
function needsAnsic(s: string): boolean {
  for (let i = 0; i < s.length; ) {
    const b = s.charCodeAt(i);
    if (b < 0x80) {
      if (!isPrintable(b)) return true;
      i++;
      continue;
    }
    const cp = decodeFirstChar(s.slice(i))!;
    if (cp === b || !isPrintable(cp)) return true;
    i += utf8Of(cp).length;
  }
  return false;
}

/** `%q`: bash's `sh_quote_reusable` — `''`, `$'…'` for non-printable text, else backslashes before special characters. */
export function shellQuote(s: string): string {
  if (s === '') return "''";
  if (needsAnsic(s)) return ansicQuote(s);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (' \t\n\'"\\|&;()<>!{}*[?]^$`,'.includes(c)) out += `\\${c}`;
    else if (c === '~' && (i === 0 || s[i - 1] === '=' || s[i - 1] === ':')) out += '\\~';
    else if (c === '#' && i === 0) out += '\\#';
    else out += c;
  }
  return out;
}

/** One conversion's flags, width and precision (precision undefined when absent or negative). */
interface Spec {
  flags: string;
  width: number;
  precision: number | undefined;
}

/** Pads `body` (after `prefix`: a sign or `0x`) to the width, with zeros between them when `zero` is allowed. */
function pad(spec: Spec, prefix: string, body: string, zero: boolean): string {
  const len = prefix.length + body.length;
  if (len >= spec.width) return prefix + body;
  const fill = spec.width - len;
  if (spec.flags.includes('-')) return prefix + body + ' '.repeat(fill);
  if (zero && spec.flags.includes('0')) return prefix + '0'.repeat(fill) + body;
  return ' '.repeat(fill) + prefix + body;
}

const signOf = (neg: boolean, flags: string): string => (neg ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '');

/** An integer conversion (`d i o u x X`) of a value already in range. */
function formatInteger(conv: string, value: bigint, spec: Spec): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const radix = conv === 'o' ? 8 : conv === 'x' || conv === 'X' ? 16 : 10;
  let digits = spec.precision === 0 && abs === 0n ? '' : abs.toString(radix);
  if (conv === 'X') digits = digits.toUpperCase();
  if (spec.precision !== undefined) digits = digits.padStart(spec.precision, '0');
  let prefix = conv === 'd' || conv === 'i' ? signOf(neg, spec.flags) : '';
  if (spec.flags.includes('#')) {
    if (conv === 'o' && !digits.startsWith('0')) digits = `0${digits}`;
    if ((conv === 'x' || conv === 'X') && abs !== 0n) prefix = conv === 'x' ? '0x' : '0X';
  }
  return pad(spec, prefix, digits, spec.precision === undefined);
}

/** A floating-point conversion (`f F e E g G a A`) of a long double, as glibc prints it. */
function formatFloat(conv: string, v: LongDouble, spec: Spec): string {
  const upper = conv === conv.toUpperCase();
  const sign = signOf(v.neg, spec.flags);
  if (v.kind !== 'finite') {
    const word = v.kind === 'inf' ? 'inf' : 'nan';
    return pad(spec, sign, upper ? word.toUpperCase() : word, false);
  }
  const alt = spec.flags.includes('#');
  const lower = conv.toLowerCase();
  let body: string;
  if (lower === 'f') {
    const p = spec.precision ?? 6;
    const { int, frac } = fixedDigits(v, p);
    body = p > 0 || alt ? `${int}.${frac}` : int;
  } else if (lower === 'e') {
    const p = spec.precision ?? 6;
    body = expForm(v, p, alt, false);
  } else if (lower === 'g') {
    const p = spec.precision === undefined ? 6 : Math.max(spec.precision, 1);
    const x = exponentDigits(v, p - 1).exp;
    if (p > x && x >= -4) {
      const { int, frac } = fixedDigits(v, p - 1 - x);
      const f = alt ? frac : frac.replace(/0+$/, '');
      body = f !== '' || alt ? `${int}.${f}` : int;
    } else body = expForm(v, p - 1, alt, !alt);
  } else {
    const { lead, frac, exp } = hexDigits(v, spec.precision);
    body = `0x${lead}${frac !== '' || alt ? '.' : ''}${frac}p${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
    return pad(spec, sign, upper ? body.toUpperCase() : body, true).replace(/^([-+ ]?)(0*)0X/, (all, s: string, z: string) => (upper ? `${s}0X${z}` : all));
  }
  return pad(spec, sign, upper ? body.toUpperCase() : body, true);
}

/** `%e`'s text of |v| with `p` fraction digits; `trim` drops trailing zeros (for `%g`). */
function expForm(v: { m: bigint; e: number }, p: number, alt: boolean, trim: boolean): string {
  const { digits, exp } = exponentDigits(v, p);
  let frac = digits.slice(1);
  if (trim) frac = frac.replace(/0+$/, '');
  const e = `e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return `${digits[0]}${frac !== '' || alt ? '.' : ''}${frac}${e}`;
}

/** bash's message for an argument that is not a whole number (`sh_invalidnum`). */
function invalidNumber(arg: string): string {
  if (/^0\d/.test(arg)) return `${arg}: invalid octal number`;
  if (/^0x/.test(arg)) return `${arg}: invalid hex number`;
  return `${arg}: invalid number`;
}

/** `strtoimax`/`strtoumax` on `s` (base 0): the value as written (unbounded) and the index past it (0 if none). */
function parseInteger(s: string): { value: bigint; end: number } {
  const m = /^[ \t\n\v\f\r]*([-+]?)(?:(0[xX])([0-9a-fA-F]+)|(0[0-7]*)|([1-9]\d*))/.exec(s);
  if (!m) return { value: 0n, end: 0 };
  const magnitude = m[3] !== undefined ? BigInt(`0x${m[3]}`) : m[4] !== undefined ? BigInt(`0o${m[4] === '0' ? '0' : m[4].slice(1)}`) : BigInt(m[5]!);
  return { value: m[1] === '-' ? -magnitude : magnitude, end: m[0].length };
}

/** The time zone a `%(…)T` conversion shows its time in, and the clock's now (epoch seconds). */
export interface PrintfContext {
  strftime: (format: string, epochSeconds: number) => string;
  now: () => number;
  /** The shell's start time (`-2`). */
  started: () => number;
  /**
   * GNU coreutils' printf program instead of bash's builtin: its messages (`‘ARG’: expected a numeric value`, a
   * number out of range an error, an unknown conversion `%(: invalid conversion specification` ending it), `%q` in
   * GNU's shell-escape quoting, no `%(…)T` or `%Q`, and a warning for arguments a format that takes none leaves.
   * `quote` quotes an argument in the locale's quotes; `shellEscape` is GNU's shell-escape quoting.
   * @see GNU coreutils printf.c (verify_numeric, print_formatted, main)
   */
  gnu?: { quote: (arg: string) => string; shellEscape: (arg: string) => string };
}

/**
 * Runs bash's `printf FORMAT [ARGUMENTS…]` on byte strings.
 * @param format the format (a byte string)
 * @param args the arguments (byte strings)
 * @returns the output, messages (`printf: …` without the shell prefix) and status (1 after any conversion error)
 */
export function runPrintf(format: string, args: readonly string[], ctx: PrintfContext): PrintfRun {
  const run: PrintfRun = { stdout: '', messages: [], status: 0 };
  let passStart = 0;
  const warn = (text: string) => void run.messages.push({ at: passStart, text: `printf: ${text}\n` });
  const fail = (text: string) => {
    warn(text);
    run.status = 1;
  };
  let next = 0;
  const nextArg = (): string | undefined => (next < args.length ? args[next++] : undefined);

  const gnu = ctx.gnu;
  // A number that is not one: bash's sh_invalidnum words, or GNU's verify_numeric (nothing read, or a tail left).
  const notNumber = (a: string, end: number) => (gnu ? `${gnu.quote(a)}: ${end === 0 ? 'expected a numeric value' : 'value not completely converted'}` : invalidNumber(a));
  // Out of range: a warning in bash, an error in GNU's program.
  const outOfRange = (a: string) => (gnu ? fail(`${gnu.quote(a)}: Numerical result out of range`) : warn(`warning: ${a}: Numerical result out of range`));
  const intArg = (): bigint => {
    const a = nextArg();
    if (a === undefined) return 0n;
    if (a[0] === "'" || a[0] === '"') return BigInt(decodeFirstChar(a.slice(1)) ?? 0);
    const { value, end } = parseInteger(a);
    if (end < a.length) {
      fail(notNumber(a, end));
      return clampSigned(value);
    }
    if (value > INT64_MAX || value < INT64_MIN) outOfRange(a);
    return clampSigned(value);
  };
  const uintArg = (): bigint => {
    const a = nextArg();
    if (a === undefined) return 0n;
    if (a[0] === "'" || a[0] === '"') return BigInt(decodeFirstChar(a.slice(1)) ?? 0);
    const { value, end } = parseInteger(a);
    const abs = value < 0n ? -value : value;
    if (end < a.length) fail(notNumber(a, end));
    else if (abs > UINT64_MAX) outOfRange(a);
    if (abs > UINT64_MAX) return UINT64_MAX;
    return value < 0n ? (1n << 64n) - abs : value;
  };
  const floatArg = (): LongDouble => {
    const a = nextArg();
    if (a === undefined) return { kind: 'finite', neg: false, m: 0n, e: 0 };
    if (a[0] === "'" || a[0] === '"') {
      const cp = decodeFirstChar(a.slice(1)) ?? 0;
      return parseLongDouble(String(cp)).value;
    }
    const { value, end } = parseLongDouble(a);
    if (end < a.length) fail(notNumber(a, end));
    return value;
  };

  for (;;) {
    passStart = run.stdout.length;
    const before = next;
    const step = onePass(format, run, { warn, fail, nextArg, intArg, uintArg, floatArg }, ctx);
    // GNU's program warns when a format that takes no argument leaves some.
    if (gnu && step === 'again' && next === 0 && args.length > 0) warn(`warning: ignoring excess arguments, starting with ${gnu.quote(args[0]!)}`);
    if (step !== 'again' || next === before || next >= args.length) return run;
  }
}

const clampSigned = (v: bigint): bigint => (v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v);

interface Args {
  warn: (text: string) => void;
  fail: (text: string) => void;
  nextArg: () => string | undefined;
  intArg: () => bigint;
  uintArg: () => bigint;
  floatArg: () => LongDouble;
}

/** One pass over the format; 'stop' after `\c` in `%b` or a bad conversion (which ends printf), else 'again'. */
function onePass(format: string, run: PrintfRun, a: Args, ctx: PrintfContext): 'again' | 'stop' {
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === '\\') {
      const m = /^\\(?:[0-7]{1,3}|x[0-9a-fA-F]{0,2}|u[0-9a-fA-F]{0,4}|U[0-9a-fA-F]{0,8}|.)?/s.exec(format.slice(i))![0];
      run.stdout += expandEscapes(m, true, a.warn).text;
      i += m.length - 1;
      continue;
    }
    if (c !== '%') {
      run.stdout += c;
      continue;
    }
    if (format[i + 1] === '%') {
      run.stdout += '%';
      i++;
      continue;
    }
    const start = i;
    let j = i + 1;
    let flags = '';
    while (j < format.length && "#'-+ 0".includes(format[j]!)) flags += format[j++];
    let width = 0;
    if (format[j] === '*') {
      j++;
      const w = Number(a.intArg());
      if (w < 0) flags += '-';
      width = Math.abs(w);
    } else {
      const w = /^\d*/.exec(format.slice(j))![0];
      width = w === '' ? 0 : Number(w);
      j += w.length;
    }
    let precision: number | undefined;
    if (format[j] === '.') {
      j++;
      if (format[j] === '*') {
        j++;
        const p = Number(a.intArg());
        precision = p < 0 ? undefined : p;
      } else {
        const p = /^\d*/.exec(format.slice(j))![0];
        precision = p === '' ? 0 : Number(p);
        j += p.length;
      }
    }
    while (j < format.length && 'hjlLtz'.includes(format[j]!)) j++;
    let timeFormat: string | undefined;
    if (format[j] === '(' && !ctx.gnu) {
      const close = format.indexOf(')', j);
      if (close >= 0 && format[close + 1] === 'T') {
        timeFormat = format.slice(j + 1, close);
        j = close + 1;
      }
    }
    const conv = format[j];
    // GNU's program knows only C's conversions and %b and %q: anything else ends it (status 1).
    if (ctx.gnu && (conv === undefined || !'diouxXfFeEgGaAcsbq'.includes(conv))) {
      a.fail(`${format.slice(start, j + 1)}: invalid conversion specification`);
      return 'stop';
    }
    if (conv === undefined) {
      a.fail(`\`${format.slice(start)}': missing format character`);
      return 'stop';
    }
    const spec: Spec = { flags, width, precision };
    i = j;
    switch (conv) {
      case 'd':
      case 'i':
        run.stdout += formatInteger(conv, a.intArg(), spec);
        break;
      case 'o':
      case 'u':
      case 'x':
      case 'X':
        run.stdout += formatInteger(conv, a.uintArg(), spec);
        break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A':
        run.stdout += formatFloat(conv, a.floatArg(), spec);
        break;
      case 'c':
        run.stdout += pad({ ...spec, precision: undefined }, '', (a.nextArg() ?? '')[0] ?? '\0', false);
        break;
      case 's':
        run.stdout += pad(spec, '', cut(a.nextArg() ?? '', precision), false);
        break;
      case 'q':
        run.stdout += pad(spec, '', cut((ctx.gnu?.shellEscape ?? shellQuote)(a.nextArg() ?? ''), precision), false);
        break;
      case 'Q':
        run.stdout += pad(spec, '', shellQuote(cut(a.nextArg() ?? '', precision)), false);
        break;
      case 'b': {
        const { text, stop } = expandEscapes(a.nextArg() ?? '', false, a.warn);
        run.stdout += pad(spec, '', cut(text, precision), false);
        if (stop) return 'stop';
        break;
      }
      case 'T': {
        if (timeFormat === undefined) {
          a.fail(`\`T': invalid format character`);
          return 'stop';
        }
        const arg = a.nextArg();
        let t = -1;
        if (arg !== undefined && arg !== '') {
          const { value, end } = parseInteger(arg);
          if (end < arg.length) a.fail(invalidNumber(arg));
          t = Number(clampSigned(value));
        }
        const at = t === -1 ? ctx.now() : t === -2 ? ctx.started() : t;
        run.stdout += pad(spec, '', cut(ctx.strftime(timeFormat === '' ? '%X' : timeFormat, at), precision), false);
        break;
      }
      default:
        a.fail(`\`${conv}': invalid format character`);
        return 'stop';
    }
  }
  return 'again';
}

const cut = (s: string, precision: number | undefined): string => (precision === undefined ? s : s.slice(0, precision));
