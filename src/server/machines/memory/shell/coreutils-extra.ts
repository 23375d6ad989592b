/**
 * GNU coreutils programs just-bash lacks, whose effect the shell engine can give exactly: `yes`, `nice` and `stdbuf`
 * (run their command; priority and buffering change nothing a script can observe here), `sync`, `hostid`, and
 * `dir`/`vdir` (GNU's `ls -C -b` and `ls -l -b`).
 * @see https://www.gnu.org/software/coreutils/manual/ (yes, nice, stdbuf, sync, hostid, dir, vdir)
 */
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { shellQuote } from '../argv.ts';

const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/**
 * How much `yes` writes: a pipeline here runs each command to its end before the next reads, so `yes` stops after
 * this many bytes, as if its reader had closed the pipe (status 141, SIGPIPE, as `yes | head` gives under
 * `pipefail`). 1 MiB (524,288 lines of `y`) is far more than any `yes | cmd` answers prompts with, and costs a pipe
 * of it about 0.1 s of the event loop.
 * @deviation `yes > file` writes 1 MiB and ends; GNU yes runs until the disk is full.
 */
export const YES_LIMIT_BYTES = 1024 * 1024;

/** `yes [STRING...]`: the words (or `y`) on a line, repeated up to {@link YES_LIMIT_BYTES}. */
function yes(args: string[]): ExecResult {
  const words = args[0] === '--' ? args.slice(1) : args;
  const line = `${words.length > 0 ? words.join(' ') : 'y'}\n`;
  return { stdout: line.repeat(Math.max(1, Math.floor(YES_LIMIT_BYTES / line.length))), stderr: '', exitCode: 141 };
}

/** Runs `argv` as a command line of the same shell, with this command's stdin. */
function run(argv: string[], ctx: CommandContext): Promise<ExecResult> {
  return ctx.exec!(argv.map(shellQuote).join(' '), { cwd: ctx.cwd, stdin: ctx.stdin as unknown as string, stdinKind: 'bytes' });
}

/** `nice [-n N | -N] [COMMAND...]`: without a command prints the niceness (0); with one runs it. */
async function nice(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let i = 0;
  if (args[0] === '-n' || args[0] === '--adjustment') i = 2;
  else if (/^(-n|--adjustment=)-?\d+$/.test(args[0] ?? '') || /^-\d+$/.test(args[0] ?? '')) i = 1;
  else if (args[0] === '--') i = 1;
  if (i === 2 && !/^-?\+?\d+$/.test(args[1] ?? '')) return fail(`nice: invalid adjustment '${args[1] ?? ''}'\nTry 'nice --help' for more information.\n`, 125);
  const rest = args.slice(i);
  if (rest.length === 0) return i === 0 ? ok('0\n') : fail("nice: a command must be given with an adjustment\nTry 'nice --help' for more information.\n", 125);
  return run(rest, ctx);
}

/** `stdbuf -i/-o/-e MODE... COMMAND...`: runs the command (output here is never held in a stdio buffer). */
async function stdbuf(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (/^-[ioe]$/.test(a)) i++;
    else if (!/^(-[ioe].+|--(input|output|error)=.+)$/.test(a)) break;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return fail("stdbuf: missing operand\nTry 'stdbuf --help' for more information.\n", 125);
  if (i === 0) return fail("stdbuf: you must specify a buffering mode option\nTry 'stdbuf --help' for more information.\n", 125);
  return run(rest, ctx);
}

/**
 * `hostid`: glibc's host id when `/etc/hostid` is absent, the sprite's address in `/etc/hosts` (127.0.1.1) with
 * its 16-bit halves swapped, in hex.
 */
function hostid(): ExecResult {
  return ok('007f0101\n');
}

/** Names of the commands of {@link coreutilsExtra} (each needs its `/bin` stub to be found on PATH). */
export const COREUTILS_EXTRA_NAMES: readonly string[] = ['yes', 'nice', 'stdbuf', 'sync', 'hostid', 'dir', 'vdir'];

/** The commands of this module; `ls` runs `dir` and `vdir` (`ls` is resolved on the same shell). */
export function coreutilsExtra(): CustomCommand[] {
  return [
    defineCommand('yes', async (args) => yes(args)),
    defineCommand('nice', (args, ctx) => nice(args, ctx)),
    defineCommand('stdbuf', (args, ctx) => stdbuf(args, ctx)),
    // Every write here is already on the sprite's disk: nothing to flush.
    defineCommand('sync', async () => ok('')),
    defineCommand('hostid', async () => hostid()),
    defineCommand('dir', (args, ctx) => run(['ls', '-C', '-b', ...args], ctx)),
    defineCommand('vdir', (args, ctx) => run(['ls', '-l', '-b', ...args], ctx)),
  ];
}
