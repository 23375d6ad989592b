/**
 * How long the shell engine waits for a command's first stdin byte, and what late stdin does to its exit code
 * (the engine never drops stdin silently). It owns the decision "may this script read the exec's stdin?", made on
 * just-bash's AST, conservatively (unknown → may read). It does not own the timers or the stdin bytes: the
 * engine (engine.ts) arms the wait and stdin-buffer.ts holds the bytes and the wording of the stderr lines.
 * @see docs/fidelity.md "Exec stdin", docs/limits.md, docs/wire-reference.md §18 (the JS SDK's exec() asks for stdin
 * and never sends EOF)
 */
import { parse } from 'just-bash';
import { REAL_ENGINE_COMMANDS } from './world.ts';

/**
 * Default wait (ms, injected clock) for the first stdin byte or EOF of a command that may read stdin
 * (`--stdin-wait`). Long enough for a client that builds a large buffer before its first frame (a 64 MiB frame
 * takes a JavaScript client ~0.1–0.6 s); a command that reads stdin on a real sprite would wait for ever.
 */
export const DEFAULT_STDIN_WAIT_MS = 2_000;

/**
 * Exit code of a command that may read stdin and was sent stdin after it had started, when it would otherwise
 * have exited 0: the late bytes are not in its input, so its result is not the one the client asked for.
 */
export const LATE_STDIN_EXIT = 1;

/**
 * Commands that never read their standard input (builtins and utilities with no stdin mode). A script made of only
 * these (plus functions it defines itself) cannot miss stdin, so it starts after the short grace period.
 */
const NO_STDIN = new Set([
  ':', '[', 'alias', 'basename', 'cd', 'chmod', 'chown', 'cp', 'curl', 'date', 'declare', 'df', 'dirname', 'du', 'echo',
  'env', 'exit', 'export', 'false', 'find', 'hostname', 'id', 'jobs', 'kill', 'ln', 'local', 'ls', 'mkdir',
  'mktemp', 'mv', 'nproc', 'printenv', 'printf', 'pwd', 'readlink', 'realpath', 'return', 'rm', 'rmdir', 'seq',
  'set', 'shift', 'sleep', 'stat', 'stty', 'test', 'touch', 'trap', 'true', 'tty', 'type', 'typeset', 'umask',
  'uname', 'unset', 'wait', 'which', 'whoami', 'getconf', 'locale', 'arch', 'logname', 'getent', 'ulimit', 'dpkg', 'tput',
  // The shell engine's git reads no stdin (it refuses `commit -F -`).
  'git',
]);

/**
 * Commands this engine does not run (they fail at once naming `--exec sandbox`, world.ts), so they read no
 * stdin here: `exec('npm test')` from the JS SDK, which never sends EOF, must not wait for stdin.
 */
const NOT_RUN_HERE: ReadonlySet<string> = new Set(REAL_ENGINE_COMMANDS);

/** Python interpreters: `-c CODE` reads stdin only when CODE names it. */
const PYTHONS = new Set(['python', 'python3']);
/** What Python code uses to read its standard input. */
const PYTHON_READS_STDIN = /stdin|input\s*\(|fileinput|os\.read\s*\(\s*0/;
/** What Perl code uses to read its standard input (a `<…>` read may be of STDIN or ARGV too). */
const PERL_READS_STDIN = /STDIN|ARGV|<[^<>\n]*>|getc|readline|\bread\b|sysread|\beof\b|-t\b|['"]-['"]|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0/;

/** Commands that read stdin only when given no file operand (or `-`); flags here take no separate value. */
const FILES_OR_STDIN = new Set(['cat', 'wc', 'tac', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum']);

/**
 * Commands whose first operand is a program or pattern (unless an option gave it) and whose other operands are the
 * files they read instead of stdin: the short options that take a value (the rest of the cluster or the next word),
 * those of them that give the program (so that every operand is a file), and the long options known to take none.
 * From the POSIX awk, grep and sed pages and GNU grep's and sed's manuals; `grep -r` with no file reads the working
 * directory (GNU grep). Anything else (an unknown long option, a word that is not literal) counts as reading stdin.
 */
const PROGRAM_THEN_FILES: Record<string, { values: string; program: string; longFlags: ReadonlySet<string>; recursive?: string }> = {
  awk: { values: 'fFvW', program: 'f', longFlags: new Set() },
  grep: {
    values: 'efmABCdD',
    program: 'ef',
    recursive: 'rR',
    longFlags: new Set(['--recursive', '--dereference-recursive', '--with-filename', '--no-filename', '--line-number', '--fixed-strings',
      '--extended-regexp', '--basic-regexp', '--ignore-case', '--count', '--files-with-matches', '--files-without-match', '--invert-match',
      '--word-regexp', '--line-regexp', '--only-matching', '--quiet', '--silent', '--no-messages', '--text']),
  },
  sed: { values: 'efl', program: 'ef', longFlags: new Set(['--quiet', '--silent', '--regexp-extended', '--separate', '--null-data', '--posix', '--sandbox']) },
};
PROGRAM_THEN_FILES.egrep = PROGRAM_THEN_FILES.grep;
PROGRAM_THEN_FILES.fgrep = PROGRAM_THEN_FILES.grep;

/** Long options that give the program or pattern (`--regexp=P`, `--file=F`, `--expression=S`). */
const LONG_PROGRAM = /^--(regexp|file|expression)=/;
/** Operands that name the standard input itself. */
const STDIN_FILES = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
/** An awk operand that assigns a variable (`n=1`) rather than naming a file. */
const AWK_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Redirection operators that give a command its stdin from elsewhere. */
const STDIN_REDIRECTS = new Set(['<', '<<', '<<-', '<<<', '<&', '<>']);

type Node = { type?: unknown } & Record<string, unknown>;
type WordNode = { parts?: Array<{ type: string; value?: string }> } | null | undefined;

/**
 * The literal text of a word made of one literal part, else undefined (`$CMD`, `"a"$b`, …). A lone `[` (the test
 * command) is parsed as a glob part; it matches nothing and is the literal `[`.
 */
function literal(word: WordNode): string | undefined {
  const parts = word?.parts as Array<{ type: string; value?: string; pattern?: string }> | undefined;
  if (!parts || parts.length !== 1) return undefined;
  if (parts[0]!.type === 'Glob' && parts[0]!.pattern === '[') return '[';
  if (parts[0]!.type !== 'Literal') return undefined;
  return parts[0]!.value;
}

/**
 * True when `script` may read the exec's stdin: some command that gets the script's stdin (not redirected, not a
 * later stage of a pipeline, not a background job) is not known to ignore it. A script that does not parse counts
 * as reading (just-bash reports the syntax error itself). Linear in the AST size.
 */
export function scriptMayReadStdin(script: string): boolean {
  let ast: unknown;
  try {
    ast = parse(script);
  } catch {
    return true;
  }
  const defined = new Set<string>();
  collectFunctions(ast, defined);
  return reads(ast, defined);
}

function collectFunctions(root: unknown, out: Set<string>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) pushAll(stack, node);
    else if (node !== null && typeof node === 'object') {
      const n = node as Node;
      if (n.type === 'FunctionDef' && typeof n.name === 'string') out.add(n.name);
      pushAll(stack, Object.values(n));
    }
  }
}

/** Whether any node below `root` that inherits the script's stdin may read it. */
function reads(root: unknown, functions: ReadonlySet<string>): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      pushAll(stack, node);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const n = node as Node;
    if (n.type === 'Statement' && n.background === true) continue; // background jobs get empty stdin (jobs.ts)
    if (n.type === 'Pipeline' && Array.isArray(n.commands)) {
      stack.push(n.commands[0]); // later stages read the pipe
      continue;
    }
    const redirections = Array.isArray(n.redirections) ? (n.redirections as Array<{ operator?: string; fd?: number | null }>) : [];
    if (redirections.some((r) => STDIN_REDIRECTS.has(r.operator ?? '') && (r.fd === null || r.fd === undefined || r.fd === 0))) continue;
    if (n.type === 'SimpleCommand') {
      if (n.name) {
        const name = literal(n.name as WordNode);
        if (name === undefined) return true;
        const args = Array.isArray(n.args) ? (n.args as WordNode[]) : [];
        if (
          !NO_STDIN.has(name) &&
          !NOT_RUN_HERE.has(name) &&
          !functions.has(name) &&
          !(FILES_OR_STDIN.has(name) && hasFileOperand(args)) &&
          !(PROGRAM_THEN_FILES[name] && readsOnlyFiles(name, args)) &&
          !(PYTHONS.has(name) && pythonCodeIgnoresStdin(args)) &&
          !(name === 'perl' && perlCodeIgnoresStdin(args))
        ) {
          return true;
        }
      }
      stack.push(n.args, n.assignments); // command substitutions inherit the stdin
      continue;
    }
    pushAll(stack, Object.values(n));
  }
  return false;
}

/** Pushes each item (no spread: an AST array can be longer than a call's argument limit). */
function pushAll(stack: unknown[], items: readonly unknown[]): void {
  for (const item of items) stack.push(item);
}

/**
 * True for `perl -e CODE …` (switches and operands all literal, no `-n`/`-p`, which read the operands or stdin) whose
 * code never names stdin, `<…>`, ARGV or a read: such a program would not read it, like `python3 -c` below.
 */
function perlCodeIgnoresStdin(args: WordNode[]): boolean {
  const words = args.map((a) => literalOrQuoted(a));
  if (words.some((w) => w === undefined)) return false;
  let code = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith('-') || w === '-' || w === '--') break;
    const e = w.search(/[eE]/);
    const cluster = e < 0 ? w : w.slice(0, e);
    if (/^-[^FiIMmx]*[np]/.test(cluster)) return false;
    if (e > 0 && /^-[a-zA-Z0-9]*$/.test(cluster)) {
      const text = e + 1 < w.length ? w.slice(e + 1) : words[++i];
      if (text === undefined || PERL_READS_STDIN.test(text)) return false;
      code = true;
    }
  }
  return code;
}

/**
 * True for `python3 -c CODE …` whose literal CODE never names stdin (`sys.stdin`, `input(`, `fileinput`,
 * `os.read(0`): the JS SDK's `exec('python3 -c …')` asks for stdin and never ends it, and such code would not read
 * it. Any other form (a script file, `-`, a non-literal CODE) may read stdin.
 */
function pythonCodeIgnoresStdin(args: WordNode[]): boolean {
  const i = args.findIndex((a) => literal(a) === '-c');
  if (i < 0 || i + 1 >= args.length) return false;
  const code = literalOrQuoted(args[i + 1]);
  return code !== undefined && !PYTHON_READS_STDIN.test(code);
}

/** The text of a word made only of literal and quoted literal parts (`'print(1)'`, `"a"b`), else undefined. */
function literalOrQuoted(word: WordNode): string | undefined {
  const parts = word?.parts as Array<{ type: string; value?: string; parts?: Array<{ type: string; value?: string }> }> | undefined;
  if (!parts || parts.length === 0) return undefined;
  let text = '';
  for (const part of parts) {
    if ((part.type === 'Literal' || part.type === 'SingleQuoted') && typeof part.value === 'string') text += part.value;
    else if (part.type === 'DoubleQuoted' && part.parts?.every((p) => p.type === 'Literal' && typeof p.value === 'string')) text += part.parts.map((p) => p.value).join('');
    else return undefined;
  }
  return text;
}

/** True when some argument is a literal file operand (not an option, not `-`); any non-literal argument is unknown. */
function hasFileOperand(args: WordNode[]): boolean {
  let operand = false;
  for (const arg of args) {
    const text = literal(arg);
    if (text === undefined) return false;
    if (STDIN_FILES.has(text)) return false;
    if (!text.startsWith('-')) operand = true;
  }
  return operand;
}

/**
 * True when `name` (a {@link PROGRAM_THEN_FILES} command) given `args` reads files only: `awk PROG FILE…`,
 * `grep -rHnF -e PAT PATH`, `sed -n 2p FILE`, `grep -r PAT` (the working directory). False when it may read stdin:
 * no file operand, a `-` or `/dev/stdin` operand, a word that is not literal, an unknown long option.
 */
function readsOnlyFiles(name: string, args: WordNode[]): boolean {
  const spec = PROGRAM_THEN_FILES[name]!;
  const words = args.map((a) => literalOrQuoted(a));
  let programGiven = false;
  let recursive = false;
  let options = true;
  const operands: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === undefined) return false;
    if (!options || w === '-' || !w.startsWith('-')) {
      operands.push(w);
      continue;
    }
    if (w === '--') {
      options = false;
      continue;
    }
    if (w.startsWith('--')) {
      if (LONG_PROGRAM.test(w)) programGiven = true;
      else if (!spec.longFlags.has(w)) return false;
      if (w === '--recursive' || w === '--dereference-recursive') recursive = true;
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const c = w[j]!;
      if (spec.recursive?.includes(c)) recursive = true;
      if (!spec.values.includes(c)) continue;
      if (spec.program.includes(c)) programGiven = true;
      if (j === w.length - 1 && ++i >= words.length) return false; // the value is the next word
      break;
    }
  }
  if (!programGiven && operands.length === 0) return false;
  const files = (programGiven ? operands : operands.slice(1)).filter((o) => !(name === 'awk' && AWK_ASSIGNMENT.test(o)));
  if (files.some((f) => STDIN_FILES.has(f))) return false;
  return files.length > 0 || recursive;
}

/**
 * The exit code a command reports: `LATE_STDIN_EXIT` instead of 0 when it may read stdin and stdin bytes arrived
 * after it had started (they were dropped and announced on stderr); otherwise `code` unchanged.
 * @deviation A real sprite streams stdin to the live process; the shell engine collects it first (docs/fidelity.md).
 */
export function exitAfterLateStdin(code: number, mayReadStdin: boolean, lateBytes: number): number {
  return code === 0 && mayReadStdin && lateBytes > 0 ? LATE_STDIN_EXIT : code;
}
