/**
 * `nl` as GNU coreutils runs it, in place of just-bash's: the input (every file in turn, one document) numbered by
 * section style (`-b`, `-h`, `-f`: `a` all, `t` non-empty lines, `n` none, `pBRE` matching lines; the body `t` by
 * default), a line left unnumbered written after as many spaces as the number and separator take, logical pages
 * (`-d`, `\:` by default: `\:\:\:` header, `\:\:` body, `\:` footer, each written as an empty line and restarting the
 * numbers unless `-p`), `-i`, `-l`, `-n ln|rn|rz`, `-s`, `-v`, `-w`. A closed stdin is closed-stdin.ts's.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/nl-invocation.html (and coreutils' src/nl.c)
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { compileGrep } from './grep-regex.ts';
import { isStdinOperand, readOperand, walkArgs } from './text-input.ts';
import { fileReaderOnClosedStdin, stdinIsClosed } from './closed-stdin.ts';
import { localeQuote } from './gnu-quote.ts';

/** Which lines of a section get a number. */
type Style = { kind: 'a' | 't' | 'n' } | { kind: 'p'; regex: RegExp };

const SECTIONS: Record<string, string> = { b: 'body', h: 'header', f: 'footer' };
const LONG: Record<string, string> = {
  '--body-numbering': 'b', '--header-numbering': 'h', '--footer-numbering': 'f', '--section-delimiter': 'd', '--line-increment': 'i',
  '--join-blank-lines': 'l', '--number-format': 'n', '--no-renumber': 'p', '--number-separator': 's', '--starting-line-number': 'v', '--number-width': 'w',
};

async function nl(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const styles: Record<string, Style> = { b: { kind: 't' }, h: { kind: 'n' }, f: { kind: 'n' } };
  let delim = '\\:';
  let increment = 1;
  let join = 1;
  let format = 'rn';
  let renumber = true;
  let sep = '\t';
  let start = 1;
  let width = 6;
  const q = (v: string) => localeQuote(ctx.env, v);
  const bad = (what: string, v: string, tail = ''): ExecResult => ({ stdout: '', stderr: `nl: invalid ${what}: ${q(v)}${tail}\n`, exitCode: 1 });
  const usage = (what: string): ExecResult => ({ stdout: '', stderr: `nl: ${what}\nTry 'nl --help' for more information.\n`, exitCode: 1 });
  const integer = (v: string) => (/^[-+]?\d+$/.test(v) ? Number(v) : null);
  const set = (c: string, v: string): ExecResult | undefined => {
    if (c in SECTIONS) {
      // nl.c build_type_arg reads only the first letter of `a`, `t` and `n` (`-bat` is `-ba`).
      if (v[0] === 'a' || v[0] === 't' || v[0] === 'n') styles[c] = { kind: v[0] };
      else if (v.startsWith('p')) {
        const compiled = compileGrep([v.slice(1)], 'basic', { ignoreCase: false, word: false, line: false });
        if ('error' in compiled) return { stdout: '', stderr: `${compiled.error.replace(/^grep:/, 'nl:')}\n`, exitCode: 1 };
        styles[c] = { kind: 'p', regex: new RegExp(compiled.regex.source, compiled.regex.flags.replace('g', '')) };
      } else return { ...usage(''), stderr: `nl: invalid ${SECTIONS[c]} numbering style: ${q(v)}\nTry 'nl --help' for more information.\n` };
    } else if (c === 'd') delim = v.length === 1 ? `${v}:` : v;
    else if (c === 'n') {
      if (v !== 'ln' && v !== 'rn' && v !== 'rz') return bad('line numbering format', v);
      format = v;
    } else if (c === 's') sep = v;
    else {
      const n = integer(v);
      if (c === 'i' && (n === null || n < 0)) return bad('line number increment', v);
      if (c === 'v' && n === null) return bad('starting line number', v);
      if (c === 'l' && (n === null || n < 1)) return bad('line number of blank lines', v);
      if (c === 'w' && (n === null || n < 1)) return bad('line number field width', v, n === null ? '' : ': Numerical result out of range');
      if (c === 'i') increment = n!;
      else if (c === 'v') start = n!;
      else if (c === 'l') join = n!;
      else width = n!;
    }
    return undefined;
  };
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const hits = Object.keys(LONG).filter((n) => n === name || n.startsWith(name));
      const full = hits.find((n) => n === name) ?? (hits.length === 1 ? hits[0] : undefined);
      if (!full) return usage(hits.length ? `option '${a}' is ambiguous` : `unrecognized option '${a}'`);
      const c = LONG[full]!;
      if (c === 'p') return ((renumber = false), undefined);
      const v = eq < 0 ? next() : a.slice(eq + 1);
      if (v === undefined) return usage(`option '${full}' requires an argument`);
      return set(c, v);
    }
    for (let i = 1; i < a.length; i++) {
      const c = a[i]!;
      if (c === 'p') renumber = false;
      else if ('bhfdinsvwl'.includes(c)) {
        const v = i + 1 < a.length ? a.slice(i + 1) : next();
        if (v === undefined) return usage(`option requires an argument -- '${c}'`);
        return set(c, v);
      } else return usage(`invalid option -- '${c}'`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  let text = '';
  let stderr = '';
  for (const name of walked.operands.length > 0 ? walked.operands : ['-']) {
    const r = await readOperand(ctx, isStdinOperand(name) ? '-' : name);
    if ('error' in r) stderr += `nl: ${name}: ${r.error}\n`;
    else text += r.bytes;
  }
  const lines = text.split('\n');
  const last = lines.pop();
  if (last !== '') lines.push(last!);
  const blank = ' '.repeat(width + Buffer.byteLength(sep));
  const sepBytes = Buffer.from(sep, 'utf8').toString('latin1');
  const number = (n: number) => {
    const digits = String(Math.abs(n));
    if (format === 'rz') return (n < 0 ? '-' : '') + digits.padStart(width - (n < 0 ? 1 : 0), '0');
    return format === 'ln' ? String(n).padEnd(width) : String(n).padStart(width);
  };
  const delimBytes = Buffer.from(delim, 'utf8').toString('latin1');
  let out = '';
  let section = 'b';
  let lineNo = start;
  let blanks = 0;
  // A last line without its newline gets one, as GNU nl writes every line whole.
  for (const line of lines) {
    const kind = delimBytes !== '' && line === delimBytes.repeat(3) ? 'h' : delimBytes !== '' && line === delimBytes.repeat(2) ? 'b' : delimBytes !== '' && line === delimBytes ? 'f' : null;
    if (kind) {
      section = kind;
      if (renumber) lineNo = start;
      out += '\n';
      continue;
    }
    const style = styles[section]!;
    let numbered: boolean;
    if (style.kind === 'a') {
      if (line === '' && join > 1) {
        numbered = ++blanks === join;
        if (numbered) blanks = 0;
      } else (numbered = true), (blanks = 0);
    } else if (style.kind === 't') numbered = line !== '';
    else if (style.kind === 'n') numbered = false;
    else numbered = style.kind === 'p' && style.regex.test(Buffer.from(line, 'latin1').toString('utf8'));
    if (numbered) {
      out += `${number(lineNo)}${sepBytes}${line}\n`;
      lineNo += increment;
    } else out += `${blank}${line}\n`;
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr, exitCode: stderr ? 1 : 0 };
}

/** `nl` for just-bash's `customCommands`, in place of just-bash's (which numbered blank-looking lines its own way). */
export function nlCommands(): CustomCommand[] {
  return [
    defineCommand('nl', async (args, ctx) => {
      const mapped = args.map((a) => (isStdinOperand(a, false) ? '-' : a));
      const closed = stdinIsClosed(ctx) ? await fileReaderOnClosedStdin('nl', mapped, (rest) => nl(rest, ctx), 'bdfhilnsvw') : null;
      return closed ?? nl(mapped, ctx);
    }),
  ];
}
