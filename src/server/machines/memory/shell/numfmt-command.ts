/**
 * `numfmt` as GNU coreutils runs it: numbers (operands, else stdin lines) read with `--from` suffixes (si, iec,
 * iec-i, auto) and written with `--to` ones, rounded as GNU rounds (`--round`, from zero by default; one decimal
 * below 10), `--suffix`, `--padding`, `--format '%[0'][-]Nf'` and `.P`, `--field`, `-d`, `--header`, `-z`, `--invalid`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/numfmt-invocation.html
 */
import { defineCommand, latin1FromBytes, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { walkArgs, type InputCtx } from './text-input.ts';

type Scale = 'none' | 'si' | 'iec' | 'iec-i' | 'auto';
type Round = 'up' | 'down' | 'from-zero' | 'towards-zero' | 'nearest';

interface Options {
  from: Scale;
  to: Scale;
  round: Round;
  suffix: string;
  padding: number;
  /** `--format`: text around the directive, its width (`-`: left-aligned), `0` (zero-padded to `zeros` digits), precision. */
  format: { before: string; after: string; width: number; left: boolean; zeros: number; precision: number | undefined } | undefined;
  field: number;
  delimiter: string | undefined;
  header: number;
  zero: boolean;
  /** `--invalid`: what a number it cannot read does (abort: stop, status 2; fail/warn: say so, copy it, go on; ignore: copy it). */
  invalid: 'abort' | 'fail' | 'warn' | 'ignore';
}

const LETTERS = 'KMGTPEZY';
const SCALES = new Set(['none', 'si', 'iec', 'iec-i', 'auto']);
const ROUNDS = new Set(['up', 'down', 'from-zero', 'towards-zero', 'nearest']);

const rounded = (v: number, how: Round): number =>
  how === 'up' ? Math.ceil(v) : how === 'down' ? Math.floor(v) : how === 'towards-zero' ? Math.trunc(v) : how === 'nearest' ? Math.sign(v) * Math.round(Math.abs(v)) : Math.sign(v) * Math.ceil(Math.abs(v));

/** The value of `text` under `--from` (a number with an optional unit letter), or GNU's complaint. */
function parse(text: string, from: Scale): { value: number; decimals: number; scaled: boolean } | { error: string } {
  const m = /^\s*([-+]?\d*(?:\.(\d*))?)([KMGTPEZYk]?)(i?)$/.exec(text);
  if (!m || !/\d/.test(m[1]!)) return { error: `invalid number: ‘${text}’` };
  const value = Number(m[1]);
  const decimals = m[2]?.length ?? 0;
  if (!m[3]) return m[4] ? { error: `invalid suffix in input: ‘${text}’` } : { value, decimals, scaled: false };
  if (from === 'none') return { error: `rejecting suffix in input: ‘${text}’ (consider using --from)` };
  // Only iec-i and auto read a unit's `i`: for si and iec it is a suffix too many.
  if ((from === 'si' || from === 'iec') && m[4]) return { error: `invalid suffix in input ‘${text}’: ‘i’` };
  if (from === 'iec-i' && !m[4]) return { error: `missing ‘i’ suffix in input: ‘${text}’ (e.g. Ki/Mi/Gi)` };
  const base = from === 'si' || (from === 'auto' && !m[4]) ? 1000 : 1024;
  return { value: value * base ** (LETTERS.indexOf(m[3].toUpperCase()) + 1), decimals, scaled: true };
}

/** `value` written under `--to` as GNU's double_to_human writes it. */
function human(value: number, decimals: number, o: Options): string {
  const precision = o.format?.precision;
  // A precision of the format's rounds as --round says (from zero by default) before printing: GNU's double_to_human.
  const fixed = (v: number, p: number) => (rounded(v * 10 ** p, o.round) / 10 ** p).toFixed(p);
  if (o.to === 'none') return precision !== undefined ? fixed(value, precision) : decimals > 0 ? value.toFixed(decimals) : String(rounded(value, o.round));
  const base = o.to === 'si' ? 1000 : 1024;
  let power = 0;
  let v = value;
  while (Math.abs(v) >= base && power < LETTERS.length) {
    v /= base;
    power++;
  }
  const unit = (p: number) => (p === 0 ? '' : `${LETTERS[p - 1]}${o.to === 'iec-i' ? 'i' : ''}`);
  if (precision !== undefined) return `${fixed(v, precision)}${unit(power)}`;
  // Below 10 one decimal is kept, so round ten times the value; a 999.9 that rounds to 1000 moves up a unit.
  const small = Math.abs(v) < 10;
  v = rounded(small ? v * 10 : v, o.round) / (small ? 10 : 1);
  if (Math.abs(v) >= base) {
    v /= base;
    power++;
  }
  const decimal = Math.abs(v) < 10 && power > 0;
  return `${decimal ? v.toFixed(1) : v.toFixed(0)}${unit(power)}`;
}

function options(args: string[]): { o: Options; numbers: string[] } | ExecResult {
  const o: Options = { from: 'none', to: 'none', round: 'from-zero', suffix: '', padding: 0, format: undefined, field: 1, delimiter: undefined, header: 0, zero: false, invalid: 'abort' };
  const bad = (what: string, v: string): ExecResult => ({ stdout: '', stderr: `numfmt: invalid ${what} ‘${v}’\n`, exitCode: 1 });
  const walked = walkArgs(args, (a, next) => {
    // getopt takes a negative number for options (GNU: `numfmt -- -1.5`).
    if (/^-\d/.test(a)) return { stdout: '', stderr: `numfmt: invalid option -- '${a[1]}'\nTry 'numfmt --help' for more information.\n`, exitCode: 1 };
    const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? (name.startsWith('--') || name.length === 2 ? next() : name.slice(2)) ?? '';
    const key = name.startsWith('--') ? name : name.slice(0, 2);
    if (key === '--from' || key === '--to') {
      const v = value();
      if (!SCALES.has(v) || (key === '--to' && v === 'auto')) return { stdout: '', stderr: `numfmt: invalid argument ‘${v}’ for ‘${key}’\n`, exitCode: 1 };
      o[key === '--from' ? 'from' : 'to'] = v as Scale;
    } else if (key === '--round') {
      const v = value();
      if (!ROUNDS.has(v)) return { stdout: '', stderr: `numfmt: invalid argument ‘${v}’ for ‘--round’\n`, exitCode: 1 };
      o.round = v as Round;
    } else if (key === '--suffix') o.suffix = value();
    else if (key === '--padding') {
      const v = value();
      if (!/^-?\d+$/.test(v) || Number(v) === 0) return bad('padding value', v);
      o.padding = Number(v);
    } else if (key === '--field') {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) === 0) return bad('field value', v);
      o.field = Number(v);
    } else if (key === '-d' || key === '--delimiter') o.delimiter = value();
    else if (key === '--header') o.header = inline === undefined ? 1 : Number(inline);
    else if (key === '-z' || key === '--zero-terminated') o.zero = true;
    else if (key === '--invalid') {
      const v = value();
      if (!['abort', 'fail', 'warn', 'ignore'].includes(v)) {
        return { stdout: '', stderr: `numfmt: invalid argument ‘${v}’ for ‘--invalid’\nValid arguments are:\n  - ‘abort’\n  - ‘fail’\n  - ‘warn’\n  - ‘ignore’\nTry 'numfmt --help' for more information.\n`, exitCode: 1 };
      }
      o.invalid = v as Options['invalid'];
    } else if (key === '--grouping') return undefined; // the C locale has no thousands separator
    else if (key === '--format') {
      const v = value();
      // numfmt.c parse_format_string: blanks, `'` and `0` in any order, then a width read by strtol (a `-` makes it
      // left-aligned), `.PRECISION`, `f`. With `0` a positive width zero-pads the number (its unit, then the --suffix, follow
      // the padded digits) instead of padding with blanks.
      const m = /^(.*?)%([ '0]*)(-?\d*)(?:\.(\d+))?f(.*)$/.exec(v);
      if (!m) return { stdout: '', stderr: `numfmt: invalid format ‘${v}’\n`, exitCode: 1 };
      const width = Number(m[3]!.replace(/^-$/, '') || 0);
      const zero = m[2]!.includes('0') && width > 0;
      o.format = { before: m[1]!, after: m[5]!, width: zero ? 0 : Math.abs(width), left: width < 0, zeros: zero ? width : 0, precision: m[4] === undefined ? undefined : Number(m[4]) };
    } else return unsupported('numfmt', a);
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  return { o, numbers: walked.operands };
}

/** One number field, converted and padded (`later`: not the line's first field), or GNU's complaint. */
function convert(field: string, o: Options, later = false): string | { error: string } {
  const lead = /^\s*/.exec(field)![0];
  const parsed = parse(field.slice(lead.length), o.from);
  if ('error' in parsed) return parsed;
  let out = human(parsed.value, parsed.scaled ? 0 : parsed.decimals, o);
  // printf's `%0N.PLf` of the number, then its unit letters (a `%s`, outside the width).
  const zeros = o.format?.zeros ?? 0;
  if (zeros) out = out.replace(/^(-?)([\d.]+)(.*)$/, (_m, sign: string, digits: string, unit: string) => sign + digits.padStart(zeros - sign.length, '0') + unit);
  out += o.suffix;
  // A field after the first starts with the blank that separates it, written as it is (numfmt.c process_line).
  const sep = later && lead ? lead[0]! : '';
  const text = field.slice(sep.length);
  // The width: the format's (unless it zero-pads), else --padding's, else (auto-padding) the field's own when it
  // has blanks before the number or is not the first.
  let width = 0;
  let left = false;
  if (o.format?.width) (width = o.format.width), (left = o.format.left);
  else if (o.padding) (width = Math.abs(o.padding)), (left = o.padding < 0);
  else if (/^\s/.test(text) || later) width = text.length;
  out = left ? out.padEnd(width) : out.padStart(width);
  return sep + (o.format ? `${o.format.before}${out}${o.format.after}` : out);
}

/**
 * A line with its `--field` converted (fields split on `-d`, else on runs of blanks kept with the field after), or
 * GNU's complaint with what GNU wrote of the line before it (`partial`).
 */
function convertLine(line: string, o: Options): string | { error: string; partial: string } {
  const fields = o.delimiter !== undefined ? line.split(o.delimiter) : (line.match(/\s*\S+|\s+$/g) ?? ['']);
  if (o.field > fields.length) return line;
  const field = fields[o.field - 1]!;
  const done = convert(field, o, o.field > 1 && o.delimiter === undefined);
  // GNU has written the fields before a bad one, and the separator before it, when it stops.
  const before = fields.slice(0, o.field - 1).join(o.delimiter ?? '');
  const partial = o.field === 1 ? '' : o.delimiter !== undefined ? before + o.delimiter : before + (/^\s/.exec(field)?.[0] ?? '');
  if (typeof done !== 'string') return { ...done, partial };
  fields[o.field - 1] = done;
  return fields.join(o.delimiter ?? '');
}

async function numfmt(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const parsed = options(args);
  if ('exitCode' in parsed) return parsed;
  const { o, numbers } = parsed;
  const end = o.zero ? '\0' : '\n';
  let lines = numbers;
  let header: string[] = [];
  if (numbers.length === 0) {
    const text = latin1FromBytes(ctx.stdin);
    lines = text === '' ? [] : (text.endsWith(end) ? text.slice(0, -1) : text).split(end);
    header = lines.slice(0, o.header);
    lines = lines.slice(o.header);
  }
  let out = header.map((l) => l + end).join('');
  let stderr = '';
  let failed = false;
  for (const line of lines) {
    const done = convertLine(line, o);
    if (typeof done === 'string') {
      out += done + end;
      continue;
    }
    // By default GNU stops at the first bad number, after printing the lines before it; else it copies the line.
    if (o.invalid === 'abort') return { stdout: out + done.partial, stderr: `numfmt: ${done.error}\n`, exitCode: 2 };
    if (o.invalid !== 'ignore') stderr += `numfmt: ${done.error}\n`;
    failed = true;
    out += line + end;
  }
  return { stdout: out, stderr, exitCode: failed && o.invalid === 'fail' ? 2 : 0 };
}

/** `numfmt` for just-bash's `customCommands`. */
export function numfmtCommands(): CustomCommand[] {
  return [defineCommand('numfmt', (args, ctx) => numfmt(args, ctx))];
}
