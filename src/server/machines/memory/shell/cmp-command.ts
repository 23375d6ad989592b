/**
 * `cmp` as GNU diffutils prints it: the first differing byte (`a b differ: byte 5, line 3`, with `-b` the bytes
 * too), every difference with `-l` (offset, octal bytes), EOF on the shorter file on stderr, `-s` silence, skips
 * (`-i N[:M]` or the 3rd/4th operands) and a limit (`-n`). Exit 0 same, 1 different, 2 trouble.
 * @see https://www.gnu.org/software/diffutils/manual/html_node/Invoking-cmp.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';

const TRY = "cmp: Try 'cmp --help' for more information.\n";

interface Options {
  bytes: boolean;
  all: boolean;
  silent: boolean;
  skip: [number, number] | undefined;
  limit: number;
}

const SUFFIX: Record<string, number> = { '': 1, k: 1024, K: 1024, kB: 1000, KB: 1000, M: 1024 ** 2, MB: 1000 ** 2, G: 1024 ** 3, GB: 1000 ** 3, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** A byte count with GNU's optional size suffix, or undefined. */
function count(text: string): number | undefined {
  const m = /^(\d+)([a-zA-Z]*)$/.exec(text);
  const unit = m ? SUFFIX[m[2]!] : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : undefined;
}

const fail = (text: string): ExecResult => ({ stdout: '', stderr: `cmp: ${text}\n${TRY}`, exitCode: 2 });

/** `c` as cmp -b shows a byte: printable as is, controls as `^X`, high bytes as `M-…`. */
function shown(c: number): string {
  const meta = c >= 128 ? 'M-' : '';
  const b = c & 127;
  return meta + (b < 32 ? `^${String.fromCharCode(b + 64)}` : b === 127 ? '^?' : String.fromCharCode(b));
}

const octal = (c: number) => c.toString(8).padStart(3);

function parse(args: string[]): { o: Options; names: string[] } | ExecResult {
  const o: Options = { bytes: false, all: false, silent: false, skip: undefined, limit: Infinity };
  const skipOf = (v: string | undefined): ExecResult | undefined => {
    const [a, b] = (v ?? '').split(':');
    const x = count(a ?? '');
    const y = b === undefined ? x : count(b);
    if (x === undefined || y === undefined) return fail(`invalid --ignore-initial value '${v ?? ''}'`);
    o.skip = [x, y];
    return undefined;
  };
  const limitOf = (v: string | undefined): ExecResult | undefined => {
    const n = count(v ?? '');
    if (n === undefined) return fail(`invalid --bytes value '${v ?? ''}'`);
    o.limit = n;
    return undefined;
  };
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--print-bytes') o.bytes = true;
      else if (name === '--verbose') o.all = true;
      else if (name === '--quiet' || name === '--silent') o.silent = true;
      else if (name === '--ignore-initial') return skipOf(value ?? next());
      else if (name === '--bytes') return limitOf(value ?? next());
      else return unsupported('cmp', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'i' || c === 'n') {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        return c === 'i' ? skipOf(v) : limitOf(v);
      }
      if (c === 'b') o.bytes = true;
      else if (c === 'l') o.all = true;
      else if (c === 's') o.silent = true;
      else return unsupported('cmp', `-${c}`);
    }
    return undefined;
  });
  return 'failed' in walked ? walked.failed : { o, names: walked.operands };
}

async function cmp(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const parsed = parse(args);
  if ('exitCode' in parsed) return parsed;
  const { o, names } = parsed;
  if (names.length === 0) return fail("missing operand after 'cmp'");
  if (names.length > 4) return fail(`extra operand '${names[4]}'`);
  const skip: [number, number] = [...(o.skip ?? [0, 0])];
  for (const k of [0, 1] as const) {
    const operand = names[k + 2];
    if (operand === undefined) continue;
    const n = count(operand);
    if (n === undefined) return fail(`invalid --ignore-initial value '${operand}'`);
    skip[k] = n;
  }
  const files = [names[0]!, names[1] ?? '-'];
  if (files[0] === files[1] && skip[0] === skip[1] && files[0] !== '-') return { stdout: '', stderr: '', exitCode: 0 };
  const data: string[] = [];
  const sizes: number[] = [];
  for (const [k, name] of files.entries()) {
    const input = await readOperand(ctx, name);
    if ('error' in input) return { stdout: '', stderr: o.silent ? '' : `cmp: ${name}: ${input.error}\n`, exitCode: 2 };
    data.push(input.bytes.slice(skip[k]!));
    sizes.push(input.regular ? Math.max(0, input.bytes.length - skip[k]!) : Number.MAX_SAFE_INTEGER);
  }
  const [a, b] = data as [string, string];
  const end = Math.min(a.length, b.length, o.limit);
  let out = '';
  let line = 1;
  let differ = false;
  // GNU sizes the -l offset column to the smaller of the regular files' sizes (9223372036854775807 when unknown).
  const width = Math.min(...sizes) === Number.MAX_SAFE_INTEGER ? 19 : String(Math.min(...sizes, o.limit)).length;
  for (let i = 0; i < end; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      differ = true;
      if (o.silent) break;
      if (!o.all) {
        const extra = o.bytes ? ` is ${octal(x)} ${shown(x)} ${octal(y)} ${shown(y)}` : '';
        out = `${files[0]} ${files[1]} differ: byte ${i + 1}, line ${line}${extra}\n`;
        break;
      }
      out += o.bytes ? `${String(i + 1).padStart(width)} ${octal(x)} ${shown(x).padEnd(4)} ${octal(y)} ${shown(y)}\n` : `${String(i + 1).padStart(width)} ${octal(x)} ${octal(y)}\n`;
    } else if (x === 10) line++;
  }
  if ((differ && (!o.all || o.silent)) || end >= o.limit || a.length === b.length) return { stdout: out, stderr: '', exitCode: differ ? 1 : 0 };
  // One file is a prefix of the other (within the limit): EOF on the shorter one.
  const short = a.length < b.length ? 0 : 1;
  if (o.silent) return { stdout: out, stderr: '', exitCode: 1 };
  const seen = data[short]!.slice(0, end);
  const newlines = seen.split('\n').length - 1;
  const where = end === 0 ? ' which is empty' : o.all ? ` after byte ${end}` : seen.endsWith('\n') ? ` after byte ${end}, line ${newlines}` : ` after byte ${end}, in line ${newlines + 1}`;
  return { stdout: out, stderr: `cmp: EOF on ${files[short]}${where}\n`, exitCode: 1 };
}

/** `cmp` for just-bash's `customCommands`. */
export function cmpCommands(): CustomCommand[] {
  return [defineCommand('cmp', (args, ctx) => cmp(args, ctx))];
}
