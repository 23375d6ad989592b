/**
 * `head` and `tail` as GNU coreutils runs them, on bytes: counts with GNU's suffixes (`1k`, `2M`, `10KB`),
 * `head -n -N`/`-c -N` (all but the last N), `tail -n +N`/`-c +N` (from the Nth), the obsolete `-N`, `-z`,
 * `==> name <==` headers (`-q`, `-v`) and GNU's `cannot open 'F' for reading` errors. `tail -f`/`-F` is left to
 * just-bash's own tail.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/head-invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { isStdinOperand, readOperand, stdinTaken, type InputCtx, type LeavesStdin } from './text-input.ts';
import { encodeCarried } from './utf8-carry.ts';
import { localeQuote } from './gnu-quote.ts';
import { OrderedOutput, type OrderedResult } from './output-order.ts';

/** GNU's size suffixes (xstrtoumax with "bkKmMGTPEZY0"): a letter's power of 1024, or of 1000 when `B`/`D` follows. */
const POWERS: Record<string, number> = { k: 1, K: 1, m: 2, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8 };
const UINTMAX = (1n << 64n) - 1n;

/**
 * A count as head and tail read it (string_to_integer: one leading `-` taken off first, then xdectoumax: blanks, an
 * optional `+`, decimal digits and a suffix), with its sign (`-N`, `+N`); `invalid` (and the text GNU names, without
 * the `-`) when it is not one, `tooLarge` past 2^64-1.
 */
function count(text: string): { n: number; sign: '' | '-' | '+' } | { bad: 'invalid' | 'tooLarge'; shown: string } {
  const sign = text.startsWith('-') ? '-' : /^\s*\+/.test(text) ? '+' : '';
  const shown = sign === '-' ? text.slice(1) : text;
  const m = /^[ \t\n\v\f\r]*\+?(\d+)(?:(b)|([kKmMGTPEZY])(iB|B|D)?)?$/.exec(shown);
  if (!m) return { bad: 'invalid', shown };
  const mult = m[2] ? 512n : m[3] ? (m[4] === 'B' || m[4] === 'D' ? 1000n : 1024n) ** BigInt(POWERS[m[3]]!) : 1n;
  const n = BigInt(m[1]!) * mult;
  if (n > UINTMAX) return { bad: 'tooLarge', shown };
  return { n: Number(n), sign };
}

interface Plan {
  lines: boolean;
  n: number;
  sign: '' | '-' | '+';
  quiet: boolean;
  verbose: boolean;
  zero: boolean;
  follow: boolean;
  names: string[];
}

function plan(cmd: 'head' | 'tail', args: string[], env: Map<string, string>): Plan | ExecResult {
  const p: Plan = { lines: true, n: 10, sign: '', quiet: false, verbose: false, zero: false, follow: false, names: [] };
  const set = (lines: boolean, v: string | undefined): ExecResult | undefined => {
    const c = count(v ?? '');
    if ('bad' in c) {
      const why = c.bad === 'tooLarge' ? ': Value too large for defined data type' : '';
      return { stdout: '', stderr: `${cmd}: invalid number of ${lines ? 'lines' : 'bytes'}: ${localeQuote(env, c.shown)}${why}\n`, exitCode: 1 };
    }
    Object.assign(p, { lines, n: c.n, sign: c.sign });
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      p.names.push(...args.slice(i + 1));
      break;
    }
    // GNU tail takes the obsolete `-N`/`+N` only as `tail -N [FILE]`; with more operands `+N` is a file name and a
    // `-N` digit is an option out of place (tail.c parse_obsolete_option, then getopt).
    const obsoleteShape = cmd === 'head' || args.length === 1 || (args.length === 2 && !(args[1]!.startsWith('-') && args[1]!.length > 1));
    if (cmd === 'tail' && !obsoleteShape && /^-\d/.test(a)) return { stdout: '', stderr: `tail: option used in invalid context -- ${a[1]}\n`, exitCode: 1 };
    if (i === 0 && /^-\d+[a-zA-Z]*$/.test(a)) {
      const r = set(!/c$/.test(a), a.slice(1).replace(/[lc]$/, ''));
      if (r) return r;
      continue;
    }
    if (cmd === 'tail' && i === 0 && obsoleteShape && /^\+\d+$/.test(a)) {
      set(true, a);
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const value = () => (eq < 0 ? args[++i] : a.slice(eq + 1));
      let r: ExecResult | undefined;
      if (name === '--lines' || name === '--bytes') r = set(name === '--lines', value());
      else if (name === '--quiet' || name === '--silent') p.quiet = true;
      else if (name === '--verbose') p.verbose = true;
      else if (name === '--zero-terminated') p.zero = true;
      else if (cmd === 'tail' && (name === '--follow' || name === '--retry' || name === '--pid' || name === '--sleep-interval')) p.follow = true;
      else return unsupported(cmd, a);
      if (r) return r;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'n' || c === 'c') {
          const r = set(c === 'n', j + 1 < a.length ? a.slice(j + 1) : args[++i]);
          if (r) return r;
          break;
        }
        if (c === 'q') p.quiet = true;
        else if (c === 'v') p.verbose = true;
        else if (c === 'z') p.zero = true;
        else if (cmd === 'tail' && (c === 'f' || c === 'F' || c === 's')) p.follow = true;
        else return unsupported(cmd, `-${c}`);
      }
      continue;
    }
    p.names.push(a);
  }
  return p;
}

/** The part of `s` that `head` (or `tail`) prints under `p`. */
function cut(cmd: 'head' | 'tail', s: string, p: Plan): string {
  const end = p.zero ? '\0' : '\n';
  if (!p.lines) {
    if (cmd === 'head') return p.sign === '-' ? s.slice(0, Math.max(0, s.length - p.n)) : s.slice(0, p.n);
    return p.sign === '+' ? s.slice(Math.max(0, p.n - 1)) : p.n === 0 ? '' : s.slice(-p.n);
  }
  // Line starts: each line is its text and its terminator (the last may lack one).
  const starts: number[] = [];
  for (let i = 0; i < s.length; i = s.indexOf(end, i) < 0 ? s.length : s.indexOf(end, i) + 1) starts.push(i);
  const at = (k: number) => (k >= starts.length ? s.length : starts[Math.max(0, k)]!);
  if (cmd === 'head') return p.sign === '-' ? s.slice(0, at(starts.length - p.n)) : s.slice(0, at(p.n));
  return p.sign === '+' ? s.slice(at(p.n - 1)) : p.n === 0 ? '' : s.slice(at(starts.length - p.n));
}

/**
 * `head` or `tail` over `args`. A `head` that printed the start of a pipe it reads says how many bytes it left there
 * (`stdinUnread`): the writer of a pipe left that full is stopped by SIGPIPE (patches/just-bash/pipeline-producer-sigpipe.mjs).
 * A `head` reading its stdin says how much of it it took (`internalStdinConsumed`, {@link headTaken}).
 */
async function headTail(cmd: 'head' | 'tail', args: string[], ctx: InputCtx & { env: Map<string, string>; origCommand?: (a: string[]) => Promise<ExecResult> }): Promise<OrderedResult & LeavesStdin> {
  const p = plan(cmd, args, ctx.env);
  if ('exitCode' in p) return p;
  if (p.follow) return ctx.origCommand!(args);
  const names = p.names.length === 0 ? ['-'] : p.names;
  const headers = p.verbose || (names.length > 1 && !p.quiet);
  // GNU head and tail report through error(), which flushes what they printed so far: program order.
  const text = new OrderedOutput();
  let first = true;
  // What `head` left unread of a pipe it reads (the pipeline gives its writer SIGPIPE past a pipe's worth).
  let stdinUnread = 0;
  // What `head` took of its stdin: the commands after it that share that stdin read on from there.
  let taken: number | undefined;
  for (const name of names) {
    // `head -c N` stops reading after N bytes, so it takes them from a device that never ends.
    const r = await readOperand(ctx, name, cmd === 'head' && !p.lines && p.sign === '' ? p.n : undefined);
    if ('error' in r && r.refused) return { stdout: text.stdout, stderr: `${text.stderr}${cmd}: ${r.error}; run spritzer with --exec sandbox\n`, exitCode: 2 };
    if ('error' in r) {
      text.err(r.error === 'Is a directory' ? `${cmd}: error reading '${name}': Is a directory\n` : `${cmd}: cannot open '${name}' for reading: ${r.error}\n`);
      continue;
    }
    if (headers) text.out(encodeCarried(`${first ? '' : '\n'}==> ${name === '-' ? 'standard input' : name} <==\n`));
    first = false;
    const part = cut(cmd, r.bytes, p);
    if (cmd === 'head' && p.sign === '' && isStdinOperand(name) && !r.regular) stdinUnread = r.bytes.length - part.length;
    if (cmd === 'head' && isStdinOperand(name)) taken = headTaken(r.bytes.length, part.length, p, r.regular);
    text.out(part);
  }
  const result = { ...bytesOutput(unsafeBytesFromLatin1(text.stdout)), stderr: text.stderr, exitCode: text.stderr ? 1 : 0, outputOrder: text.order('before-errors') };
  return { ...result, ...(stdinUnread > 0 ? { stdinUnread } : {}), ...(taken !== undefined ? { internalStdinConsumed: taken } : {}) };
}

/** GNU head's read buffer (BUFSIZ). */
const HEAD_READ_BYTES = 8192;

/**
 * How much of its stdin (`total` bytes) GNU head took, having printed its first `printed`: `-c N` reads exactly N
 * bytes; `-n N` reads blocks, and on a regular file seeks back to just after the lines it printed; `-n 0`/`-c 0`
 * read nothing; `-n -N`/`-c -N` read a pipe to its end, and leave a regular file just after what they printed.
 */
function headTaken(total: number, printed: number, p: Pick<Plan, 'lines' | 'sign' | 'n'>, regular: boolean): number {
  if (p.sign === '-') return regular ? printed : total;
  if (!p.lines) return Math.min(total, p.n);
  return p.n === 0 ? 0 : stdinTaken(total, printed, regular, HEAD_READ_BYTES);
}

/** `head` and `tail` for just-bash's `customCommands`. */
export function headTailCommands(): CustomCommand[] {
  return [defineCommand('head', (args, ctx) => headTail('head', args, ctx)), defineCommand('tail', (args, ctx) => headTail('tail', args, ctx))];
}
