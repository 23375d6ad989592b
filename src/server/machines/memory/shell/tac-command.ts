/**
 * `tac` as GNU coreutils runs it: each file (or stdin) written record by record from its last, where a record ends
 * with the separator (`-s STRING`, a newline by default) or, with `-b`, starts with it; with `-r` the separator is a
 * regular expression in GNU regex's default (Emacs) syntax, where `+`, `?` are operators, `\(`, `\)`, `\|` group and
 * alternate, and `\+`, `{` are plain characters. A last record without its separator is written as it is, so
 * `printf 'a\nb' | tac` prints `ba\n`. Messages as GNU's: `tac: failed to open 'F' for reading: …`, a closed stdin's
 * EBADF (closed-stdin.ts), `tac: separator cannot be empty` for an empty `-r` separator; status 1 after any.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/tac-invocation.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { compileGrep } from './grep-regex.ts';
import { execLongest } from './posix-match.ts';
import { errnoText, isStdinOperand, walkArgs } from './text-input.ts';
import { fileReaderOnClosedStdin, stdinIsClosed } from './closed-stdin.ts';
import { errorsFirst } from './output-order.ts';

/** Finds the separator that ends at or before `end` and starts last: its start and length, or null. */
type Finder = (text: string, end: number) => { at: number; length: number } | null;

/**
 * A pattern in GNU regex's default syntax (RE_SYNTAX_EMACS, which tac's re_compile_pattern uses) rewritten as a
 * GNU BRE: `+`/`?` become `\+`/`\?` and `\+`, `\?`, `\{`, `\}` their plain characters; bracket expressions stay.
 */
export function emacsToBasic(p: string): string {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '[') {
      // A bracket expression runs to its first `]` after a leading `^` and `]`, skipping `[:class:]` forms.
      let j = i + 1;
      if (p[j] === '^') j++;
      if (p[j] === ']') j++;
      while (j < p.length && p[j] !== ']') j = p[j] === '[' && (p[j + 1] === ':' || p[j + 1] === '.' || p[j + 1] === '=') ? Math.max(p.indexOf(`${p[j + 1]}]`, j + 2) + 2, j + 1) : j + 1;
      out += p.slice(i, j + 1);
      i = j;
    } else if (c === '\\' && i + 1 < p.length) {
      const n = p[++i]!;
      out += '+?{}'.includes(n) ? n : `\\${n}`;
    } else out += c === '+' || c === '?' ? `\\${c}` : c;
  }
  return out;
}

/** The finder for separator `sep` (a regex with `regex`), or GNU's message for a bad one. */
function finder(sep: string, regex: boolean): Finder | { error: string } {
  if (!regex) {
    return (text, end) => {
      if (sep === '' || end < sep.length) return null;
      const at = text.lastIndexOf(sep, end - sep.length);
      return at < 0 ? null : { at, length: sep.length };
    };
  }
  if (sep === '') return { error: 'tac: separator cannot be empty\n' };
  const compiled = compileGrep([emacsToBasic(sep)], 'basic', { ignoreCase: false, word: false, line: false });
  if ('error' in compiled) return { error: `${compiled.error.replace(/^grep:/, 'tac:')}\n` };
  // GNU's re_search goes back from the end one start at a time; a match may not reach past `end`.
  const re = new RegExp(compiled.regex.source, `${compiled.regex.flags.replace('g', '')}my`);
  return (text, end) => {
    const bounded = text.slice(0, end);
    for (let at = end - 1; at >= 0; at--) {
      const m = execLongest(re, bounded, at);
      if (m) return { at, length: m[0].length };
    }
    return null;
  };
}

/** `text` with its records in reverse order (GNU tac's backward scan: tac.c tac_seekable). */
export function reverseRecords(text: string, find: Finder, before: boolean): string {
  let out = '';
  let pastEnd = text.length;
  let end = text.length;
  for (;;) {
    const m = end > 0 ? find(text, end) : null;
    if (!m) return out + text.slice(0, pastEnd);
    const cut = before ? m.at : m.at + m.length;
    out += text.slice(cut, pastEnd);
    pastEnd = cut;
    end = m.at;
  }
}

async function tac(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let sep = '\n';
  let regex = false;
  let before = false;
  const usage = (what: string): ExecResult => ({ stdout: '', stderr: `tac: ${what}\nTry 'tac --help' for more information.\n`, exitCode: 1 });
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      const long = ['--before', '--regex', '--separator'].filter((n) => n.startsWith(name));
      if (long.length !== 1) return usage(long.length ? `option '${a}' is ambiguous` : `unrecognized option '${a}'`);
      if (long[0] === '--before') before = true;
      else if (long[0] === '--regex') regex = true;
      else {
        const v = value ?? next();
        if (v === undefined) return usage(`option '--separator' requires an argument`);
        sep = v;
      }
      return undefined;
    }
    for (let i = 1; i < a.length; i++) {
      const c = a[i]!;
      if (c === 'b') before = true;
      else if (c === 'r') regex = true;
      else if (c === 's') {
        const v = i + 1 < a.length ? a.slice(i + 1) : next();
        if (v === undefined) return usage(`option requires an argument -- 's'`);
        sep = v;
        break;
      } else return usage(`invalid option -- '${c}'`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const find = finder(regex ? sep : Buffer.from(sep, 'utf8').toString('latin1'), regex);
  if ('error' in find) return { stdout: '', stderr: find.error, exitCode: 1 };
  const operands = walked.operands.map((a) => (isStdinOperand(a, false) ? '-' : a));
  let out = '';
  let stderr = '';
  for (const name of operands.length > 0 ? operands : ['-']) {
    let bytes: string;
    if (name === '-') bytes = latin1FromBytes(ctx.stdin);
    else {
      const path = ctx.fs.resolvePath(ctx.cwd, name);
      const st = await ctx.fs.stat(path).catch((err: unknown) => errnoText(err));
      if (typeof st === 'string') {
        stderr += `tac: failed to open '${name}' for reading: ${st}\n`;
        continue;
      }
      if (st.isDirectory) {
        stderr += `tac: ${name}: read error: Invalid argument\n`;
        continue;
      }
      const read = await ctx.fs.readFileBuffer(path).catch((err: unknown) => errnoText(err));
      if (typeof read === 'string') {
        stderr += `tac: failed to open '${name}' for reading: ${read}\n`;
        continue;
      }
      bytes = Buffer.from(read).toString('latin1');
    }
    // A regex matches characters: the bytes are decoded as UTF-8 for it, and encoded back.
    out += regex ? Buffer.from(reverseRecords(Buffer.from(bytes, 'latin1').toString('utf8'), find, before), 'utf8').toString('latin1') : reverseRecords(bytes, find, before);
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr, exitCode: stderr ? 1 : 0 };
}

/** `tac` for just-bash's `customCommands`, in place of just-bash's (which had no `-s`, `-r`, `-b`). */
export function tacCommands(): CustomCommand[] {
  return [
    defineCommand('tac', async (args, ctx) => {
      // A closed stdin: the other files reversed, then GNU's EBADF messages.
      const closed = stdinIsClosed(ctx) ? await fileReaderOnClosedStdin('tac', args.map((a) => (isStdinOperand(a, false) ? '-' : a)), (rest) => tac(rest, ctx), 's') : null;
      // tac writes its output at the end and its messages unbuffered: they come first where the two meet.
      return errorsFirst(closed ?? (await tac(args, ctx)));
    }),
  ];
}
