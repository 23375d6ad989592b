/**
 * `cut` as GNU coreutils 9 runs it: `-b`/`-c` (both count bytes, as GNU's) and `-f` lists (`N`, `N-M`, `-M`, `N-`,
 * merged when they overlap), `-d`, `-s`, `--complement`, `--output-delimiter` (between ranges for `-b`/`-c`),
 * `-z`, a line without the delimiter printed whole (unless `-s`), and GNU's usage errors.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/cut-invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';
import { OrderedOutput, type OrderedResult } from './output-order.ts';

const TRY = "Try 'cut --help' for more information.\n";
const usage = (text: string): ExecResult => ({ stdout: '', stderr: `cut: ${text}\n${TRY}`, exitCode: 1 });

/** Inclusive 1-based ranges, sorted and merged (Infinity: to the end). */
type Ranges = Array<[number, number]>;

/** A list (`1,3-5,7-`) as merged ranges, or GNU's complaint. */
function ranges(list: string, fields: boolean): Ranges | ExecResult {
  const out: Ranges = [];
  for (const part of list.split(/[,\s]/)) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || (m[1] === '' && m[3] === '' && (m[2] === '' || part === '-'))) {
      if (part === '-') return usage("invalid range with no endpoint: -");
      return usage(`${fields ? 'invalid field value' : 'invalid byte/character position'} ‘${part}’`);
    }
    const lo = m[1] === '' ? 1 : Number(m[1]);
    const hi = m[2] === '' ? lo : m[3] === '' ? Infinity : Number(m[3]);
    if (lo === 0 || hi === 0) return usage(fields ? 'fields are numbered from 1' : 'byte/character positions are numbered from 1');
    if (hi < lo) return usage('invalid decreasing range');
    out.push([lo, hi]);
  }
  out.sort((a, b) => a[0] - b[0]);
  const merged: Ranges = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/** `rs` inverted over 1…Infinity (`--complement`). */
function complement(rs: Ranges): Ranges {
  const out: Ranges = [];
  let next = 1;
  for (const [lo, hi] of rs) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next !== Infinity) out.push([next, Infinity]);
  return out;
}

/** The pieces of `items` (1-based) the ranges select, one array per range. */
const pick = <T>(items: T[], rs: Ranges): T[][] => rs.map(([lo, hi]) => items.slice(lo - 1, hi === Infinity ? undefined : hi)).filter((p) => p.length > 0);

async function cut(args: string[], ctx: InputCtx): Promise<OrderedResult> {
  let mode: 'bytes' | 'fields' | undefined;
  let list = '';
  let delimiter: string | undefined;
  let outDelim: string | undefined;
  let onlyDelimited = false;
  let invert = false;
  let zero = false;
  let twoLists = false;
  const setList = (m: 'bytes' | 'fields', v: string | undefined) => {
    if (mode !== undefined) twoLists = true;
    mode = m;
    list = v ?? '';
  };
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--bytes' || name === '--characters' || name === '--fields') setList(name === '--fields' ? 'fields' : 'bytes', value ?? next());
      else if (name === '--delimiter') delimiter = value ?? next() ?? '';
      else if (name === '--output-delimiter') outDelim = value ?? next() ?? '';
      else if (name === '--only-delimited') onlyDelimited = true;
      else if (name === '--complement') invert = true;
      else if (name === '--zero-terminated') zero = true;
      else return unsupported('cut', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if ('bcfd'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (c === 'd') delimiter = v ?? '';
        else setList(c === 'f' ? 'fields' : 'bytes', v);
        return undefined;
      }
      if (c === 's') onlyDelimited = true;
      else if (c === 'z') zero = true;
      else if (c === 'n') continue; // GNU ignores -n
      else return unsupported('cut', `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  if (twoLists) return usage('only one list may be specified');
  if (mode === undefined) return usage('you must specify a list of bytes, characters, or fields');
  // An empty -d '' is the NUL byte, as GNU takes it.
  if (delimiter === '') delimiter = '\0';
  if (delimiter !== undefined && Buffer.byteLength(delimiter) !== 1) return usage('the delimiter must be a single character');
  if (mode === 'bytes' && delimiter !== undefined) return usage('an input delimiter may be specified only when operating on fields');
  if (mode === 'bytes' && onlyDelimited) return usage('suppressing non-delimited lines makes sense\n\tonly when operating on fields');
  const parsed = ranges(list, mode === 'fields');
  if (!Array.isArray(parsed)) return parsed;
  const selected = invert ? complement(parsed) : parsed;
  const delim = delimiter === undefined ? '\t' : Buffer.from(delimiter, 'utf8').toString('latin1');
  const joiner = outDelim === undefined ? (mode === 'fields' ? delim : '') : Buffer.from(outDelim, 'utf8').toString('latin1');
  const eol = zero ? '\0' : '\n';
  // GNU cut reports through error(), which flushes the lines printed so far: program order.
  const text = new OrderedOutput();
  for (const name of walked.operands.length > 0 ? walked.operands : ['-']) {
    const input = await readOperand(ctx, name);
    if ('error' in input) {
      text.err(`cut: ${name}: ${input.error}\n`);
      continue;
    }
    const bytes = input.bytes;
    if (bytes === '') continue;
    for (const line of (bytes.endsWith(eol) ? bytes.slice(0, -1) : bytes).split(eol)) {
      if (mode === 'bytes') text.out(pick([...line], selected).map((p) => p.join('')).join(joiner) + eol);
      else if (!line.includes(delim)) {
        if (!onlyDelimited) text.out(line + eol);
      } else text.out(pick(line.split(delim), selected).map((p) => p.join(joiner)).join(joiner) + eol);
    }
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(text.stdout)), stderr: text.stderr, exitCode: text.stderr ? 1 : 0, outputOrder: text.order('before-errors') };
}

/** `cut` for just-bash's `customCommands`. */
export function cutCommands(): CustomCommand[] {
  return [defineCommand('cut', (args, ctx) => cut(args, ctx))];
}
