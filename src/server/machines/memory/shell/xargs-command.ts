/**
 * `xargs` as GNU findutils runs it: input split on blanks and newlines with quotes and backslashes (or on `-0`,
 * `-d`), bundled into commands by `-n`, `-L`, `-s` (or one per line with `-I`/`-i`, its string replaced in the
 * arguments), `-E` logical EOF, `-r`, `-t`, `-a FILE`, `-P` (run one after the other: the outputs are the same),
 * `-t`'s trace quoted as GNU's (shell-escape), `-p` failing as GNU's does without a terminal, the command run once
 * with no input unless `-r`, and GNU's statuses: 123 when a command exits 1–125, 124 at a
 * 255 (which stops it), 127 for a command not found.
 * @see https://www.gnu.org/software/findutils/manual/html_node/find_html/Invoking-xargs.html
 */
import { EXEC_ERRNO_TEXT, execFailure, notOnPath } from './exec-failure.ts';
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { unsupported } from './gnu-commands.ts';
import { quoteName } from './ls-quote.ts';
import { leadingOptions, readOperand } from './text-input.ts';
import { CLOSED_STDIN_READ, stdinIsClosed } from './closed-stdin.ts';
import { OrderedOutput, replayOutput, type OrderedResult } from './output-order.ts';
import { programArgv } from './program-path.ts';

interface Options {
  delimiter: string | undefined;
  maxArgs: number | undefined;
  maxLines: number | undefined;
  replace: string | undefined;
  eof: string | undefined;
  noEmpty: boolean;
  trace: boolean;
  /** `-p`: ask on the terminal before each command. */
  prompt: boolean;
  argFile: string | undefined;
  maxChars: number;
  /** GNU's warnings on options that exclude each other, printed before anything runs. */
  warnings: string[];
}

const TRY = "Try 'xargs --help' for more information.\n";
const fail = (text: string, code = 1): ExecResult => ({ stdout: '', stderr: `xargs: ${text}\n`, exitCode: code });

/** The items of `text` as GNU splits them by default: blanks and newlines, quotes, backslashes; lines kept for -L. */
function split(text: string, eof: string | undefined): { lines: string[][]; error?: string } {
  const lines: string[][] = [];
  let line: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === ' ' || c === '\t') {
      if (inWord) {
        if (word === eof) return { lines: [...lines, ...(line.length ? [line] : [])] };
        line.push(word);
      }
      word = '';
      inWord = false;
      // A line that ends in a blank goes on to the next (-L's rule).
      if (c === '\n' && line.length > 0 && !(text[i - 1] === ' ' || text[i - 1] === '\t')) {
        lines.push(line);
        line = [];
      }
      continue;
    }
    inWord = true;
    if (c === '\\') word += text[++i] ?? '';
    else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const nl = text.indexOf('\n', i + 1);
      if (end < 0 || (nl >= 0 && nl < end)) {
        const kind = c === "'" ? 'single' : 'double';
        return { lines: [...lines, ...(line.length ? [line] : [])], error: `unmatched ${kind} quote; by default quotes are special to xargs unless you use the -0 option` };
      }
      word += text.slice(i + 1, end);
      i = end;
    } else word += c;
  }
  if (inWord && word !== eof) line.push(word);
  if (line.length > 0) lines.push(line);
  return { lines };
}

function parse(args: string[]): { o: Options; command: string[] } | ExecResult {
  const o: Options = { delimiter: undefined, maxArgs: undefined, maxLines: undefined, replace: undefined, eof: undefined, noEmpty: false, trace: false, prompt: false, argFile: undefined, maxChars: 128 * 1024, warnings: [] };
  const count = (v: string | undefined, opt: string, min = 1): number | ExecResult => {
    const n = Number(v);
    if (v === undefined || !/^\d+$/.test(v)) return fail(`invalid number "${v ?? ''}" for -${opt} option\n${TRY}`);
    if (n < min) return fail(`value ${v} for -${opt} option should be >= ${min}\n${TRY}`);
    return n;
  };
  // -n, -L and -I/-i exclude each other: the later one wins with GNU's warning (findutils xargs.c), except that -n
  // after -I leaves -I in force, silently.
  const exclude = (previous: string, option: string) => o.warnings.push(`xargs: warning: options ${previous} and ${option} are mutually exclusive, ignoring previous ${previous} value\n`);
  const handle = (a: string, next: () => string | undefined): ExecResult | undefined => {
    const long = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    const key = long ? long[1]! : a[1]!;
    const attached = long ? long[2] : a.length > 2 ? a.slice(2) : undefined;
    const value = () => attached ?? next();
    let n: number | ExecResult;
    switch (key) {
      case '0': case 'null':
        o.delimiter = '\0';
        break;
      case 'd': case 'delimiter': {
        const v = value() ?? '';
        o.delimiter = v.replace(/^\\n$/, '\n').replace(/^\\t$/, '\t').replace(/^\\0$/, '\0');
        break;
      }
      case 'n': case 'max-args':
        if (typeof (n = count(value(), 'n')) !== 'number') return n;
        o.maxArgs = n;
        if (o.maxLines !== undefined) exclude('--max-lines', '--max-args/-n'), (o.maxLines = undefined);
        break;
      case 'L': case 'max-lines':
        if (typeof (n = count(value(), 'L')) !== 'number') return n;
        o.maxLines = n;
        if (o.maxArgs !== undefined) exclude('--max-args', '-L'), (o.maxArgs = undefined);
        if (o.replace !== undefined) exclude('--replace', '-L'), (o.replace = undefined);
        break;
      case 's': case 'max-chars':
        if (typeof (n = count(value(), 's')) !== 'number') return n;
        o.maxChars = n;
        break;
      case 'P': case 'max-procs':
        if (typeof (n = count(value(), 'P', 0)) !== 'number') return n;
        break;
      case 'I': case 'replace': case 'i':
        o.replace = key === 'I' ? value() : (attached ?? '{}');
        if (o.maxArgs !== undefined) exclude('--max-args', '--replace/-I/-i'), (o.maxArgs = undefined);
        if (o.maxLines !== undefined) exclude('--max-lines', '--replace/-I/-i'), (o.maxLines = undefined);
        break;
      case 'E': case 'eof':
        o.eof = value();
        break;
      case 'e':
        o.eof = attached;
        break;
      case 'a': case 'arg-file':
        o.argFile = value();
        break;
      case 'r': case 'no-run-if-empty':
        o.noEmpty = true;
        break;
      case 't': case 'verbose':
        o.trace = true;
        break;
      case 'p': case 'interactive':
        o.prompt = true;
        break;
      case 'x': case 'exit':
        break;
      default:
        return unsupported('xargs', a);
    }
    // A flag without a value bundled with more letters (`-0n1`, `-rt`): the rest is the next option word.
    return !long && attached !== undefined && '0rtx'.includes(key) ? handle(`-${attached}`, next) : undefined;
  };
  const walked = leadingOptions(args, handle);
  if ('failed' in walked) return walked.failed;
  const i = walked.index;
  const command = args.slice(i);
  return { o, command: command.length > 0 ? command : ['echo'] };
}

/** A child's stdout as bytes (latin1), whichever form it came in. */
const stdoutBytes = (r: ExecResult): string => (r.stdoutKind === 'bytes' || r.stdoutEncoding === 'binary' ? r.stdout : Buffer.from(r.stdout, 'utf8').toString('latin1'));

async function xargs(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const parsed = parse(args);
  if ('exitCode' in parsed) return parsed;
  const { o, command } = parsed;
  let input: string;
  if (o.argFile !== undefined) {
    const read = await readOperand(ctx, o.argFile);
    if ('error' in read) return fail(`${o.argFile}: ${read.error}`);
    input = read.bytes;
  } else input = stdinIsClosed(ctx) ? '' : latin1FromBytes(ctx.stdin);
  input = Buffer.from(input, 'latin1').toString('utf8');
  let lines: string[][];
  let error: string | undefined;
  if (o.replace !== undefined) {
    // -I: each line is one argument, its leading blanks dropped; with -0 or -d each delimited item, as it is.
    const items = input.split(o.delimiter ?? '\n');
    if (items[items.length - 1] === '') items.pop();
    const kept: string[] = [];
    for (const item of o.delimiter === undefined ? items.map((l) => l.replace(/^[ \t]+/, '')) : items) {
      if (item === o.eof) break;
      if (item !== '') kept.push(item);
    }
    lines = kept.map((l) => [l]);
  } else if (o.delimiter !== undefined) {
    const items = input.split(o.delimiter);
    if (items[items.length - 1] === '') items.pop();
    lines = items.map((l) => [l]);
  } else ({ lines, error } = split(input, o.eof));

  // The commands to run: argument lists as -I, -L, -n and -s bundle them.
  const runs: string[][] = [];
  if (o.replace !== undefined) {
    const r = o.replace;
    for (const [item] of lines) runs.push(command.map((w) => w.split(r).join(item!)));
  } else {
    const base = command.reduce((n, w) => n + w.length + 1, 0);
    let current: string[] = [];
    let size = base;
    let lineCount = 0;
    const flush = () => {
      runs.push([...command, ...current]);
      current = [];
      size = base;
      lineCount = 0;
    };
    for (const line of lines) {
      for (const item of line) {
        if (current.length > 0 && (size + item.length + 1 > o.maxChars || (o.maxArgs !== undefined && current.length >= o.maxArgs))) flush();
        current.push(item);
        size += item.length + 1;
      }
      lineCount++;
      if (o.maxLines !== undefined && lineCount >= o.maxLines) flush();
    }
    if (current.length > 0) flush();
    if (runs.length === 0 && !o.noEmpty && error === undefined) runs.push([...command]);
  }

  // Each child's output in the order it wrote it, then the next child's; xargs's own messages (error()) after them.
  const text = new OrderedOutput();
  for (const w of o.warnings) text.err(w);
  let status = 0;
  const done = (more: string, exitCode: number): OrderedResult => {
    text.err(more);
    return { ...bytesOutput(unsafeBytesFromLatin1(text.stdout)), stderr: text.stderr, exitCode, outputOrder: text.order('before-errors') };
  };
  for (const argv of runs) {
    // GNU's trace quotes each argument as the shell would read it back (shell-escape, as `ls` does).
    const shown = argv.map((a) => quoteName(a, 'shell-escape')).join(' ');
    if (o.prompt) {
      // GNU prints the command, then opens /dev/tty to read the answer: without a terminal that fails (status 1).
      text.err(shown);
      const tty = await ctx.fs.readFile('/dev/tty').then(() => null, (err: unknown) => err as { code?: string });
      if (tty?.code === 'ENXIO') return done('xargs: failed to open /dev/tty for reading: No such device or address\n', 1);
      return unsupported('xargs', '-p');
    }
    if (o.trace) text.err(`${shown}\n`);
    if (await notOnPath(ctx.fs, ctx.cwd, argv[0]!, ctx.env.get('PATH'))) return done(`xargs: ${argv[0]}: ${EXEC_ERRNO_TEXT.ENOENT}\n`, 127);
    const r: OrderedResult = await ctx.exec!((await programArgv(ctx, argv)).map(shellQuote).join(' '), { cwd: ctx.cwd });
    // Only the lookup of the program itself is xargs's execvp failure; a program that ran and exited 127 (a `bash -c`
    // whose own command was not found) is one more failed invocation.
    const errno = execFailure(r, argv[0]!);
    if (errno) return done(`xargs: ${argv[0]}: ${EXEC_ERRNO_TEXT[errno]}\n`, errno === 'ENOENT' ? 127 : 126);
    const out = stdoutBytes(r);
    // A text result re-encoded as bytes has other lengths than its order counts: stdout first then.
    replayOutput(text, out, r.stderr, out.length === r.stdout.length ? r.outputOrder : undefined);
    if (r.exitCode === 255) return done(`xargs: ${argv[0]}: exited with status 255; aborting\n`, 124);
    if (r.exitCode >= 128) return done(`xargs: ${argv[0]}: terminated by signal ${r.exitCode - 128}\n`, 125);
    if (r.exitCode !== 0) status = 123;
  }
  // A closed stdin reads as empty input; closing it at exit fails, and xargs exits 1 whatever its commands did.
  if (o.argFile === undefined && stdinIsClosed(ctx)) return done(CLOSED_STDIN_READ.xargs.stderr, CLOSED_STDIN_READ.xargs.exitCode);
  return error !== undefined ? done(`xargs: ${error}\n`, 1) : done('', status);
}

/** `xargs` for just-bash's `customCommands`. */
export function xargsCommands(): CustomCommand[] {
  return [defineCommand('xargs', (args, ctx) => xargs(args, ctx))];
}
