/**
 * `sort` as GNU coreutils runs it in the C locale (bytes, so `A B a b`), replacing just-bash's: keys and orderings
 * (sort-keys.ts), `-t`, `-s`, `-u`, `-r`, `-z`, `-m`, `-c`/`-C` (`sort: F:N: disorder: LINE`, exit 1), `-o FILE`
 * (written after all input is read, so `sort -o f f` works), `-R`; `-S`, `-T` and `--parallel` change nothing here.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/sort-invocation.html
 */
import { randomBytes } from 'node:crypto';
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { applyOrdering, blankKey, compareLines, hasOrdering, type SortKey } from './sort-keys.ts';
import { deliver, isStdinOperand, readOperand, walkArgs, type InputCtx } from './text-input.ts';

interface Options {
  global: SortKey;
  keys: SortKey[];
  tab?: string;
  stable: boolean;
  unique: boolean;
  zero: boolean;
  check?: 'loud' | 'quiet';
  output?: string;
}

const TRY = "Try 'sort --help' for more information.\n";
const bad = (msg: string, code = 2): ExecResult => ({ stdout: '', stderr: `sort: ${msg}\n`, exitCode: code });
const LONG: Record<string, string> = {
  '--ignore-leading-blanks': 'b', '--dictionary-order': 'd', '--ignore-case': 'f', '--general-numeric-sort': 'g', '--human-numeric-sort': 'h',
  '--ignore-nonprinting': 'i', '--month-sort': 'M', '--numeric-sort': 'n', '--random-sort': 'R', '--reverse': 'r', '--version-sort': 'V',
  '--stable': 's', '--unique': 'u', '--zero-terminated': 'z', '--merge': 'm', '--check': 'c',
};
const SORT_NAMES: Record<string, string> = { general: 'g', 'general-numeric': 'g', human: 'h', 'human-numeric': 'h', month: 'M', numeric: 'n', random: 'R', version: 'V' };

/** `-k` POS1[,POS2] into a key, or GNU's error. */
function parseKey(spec: string): SortKey | ExecResult {
  const m = /^(\d+)(?:\.(\d+))?([a-zA-Z]*)(?:,(\d+)(?:\.(\d+))?([a-zA-Z]*))?$/.exec(spec);
  if (!m) return bad(`invalid field specification '${spec}'`);
  const k = blankKey();
  const f1 = Number(m[1]);
  const c1 = m[2] === undefined ? 1 : Number(m[2]);
  if (f1 === 0) return bad(`field number is zero: invalid field specification '${spec}'`);
  if (c1 === 0) return bad(`character offset is zero: invalid field specification '${spec}'`);
  k.sword = f1 - 1;
  k.schar = c1 - 1;
  if (applyOrdering(k, m[3]!) !== undefined) return bad(`invalid field specification '${spec}'`);
  if (m[4] !== undefined) {
    if (Number(m[4]) === 0) return bad(`field number is zero: invalid field specification '${spec}'`);
    k.eword = Number(m[4]) - 1;
    k.echar = m[5] === undefined ? 0 : Number(m[5]);
    if (applyOrdering(k, m[6]!, true) !== undefined) return bad(`invalid field specification '${spec}'`);
  }
  return k;
}

function parse(args: string[]): { o: Options; names: string[]; merge: boolean } | ExecResult {
  const o: Options = { global: blankKey(), keys: [], stable: false, unique: false, zero: false };
  let merge = false;
  const letter = (c: string): ExecResult | undefined => {
    if (c === 's') o.stable = true;
    else if (c === 'u') o.unique = true;
    else if (c === 'z') o.zero = true;
    else if (c === 'm') merge = true;
    else if (c === 'c') o.check = 'loud';
    else if (c === 'C') o.check = 'quiet';
    else if (applyOrdering(o.global, c) !== undefined) return unsupported('sort', `-${c}`);
    if (c === 'b') o.global.skipEnd = true;
    return undefined;
  };
  const valued = (c: string, v: string): ExecResult | undefined => {
    if (c === 'k') {
      const k = parseKey(v);
      if ('exitCode' in k) return k;
      o.keys.push(k);
    } else if (c === 't') {
      if (v.length !== 1 && v !== '\\0') return bad(v === '' ? 'empty tab' : `multi-character tab '${v}'`);
      if (o.tab !== undefined && o.tab !== v) return bad('incompatible tabs');
      o.tab = v === '\\0' ? '\0' : v;
    } else if (c === 'o') o.output = v;
    return undefined;
  };
  const walked = walkArgs<ExecResult>(args, (a, next) => {
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = () => (eq < 0 ? (next() ?? '') : a.slice(eq + 1));
      let r: ExecResult | undefined;
      if (name === '--key') r = valued('k', value());
      else if (name === '--field-separator') r = valued('t', value());
      else if (name === '--output') r = valued('o', value());
      else if (name === '--sort' && SORT_NAMES[eq < 0 ? '' : a.slice(eq + 1)]) r = letter(SORT_NAMES[a.slice(eq + 1)]!);
      else if (name === '--check' && eq >= 0) o.check = ['quiet', 'silent'].includes(a.slice(eq + 1)) ? 'quiet' : 'loud';
      else if (name === '--buffer-size' || name === '--temporary-directory' || name === '--parallel' || name === '--batch-size') {
        if (eq < 0) next();
      } else if (LONG[name] && eq < 0) r = letter(LONG[name]!);
      else return unsupported('sort', a);
      return r;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if ('ktoST'.includes(c)) {
        const v = j + 1 < a.length ? a.slice(j + 1) : next();
        if (v === undefined) return { stdout: '', stderr: `sort: option requires an argument -- '${c}'\n${TRY}`, exitCode: 2 };
        const r = valued(c, v);
        if (r) return r;
        break;
      }
      const r = letter(c);
      if (r) return r;
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  return { o, names: walked.operands, merge };
}

async function sort(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const parsed = parse(args);
  if ('exitCode' in parsed) return parsed;
  const { o, names } = parsed;
  const g = o.global;
  const keys = o.keys.map((k) => (hasOrdering(k) ? k : { ...g, sword: k.sword, schar: k.schar, eword: k.eword, echar: k.echar }));
  if (keys.length === 0 && hasOrdering(g)) keys.push(g);
  const end = o.zero ? '\0' : '\n';
  const inputs = names.length === 0 ? ['-'] : names;
  if (o.check && inputs.length > 1) return { stdout: '', stderr: `sort: extra operand '${inputs[1]}' not allowed with -${o.check === 'loud' ? 'c' : 'C'}\n${TRY}`, exitCode: 2 };
  // GNU sort checks every input with euidaccess(R_OK) before it reads any (sort.c check_inputs; not with -c/-C):
  // access(2)'s real-id answer, so an exec session's capabilities do not let it read a file its modes refuse.
  if (!o.check) {
    const realAccess = (ctx.fs as { accessReal?: (p: string, want: 4) => Promise<boolean> }).accessReal;
    for (const name of inputs) {
      if (isStdinOperand(name) || !realAccess) continue;
      const path = ctx.fs.resolvePath(ctx.cwd, name);
      // A descriptor's or device's name (`/dev/fd/5`, `/dev/null`) is the engine's view, opened already: not checked.
      if (/^\/(?:dev|proc)\//.test(path)) continue;
      if ((await ctx.fs.exists(path)) && !(await realAccess.call(ctx.fs, path, 4))) return bad(`cannot read: ${name}: Permission denied`);
    }
  }
  const lines: string[] = [];
  for (const name of inputs) {
    const r = await readOperand(ctx, name);
    if ('error' in r) return bad(r.error === 'Is a directory' ? `read failed: ${name}: Is a directory` : `cannot read: ${name}: ${r.error}`);
    if (r.bytes === '') continue;
    lines.push(...(r.bytes.endsWith(end) ? r.bytes.slice(0, -1) : r.bytes).split(end));
  }
  const opts = { tab: o.tab, stable: o.stable || o.unique, reverse: g.reverse, salt: randomBytes(4).readUInt32LE() };
  const compare = (a: string, b: string) => compareLines(a, b, keys, opts);
  if (o.check) {
    for (let i = 1; i < lines.length; i++) {
      const d = compare(lines[i - 1]!, lines[i]!);
      if (d > 0 || (o.unique && d === 0)) {
        return { stdout: '', stderr: o.check === 'loud' ? `sort: ${inputs[0]}:${i + 1}: disorder: ${Buffer.from(lines[i]!, 'latin1').toString()}\n` : '', exitCode: 1 };
      }
    }
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  const sorted = lines.map((line, i) => ({ line, i })).sort((x, y) => compare(x.line, y.line) || x.i - y.i).map((x) => x.line);
  const kept = o.unique ? sorted.filter((l, i) => i === 0 || compare(sorted[i - 1]!, l) !== 0) : sorted;
  const out = kept.map((l) => l + end).join('');
  return deliver(ctx, out, o.output, (why) => bad(`open failed: ${o.output}: ${why}`));
}

/** `sort` for just-bash's `customCommands`. */
export function sortCommands(): CustomCommand[] {
  return [defineCommand('sort', (args, ctx) => sort(args, ctx))];
}
