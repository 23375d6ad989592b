/**
 * Syntax errors as bash meets them. bash reads and runs one complete command at a time, so a script whose line N
 * does not parse first runs every complete command before it, then prints its message (`bash: -c: line N: syntax
 * error near unexpected token `fi'`, and the line itself) and exits 2. just-bash parses the whole script first and
 * refuses it all; this module turns its parse error into bash's words, and a failing script into the part bash
 * would have run plus a final command that prints the message and exits. It owns the wording; running is engine's.
 * @see bash(1) "SHELL GRAMMAR"; bash's parse.y (`report_syntax_error`, `parser_error`)
 */
import { parse } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { parseScript, type ScriptNode } from './script-ast.ts';
import { extglobErrorLine } from './extglob-lines.ts';
import { openRegexGroupLine } from './regex-group-lines.ts';

/** How bash words the place of an error: `bash: -c: line 3: `, `script.sh: line 3: `, or `bash: line 3: ` (stdin). */
export type ErrorPlace = (line: number) => string;

/** The place of an error in a `bash -c` script. */
export const commandStringPlace: ErrorPlace = (line) => `bash: -c: line ${line}: `;
/** The place of an error in a script file run as `bash FILE` (bash names the file as it was given). */
export const scriptFilePlace =
  (file: string): ErrorPlace =>
  (line) => `${file}: line ${line}: `;
/** The place of an error in commands read from a non-terminal stdin, `first` lines having come before them. */
export const stdinPlaceAfter =
  (first: number): ErrorPlace =>
  (line) => `bash: line ${first + line}: `;
/** The place of an error in commands read from a non-terminal stdin, from its first line. */
export const stdinPlace: ErrorPlace = stdinPlaceAfter(0);

/** What bash says about a script that does not parse. */
export interface SyntaxFailure {
  /** True when more input could still complete it (an open `if`, quote, `$(`…): only the end of input made it an error. */
  incomplete: boolean;
  /** The message lines bash prints to stderr, each with its place. */
  message: string[];
  /** bash's exit status for it (2; 1 for an unclosed array assignment `a=(`). */
  status: number;
  /**
   * The error is inside a `$(…)`, which bash 5.2 parses with the script: a `bash -c` string then exits 127, and when
   * a sourced file or an `eval` string holds it the whole shell leaves (status 1 for a script file, 127 for `-c`).
   */
  substitution?: boolean;
}

interface ParseErrorShape {
  message?: string;
  line?: number;
  token?: { type?: string; value?: string; line?: number; start?: number };
  /** Set by patches/just-bash/when-substitution-syntax-error.mjs for an error inside `$(…)`: the token bash names. */
  spzSubstToken?: string;
  /** With it: how many lines above the line of `token` the failing token stands. */
  spzSubstLines?: number;
}

/**
 * The token bash names for a `(` that follows a command's first and only word (`f (x)`, `ls (`): bash reads
 * `NAME (` as the start of a function definition and wants `)` next, so it names what came instead — the next word,
 * or `newline` (bash's parse.y, function_def). Null when the `(` follows anything else.
 */
function afterFunctionParen(script: string, start: number): string | null {
  if (!/(?:^|[;&|(){}\n]|\b(?:then|do|else|elif|if|while|until)\s)\s*[^\s;&|()<>]+\s*$/.test(script.slice(0, start))) return null;
  const next = /^[ \t]*(?:(\n|$)|([^\s;&|()<>]+)|(\S))/.exec(script.slice(start + 1));
  if (!next) return null;
  return next[1] !== undefined ? 'newline' : (next[2] ?? next[3] ?? null);
}

/** Whether `script` parses in just-bash. */
function parses(script: string): boolean {
  try {
    parse(script);
    return true;
  } catch {
    return false;
  }
}

/** The lines of `script` as bash counts them (a final newline ends the last line, it does not start one). */
function linesOf(script: string): string[] {
  const lines = script.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * bash's diagnosis of `script` read from line `firstLine` of its input (1-based), or null when it parses.
 * `startLine` is the line where the failing command starts (the first non-blank line of `script`, counted from
 * `firstLine`), which bash names for a construct left open at the end of input (`((`, `"`, `${`).
 */
export function diagnose(script: string, place: ErrorPlace, firstLine = 1): SyntaxFailure | null {
  let error: ParseErrorShape;
  try {
    parse(script);
    return null;
  } catch (err) {
    error = (err ?? {}) as ParseErrorShape;
  }
  const lines = linesOf(script);
  const offset = firstLine - 1;
  const blank = lines.findIndex((l) => l.trim() !== '');
  const startLine = (blank < 0 ? 0 : blank) + 1 + offset;
  const endLine = lines.length + 1 + offset;
  const text = String(error.message ?? '');
  const token = error.token;
  // A quote left open: just-bash's lexer already words it as bash does, with the line where the quote opened.
  const quote = /^line (\d+): (unexpected EOF while looking for matching .*)$/.exec(text);
  if (quote) return { incomplete: true, message: [`${place(Number(quote[1]) + offset)}${quote[2]}`], status: 2 };
  if (error.spzSubstToken !== undefined) {
    const line = (token?.line ?? error.line ?? 1) - (error.spzSubstLines ?? 0) + offset;
    const source = lines[line - 1 - offset] ?? '';
    return { incomplete: false, message: [`${place(line)}syntax error near unexpected token \`${error.spzSubstToken}'`, `${place(line)}\`${source}'`], status: 2, substitution: true };
  }
  if (token && token.type !== 'EOF') {
    const line = (token.line ?? error.line ?? 1) + offset;
    const named = token.type === 'LPAREN' && token.start !== undefined ? afterFunctionParen(script, token.start) : null;
    const value = named ?? (token.value === '\n' || token.type === 'NEWLINE' ? 'newline' : (token.value ?? ''));
    const source = lines[line - 1 - offset] ?? '';
    return { incomplete: false, message: [`${place(line)}syntax error near unexpected token \`${value}'`, `${place(line)}\`${source}'`], status: 2 };
  }
  // A word still missing on the last line (`for`, `function`, `cat <`): bash meets the end of a `-c` string as a newline.
  if (token?.type === 'EOF' && /Expected (variable name in for loop|function name|redirection target)/.test(text)) {
    const line = (token.line ?? error.line ?? 1) + offset;
    return { incomplete: false, message: [`${place(line)}syntax error near unexpected token \`newline'`, `${place(line)}\`${lines[line - 1 - offset] ?? ''}'`], status: 2 };
  }
  if (/Expected DBRACK_END, got EOF/.test(text)) return { incomplete: true, message: [`${place(startLine)}unexpected EOF while looking for \`]]'`], status: 2 };
  // The end of input came inside a construct.
  const braced = /unexpected EOF while looking for matching '([}\])])'/.exec(text);
  if (braced) return { incomplete: true, message: [`${place(startLine)}unexpected EOF while looking for matching \`${braced[1]}'`], status: 2 };
  const matching = /unexpected EOF while looking for matching `(.)'/.exec(text);
  if (matching?.[1] === '`') return { incomplete: true, message: [`${place((error.line ?? 1) + offset)}${matching[0]}`], status: 2 };
  if (matching) return { incomplete: true, message: [`${place(endLine)}${matching[0]}`], status: 2 };
  if (/Expected DPAREN_END/.test(text) || /\$\(\(/.test(lines.slice(blank).join('\n')) && /got EOF/.test(text)) {
    return { incomplete: true, message: [`${place(startLine)}unexpected EOF while looking for matching \`)'`], status: 2 };
  }
  if (/bad substitution/.test(text) && token?.type === 'EOF') {
    return { incomplete: true, message: [`${place(startLine)}unexpected EOF while looking for matching \`}'`], status: 2 };
  }
  if (/Expected RPAREN, got EOF/.test(text) && /^\s*[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(lines[blank] ?? '')) {
    return { incomplete: true, message: [`${place(startLine)}unexpected EOF while looking for matching \`)'`], status: 1 };
  }
  return { incomplete: true, message: [`${place(endLine)}syntax error: unexpected end of file`], status: 2 };
}

/** A last line that continues on the next one (`a |`, `a &&`, `a ||`, `a \`): no complete command ends there. */
const CONTINUES = /(\|\||&&|\||\\)\s*$/;

/**
 * The number of leading whole lines of `script` that bash runs before it meets the syntax error: the longest
 * prefix of lines that parses and ends a complete command. 0 when none.
 */
export function completeLinesBefore(script: string): number {
  const lines = linesOf(script);
  for (let k = lines.length - 1; k > 0; k--) {
    const last = lines[k - 1]!;
    if (last.trim() === '' || CONTINUES.test(last)) continue;
    if (parses(lines.slice(0, k).join('\n'))) return k;
  }
  return 0;
}

/** A text's syntax error as bash meets it: the complete commands before it (which run first) and the failure. */
export interface Recovery {
  /** The leading whole lines that bash runs before it meets the error ('' when none); they parse on their own. */
  prefix: string;
  failure: SyntaxFailure;
}

/**
 * `script`'s syntax error as bash, reading it one complete command at a time, meets it: what runs before and what
 * it says, or null when bash would run it all. `firstLine`: the line of its input `script` starts on (a sourced file
 * 1, an `eval` string the line its statement ends on). `extglob`: whether extended patterns are on at the start.
 */
export function recoverSyntax(script: string, place: ErrorPlace, extglob = false, firstLine = 1): Recovery | null {
  const ast = parseScript(script);
  if (ast) return parsedScriptFailure(script, ast.statements, place, extglob, firstLine);
  // The rest keeps its own final newlines: bash counts a blank last line.
  const all = script.split('\n');
  const k = completeLinesBefore(script);
  const failure = diagnose(all.slice(k).join('\n'), place, firstLine + k);
  return failure ? { prefix: all.slice(0, k).join('\n'), failure } : null;
}

/** What the interpreter does with a text that does not parse ({@link readAtATime}). */
export interface TextRecovery {
  /** The complete commands before the error, to run first ('' when none). */
  prefix: string;
  /** The message, its lines each ending in a newline. */
  stderr: string;
  /** The status the text ends with (2). */
  status: number;
  /** The error is inside a `$(…)`: after the message the whole shell leaves ({@link SyntaxFailure.substitution}). */
  leavesShell: boolean;
}

/**
 * The interpreter's hook (`state.recoverSyntax`, patches/just-bash/when-sourced-syntax-error.mjs, eval-syntax-error.mjs,
 * syntax-error-backquotes.mjs) for a text the shell reads after its script started: a sourced file, an `eval`
 * string, a backquoted command substitution. bash reads each one complete command at a time, so the commands before
 * a syntax error run, then its message, and the text ends with status 2 (the caller goes on). `where` is the place
 * each message line starts with before `line N: ` (`./lib.sh: `, `bash: eval: `, `bash: command substitution: `);
 * `firstLine` the line `text` starts on; `errexit` whether `set -e` is in force there, when bash prints the first
 * line only (parse.y's parser_error leaves the shell at once). Null when the text parses.
 */
export function readAtATime(text: string, where: string, firstLine: number, extglob: boolean, errexit: boolean): TextRecovery | null {
  const recovery = recoverSyntax(text, (line) => `${where}line ${line}: `, extglob, firstLine);
  if (!recovery) return null;
  const lines = errexit ? recovery.failure.message.slice(0, 1) : recovery.failure.message;
  return { prefix: recovery.prefix, stderr: lines.map((l) => `${l}\n`).join(''), status: recovery.failure.status, leavesShell: recovery.failure.substitution === true };
}

/**
 * `script` as bash runs it: unchanged when it parses; otherwise the complete commands before the syntax error,
 * then a command that prints bash's message to stderr and exits with bash's status (2). An `exit` among the
 * commands that run ends the script first, as in bash. `extglob`: whether extended patterns are on at the start.
 */
export function withSyntaxRecovery(script: string, place: ErrorPlace, extglob = false): string {
  const recovery = recoverSyntax(script, place, extglob);
  // bash 5.2 leaves a `-c` string whose `$(…)` does not parse with status 127 (a script file's with 2).
  if (recovery?.failure.substitution && place === commandStringPlace) return failureScript(recovery.prefix, { ...recovery.failure, status: 127 });
  if (recovery) return failureScript(recovery.prefix, recovery.failure);
  const ast = parseScript(script);
  return ast ? withHereDocWarnings(script, ast.statements, place) : script;
}

/**
 * A bare statement: what just-bash makes of a `}` or `)` that closes nothing (bash: a syntax error). A timed one is
 * `time` alone, which bash accepts (patches/just-bash/time-alone.mjs).
 */
function isBare(statement: ScriptNode): boolean {
  const pipelines = (statement.pipelines as ScriptNode[] | undefined) ?? [];
  const command = pipelines.length === 1 ? ((pipelines[0]!.commands as ScriptNode[] | undefined) ?? [])[0] : undefined;
  if (command?.type !== 'SimpleCommand' || command.name || command.spzTimeAlone) return false;
  return [command.args, command.assignments, command.redirections].every((a) => !(a as unknown[] | undefined)?.length);
}

/** The first line of a top-level command of `statements` (just-bash records it on simple commands). */
function lineOf(statement: ScriptNode | undefined): number | null {
  const command = ((statement?.pipelines as ScriptNode[] | undefined)?.[0]?.commands as ScriptNode[] | undefined)?.[0];
  return typeof command?.line === 'number' ? command.line : null;
}

/** The here-document of `node` left open at the end of the script, with its delimiter. */
function openHereDoc(node: unknown): { delimiter: string } | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = openHereDoc(item);
      if (found) return found;
    }
    return null;
  }
  if (node === null || typeof node !== 'object') return null;
  const n = node as ScriptNode;
  if (n.type === 'HereDoc') return n.terminated === false ? { delimiter: String(n.delimiter) } : null;
  return openHereDoc(Object.values(n));
}

/**
 * What bash says of a script just-bash parses: a `}` that closes nothing, or an extended pattern read while extglob
 * is off (extglob-lines.ts), is a syntax error (the commands before it run first). Null when there is none.
 */
function parsedScriptFailure(script: string, statements: ScriptNode[], at: ErrorPlace, extglob: boolean, firstLine: number): Recovery | null {
  const lines = linesOf(script);
  const place: ErrorPlace = (line) => at(line + firstLine - 1);
  const extended = extglobErrorLine(script, statements, extglob);
  if (extended !== null) {
    const k = completeLinesBefore(lines.slice(0, extended).join('\n'));
    const message = [`${place(extended)}syntax error near unexpected token \`('`, `${place(extended)}\`${lines[extended - 1] ?? ''}'`];
    return { prefix: lines.slice(0, k).join('\n'), failure: { incomplete: false, message, status: 2 } };
  }
  const group = openRegexGroupLine(statements);
  if (group !== null) {
    const k = completeLinesBefore(lines.slice(0, group).join('\n'));
    const message = [`${place(group)}unexpected EOF while looking for matching \`)'`, `${place(lines.length + 1)}unexpected argument to conditional binary operator`];
    return { prefix: lines.slice(0, k).join('\n'), failure: { incomplete: false, message, status: 2 } };
  }
  const bare = statements.findIndex(isBare);
  if (bare >= 0) {
    // just-bash keeps the token it met (`}` or `)`) on the statement it makes of it.
    const token = (statements[bare]!.deferredError as { token?: string } | undefined)?.token === ')' ? ')' : '}';
    const before = lineOf(statements[bare + 1]) ?? lines.length + 1;
    let line = before - 1;
    const closes = token === ')' ? /(^|[\s;&|])\)/ : /(^|[\s;&|])\}\s*$/;
    while (line > 1 && !closes.test(lines[line - 1] ?? '')) line--;
    const k = completeLinesBefore(lines.slice(0, line).join('\n'));
    const message = [`${place(line)}syntax error near unexpected token \`${token}'`, `${place(line)}\`${lines[line - 1] ?? ''}'`];
    return { prefix: lines.slice(0, k).join('\n'), failure: { incomplete: false, message, status: 2 } };
  }
  return null;
}

/** `script` with bash's warning for a here-document still open at its end, printed when bash reads its command. */
function withHereDocWarnings(script: string, statements: ScriptNode[], place: ErrorPlace): string {
  const lines = linesOf(script);
  for (const statement of statements) {
    const open = openHereDoc(statement);
    const line = open ? lineOf(statement) : null;
    if (!open || line === null) continue;
    const where = place === commandStringPlace ? (script.endsWith('\n') ? 'bash: ' : `bash: line ${lines.length}: `) : place(lines.length);
    const warning = `${where}warning: here-document at line ${line} delimited by end-of-file (wanted \`${open.delimiter}')`;
    lines[line - 1] = `printf '%s\\n' ${shellQuote(warning)} >&2; ${lines[line - 1]}`;
    return lines.join('\n') + (script.endsWith('\n') ? '\n' : '');
  }
  return script;
}

/**
 * `prefix` followed by the command that reports `failure` and exits (the prefix must parse on its own). Under
 * `set -e` bash leaves as soon as it has printed the message's first line (parse.y's parser_error exits the shell
 * when errexit is on), so the quoted line that follows is printed only without it.
 */
export function failureScript(prefix: string, failure: SyntaxFailure): string {
  const lines = failure.message.map(shellQuote);
  const print = (words: string[]) => `printf '%s\\n' ${words.join(' ')} >&2`;
  const say = lines.length > 1 ? `if [[ $- == *e* ]]; then ${print(lines.slice(0, 1))}; else ${print(lines)}; fi` : print(lines);
  const report = `${say}; exit ${failure.status}`;
  return prefix.trim() === '' ? report : `${prefix}\n${report}`;
}
