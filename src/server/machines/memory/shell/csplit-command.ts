/**
 * GNU `csplit` (coreutils 9.1, the reference's) for the shell engine: FILE (`-` is stdin) cut into `xx00`, `xx01`, …
 * at PATTERNs: `N` (up to line N), `/RE/[OFFSET]` (up to a matching line), `%RE%[OFFSET]` (skip to it), each
 * optionally repeated by `{N}` or `{*}`; the size of each piece printed as it is closed. Options `-b`/`--suffix-format`,
 * `-f`/`--prefix`, `-k`/`--keep-files`, `-n`/`--digits`, `-s`/`-q`, `-z`/`--elide-empty-files`, `--suppress-matched`.
 * On an error the pieces made are removed (unless `-k`) and the status is 1.
 *
 * The walk is GNU's csplit.c: a regex is tried from the line after the last one it looked at (`current_line`), which
 * removing a line moves forward; a line looked for before the input buffer holding the first unread line is not
 * found. GNU reads its input 8191 bytes at a time, keeping a last partial line for the next read; the buffers are
 * laid out the same way here so that such look-backs end as GNU's do.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/csplit-invocation.html
 */
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { localeQuote } from './gnu-quote.ts';
import { compileGrep } from './grep-regex.ts';
import { errnoText, readOperand } from './text-input.ts';

const TRY = "Try 'csplit --help' for more information.\n";

/** One PATTERN with its repeat count (GNU's `struct control`). */
interface Control {
  argnum: number;
  regex?: RegExp;
  ignore: boolean;
  offset: number;
  lines: number;
  repeat: number;
  forever: boolean;
}

interface Options {
  prefix: string;
  suffix?: string;
  digits: number;
  keep: boolean;
  quiet: boolean;
  elide: boolean;
  suppressMatched: boolean;
}

/** A fatal error: its message is on stderr, the pieces are cleaned up, the status is 1. */
class Fatal extends Error {}

/** GNU's input buffers: the lines of each read of 8191 bytes (or more, when a line is longer), numbered from 1. */
function bufferStarts(data: string): { lines: string[]; starts: number[] } {
  const START = 8191;
  const INCR = 2048;
  const lines: string[] = [];
  const starts: number[] = [];
  let pos = 0;
  let hold = '';
  for (;;) {
    let alloc = START;
    if (alloc < hold.length) {
      const s = hold.length - alloc + INCR - 1;
      alloc += s - (s % INCR);
    }
    const read = data.slice(pos, pos + alloc - hold.length);
    pos += read.length;
    const eof = read.length === 0;
    let text = hold + read;
    hold = '';
    const found: string[] = [];
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      found.push(text.slice(0, nl + 1));
      text = text.slice(nl + 1);
    }
    if (text !== '') {
      if (eof) found.push(text);
      else hold = text;
    }
    if (found.length > 0) {
      starts.push(lines.length + 1);
      lines.push(...found);
    }
    if (eof) return { lines, starts };
  }
}

/** The `-b` format applied to `n`: one `%[#'0-][width][.prec](d|i|u|o|x|X)` conversion, `%%` for a percent sign. */
function suffixText(format: string, n: number): string {
  return format.replace(/%%|%([-0'#]*)(\d*)(?:\.(\d*))?([diuoxX])/g, (all, flags: string, width: string, prec: string | undefined, conv: string) => {
    if (all === '%%') return '%';
    let body = conv === 'o' ? n.toString(8) : conv === 'x' ? n.toString(16) : conv === 'X' ? n.toString(16).toUpperCase() : String(n);
    if (prec !== undefined) body = body.padStart(Number(prec || 0), '0');
    if (flags.includes('#') && n !== 0) body = conv === 'o' ? `0${body}` : conv === 'x' ? `0x${body}` : conv === 'X' ? `0X${body}` : body;
    const w = Number(width || 0);
    if (flags.includes('-')) return body.padEnd(w);
    return flags.includes('0') && prec === undefined ? body.padStart(w, '0') : body.padStart(w);
  });
}

/** GNU's check of a `-b` format: exactly one integer conversion. Returns its complaint, or undefined. */
function badSuffix(format: string): string | undefined {
  let seen = false;
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    if (format[++i] === '%') continue;
    if (seen) return 'too many % conversion specifications in suffix';
    seen = true;
    const m = /^([-0'#]*)\d*(?:\.\d*)?(.?)/.exec(format.slice(i))!;
    const conv = m[2]!;
    if (conv === '') return 'missing conversion specifier in suffix';
    if (!'diuoxX'.includes(conv)) return `invalid conversion specifier in suffix: ${conv}`;
    if (m[1]!.includes("'") && 'oxX'.includes(conv)) return `invalid flags in conversion specification: %'${conv}`;
    if (m[1]!.includes('#') && 'diu'.includes(conv)) return `invalid flags in conversion specification: %#${conv}`;
    i += m[0].length - 1;
  }
  return seen ? undefined : 'missing % conversion specification in suffix';
}

/** The PATTERN operands as GNU's parse_patterns reads them; throws Fatal with GNU's message. */
function parsePatterns(args: string[], start: number, env: Map<string, string>, err: (s: string) => void): Control[] {
  const controls: Control[] = [];
  let lastVal = 0;
  for (let i = start; i < args.length; i++) {
    const a = args[i]!;
    const p: Control = { argnum: i, ignore: false, offset: 0, lines: 0, repeat: 0, forever: false };
    if (a.startsWith('/') || a.startsWith('%')) {
      const close = a.lastIndexOf(a[0]!);
      if (close === 0) throw new Fatal(`csplit: ${a}: closing delimiter '${a[0]}' missing\n`);
      const compiled = compileGrep([a.slice(1, close)], 'basic', { ignoreCase: false, word: false, line: false });
      if ('error' in compiled) throw new Fatal(`csplit: ${localeQuote(env, a)}: invalid regular expression: ${compiled.error.replace(/^grep: /, '').replace(/\n$/, '')}\n`);
      p.regex = compiled.regex;
      p.ignore = a[0] === '%';
      const off = a.slice(close + 1);
      if (off !== '') {
        if (!/^[-+]?\d+$/.test(off)) throw new Fatal(`csplit: ${localeQuote(env, a)}: integer expected after delimiter\n`);
        p.offset = Number(off);
      }
    } else {
      if (!/^\+?\d+$/.test(a)) throw new Fatal(`csplit: ${localeQuote(env, a)}: invalid pattern\n`);
      const val = Number(a);
      if (val === 0) throw new Fatal(`csplit: ${a}: line number must be greater than zero\n`);
      if (val < lastVal) throw new Fatal(`csplit: line number ${localeQuote(env, a)} is smaller than preceding line number, ${lastVal}\n`);
      if (val === lastVal) err(`csplit: warning: line number ${localeQuote(env, a)} is the same as preceding line number\n`);
      lastVal = val;
      p.lines = val;
    }
    const r = args[i + 1];
    if (r !== undefined && r.startsWith('{')) {
      i++;
      if (!r.endsWith('}')) throw new Fatal(`csplit: ${localeQuote(env, r)}: '}' is required in repeat count\n`);
      const body = r.slice(1, -1);
      if (body === '*') p.forever = true;
      else if (/^\d+$/.test(body)) p.repeat = Number(body);
      else throw new Fatal(`csplit: ${localeQuote(env, r.slice(0, -1))}}: integer required between '{' and '}'\n`);
    }
    controls.push(p);
  }
  return controls;
}

/** Runs the split of `data` (a byte string) by `controls`: GNU's split_file over the sprite's files. */
async function splitFile(ctx: CommandContext, data: string, args: string[], controls: Control[], o: Options, out: { stdout: string; stderr: string }): Promise<number> {
  const env = ctx.env;
  const { lines, starts } = bufferStarts(data);
  let removed = 0; // lines removed from the input (the first available line is removed + 1)
  let currentLine = 0;
  let filesCreated = 0;
  let piece: { name: string; text: string } | undefined;
  const filename = (n: number) => o.prefix + (o.suffix !== undefined ? suffixText(o.suffix, n) : String(n).padStart(o.digits, '0'));
  const path = (name: string) => ctx.fs.resolvePath(ctx.cwd, name);
  /** GNU's head buffer: the one holding the first line not yet removed; undefined when all are. */
  const headStart = (): number | undefined => (removed >= lines.length ? undefined : starts.filter((s) => s <= removed + 1).pop());
  const findLine = (n: number): string | undefined => {
    const head = headStart();
    return head === undefined || n < head || n > lines.length ? undefined : lines[n - 1];
  };
  const removeLine = (): string | undefined => {
    if (removed >= lines.length) return undefined;
    currentLine = Math.max(currentLine, removed + 1);
    return lines[removed++];
  };
  const noMoreLines = () => findLine(currentLine + 1) === undefined;
  const create = async () => {
    const name = filename(filesCreated);
    try {
      await ctx.fs.writeFile(path(name), new Uint8Array(0));
    } catch (e) {
      throw new Fatal(`csplit: ${name}: ${errnoText(e)}\n`);
    }
    filesCreated++;
    piece = { name, text: '' };
  };
  const close = async () => {
    if (!piece) return;
    const { name, text } = piece;
    piece = undefined;
    if (text === '' && o.elide) {
      await ctx.fs.rm(path(name), { force: true });
      filesCreated--;
      return;
    }
    await ctx.fs.writeFile(path(name), Buffer.from(text, 'latin1'));
    if (!o.quiet) out.stdout += `${text.length}\n`;
  };
  const save = (line: string) => {
    piece!.text += line;
  };
  const dumpRest = () => {
    for (let l = removeLine(); l !== undefined; l = removeLine()) save(l);
  };
  const onRepetition = (rep: number) => (rep ? ` on repetition ${rep}\n` : '\n');
  const lineError = (p: Control, rep: number) => new Fatal(`csplit: ${localeQuote(env, String(p.lines))}: line number out of range${onRepetition(rep)}`);
  const matches = (p: Control, line: string) => {
    p.regex!.lastIndex = 0;
    return p.regex!.test(Buffer.from(line.endsWith('\n') ? line.slice(0, -1) : line, 'latin1').toString('utf8'));
  };

  /** Returns true when the split is over (a `{*}` regex ran out of input). */
  const processRegexp = async (p: Control, rep: number): Promise<boolean> => {
    if (!p.ignore) await create();
    for (;;) {
      const line = findLine(++currentLine);
      if (line === undefined) {
        if (p.forever) {
          if (!p.ignore) {
            dumpRest();
            await close();
          }
          return true;
        }
        out.stderr += `csplit: ${localeQuote(env, args[p.argnum]!)}: match not found${onRepetition(rep)}`;
        if (!p.ignore) {
          dumpRest();
          await close();
        }
        throw new Fatal('');
      }
      if (matches(p, line)) break;
      // With a negative offset the lines before the match may belong to the next piece: they stay buffered.
      if (p.offset >= 0) {
        const l = removeLine()!;
        if (!p.ignore) save(l);
      }
    }
    const breakLine = currentLine + p.offset;
    const first = removed + 1;
    const outOfRange = new Fatal(`csplit: ${localeQuote(env, args[p.argnum]!)}: line number out of range\n`);
    if (first > breakLine) throw outOfRange;
    for (let i = 0; i < breakLine - first; i++) {
      const l = removeLine();
      if (l === undefined) throw outOfRange;
      if (!p.ignore) save(l);
    }
    if (!p.ignore) await close();
    if (p.offset > 0) currentLine = breakLine;
    if (o.suppressMatched) removeLine();
    return false;
  };

  const processLineCount = async (p: Control, rep: number) => {
    const last = p.lines * (rep + 1);
    await create();
    if (noMoreLines() && o.suppressMatched) throw lineError(p, rep);
    if (removed === 0 && lines.length === 0) {
      // GNU's get_first_line_in_buffer on an empty input: it dies at once, leaving the piece it opened.
      piece = undefined;
      out.stderr += 'csplit: input disappeared\n';
      return 'died' as const;
    }
    for (let n = removed + 1; n < last; n++) {
      const l = removeLine();
      if (l === undefined) throw lineError(p, rep);
      save(l);
    }
    await close();
    if (o.suppressMatched) removeLine();
    if (noMoreLines() && !o.suppressMatched) throw lineError(p, rep);
    return undefined;
  };

  try {
    for (const p of controls) {
      for (let j = 0; p.forever || j <= p.repeat; j++) {
        if (p.regex) {
          if (await processRegexp(p, j)) return 0;
        } else if ((await processLineCount(p, j)) === 'died') return 1;
      }
    }
    await create();
    dumpRest();
    await close();
    return 0;
  } catch (e) {
    if (!(e instanceof Fatal)) throw e;
    out.stderr += e.message;
    await close();
    if (!o.keep) for (let i = 0; i < filesCreated; i++) await ctx.fs.rm(path(filename(i)), { force: true });
    return 1;
  }
}

async function csplit(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const o: Options = { prefix: 'xx', digits: 2, keep: false, quiet: false, elide: false, suppressMatched: false };
  const operands: string[] = [];
  const fail = (msg: string): ExecResult => ({ stdout: '', stderr: msg, exitCode: 1 });
  const LONG: Record<string, string> = { '--prefix': 'f', '--suffix-format': 'b', '--digits': 'n', '--keep-files': 'k', '--quiet': 's', '--silent': 's', '--elide-empty-files': 'z', '--suppress-matched': 'm' };
  // GNU getopt permutes: options may follow the operands, up to `--`. A word like `-2` is an option, not a pattern.
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    let opts: Array<[string, string | undefined]> = [];
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      const hits = Object.keys(LONG).filter((k) => k.startsWith(name));
      const full = LONG[name] !== undefined ? name : hits.length === 1 ? hits[0] : undefined;
      if (!full) return fail(`csplit: ${hits.length > 1 ? 'option' : 'unrecognized option'} '${a}'${hits.length > 1 ? ' is ambiguous' : ''}\n${TRY}`);
      const letter = LONG[full]!;
      if ('fbn'.includes(letter)) opts.push([letter, value ?? args[++i]]);
      else if (value !== undefined) return fail(`csplit: option '${full}' doesn't allow an argument\n${TRY}`);
      else opts.push([letter, undefined]);
      if ('fbn'.includes(letter) && opts[0]![1] === undefined) return fail(`csplit: option '${full}' requires an argument\n${TRY}`);
    } else {
      opts = [];
      for (let k = 1; k < a.length; k++) {
        const c = a[k]!;
        if ('fbn'.includes(c)) {
          const v = k + 1 < a.length ? a.slice(k + 1) : args[++i];
          if (v === undefined) return fail(`csplit: option requires an argument -- '${c}'\n${TRY}`);
          opts.push([c, v]);
          break;
        }
        if (!'kszq'.includes(c)) return fail(`csplit: invalid option -- '${c}'\n${TRY}`);
        opts.push([c, undefined]);
      }
    }
    for (const [c, v] of opts) {
      if (c === 'f') o.prefix = v!;
      else if (c === 'b') o.suffix = v!;
      else if (c === 'n') {
        if (!/^\s*[-+]?\d+$/.test(v!) || Number(v) < 0) return fail(`csplit: invalid number: ${localeQuote(ctx.env, v!)}\n`);
        o.digits = Number(v);
      } else if (c === 'k') o.keep = true;
      else if (c === 's' || c === 'q') o.quiet = true;
      else if (c === 'z') o.elide = true;
      else if (c === 'm') o.suppressMatched = true;
    }
  }
  if (operands.length < 2) {
    const why = operands.length === 0 ? 'missing operand' : `missing operand after ${localeQuote(ctx.env, operands[0]!)}`;
    return fail(`csplit: ${why}\n${TRY}`);
  }
  if (o.suffix !== undefined) {
    const bad = badSuffix(o.suffix);
    if (bad) return fail(`csplit: ${bad}\n`);
  }
  const input = await readOperand(ctx, operands[0]!);
  if ('error' in input) return fail(`csplit: cannot open '${operands[0]}' for reading: ${input.error}\n`);
  const out = { stdout: '', stderr: '' };
  let controls: Control[];
  try {
    controls = parsePatterns(operands, 1, ctx.env, (s) => (out.stderr += s));
  } catch (e) {
    if (e instanceof Fatal) return fail(out.stderr + e.message);
    throw e;
  }
  const exitCode = await splitFile(ctx, input.bytes, operands, controls, o, out);
  return { stdout: out.stdout, stderr: out.stderr, exitCode };
}

/** GNU `csplit` over the sprite's files. */
export function csplitCommand(): CustomCommand {
  return defineCommand('csplit', csplit);
}
