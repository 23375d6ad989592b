/**
 * GNU `split` (coreutils 9.1, the reference's) for the shell engine: pieces of `-l` lines (default 1000, also the
 * obsolete `-N`), `-b` bytes, `-C` bytes of whole lines, or `-n` chunks (`N`, `K/N`, `l/N`, `l/K/N`, `r/N`, `r/K/N`);
 * `-a`, `-d`/`--numeric-suffixes[=FROM]`, `-x`/`--hex-suffixes[=FROM]`, `--additional-suffix`, `-e`, `-t SEP`, `-u`,
 * `--verbose`; suffixes that widen (`xyz` is followed by `xzaaa`) unless `-a` or `-n` fixes their length.
 * `--filter` runs a command per piece, which the engine does not: it is refused naming `--exec sandbox`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/split-invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { localeQuote } from './gnu-quote.ts';
import { readOperand } from './text-input.ts';

const TRY = "Try 'split --help' for more information.\n";
const MULTIPLIER: Record<string, number> = { '': 1, b: 512, K: 1024, k: 1024, KiB: 1024, KB: 1000, M: 1024 ** 2, MiB: 1024 ** 2, MB: 1e6, G: 1024 ** 3, GiB: 1024 ** 3, GB: 1e9, T: 1024 ** 4, TiB: 1024 ** 4, TB: 1e12 };

type Mode =
  | { kind: 'lines'; n: number }
  | { kind: 'bytes'; n: number }
  | { kind: 'line-bytes'; n: number }
  | { kind: 'chunks'; by: 'bytes' | 'lines' | 'round-robin'; n: number; only?: number };

interface Plan {
  mode?: Mode;
  suffixLength?: number;
  alphabet: string;
  from: number;
  additional: string;
  elide: boolean;
  separator: string;
  verbose: boolean;
}

class UsageError extends Error {}

/** A count with GNU's multiplier suffixes (`2`, `1K`, `1KB`, `3MiB`); 0 and overflow are out of range. */
function count(text: string, what: string, env: Map<string, string>): number {
  const m = /^(\d+)([a-zA-Z]*)$/.exec(text);
  const k = m ? MULTIPLIER[m[2]!] : undefined;
  if (!m || k === undefined) throw new UsageError(`split: invalid number of ${what}: ${localeQuote(env, text)}\n`);
  const n = Number(m[1]) * k;
  if (n === 0 || !Number.isSafeInteger(n)) throw new UsageError(`split: invalid number of ${what}: ${localeQuote(env, text)}: Numerical result out of range\n`);
  return n;
}

/** `-n`'s argument: `N`, `K/N`, `l/N`, `l/K/N`, `r/N`, `r/K/N`. */
function chunks(text: string, env: Map<string, string>): Mode {
  const m = /^(?:([lr])\/)?(?:([^/]+)\/)?([^/]+)$/.exec(text);
  if (!m) throw new UsageError(`split: invalid number of chunks: ${localeQuote(env, text)}\n`);
  const n = count(m[3]!, 'chunks', env);
  const by = m[1] === 'l' ? 'lines' : m[1] === 'r' ? 'round-robin' : 'bytes';
  if (m[2] === undefined) return { kind: 'chunks', by, n };
  const only = count(m[2], 'chunks', env);
  if (only > n) throw new UsageError(`split: invalid chunk number: ${localeQuote(env, m[2])}\n`);
  return { kind: 'chunks', by, n, only };
}

/** `n` written in `width` characters of `alphabet`. */
function fixed(n: number, width: number, alphabet: string): string {
  let s = '';
  for (let k = 0; k < width; k++, n = Math.floor(n / alphabet.length)) s = alphabet[n % alphabet.length] + s;
  return s;
}

/** The suffix of piece `index` (0-based): `length` characters, or widening when `length` is undefined. */
function suffix(index: number, plan: Plan, length: number | undefined): string | undefined {
  const base = plan.alphabet.length;
  let i = index + plan.from;
  if (length !== undefined) return i < base ** length ? fixed(i, length, plan.alphabet) : undefined;
  // Widening: the suffixes that would start with the last character give way to ones two characters longer
  // (`yz`, then `zaaa`; `89`, then `9000`), as GNU split does when no length is given.
  let width = 2;
  let prefix = '';
  for (;;) {
    const room = (base - 1) * base ** (width - 1);
    if (i < room) return prefix + fixed(i, width, plan.alphabet);
    i -= room;
    prefix += plan.alphabet[base - 1];
    width += 1;
  }
}

/** Parses split's argv: the plan, the input operand and the prefix. */
function parse(args: string[], env: Map<string, string>): { plan: Plan; input: string; prefix: string } | ExecResult {
  const plan: Plan = { alphabet: 'abcdefghijklmnopqrstuvwxyz', from: 0, additional: '', elide: false, separator: '\n', verbose: false };
  const operands: string[] = [];
  const setMode = (mode: Mode) => {
    if (plan.mode && plan.mode.kind !== mode.kind) throw new UsageError(`split: cannot split in more than one way\n${TRY}`);
    plan.mode = mode;
  };
  const numbered = (alphabet: string, from: string | undefined) => {
    plan.alphabet = alphabet;
    if (from !== undefined) {
      if (!/^\d+$/.test(from)) throw new UsageError(`split: invalid start value for numerical suffix: ${localeQuote(env, from)}\n`);
      plan.from = Number.parseInt(from, alphabet.length === 16 ? 16 : 10);
    }
  };
  const take = (name: string, value: string) => {
    switch (name) {
      case 'a': case 'suffix-length': {
        if (!/^\d+$/.test(value)) throw new UsageError(`split: invalid suffix length: ${localeQuote(env, value)}\n`);
        plan.suffixLength = Number(value);
        return;
      }
      case 'b': case 'bytes': return setMode({ kind: 'bytes', n: count(value, 'bytes', env) });
      case 'C': case 'line-bytes': return setMode({ kind: 'line-bytes', n: count(value, 'bytes', env) });
      case 'l': case 'lines': return setMode({ kind: 'lines', n: count(value, 'lines', env) });
      case 'n': case 'number': return setMode(chunks(value, env));
      case 't': case 'separator': {
        const sep = value === '\\0' ? '\0' : value;
        if (sep.length !== 1) throw new UsageError(`split: multi-character separator ${localeQuote(env, value)}\n`);
        plan.separator = sep;
        return;
      }
      case 'additional-suffix': {
        if (value.includes('/')) throw new UsageError(`split: invalid suffix ${localeQuote(env, value)}, contains directory separator\n${TRY}`);
        plan.additional = value;
        return;
      }
    }
  };
  const WITH_VALUE = new Set(['a', 'b', 'C', 'l', 'n', 't']);
  const LONG_WITH_VALUE = new Set(['suffix-length', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'additional-suffix']);
  try {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (a.startsWith('--')) {
        const eq = a.indexOf('=');
        const name = a.slice(2, eq < 0 ? undefined : eq);
        const inline = eq < 0 ? undefined : a.slice(eq + 1);
        if (LONG_WITH_VALUE.has(name)) {
          const value = inline ?? args[++i];
          if (value === undefined) throw new UsageError(`split: option '--${name}' requires an argument\n${TRY}`);
          take(name, value);
        } else if (name === 'numeric-suffixes') numbered('0123456789', inline);
        else if (name === 'hex-suffixes') numbered('0123456789abcdef', inline);
        else if (name === 'elide-empty-files') plan.elide = true;
        else if (name === 'verbose') plan.verbose = true;
        else if (name === 'unbuffered') continue;
        else if (name.startsWith('filter')) return unsupported('split', '--filter');
        else throw new UsageError(`split: unrecognized option '${a}'\n${TRY}`);
        continue;
      }
      if (!a.startsWith('-') || a === '-') {
        operands.push(a);
        continue;
      }
      if (/^-\d+$/.test(a)) {
        setMode({ kind: 'lines', n: count(a.slice(1), 'lines', env) });
        continue;
      }
      for (let k = 1; k < a.length; k++) {
        const c = a[k]!;
        if (WITH_VALUE.has(c)) {
          const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
          if (value === undefined) throw new UsageError(`split: option requires an argument -- '${c}'\n${TRY}`);
          take(c, value);
          break;
        }
        if (c === 'd') numbered('0123456789', undefined);
        else if (c === 'x') numbered('0123456789abcdef', undefined);
        else if (c === 'e') plan.elide = true;
        else if (c === 'u') continue;
        else throw new UsageError(`split: invalid option -- '${c}'\n${TRY}`);
      }
    }
  } catch (err) {
    if (err instanceof UsageError) return { stdout: '', stderr: err.message, exitCode: 1 };
    throw err;
  }
  if (operands.length > 2) return { stdout: '', stderr: `split: extra operand ${localeQuote(env, operands[2]!)}\n${TRY}`, exitCode: 1 };
  return { plan, input: operands[0] ?? '-', prefix: operands[1] ?? 'x' };
}

/** The records of `data` split after each `sep` (the last may lack it). */
function records(data: string, sep: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let at = data.indexOf(sep); at >= 0; at = data.indexOf(sep, start)) {
    out.push(data.slice(start, at + 1));
    start = at + 1;
  }
  if (start < data.length) out.push(data.slice(start));
  return out;
}

/** The pieces of `data` (byte strings), in order; `only` set means one chunk goes to stdout. */
function pieces(data: string, mode: Mode, sep: string): string[] {
  switch (mode.kind) {
    case 'lines': {
      const rs = records(data, sep);
      const out: string[] = [];
      for (let i = 0; i < rs.length; i += mode.n) out.push(rs.slice(i, i + mode.n).join(''));
      return out;
    }
    case 'bytes': {
      const out: string[] = [];
      for (let i = 0; i < data.length; i += mode.n) out.push(data.slice(i, i + mode.n));
      return out;
    }
    case 'line-bytes': {
      const out: string[] = [];
      let current = '';
      for (const r of records(data, sep)) {
        if (current.length + r.length > mode.n && current !== '') {
          out.push(current);
          current = '';
        }
        // A record longer than the size is itself cut into pieces of the size.
        let rest = r;
        while (rest.length > mode.n) {
          out.push(rest.slice(0, mode.n));
          rest = rest.slice(mode.n);
        }
        current += rest;
        if (current.length === mode.n) {
          out.push(current);
          current = '';
        }
      }
      if (current !== '') out.push(current);
      return out;
    }
    case 'chunks': {
      const out: string[] = Array.from({ length: mode.n }, () => '');
      if (mode.by === 'round-robin') {
        records(data, sep).forEach((r, i) => (out[i % mode.n] += r));
        return out;
      }
      // Chunk k holds bytes [(k-1)·size, k·size) with size = ⌊length/N⌋ (at least 1), the last chunk up to the end;
      // by lines, each line goes to the chunk its first byte falls in.
      const size = Math.max(1, Math.floor(data.length / mode.n));
      const chunkOf = (offset: number) => Math.min(mode.n - 1, Math.floor(offset / size));
      if (mode.by === 'bytes') {
        for (let k = 0; k < mode.n; k++) out[k] = data.slice(Math.min(data.length, k * size), k === mode.n - 1 ? data.length : Math.min(data.length, (k + 1) * size));
        return out;
      }
      let offset = 0;
      for (const r of records(data, sep)) {
        out[chunkOf(offset)] += r;
        offset += r.length;
      }
      return out;
    }
  }
}

async function split(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const parsed = parse(args, ctx.env);
  if (!('plan' in parsed)) return parsed;
  const { plan, input, prefix } = parsed;
  const mode = plan.mode ?? { kind: 'lines', n: 1000 };
  const read = await readOperand(ctx, input);
  if ('error' in read) return { stdout: '', stderr: `split: cannot open '${input}' for reading: ${read.error}\n`, exitCode: 1 };
  const all = pieces(read.bytes, mode, plan.separator);
  if (mode.kind === 'chunks' && mode.only !== undefined) return { ...bytesOutput(unsafeBytesFromLatin1(all[mode.only - 1] ?? '')), stderr: '', exitCode: 0 };
  // With -n the suffixes are as long as the number of chunks needs (at least the default 2), and never widen.
  let length = plan.suffixLength;
  if (mode.kind === 'chunks' && length === undefined) {
    length = 2;
    while (plan.alphabet.length ** length < mode.n + plan.from) length++;
  }
  if (mode.kind === 'chunks' && length !== undefined && plan.alphabet.length ** length < mode.n + plan.from) {
    return { stdout: '', stderr: `split: the suffix length needs to be at least ${Math.ceil(Math.log(mode.n + plan.from) / Math.log(plan.alphabet.length))}\n`, exitCode: 1 };
  }
  let stdout = '';
  let written = 0;
  for (const piece of all) {
    if (piece === '' && (plan.elide || mode.kind !== 'chunks')) continue;
    const s = suffix(written, plan, length);
    if (s === undefined) return { stdout, stderr: 'split: output file suffixes exhausted\n', exitCode: 1 };
    const name = `${prefix}${s}${plan.additional}`;
    if (plan.verbose) stdout += `creating file '${name}'\n`;
    try {
      await ctx.fs.writeFile(ctx.fs.resolvePath(ctx.cwd, name), Buffer.from(piece, 'latin1'));
    } catch (err) {
      const why = (err as { code?: string }).code === 'EACCES' ? 'Permission denied' : (err as { code?: string }).code === 'ENOENT' ? 'No such file or directory' : (err as Error).message;
      return { stdout, stderr: `split: ${name}: ${why}\n`, exitCode: 1 };
    }
    written++;
  }
  return { stdout, stderr: '', exitCode: 0 };
}

/** GNU `split` over the sprite's files. */
export function splitCommand(): CustomCommand {
  return defineCommand('split', split);
}
