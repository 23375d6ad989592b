/**
 * `grep` as GNU grep 3 runs it, in place of just-bash's: the patterns (grep-regex.ts) over each file's lines as
 * bytes, with GNU's output forms (`-o -b -n -H -T -Z`, context and `--` separators, `-c -l -L -q -m`,
 * `--color=always`), binary files (a NUL byte: `grep: F: binary file matches` on stderr; `-a`, `-I`, `-z`), stdin
 * as `(standard input)` or `--label`, the `-r`/`-R` walk (symlinks followed on the command line, and in the walk
 * with `-R`; `--include`/`--exclude`/`--exclude-from`/`--exclude-dir` on base names; names shown for files found in directories)
 * and exit statuses 0 (a line selected), 1 (none), 2 (trouble, unless `-q` selected a line).
 * @deviation `-r` visits a directory's entries in name order; GNU takes the filesystem's readdir order, which
 * differs between filesystems.
 * @see https://www.gnu.org/software/grep/manual/grep.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { nameGlob } from '../../../core/name-glob.ts';
import { parseGrep, type GrepOptions } from './grep-options.ts';
import { compileGrep, matchStart } from './grep-regex.ts';
import { matchAllLongest } from './posix-match.ts';
import { CARRIED, decodeCarrying, encodeCarried } from './utf8-carry.ts';
import { errnoText, readOperand, isStdinOperand, stdinTaken, type InputCtx, type LeavesStdin } from './text-input.ts';
import { orderOf, type OrderedResult } from './output-order.ts';

/** An input to search: its bytes (latin1 string), the name grep prints, whether that name is printed. */
interface Input {
  bytes: string;
  name: string;
  showName: boolean;
  /** The width of -T's number columns: the digits of the file's size (19 for a pipe, as GNU's largest offset). */
  width: number;
}

const SGR = { match: '\x1b[01;31m\x1b[K', name: '\x1b[35m\x1b[K', num: '\x1b[32m\x1b[K', sep: '\x1b[36m\x1b[K', end: '\x1b[m\x1b[K' };
const STRICT = new TextDecoder('utf-8', { fatal: true });

/** `line` (bytes) as text, and whether it was valid UTF-8 (else each stray byte carried: utf8-carry.ts). */
function decode(line: string): { text: string; valid: boolean } {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(line)) return { text: line, valid: true };
  const buf = Buffer.from(line, 'latin1');
  try {
    return { text: STRICT.decode(buf), valid: true };
  } catch {
    return { text: decodeCarrying(line), valid: false };
  }
}

const utf8Bytes = encodeCarried;

/** The state of one grep run over all its inputs. */
class Search {
  out = '';
  err = '';
  /** For each message, the stdout length when it was written and its length (GNU grep's error() flushes first). */
  readonly marks: Array<[number, number]> = [];
  selected = false;
  trouble = false;
  /** Whether any line was printed yet (a context group separator goes between groups, across files too). */
  printed = false;
  done = false;
  /** Where grep stopped reading the last input it left early (-q, -l or -m): the byte after the last line it took. */
  stoppedAt: number | undefined;
  /** Where the line that reached -m's count ends, in the last input that had one. */
  maxedAt: number | undefined;

  constructor(
    readonly o: GrepOptions,
    readonly regex: RegExp | undefined,
  ) {}

  private paint(text: string, sgr: string): string {
    return this.o.color && text !== '' ? `${sgr}${text}${SGR.end}` : text;
  }

  private sep(c: string): string {
    return this.paint(c, SGR.sep);
  }

  /** The prefix of an output line: name, line number, byte offset, as GNU's print_line_head. */
  private head(input: Input, sep: string, lineNo: number, offset: number, empty: boolean): string {
    let h = '';
    if (input.showName) h += this.paint(utf8Bytes(input.name), SGR.name) + (this.o.nullName ? '\0' : this.sep(sep));
    const width = this.o.initialTab ? input.width : 0;
    if (this.o.lineNumber) h += this.paint(String(lineNo).padStart(width), SGR.num) + this.sep(sep);
    if (this.o.byteOffset) h += this.paint(String(offset).padStart(width), SGR.num) + this.sep(sep);
    if (this.o.initialTab && h !== '' && !empty) h += '\t';
    return h;
  }

  /** The non-empty matches in `text`: [start, end) in UTF-16 units. */
  private matches(text: string): Array<[number, number]> {
    const re = this.regex;
    if (!re) return [];
    const found: Array<[number, number]> = [];
    // POSIX patterns match leftmost-longest (several patterns too: the longest of those starting leftmost); Perl's
    // take the first alternative that matches.
    if (this.o.syntax !== 'perl') {
      for (const m of matchAllLongest(re, text)) if (m[0] !== '') found.push([m.index, m.index + m[0].length]);
      return found;
    }
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const end = m.index + m[0].length;
      re.lastIndex = m[0] === '' ? m.index + 1 : end;
      const start = matchStart(m);
      if (start < end) found.push([start, end]);
    }
    return found;
  }

  private isMatch(text: string): boolean {
    const re = this.regex;
    if (!re) return false;
    re.lastIndex = 0;
    return re.test(text);
  }

  /** Searches one input; returns nothing, records output, status and trouble on `this`. */
  file(input: Input): void {
    const o = this.o;
    const eol = o.nullData ? '\0' : '\n';
    const binary = !o.nullData && input.bytes.includes('\0');
    // GNU's -I reads a binary file as one with no matching line: -c still prints its 0, -L still lists it.
    const skipped = binary && o.binary === 'without-match';
    // In a binary file GNU takes each NUL for a line end too (its manual: "grep may treat non-text bytes as line
    // terminators"): `grep -c ''` counts the pieces between NULs and newlines.
    const data = binary && o.binary === 'binary' ? input.bytes.replace(/\0/g, '\n') : input.bytes;
    const body = data.endsWith(eol) ? data.slice(0, -1) : data;
    const lines = data === '' || skipped ? [] : body.split(eol);
    const listing = o.list !== undefined || o.count || o.quiet;
    const limit = o.max ?? Infinity;
    let count = 0;
    let offset = 0;
    let lastPrinted = -1;
    let trailing = 0;
    let suppressed = false;
    const emit = (i: number, sep: string, start: number) => {
      if (o.contextGiven && o.groupSeparator !== undefined && this.printed && lastPrinted !== i - 1 && !o.only) this.out += `${this.sep(o.groupSeparator)}\n`;
      const line = lines[i]!;
      this.out += this.head(input, sep, i + 1, start, line === '') + line + eol;
      this.printed = true;
      lastPrinted = i;
    };
    const starts: number[] = [];
    for (const line of lines) {
      starts.push(offset);
      offset += line.length + 1;
    }
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const { text, valid } = decode(line);
      if (count >= limit) {
        // After -m's last line, GNU still prints the trailing context.
        if (trailing-- > 0 && !listing && !o.only) emit(i, '-', starts[i]!);
        else {
          this.stoppedAt = starts[i]!;
          break;
        }
        continue;
      }
      const hit = this.isMatch(text) !== o.invert;
      if (!hit) {
        if (trailing > 0 && !listing && !o.only) {
          emit(i, '-', starts[i]!);
          trailing--;
        }
        continue;
      }
      count++;
      if (count === limit) this.maxedAt = starts[i]! + line.length + 1;
      this.selected = true;
      if (o.quiet) {
        this.done = true;
        this.stoppedAt = starts[i]! + line.length + 1;
        return;
      }
      if (listing) {
        if (o.list !== undefined) {
          this.stoppedAt = starts[i]! + line.length + 1;
          break;
        }
        continue;
      }
      if (binary && o.binary === 'binary') {
        this.say(`grep: ${input.name}: binary file matches\n`);
        return;
      }
      if (o.only) {
        if (o.invert) continue;
        for (const [a, b] of this.matches(text)) {
          const piece = utf8Bytes(text.slice(a, b));
          if (!valid && CARRIED.test(text.slice(a, b)) && o.binary !== 'text') {
            suppressed = true;
            continue;
          }
          this.out += this.head(input, ':', i + 1, starts[i]! + utf8Bytes(text.slice(0, a)).length, false) + piece + eol;
        }
        continue;
      }
      if (!valid && o.binary !== 'text') {
        // A line that is not text in the locale is never printed; GNU says the file matches instead.
        suppressed = true;
        continue;
      }
      for (let k = Math.max(lastPrinted + 1, i - o.before); k < i; k++) emit(k, '-', starts[k]!);
      if (o.color && !o.invert) {
        const saved = lines[i]!;
        let painted = '';
        let at = 0;
        for (const [a, b] of this.matches(text)) {
          painted += utf8Bytes(text.slice(at, a)) + this.paint(utf8Bytes(text.slice(a, b)), SGR.match);
          at = b;
        }
        lines[i] = painted + utf8Bytes(text.slice(at));
        emit(i, ':', starts[i]!);
        lines[i] = saved;
      } else emit(i, ':', starts[i]!);
      trailing = o.after;
    }
    const name = this.paint(utf8Bytes(input.name), SGR.name);
    // -l and -L list names only: GNU grep turns -c off with them
    if (o.count && !o.list) this.out += `${input.showName ? name + (o.nullName ? '\0' : this.sep(':')) : ''}${count}\n`;
    if ((o.list === 'matching' && count > 0) || (o.list === 'missing' && count === 0)) this.out += name + (o.nullName ? '\0' : '\n');
    if (suppressed) this.say(`grep: ${input.name}: binary file matches\n`);
  }

  fail(text: string): void {
    this.trouble = true;
    if (!this.o.noMessages) this.say(`grep: ${text}\n`);
  }

  /** Writes a message to stderr after the lines printed so far. */
  private say(text: string): void {
    this.marks.push([this.out.length, text.length]);
    this.err += text;
  }
}

const digits = (n: number) => String(n).length;

/** Searches `abs` (shown as `shown`) and, when it is a directory, what is below it, as `grep -r` walks. */
async function visit(fs: IFileSystem, s: Search, abs: string, shown: string, names: boolean | 'below', top: boolean): Promise<void> {
  if (s.done) return;
  const o = s.o;
  const base = shown.replace(/\/+$/, '').split('/').pop() ?? shown;
  const lst = await fs.lstat(abs).catch(() => null);
  if (!lst) return s.fail(`${shown}: No such file or directory`);
  // -r follows only the command line's symlinks; -R all of them.
  if (lst.isSymbolicLink && !top && !o.dereference) return;
  let st;
  try {
    st = await fs.stat(abs);
  } catch (err) {
    if (!top) return;
    return s.fail(`${shown}: ${errnoText(err)}`);
  }
  if (st.isDirectory) {
    if (o.directories === 'skip') return;
    if (o.directories === 'read') return s.fail(`${shown}: Is a directory`);
    // --exclude-dir skips a directory found below by its base name, and a command-line one (not the implicit `.` of
    // a bare -r) when the glob matches the operand or any part of it after a `/` (`.*` skips `.`, `lib` `src/lib`).
    const excluded = (name: string) => o.excludeDir.some((g) => nameGlob(g)(name));
    if (top ? shown !== '' && shown.split('/').some((_, i, parts) => excluded(parts.slice(i).join('/'))) : excluded(base)) return;
    let entries: string[];
    try {
      entries = (await fs.readdir(abs)).sort();
    } catch (err) {
      return s.fail(`${shown}: ${errnoText(err)}`);
    }
    for (const e of entries) {
      const childShown = shown === '' ? e : `${shown.replace(/\/+$/, '')}/${e}`;
      await visit(fs, s, `${abs === '/' ? '' : abs}/${e}`, childShown, names === 'below' ? true : names, false);
    }
    return;
  }
  if ((o.include.length > 0 && !o.include.some((g) => nameGlob(g)(base))) || o.exclude.some((g) => nameGlob(g)(base))) return;
  let bytes: string;
  try {
    bytes = Buffer.from(await fs.readFileBuffer(abs)).toString('latin1');
  } catch (err) {
    return s.fail(`${shown}: ${errnoText(err)}`);
  }
  s.file({ bytes, name: shown, showName: names === true, width: digits(bytes.length) });
}

async function grep(args: string[], ctx: InputCtx): Promise<OrderedResult & LeavesStdin> {
  const parsed = parseGrep(args);
  if ('exitCode' in parsed) return parsed;
  const { o, operands } = parsed;
  // Each line of an --exclude-from file is one more --exclude glob, as it is written (empty lines skipped).
  for (const file of o.excludeFrom) {
    const read = await readOperand(ctx, file);
    if ('error' in read) return { stdout: '', stderr: `grep: ${file}: ${read.error}\n`, exitCode: 2 };
    o.exclude.push(...decode(read.bytes).text.split('\n').filter((line) => line !== ''));
  }
  const patterns: string[] = [];
  if (o.sources.length === 0) {
    const first = operands.shift();
    if (first === undefined) return { stdout: '', stderr: "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n", exitCode: 2 };
    patterns.push(...first.split('\n'));
  }
  for (const source of o.sources) {
    if ('pattern' in source) {
      patterns.push(...source.pattern.split('\n'));
      continue;
    }
    const read = await readOperand(ctx, source.file);
    if ('error' in read) return { stdout: '', stderr: `grep: ${source.file}: ${read.error}\n`, exitCode: 2 };
    const text = decode(read.bytes).text;
    if (text !== '') patterns.push(...(text.endsWith('\n') ? text.slice(0, -1) : text).split('\n'));
  }
  let regex: RegExp | undefined;
  let stderr = '';
  if (patterns.length > 0) {
    const compiled = compileGrep(patterns, o.syntax, o);
    if ('error' in compiled) return { stdout: '', stderr: `${compiled.error}\n`, exitCode: 2 };
    regex = compiled.regex;
    stderr = compiled.warnings.map((w) => `${w}\n`).join('');
  }
  const s = new Search(o, regex);
  const recursive = o.directories === 'recurse';
  const files = operands.length > 0 ? operands : [recursive ? '' : '-'];
  // GNU names files when there are several operands; with -r and one operand, only the files found below it.
  const names: boolean | 'below' = o.names ?? (files.length > 1 ? true : recursive ? 'below' : false);
  if (o.max === 0) return { stdout: '', stderr, exitCode: 1 };
  let stdinUnread = 0;
  // What grep took of its stdin when it stopped early (else all of it): the commands sharing that stdin read on.
  let taken: number | undefined;
  for (const f of files) {
    if (s.done) break;
    // `/dev/stdin` and `/dev/fd/0` open the stdin too, under their own name.
    if (f === '-' || isStdinOperand(f, false) || (f === '' && !recursive)) {
      const input = await readOperand(ctx, '-');
      const name = f === '-' || f === '' ? o.label : f;
      if (!('error' in input)) {
        s.stoppedAt = undefined;
        s.maxedAt = undefined;
        s.file({ bytes: input.bytes, name, showName: names === true, width: 19 });
        // A pipe grep stops reading early: what it left beyond its read buffer stays unread (its writer's SIGPIPE).
        if (s.stoppedAt !== undefined && !input.regular) stdinUnread = Math.max(0, input.bytes.length - s.stoppedAt - GREP_READ_BYTES);
        // GNU grep leaves a regular file's offset just after the last line -m selected (whatever context it printed
        // after it); -q and -l, and -m on a pipe, lose the buffers they read.
        if (input.regular && s.maxedAt !== undefined) taken = Math.min(s.maxedAt, input.bytes.length);
        else if (s.stoppedAt !== undefined) taken = stdinTaken(input.bytes.length, s.stoppedAt, false, GREP_READ_BYTES);
      } else s.fail(`${name}: ${input.error}`);
      continue;
    }
    await visit(ctx.fs, s, ctx.fs.resolvePath(ctx.cwd, f === '' ? '.' : f), f, names, true);
  }
  const status = s.selected && (!s.trouble || o.quiet) ? 0 : s.trouble ? 2 : 1;
  const marks: Array<[number, number]> = stderr ? [[0, stderr.length], ...s.marks] : s.marks;
  const result = { ...bytesOutput(unsafeBytesFromLatin1(s.out)), stderr: stderr + s.err, exitCode: status, outputOrder: orderOf(marks, 'before-errors') };
  return { ...result, ...(stdinUnread > 0 ? { stdinUnread } : {}), ...(taken !== undefined ? { internalStdinConsumed: taken } : {}) };
}

/** What GNU grep may have read past the line it stopped on: its buffer (32 KiB, grown to whole pages; 96 KiB allowed). */
const GREP_READ_BYTES = 96 * 1024;

/** `grep` for just-bash's `customCommands` (`egrep`/`fgrep` keep just-bash's own). */
export function grepCommands(): CustomCommand[] {
  return [defineCommand('grep', (args, ctx) => grep(args, ctx))];
}
