/**
 * `uniq` as GNU coreutils runs it: `-c` counts in a 7-wide column, `-d`, `-D`/`--all-repeated[=METHOD]`,
 * `--group[=METHOD]`, `-u`, `-i`, `-f N` (skip fields), `-s N` (skip chars), `-w N` (compare at most N chars),
 * `-z`, and the second operand as the output file.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/uniq-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { deliver, readOperand, walkArgs, type InputCtx } from './text-input.ts';

interface Options {
  count: boolean;
  repeated: boolean;
  unique: boolean;
  all?: 'none' | 'prepend' | 'separate';
  group?: 'separate' | 'prepend' | 'append' | 'both';
  ignoreCase: boolean;
  fields: number;
  chars: number;
  width: number;
  zero: boolean;
}

const TRY = "Try 'uniq --help' for more information.\n";

/** The part of `line` uniq compares: `fields` blank-separated fields and then `chars` chars skipped, `width` kept. */
function keyOf(o: Options, line: string): string {
  let i = 0;
  for (let f = 0; f < o.fields && i < line.length; f++) {
    while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
    while (i < line.length && line[i] !== ' ' && line[i] !== '\t') i++;
  }
  let k = line.slice(Math.min(line.length, i + o.chars));
  if (o.width < Infinity) k = k.slice(0, o.width);
  return o.ignoreCase ? k.toLowerCase() : k;
}

function parse(args: string[]): { o: Options; names: string[] } | ExecResult {
  const o: Options = { count: false, repeated: false, unique: false, ignoreCase: false, fields: 0, chars: 0, width: Infinity, zero: false };
  const num = (v: string | undefined, what: string): number | ExecResult => {
    if (v === undefined || !/^\d+$/.test(v)) return { stdout: '', stderr: `uniq: ${v ?? ''}: invalid number of ${what}\n`, exitCode: 1 };
    return Number(v);
  };
  const walked = walkArgs<ExecResult>(args, (a, next) => {
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = eq < 0 ? undefined : a.slice(eq + 1);
      if (name === '--count') o.count = true;
      else if (name === '--repeated') o.repeated = true;
      else if (name === '--unique') o.unique = true;
      else if (name === '--ignore-case') o.ignoreCase = true;
      else if (name === '--zero-terminated') o.zero = true;
      else if (name === '--all-repeated' && (value === undefined || ['none', 'prepend', 'separate'].includes(value))) o.all = (value ?? 'none') as Options['all'];
      else if (name === '--group' && (value === undefined || ['separate', 'prepend', 'append', 'both'].includes(value))) o.group = (value ?? 'separate') as Options['group'];
      else if (name === '--skip-fields' || name === '--skip-chars' || name === '--check-chars') {
        const n = num(value ?? next(), name === '--skip-fields' ? 'fields to skip' : name === '--skip-chars' ? 'bytes to skip' : 'bytes to compare');
        if (typeof n !== 'number') return n;
        if (name === '--skip-fields') o.fields = n;
        else if (name === '--skip-chars') o.chars = n;
        else o.width = n;
      } else return unsupported('uniq', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'f' || c === 's' || c === 'w') {
        const n = num(j + 1 < a.length ? a.slice(j + 1) : next(), c === 'f' ? 'fields to skip' : c === 's' ? 'bytes to skip' : 'bytes to compare');
        if (typeof n !== 'number') return n;
        if (c === 'f') o.fields = n;
        else if (c === 's') o.chars = n;
        else o.width = n;
        break;
      }
      if (c === 'c') o.count = true;
      else if (c === 'd') o.repeated = true;
      else if (c === 'D') o.all = 'none';
      else if (c === 'u') o.unique = true;
      else if (c === 'i') o.ignoreCase = true;
      else if (c === 'z') o.zero = true;
      else return unsupported('uniq', `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  return { o, names: walked.operands };
}

async function uniq(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const parsed = parse(args);
  if ('exitCode' in parsed) return parsed;
  const { o, names } = parsed;
  if (names.length > 2) return { stdout: '', stderr: `uniq: extra operand '${names[2]}'\n${TRY}`, exitCode: 1 };
  if (o.group && (o.count || o.repeated || o.unique || o.all)) return { stdout: '', stderr: `uniq: --group is mutually exclusive with -c/-d/-D/-u\n${TRY}`, exitCode: 1 };
  if (o.count && o.all) return { stdout: '', stderr: `uniq: printing all duplicated lines and repeat counts is meaningless\n${TRY}`, exitCode: 1 };
  const input = await readOperand(ctx, names[0] ?? '-');
  if ('error' in input) return { stdout: '', stderr: `uniq: ${names[0] ?? '-'}: ${input.error}\n`, exitCode: 1 };
  const end = o.zero ? '\0' : '\n';
  const text = input.bytes;
  const lines = text === '' ? [] : (text.endsWith(end) ? text.slice(0, -1) : text).split(end);
  const runs: string[][] = [];
  let prevKey: string | undefined;
  for (const line of lines) {
    const k = keyOf(o, line);
    if (prevKey !== undefined && k === prevKey) runs[runs.length - 1]!.push(line);
    else runs.push([line]);
    prevKey = k;
  }
  let out = '';
  if (o.group) {
    runs.forEach((run, i) => {
      // uniq.c: an empty line between groups whatever the method, and one before the first (prepend, both) and
      // after the last (append, both).
      if (i > 0 || o.group === 'prepend' || o.group === 'both') out += end;
      out += run.map((l) => l + end).join('');
    });
    if (runs.length > 0 && (o.group === 'append' || o.group === 'both')) out += end;
  } else if (o.all) {
    let first = true;
    for (const run of runs) {
      if (run.length < 2) continue;
      if (o.all === 'prepend' || (o.all === 'separate' && !first)) out += end;
      first = false;
      out += run.map((l) => l + end).join('');
    }
  } else {
    for (const run of runs) {
      if ((o.repeated && run.length < 2) || (o.unique && run.length > 1)) continue;
      out += `${o.count ? `${String(run.length).padStart(7)} ` : ''}${run[0]}${end}`;
    }
  }
  return deliver(ctx, out, names[1], (why) => ({ stdout: '', stderr: `uniq: ${names[1]}: ${why}\n`, exitCode: 1 }));
}

/** `uniq` for just-bash's `customCommands`. */
export function uniqCommands(): CustomCommand[] {
  return [defineCommand('uniq', (args, ctx) => uniq(args, ctx))];
}
