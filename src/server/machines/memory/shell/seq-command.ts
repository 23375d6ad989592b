/**
 * `seq` as GNU coreutils prints: FIRST, INCREMENT and LAST as decimals or hexadecimal numbers (as strtold reads
 * them; each value FIRST + i·INCREMENT), integers as integers and others with as many decimals as FIRST and INCREMENT have, `-f FORMAT` (one `%e %f %g` directive,
 * C's printf), `-s SEP`, `-w` (zero-padded to equal width), and GNU's argument errors.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/seq-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { awkSprintf } from './awk-format.ts';
import { unsupported } from './gnu-commands.ts';

const TRY = "Try 'seq --help' for more information.\n";
const fail = (text: string): ExecResult => ({ stdout: '', stderr: `seq: ${text}\n${TRY}`, exitCode: 1 });
const decimals = (s: string) => (/e/i.test(s) ? 0 : (s.split('.')[1] ?? '').length);
const HEX = /^([-+]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([-+]?\d+))?$/;

/** `x` rounded to a whole number, halves to even (printf's `%.0f`). */
function roundEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** A hexadecimal (`0x10`) or hexadecimal floating-point (`0x1.8p1`) number as strtold reads it; null if `s` is not one. */
function hexValue(s: string): number | null {
  const m = HEX.exec(s);
  if (!m || (m[2] === '' && !m[3])) return null;
  const digits = `${m[2]}${m[3] ?? ''}`;
  const mantissa = digits.split('').reduce((n, d) => n * 16 + parseInt(d, 16), 0);
  const v = mantissa * 2 ** (Number(m[4] ?? 0) - 4 * (m[3] ?? '').length);
  return m[1] === '-' ? -v : v;
}

function seq(args: string[], cap: number): ExecResult | undefined {
  let format: string | undefined;
  let sep = '\n';
  let width = false;
  const nums: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // A negative number is an operand, not an option (`seq -1 1`).
    if (a.startsWith('-') && a.length > 1 && !/^-[\d.]/.test(a)) {
      if (a === '--') {
        nums.push(...args.slice(i + 1));
        break;
      }
      const m = /^(?:-([fs])(.*)|--(format|separator)(?:=(.*))?)$/.exec(a);
      if (m) {
        const v = (m[2] || m[4]) ?? args[++i];
        if (v === undefined) return fail(`option requires an argument -- '${m[1] ?? m[3]}'`);
        if ((m[1] ?? m[3]) === 'f' || m[3] === 'format') format = v;
        else sep = v;
      } else if (a === '-w' || a === '--equal-width') width = true;
      else return fail(`invalid option -- '${a.slice(1)}'`);
      continue;
    }
    nums.push(a);
  }
  if (nums.length === 0) return fail('missing operand');
  if (nums.length > 3) return fail(`extra operand ‘${nums[3]}’`);
  for (const n of nums) if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(n) && !/^[-+]?inf(inity)?$/i.test(n) && hexValue(n) === null) return fail(`invalid floating point argument: ‘${n}’`);
  const [first, incr, last] = nums.length === 1 ? ['1', '1', nums[0]!] : nums.length === 2 ? [nums[0]!, '1', nums[1]!] : [nums[0]!, nums[1]!, nums[2]!];
  const value = (n: string) => hexValue(n) ?? Number(n);
  const step = value(incr);
  if (step === 0) return fail(`invalid Zero increment value: ‘${incr}’`);
  // seq.c (scan_arg) gives a hexadecimal operand no width, and precision 0 when it has neither `.` nor `p`, else an
  // unknown one; an unknown precision of FIRST, INCREMENT or LAST prints every value with %Lg (no -w padding), and
  // with all three 0 and nothing negative it counts whole numbers from FIRST and LAST rounded (seq_fast, `%0.Lf`).
  const hex = [first, incr, last].some((n) => hexValue(n) !== null);
  if (hex && format === undefined) {
    const unknown = [first, incr, last].some((n) => hexValue(n) !== null && /[.p]/.test(n));
    const whole = [first, incr, last].every((n) => (hexValue(n) === null ? decimals(n) === 0 : !/[.p]/.test(n)));
    const [a, b] = [value(first), value(last)];
    if (!unknown && whole && a >= 0 && b >= 0 && step > 0 && step <= 200 && !width && sep.length === 1) {
      const values: string[] = [];
      const inc = Math.trunc(step);
      for (let v = roundEven(a); v <= roundEven(b) && inc > 0; v += inc) {
        values.push(String(v));
        if (values.length > cap) return undefined;
      }
      return { stdout: values.length > 0 ? `${values.join(sep)}\n` : '', stderr: '', exitCode: 0 };
    }
    if (unknown) {
      format = '%g';
      width = false;
    }
  }
  if (format !== undefined && (format.match(/%[^%]/g) ?? []).length !== 1) return { stdout: '', stderr: `seq: format ‘${format}’ has ${(format.match(/%[^%]/g) ?? []).length === 0 ? 'no' : 'too many'} % directive${(format.match(/%[^%]/g) ?? []).length === 0 ? '' : 's'}\n`, exitCode: 1 };
  if (format !== undefined) {
    // GNU seq takes only a floating-point conversion (`%d`, `%x`, `%s` are refused); `'` and `L` change nothing here.
    const d = /%(?!%)[-+ #0']*\d*(?:\.\d*)?(L?)(.?)/.exec(format.replace(/%%/g, ''))!;
    if (!'eEfFgG'.includes(d[2]!) || d[2] === '') {
      if (d[2] === 'a' || d[2] === 'A') return unsupported('seq', `-f ${format} (hexadecimal floating point)`);
      return { stdout: '', stderr: `seq: format ‘${format}’ has unknown %${d[2]} directive\n`, exitCode: 1 };
    }
    format = format.replace(/(%[-+ #0']*\d*(?:\.\d*)?)L?([eEfFgG])/, (_, head: string, conv: string) => head.replace(/'/g, '') + conv);
  }
  const prec = Math.max(decimals(first), decimals(incr));
  const start = value(first);
  const end = value(last);
  const values: string[] = [];
  for (let i = 0; ; i++) {
    const v = start + i * step;
    if (step > 0 ? v > end + 1e-12 * Math.abs(step) : v < end - 1e-12 * Math.abs(step)) break;
    if (format !== undefined) {
      const r = awkSprintf(format, [v], (x) => x, String);
      values.push('text' in r ? r.text : '');
    } else values.push(prec > 0 ? v.toFixed(prec) : String(Math.round(v)));
    // Past just-bash's own cap, its seq runs instead and ends the script at that limit (world.ts explains it).
    if (values.length > cap) return undefined;
  }
  if (width && format === undefined) {
    // -w pads to the operands' widths (FIRST's and LAST's, as printed with the precision); a hexadecimal one has none.
    const opWidth = (n: string) => (hexValue(n) !== null ? 0 : n.replace(/^\+/, '').length + prec - decimals(n) + (decimals(n) === 0 && prec > 0 ? 1 : 0) - (decimals(n) > 0 && prec === 0 ? 1 : 0));
    const w = hex ? Math.max(opWidth(first), opWidth(last)) : Math.max(...values.map((s) => s.length));
    for (let k = 0; k < values.length; k++) values[k] = values[k]!.startsWith('-') ? `-${values[k]!.slice(1).padStart(w - 1, '0')}` : values[k]!.padStart(w, '0');
  }
  return { stdout: values.length > 0 ? `${values.join(sep)}\n` : '', stderr: '', exitCode: 0 };
}

/** `seq` for just-bash's `customCommands`. */
export function seqCommands(): CustomCommand[] {
  return [defineCommand('seq', async (args, ctx) => seq(args, Math.min(ctx.limits.maxLoopIterations, ctx.limits.maxArrayElements)) ?? ctx.origCommand!(args))];
}
