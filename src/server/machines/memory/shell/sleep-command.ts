/**
 * GNU `sleep NUMBER[SUFFIX]...`: it sleeps the sum of its operands, each read as {@link parseDuration} says
 * (`sleep 1e-2`, `sleep .5`, `sleep 1m 30`, `sleep infinity`), and takes no option but `--help`/`--version`: `--`
 * ends the options and any other word starting with `-` is an invalid option. Every invalid operand is named, then
 * one "Try" line; status 1. The sleeping itself is just-bash's (on the engine's clock, ended by a signal).
 * @see GNU coreutils manual "sleep invocation"; sleep.c (parse_gnu_standard_options_only, then every operand)
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { parseDuration } from './duration.ts';
import { localeQuote } from './gnu-quote.ts';

const TRY = "Try 'sleep --help' for more information.\n";
/** Longest sleep handed to the clock (just-bash's own cap): a longer one, `infinity` too, waits this long. */
const MAX_SECONDS = 3600;

async function sleep(args: string[], env: Map<string, string>, original: (args: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  const fail = (stderr: string): ExecResult => ({ stdout: '', stderr: `${stderr}${TRY}`, exitCode: 1 });
  let operands = args;
  if (args[0] === '--') operands = args.slice(1);
  else if (args[0]?.startsWith('--')) return fail(`sleep: unrecognized option '${args[0]}'\n`);
  else if (args[0]?.startsWith('-') && args[0].length > 1) return fail(`sleep: invalid option -- '${args[0][1]}'\n`);
  if (operands.length === 0) return fail('sleep: missing operand\n');
  let total = 0;
  let errors = '';
  for (const word of operands) {
    const s = parseDuration(word);
    if (s === null) errors += `sleep: invalid time interval ${localeQuote(env, word)}\n`;
    else total += s;
  }
  if (errors) return fail(errors);
  return original([Math.min(total, MAX_SECONDS).toFixed(3)]);
}

/** The `sleep` command, for just-bash's `customCommands` (over just-bash's own, which does the waiting). */
export function sleepCommand(): CustomCommand {
  return defineCommand('sleep', async (args, ctx) => sleep(args, ctx.env, ctx.origCommand!));
}
