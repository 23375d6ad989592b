/**
 * GNU `timeout`'s exit status and messages around just-bash's own (which runs the command and stops it at the time
 * limit, exit 124): `-s SIGNAL` and `--preserve-status` decide the status as GNU's does (`128+N` for the signal
 * the command died of), `-s KILL` also ends timeout itself (bash then reports it `Killed`), `-v` names the signal.
 * @see GNU coreutils manual "timeout invocation"
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { normalizeSignalName, signalNumber } from '../../../../protocol/signals.ts';
import { localeQuote } from './gnu-quote.ts';

/** What timeout's options ask for; `operands` is the index of the DURATION operand. */
interface TimeoutOptions { signal: string; preserve: boolean; foreground: boolean; verbose: boolean; operands: number }

/** Reads timeout's options up to its first operand; `badSignal` names a signal it does not know. */
function parseOptions(args: string[]): TimeoutOptions | { badSignal: string } {
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
 * @deviation bash's report names line 1 and the command's words, not the line and text as written.
 */
async function timeout(args: string[], env: Map<string, string>, original: (args: string[]) => Promise<ExecResult>, allocatePid: () => number): Promise<ExecResult> {
  const o = parseOptions(args);
  if ('badSignal' in o) return { stdout: '', stderr: `timeout: ${localeQuote(env, o.badSignal)}: invalid signal\nTry 'timeout --help' for more information.\n`, exitCode: 125 };
  // just-bash's timeout knows no -v: it is timeout's own, told apart from the command's words by position.
  const result = await original(args.filter((a, i) => i >= o.operands || (a !== '-v' && a !== '--verbose')));
  const command = args[o.operands + 1];
  if (result.exitCode !== 124 || command === undefined) return result;
  const n = signalNumber(o.signal) ?? 15;
  let stderr = result.stderr + (o.verbose ? `timeout: sending signal ${o.signal} to command ${localeQuote(env, command)}\n` : '');
  let exitCode = o.preserve ? 128 + n : 124;
  if (n === 9) {
    exitCode = 137;
    if (!o.foreground) stderr += `bash: line 1: ${String(allocatePid()).padStart(5)} ${'Killed'.padEnd(24)}timeout ${args.join(' ')}\n`;
  }
  return { ...result, stderr, exitCode };
}

/** The `timeout` command, for just-bash's `customCommands`; `allocatePid` numbers timeout's own process. */
export function timeoutCommand(allocatePid: () => number): CustomCommand {
  return defineCommand('timeout', async (args, ctx) => timeout(args, ctx.env, ctx.origCommand!, allocatePid));
}
