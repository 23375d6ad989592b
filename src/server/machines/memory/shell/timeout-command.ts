/**
 * GNU `timeout`'s exit status and messages around just-bash's own (which runs the command and stops it at the time
 * limit, exit 124): `-s SIGNAL` and `--preserve-status` decide the status as GNU's does (`128+N` for the signal
 * the command died of), `-s KILL` also ends timeout itself (bash then reports it `Killed`), `-v` names the signal.
 * @see GNU coreutils manual "timeout invocation"
 */
import { execFailure, notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { normalizeSignalName, signalNumber } from '../../../../protocol/signals.ts';
import { localeQuote } from './gnu-quote.ts';
import { parseDuration } from './duration.ts';
import { programArgv } from './program-path.ts';

/** Longest wait the engine's timers take (2^31-1 ms): an infinite or longer DURATION waits this long. */
const MAX_SECONDS = 2147483;

/** A DURATION's seconds as the time limit (duration.ts reads it). */
function limitSeconds(n: number): number {
  // GNU: a duration of 0 disables the time limit.
  return n === 0 ? MAX_SECONDS : Math.min(n, MAX_SECONDS);
}

/** What timeout's options ask for; `operands` is the index of the DURATION operand. */
interface TimeoutOptions { signal: string; preserve: boolean; foreground: boolean; verbose: boolean; operands: number }

/** Reads timeout's options up to its first operand; `badSignal` names a signal it does not know, `usage` a bad option. */
function parseOptions(args: string[]): TimeoutOptions | { badSignal: string } | { usage: string } {
  const o: TimeoutOptions = { signal: 'TERM', preserve: false, foreground: false, verbose: false, operands: args.length };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    let sig: string | undefined;
    if (a === '--preserve-status') o.preserve = true;
    else if (a === '--foreground') o.foreground = true;
    else if (a === '-v' || a === '--verbose') o.verbose = true;
    else if (a === '-s' || a === '--signal') sig = args[++i];
    else if (a.startsWith('--signal=')) sig = a.slice('--signal='.length);
    else if (/^-s./.test(a)) sig = a.slice(2);
    else if (a === '-k' || a === '--kill-after') i++;
    else if (a.startsWith('--kill-after=') || /^-k./.test(a)) continue;
    else if (a.startsWith('--') && a !== '--') return { usage: `timeout: unrecognized option '${a}'\n` };
    else if (a.startsWith('-') && a !== '-' && a !== '--') return { usage: `timeout: invalid option -- '${a[1]}'\n` };
    else {
      o.operands = a === '--' ? i + 1 : i;
      break;
    }
    if (sig !== undefined) {
      const name = normalizeSignalName(sig);
      if (name === null) return { badSignal: sig };
      o.signal = name;
    }
  }
  return o;
}

/**
 * `timeout` over just-bash's `original`: its result, with a timed-out command's status as GNU's: 124, or with
 * `--preserve-status` 128+N; with KILL (not `--foreground`) 137 and bash's report of timeout killed.
 */
async function timeout(args: string[], env: Map<string, string>, original: (args: string[]) => Promise<ExecResult>, allocatePid: () => number, missing: (name: string) => Promise<boolean>, program: (argv: string[]) => Promise<string[]>): Promise<ExecResult> {
  const o = parseOptions(args);
  const usage = (message: string): ExecResult => ({ stdout: '', stderr: `${message}Try 'timeout --help' for more information.\n`, exitCode: 125 });
  if ('usage' in o) return usage(o.usage);
  if ('badSignal' in o) return usage(`timeout: ${localeQuote(env, o.badSignal)}: invalid signal\n`);
  const [duration, ...commandWords] = args.slice(o.operands);
  if (duration === undefined || commandWords.length === 0) return usage('');
  const seconds = parseDuration(duration);
  if (seconds === null) return usage(`timeout: invalid time interval ${localeQuote(env, duration)}\n`);
  // just-bash's timeout runs the command for the duration in seconds (it knows no `--`, `-v` or exponent) and sends
  // it the signal (a shell's trap for it runs: patches/just-bash/timeout-signal-traps.mjs); the options decide what
  // a timed-out command's status is, below.
  const failed = (why: string) => `timeout: failed to run command ${localeQuote(env, commandWords[0]!)}: ${why}`;
  if (await missing(commandWords[0]!)) return programNotFound(failed);
  // The command is a program, never the shell's builtin of its name (program-path.ts).
  const result: ExecResult & { spzChildStatus?: number } = await original(['-s', o.signal, limitSeconds(seconds).toFixed(3), ...(await program(commandWords))]);
  const command = commandWords[0]!;
  // A command that cannot run: timeout's own words (status 127 or 126), not the shell's.
  if (execFailure(result, command)) return reportExecFailure(result, command, failed);
  if (result.exitCode !== 124) return result;
  const n = signalNumber(o.signal) ?? 15;
  let stderr = result.stderr + (o.verbose ? `timeout: sending signal ${o.signal} to command ${localeQuote(env, command)}\n` : '');
  // --preserve-status: the command's own status (a trap's `exit N`), or 128+N when the signal ended it.
  let exitCode = o.preserve ? (result.spzChildStatus !== undefined && result.spzChildStatus !== 124 ? result.spzChildStatus : 128 + n) : 124;
  if (n === 9) {
    exitCode = 137;
    // KILL ends timeout itself too (it signals its process group): the shell that ran it reports the death as it
    // reports any command a signal killed, at its line and with its words, and not at all for the last command of
    // a `-c` script, which it execs (patches/just-bash/with-uncaught-signal-death.mjs reads these fields).
    if (!o.foreground) return { ...result, stderr, exitCode, spzKilledBy: 9, spzKilledPid: allocatePid() } as ExecResult;
  }
  return { ...result, stderr, exitCode };
}

/** The `timeout` command, for just-bash's `customCommands`; `allocatePid` numbers timeout's own process. */
export function timeoutCommand(allocatePid: () => number): CustomCommand {
  return defineCommand('timeout', async (args, ctx) => timeout(args, ctx.env, ctx.origCommand!, allocatePid, (name) => notOnPath(ctx.fs, ctx.cwd, name, ctx.env.get('PATH')), (argv) => programArgv(ctx, argv)));
}
