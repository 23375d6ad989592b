/**
 * What GNU tools do when their standard input is closed (`cat <&-`, `exec 0<&-; tee log`): a read of fd 0 fails
 * with EBADF, the tool says so on stderr and exits 1, after doing whatever it does with its other operands. The
 * interpreter marks such a command's context with `stdinClosed`; this module owns the wording for the tools that
 * wrap just-bash's own (`cat`, `tac`, `nl`, `tee`) and `tr`. Tools reading operands through text-input.ts get it there.
 */
import type { ExecResult } from 'just-bash';

/** Whether the interpreter ran this command with its stdin closed (`<&-`). */
export const stdinIsClosed = (ctx: object): boolean => (ctx as { stdinClosed?: boolean }).stdinClosed === true;

const EBADF = 'Bad file descriptor';

/** The messages GNU's `name` prints after failing to read a closed stdin operand (coreutils 9). */
function messages(name: string): string {
  if (name === 'cat') return `cat: -: ${EBADF}\ncat: closing standard input: ${EBADF}\n`;
  if (name === 'tac') return `tac: 'standard input': read error: ${EBADF}\ntac: -: ${EBADF}\n`;
  return `${name}: -: ${EBADF}\n`;
}

/**
 * `cat`/`tac`/`nl` with a closed stdin: when an operand is `-` (or there is none), the other operands are still
 * read (`run` with the `-` operands taken out; not run when nothing else is left), then GNU's EBADF messages, status 1.
 * Returns null when the command does not read stdin.
 */
export async function fileReaderOnClosedStdin(name: string, args: string[], run: (args: string[]) => Promise<ExecResult>): Promise<ExecResult | null> {
  const dash = args.indexOf('--');
  const operands = args.filter((a, i) => (dash >= 0 && i > dash) || a === '-' || !a.startsWith('-'));
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
