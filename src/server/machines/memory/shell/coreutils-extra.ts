/**
 * GNU coreutils programs just-bash lacks, whose effect the shell engine can give exactly: `who` and `users` (no one
 * is logged in to a sprite), `yes`, `nice` (runs its
 * command at the niceness it then reports; priority changes nothing else a script can observe here) and `stdbuf`
 * (runs its command; buffering changes nothing a script can observe here), `sync`, `hostid`, and
 * `dir`/`vdir` (GNU's `ls -C -b` and `ls -l -b`).
 * @see https://www.gnu.org/software/coreutils/manual/ (who, users, yes, nice, stdbuf, sync, hostid, dir, vdir)
 */
import { defineCommand, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { childProcess } from './child-environment.ts';
import { shellQuote } from '../argv.ts';
import { unsupported } from './gnu-commands.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';
import { programArgv } from './program-path.ts';
import { untilSignalled, writesToNoPipe } from './endless-output.ts';
import { notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { localeQuote } from './gnu-quote.ts';
import type { OrderedResult } from './output-order.ts';

const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/**
 * How much `yes` writes: a pipeline here runs each command to its end before the next reads, so `yes` stops after
 * this many bytes, as if its reader had closed the pipe (status 141, SIGPIPE, as `yes | head` gives under
 * `pipefail`). 1 MiB (524,288 lines of `y`) is far more than any `yes | cmd` answers prompts with, and costs a pipe
 * of it about 0.1 s of the event loop.
 * Into anything but a pipe it writes nothing and waits for the signal that ends it (endless-output.ts).
 */
export const YES_LIMIT_BYTES = 1024 * 1024;

/**
 * `yes [STRING...]`: the words (or `y`) on a line, repeated up to {@link YES_LIMIT_BYTES}. Options are read up to
 * the first `--` (GNU's getopt: `yes a -- b` prints `a b`, `yes -n` is an invalid option).
 */
function yes(args: string[]): ExecResult {
  const end = args.indexOf('--');
  for (const a of end < 0 ? args : args.slice(0, end)) {
    if (a === '--help' || a === '--version') return unsupported('yes', a);
    if (a.startsWith('--')) return fail(`yes: unrecognized option '${a}'\nTry 'yes --help' for more information.\n`);
    if (a.startsWith('-') && a.length > 1) return fail(`yes: invalid option -- '${a[1]}'\nTry 'yes --help' for more information.\n`);
  }
  const words = end < 0 ? args : [...args.slice(0, end), ...args.slice(end + 1)];
  const line = `${words.length > 0 ? words.join(' ') : 'y'}\n`;
  return { stdout: line.repeat(Math.max(1, Math.floor(YES_LIMIT_BYTES / Buffer.byteLength(line)))), stderr: '', exitCode: 141 };
}

/** Runs `argv` as a command line of the same shell, with this command's stdin (and `env` added to its variables). */
async function run(argv: string[], ctx: CommandContext, env?: Record<string, string>): Promise<ExecResult> {
  return execOnOwnStdin(ctx, (await programArgv(ctx, argv)).map(shellQuote).join(' '), { cwd: ctx.cwd, ...childProcess(ctx, env) });
}

/**
 * The shell variable that carries the niceness a command runs at (what `nice` prints): set by `nice` for its command,
 * passed on to child shells (shell-command.ts); absent means 0. Unlisted, as every `__spritzer_` variable.
 */
export const NICE_VARIABLE = '__spritzer_nice';

/** The niceness of the command reading `env` (0 to 19). */
export function niceness(env: ReadonlyMap<string, string>): number {
  const n = Number(env.get(NICE_VARIABLE) ?? '0');
  return Number.isInteger(n) ? Math.min(19, Math.max(0, n)) : 0;
}

/**
 * `nice [-n N | -N] [COMMAND...]`: without a command prints the niceness; with one runs it at the niceness plus N
 * (10 by default), at most 19. Lowering it (N below 0) needs privilege the sprite user lacks: GNU nice warns
 * `cannot set niceness: Permission denied` and runs the command at its niceness unchanged.
 * @see GNU coreutils manual "nice invocation"; setpriority(2)
 */
async function nice(args: string[], ctx: CommandContext): Promise<OrderedResult> {
  let i = 0;
  let adjustment = '10';
  const a0 = args[0] ?? '';
  if (a0 === '-n' || a0 === '--adjustment') [i, adjustment] = [2, args[1] ?? ''];
  else if (/^(-n|--adjustment=)-?\+?\d+$/.test(a0)) [i, adjustment] = [1, a0.replace(/^(-n|--adjustment=)/, '')];
  else if (/^-\d+$/.test(a0)) [i, adjustment] = [1, a0.slice(1)];
  else if (a0 === '--') i = 1;
  if (i === 2 && !/^-?\+?\d+$/.test(adjustment)) return fail(`nice: invalid adjustment '${adjustment}'\nTry 'nice --help' for more information.\n`, 125);
  // getopt takes a `--` after the adjustment too (`nice -n 5 -- cmd`).
  if (i > 0 && a0 !== '--' && args[i] === '--') i++;
  const rest = args.slice(i);
  const current = niceness(ctx.env);
  if (rest.length === 0) return i === 0 ? ok(`${current}\n`) : fail("nice: a command must be given with an adjustment\nTry 'nice --help' for more information.\n", 125);
  const by = Number(adjustment.replace('+', ''));
  const root = ctx.env.get('EUID') === '0' || ctx.env.get('USER') === 'root';
  if (by < 0 && !root) {
    // GNU nice warns before it execs the command: the warning comes before anything the command writes.
    const r: OrderedResult = await runNice(rest, ctx, current);
    const warning = 'nice: cannot set niceness: Permission denied\n';
    return { ...r, stderr: `${warning}${r.stderr}`, outputOrder: [0, warning.length, ...(r.outputOrder ?? [r.stdout.length, r.stderr.length])] };
  }
  return runNice(rest, ctx, Math.min(19, Math.max(0, current + by)));
}

/** Runs `argv` at niceness `level`; a program that cannot be executed is reported as nice's execvp failure. */
async function runNice(argv: string[], ctx: CommandContext, level: number): Promise<OrderedResult> {
  const failed = (why: string) => `nice: ${localeQuote(ctx.env, argv[0]!)}: ${why}`;
  if (await notOnPath(ctx.fs, ctx.cwd, argv[0]!, ctx.env.get('PATH'))) return programNotFound(failed);
  const r = await run(argv, ctx, { [NICE_VARIABLE]: String(level) });
  return reportExecFailure(r, argv[0]!, failed);
}

/** GNU's multipliers of a size suffix (xstrtoumax's `EGkKMPQRTYZ`): the power of 1024 (or of 1000 with `B`/`D`). */
const SIZE_POWERS: Readonly<Record<string, number>> = { k: 1, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8, R: 9, Q: 10 };

/**
 * Checks one stdbuf MODE of stream `opt` (`i`, `o` or `e`): `L` (not for stdin), or a size (digits with an optional
 * `K`, `KB`, `KiB`… suffix, at most SIZE_MAX); returns GNU's diagnostic (and whether usage follows), or null.
 * @see GNU coreutils stdbuf.c (parse_size, set_mode)
 */
function stdbufModeError(opt: string, raw: string, env: Map<string, string>): { message: string; usage: boolean } | null {
  const mode = raw.replace(/^[\t\n\v\f\r ]+/, '');
  if (opt === 'i' && mode.startsWith('L')) return { message: 'line buffering stdin is meaningless', usage: true };
  if (mode === 'L') return null;
  const m = /^(\d+)(?:([kKMGTPEZYRQ])(B|D|iB)?)?$/.exec(mode);
  if (!m) return { message: `invalid mode ${localeQuote(env, raw.replace(/^[\t\n\v\f\r ]+/, ''))}`, usage: false };
  const base = m[3] === 'B' || m[3] === 'D' ? 1000n : 1024n;
  const size = BigInt(m[1]!) * base ** BigInt(m[2] ? SIZE_POWERS[m[2]]! : 0);
  if (size > 2n ** 64n - 1n) return { message: `invalid mode ${localeQuote(env, mode)}: Value too large for defined data type`, usage: false };
  return null;
}

/** `stdbuf -i/-o/-e MODE... COMMAND...`: runs the command (output here is never held in a stdio buffer). */
async function stdbuf(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    let mode: [string, string] | null = null;
    if (/^-[ioe]$/.test(a)) mode = [a[1]!, args[++i] ?? ''];
    else if (/^-[ioe]./.test(a)) mode = [a[1]!, a.slice(2)];
    else if (/^--(input|output|error)=/.test(a)) mode = [a[2]!, a.slice(a.indexOf('=') + 1)];
    else break;
    const bad = stdbufModeError(mode[0], mode[1], ctx.env);
    if (bad) return fail(`stdbuf: ${bad.message}\n${bad.usage ? "Try 'stdbuf --help' for more information.\n" : ''}`, 125);
  }
  const rest = args.slice(i);
  if (rest.length === 0) return fail("stdbuf: missing operand\nTry 'stdbuf --help' for more information.\n", 125);
  if (i === 0) return fail("stdbuf: you must specify a buffering mode option\nTry 'stdbuf --help' for more information.\n", 125);
  const failed = (why: string) => `stdbuf: failed to run command ${localeQuote(ctx.env, rest[0]!)}: ${why}`;
  if (await notOnPath(ctx.fs, ctx.cwd, rest[0]!, ctx.env.get('PATH'))) return programNotFound(failed);
  return reportExecFailure(await run(rest, ctx), rest[0]!, failed);
}

/**
 * `hostid`: glibc's host id when `/etc/hostid` is absent, the sprite's address in `/etc/hosts` (127.0.1.1) with
 * its 16-bit halves swapped, in hex.
 */
function hostid(): ExecResult {
  return ok('007f0101\n');
}

/**
 * `who [-q]` and `users`: the users logged in, from utmp. Nobody logs in to a sprite (an exec is no login session,
 * so no utmp record is written): `who` and `users` print nothing, `who -q` the count line `# users=0`. Any other
 * option or a FILE operand (boot time, run level, another utmp file) is refused loudly.
 * @see GNU coreutils manual "who invocation", "users invocation"
 */
function loggedIn(cmd: 'who' | 'users', args: string[]): ExecResult {
  if (args.length === 0) return ok('');
  if (cmd === 'who' && args.length === 1 && (args[0] === '-q' || args[0] === '--count')) return ok('\n# users=0\n');
  return unsupported(cmd, args[0]!);
}

/** Names of the commands of {@link coreutilsExtra} (each needs its `/bin` stub to be found on PATH). */
export const COREUTILS_EXTRA_NAMES: readonly string[] = ['yes', 'nice', 'stdbuf', 'sync', 'hostid', 'dir', 'vdir', 'who', 'users'];

/** The commands of this module; `ls` runs `dir` and `vdir` (`ls` is resolved on the same shell). */
export function coreutilsExtra(): CustomCommand[] {
  return [
    // Into no pipe, yes runs until a signal ends it (endless-output.ts).
    defineCommand('yes', async (args, ctx) => {
      const result = yes(args);
      return result.exitCode === 141 && writesToNoPipe(ctx) ? untilSignalled(ctx, () => Buffer.from(result.stdout).toString('latin1')) : result;
    }),
    defineCommand('nice', (args, ctx) => nice(args, ctx)),
    defineCommand('stdbuf', (args, ctx) => stdbuf(args, ctx)),
    // Every write here is already on the sprite's disk: nothing to flush.
    defineCommand('sync', async () => ok('')),
    defineCommand('hostid', async () => hostid()),
    defineCommand('who', async (args) => loggedIn('who', args)),
    defineCommand('users', async (args) => loggedIn('users', args)),
    defineCommand('dir', (args, ctx) => run(['ls', '-C', '-b', ...args], ctx)),
    defineCommand('vdir', (args, ctx) => run(['ls', '-l', '-b', ...args], ctx)),
  ];
}
