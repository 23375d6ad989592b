/**
 * What GNU tools do when their standard input is closed (`cat <&-`, `exec 0<&-; tee log`): a read of fd 0 fails
 * with EBADF, the tool says so on stderr and exits 1, after doing whatever it does with its other operands. The
 * interpreter marks such a command's context with `stdinClosed`; this module owns the wording for the tools that
 * wrap just-bash's own (`cat`, `tac`, `nl`, `fold`, `expand`, `unexpand`, `tee`, `rev`, `column`), `tr`, and those of
 * the tools that read only stdin (`sed`, `xargs`, `jq`). Tools reading operands through text-input.ts get it there.
 */
import type { ExecResult } from 'just-bash';

/** Whether the interpreter ran this command with its stdin closed (`<&-`). */
export const stdinIsClosed = (ctx: object): boolean => (ctx as { stdinClosed?: boolean }).stdinClosed === true;

/** The error text of a read from a closed descriptor (strerror(EBADF)). */
export const EBADF = 'Bad file descriptor';

/** The messages GNU's `name` prints after failing to read a closed stdin operand (coreutils 9). */
function messages(name: string): string {
  if (name === 'cat') return `cat: -: ${EBADF}\ncat: closing standard input: ${EBADF}\n`;
  if (name === 'tac') return `tac: 'standard input': read error: ${EBADF}\ntac: -: ${EBADF}\n`;
  // These report the failed read, then the failed close of stdin at exit.
  if (name === 'nl' || name === 'fold' || name === 'expand' || name === 'unexpand') return `${name}: -: ${EBADF}\n`.repeat(2);
  return `${name}: -: ${EBADF}\n`;
}

/**
 * What the tools that read only their stdin (never a `-` operand) print on reading it closed, and their status:
 * GNU sed and findutils' xargs, util-linux's `rev` and `column`, jq (silent, status 2).
 */
export const CLOSED_STDIN_READ = {
  sed: { stderr: `sed: read error on stdin: ${EBADF}\n`, exitCode: 4 },
  xargs: { stderr: `xargs: error closing file: ${EBADF}\n`, exitCode: 1 },
  rev: { stderr: `rev: stdin: 0: ${EBADF}\n`, exitCode: 1 },
  column: { stderr: `column: read failed: ${EBADF}\n`, exitCode: 1 },
  jq: { stderr: '', exitCode: 2 },
} as const;

/**
 * `cat`/`tac`/`nl`/`fold`/`expand`/`unexpand` with a closed stdin: when an operand is `-` (or there is none), the
 * other operands are still read (`run` with the `-` operands taken out; not run when nothing else is left), then
 * GNU's EBADF messages, status 1; `rev` and `column` fail only without operands ({@link CLOSED_STDIN_READ}). `valued` lists the short options whose value may be the next word (`nl -w 3`,
 * `fold -w 5`), which is no operand. Returns null when the command does not read stdin.
 */
export async function fileReaderOnClosedStdin(name: string, args: string[], run: (args: string[]) => Promise<ExecResult>, valued = ''): Promise<ExecResult | null> {
  const dash = args.indexOf('--');
  const isValue = (i: number) => i > 0 && (dash < 0 || i < dash) && /^-[a-zA-Z]$/.test(args[i - 1]!) && valued.includes(args[i - 1]![1]!);
  const operands = args.filter((a, i) => (dash >= 0 && i > dash) || a === '-' || (!a.startsWith('-') && !isValue(i)));
  // util-linux's rev and column take `-` for a file name: only without operands do they read stdin.
  if (name === 'rev' || name === 'column') return operands.length > 0 ? null : { stdout: '', ...CLOSED_STDIN_READ[name] };
  if (operands.length > 0 && !operands.includes('-')) return null;
  const rest = args.filter((a) => a !== '-');
  const done = operands.some((a) => a !== '-') ? await run(rest) : { stdout: '', stderr: '', exitCode: 0 };
  return { ...done, stderr: done.stderr + messages(name), exitCode: 1 };
}

/** `tee` and `tr` with a closed stdin: their files are made as usual (`done`), then the read error, status 1. */
export function copierOnClosedStdin(name: 'tee' | 'tr', done: ExecResult): ExecResult {
  if (done.exitCode !== 0 && name === 'tr') return done;
  const tail = name === 'tee' ? `tee: read error: ${EBADF}\ntee: standard input: ${EBADF}\n` : `tr: read error: ${EBADF}\n`;
  return { ...done, stdout: '', stderr: done.stderr + tail, exitCode: 1 };
}

/** jq's options that take the next one or two words as their values (jq 1.6/1.7 main.c). */
const JQ_VALUED: Record<string, number> = { '--arg': 2, '--argjson': 2, '--slurpfile': 2, '--rawfile': 2, '--indent': 1, '-L': 1, '--library-path': 1 };

/**
 * jq with a closed stdin: when it would read stdin (no `-n`/`--null-input`, no input file after the filter, which
 * `-f`/`--from-file` takes from a file instead), the read fails and jq exits 2 without a message
 * ({@link CLOSED_STDIN_READ}, checked against jq 1.6 and 1.7); null when it reads no stdin.
 */
export function jqOnClosedStdin(args: string[]): ExecResult | null {
  let filterFromFile = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--args' || a === '--jsonargs') break; // the words after it are positional values, not files
    if (a === '-n' || a === '--null-input' || (/^-[a-zA-Z]+$/.test(a) && a.includes('n'))) return null;
    if (a === '-f' || a === '--from-file') filterFromFile = true;
    else if (JQ_VALUED[a] !== undefined) i += JQ_VALUED[a]!;
    else if (!a.startsWith('-') || a === '-') operands.push(a);
  }
  const files = filterFromFile ? operands : operands.slice(1);
  if (files.length > 0 && !files.includes('-')) return null;
  return { stdout: '', ...CLOSED_STDIN_READ.jq };
}
