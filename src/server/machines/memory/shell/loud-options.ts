/**
 * Options the `shell` engine's commands do not know fail loudly, unless GNU lacks them too. just-bash's commands
 * reject an option they lack the way GNU rejects a typo (`cp: invalid option -- 'T'`, exit 1), but GNU has the
 * option: a script's `cp -T a b || fallback` would take the fallback on `shell` and not on a real sprite, silently.
 * Every command's result is checked: a rejection of an option GNU's program has names it and `--exec sandbox`
 * instead, with exit 2: `cp: option -T is not available in the shell engine; run spritzer with --exec sandbox`. An
 * option GNU's program lacks gets GNU's own answer (gnu-options.ts: `cp: unrecognized option '--bogus'`, its usage
 * tail and status), and an unambiguous abbreviation of a long option GNU has (`sort --rev`) runs as the full name.
 * @see docs/fidelity.md "shell engine"; test/external/differential (the corpus that finds these)
 */
import { defineCommand, type Command, type CustomCommand, type ExecResult } from 'just-bash';
import { gnuOptionStatus, gnuRejection } from './gnu-options.ts';

const HINT = 'run spritzer with --exec sandbox';

/**
 * just-bash's wordings of an option or predicate it does not know, per program (the first group is the program,
 * the second the option as the user wrote it).
 */
const REJECTIONS: readonly RegExp[] = [
  /^([\w.-]+): invalid option -- '(.+)'$/,
  /^([\w.-]+): unrecognized option '(.+?)'$/,
  /^([\w.-]+): unknown option '?(.+?)'?$/,
  /^(find): unknown predicate '(.+)'$/,
  /^(find): Unknown argument to (-\w+: .+)$/,
  /^(find): invalid argument `(.+)' to `(.+)'$/,
  // The engine's own refusal of an option (gnu-commands.ts `unsupported`): an abbreviation GNU takes runs in full.
  /^([\w.-]+): option (--?[^\s]+) is not available in the shell engine; /,
];

/** The option of `name` its command rejected in `result` (as the message gives it: `--zap`, `-T`), if any. */
function rejectedOption(name: string, result: ExecResult): string | undefined {
  if (result.exitCode === 0 || !result.stderr) return undefined;
  for (const line of result.stderr.split('\n')) {
    for (const re of REJECTIONS) {
      const m = re.exec(line);
      if (m && m[1] === name) return m[2]!.length === 1 && !m[2]!.startsWith('-') ? `-${m[2]}` : m[2]!;
    }
  }
  return undefined;
}

/** The argument of `args` that holds the rejected `opt` (`--zap=3` for `--zap`), or `opt` itself. */
const writtenAs = (opt: string, args: readonly string[]): string =>
  opt.startsWith('--') ? (args.find((a) => a === opt || a.startsWith(`${opt}=`)) ?? opt) : opt;

/**
 * GNU's answer to an option of `name` that GNU's program lacks (gnu-options.ts), or undefined: GNU has it (or
 * abbreviates to one it has), or the host has no GNU program to tell.
 */
function gnuAnswer(name: string, opt: string): ExecResult | undefined {
  return gnuOptionStatus(name, opt)?.kind === 'unknown' ? gnuRejection(name, opt) : undefined;
}

/**
 * `result` with a rejected option of `name` turned into GNU's rejection when GNU's program lacks it too (`gnu`, the
 * host's answer by default), else into the loud refusal (exit 2); any other result unchanged. Only lines naming `name`
 * itself count (a nested command's own lines were handled when it ran). `args`: the command's arguments.
 */
export function loudOptions(name: string, result: ExecResult, args: readonly string[] = [], gnu = gnuAnswer): ExecResult {
  const rejected = rejectedOption(name, result);
  if (rejected === undefined) return result;
  const opt = writtenAs(rejected, args);
  const answer = gnu(name, opt);
  if (answer) return answer;
  let hit = false;
  const stderr = result.stderr
    .split('\n')
    .map((line) => {
      if (hit || !REJECTIONS.some((re) => re.exec(line)?.[1] === name)) return line;
      hit = true;
      return `${name}: option ${rejected} is not available in the shell engine; ${HINT}`;
    })
    .join('\n');
  return { ...result, stderr, exitCode: 2 };
}

/**
 * `args` with the long option `name`'s command rejected in `result` written in full, when it is an unambiguous
 * abbreviation of one GNU's program has (getopt_long takes `--rev` for `--reverse`); else undefined.
 */
function expandedArgs(name: string, result: ExecResult, args: readonly string[]): string[] | undefined {
  const rejected = rejectedOption(name, result);
  if (!rejected?.startsWith('--')) return undefined;
  const opt = writtenAs(rejected, args);
  const full = gnuOptionStatus(name, opt)?.full;
  if (!full) return undefined;
  const at = args.indexOf(opt);
  return at < 0 ? undefined : args.map((a, i) => (i === at ? full + opt.slice(opt.split('=')[0]!.length) : a));
}

/** `result` of `name args`, run again with a rejected abbreviation written in full (`run`), then checked. */
async function checked(name: string, args: string[], result: ExecResult, run: (args: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  const full = expandedArgs(name, result, args);
  if (full) return loudOptions(name, await run(full), full);
  return loudOptions(name, result, args);
}

/** Commands that run other commands: their stderr holds their children's lines, already checked. */
const RUNNERS = new Set(['sh', 'bash', 'xargs', 'env', 'time', 'timeout', 'sudo', 'nohup']);

/**
 * `commands` with every result passed through {@link loudOptions}, plus a checking wrapper over each of just-bash's
 * own commands in `builtins` that `commands` does not define. Lazy commands are kept as they are, and the commands
 * named in `exact` (spritzer's own, which reject an option with GNU's own words because GNU has no such option) only
 * run again with a long option's abbreviation written in full.
 */
export function withLoudOptions(commands: CustomCommand[], builtins: Iterable<string>, exact: ReadonlySet<string> = new Set()): CustomCommand[] {
  const defined = new Set(commands.map((c) => c.name));
  const wrapped = commands.map((c): CustomCommand => {
    if ('load' in c || RUNNERS.has(c.name)) return c;
    return (exact.has(c.name) ? exactWrapper : loudWrapper)(c as Command);
  });
  for (const name of builtins) if (!defined.has(name) && !RUNNERS.has(name)) wrapped.push(builtinWrapper(name));
  return wrapped;
}

/**
 * The checking wrapper of `cmd`, made once per command object: a command built once for every exec (a stateless
 * one) is wrapped once, not on every exec.
 */
const loudWrappers = new WeakMap<Command, Command>();
function loudWrapper(cmd: Command): Command {
  let w = loudWrappers.get(cmd);
  if (!w) loudWrappers.set(cmd, (w = defineCommand(cmd.name, async (args, ctx) => checked(cmd.name, args, await cmd.execute(args, ctx), (a) => cmd.execute(a, ctx)))));
  return w;
}

/**
 * The wrapper of an exact command (one of spritzer's own, whose rejections are GNU's own words already): only an
 * abbreviation GNU takes is run again in full. Made once per command object, as {@link loudWrapper}.
 */
const exactWrappers = new WeakMap<Command, Command>();
function exactWrapper(cmd: Command): Command {
  let w = exactWrappers.get(cmd);
  if (!w) {
    w = defineCommand(cmd.name, async (args, ctx) => {
      const result = await cmd.execute(args, ctx);
      const full = expandedArgs(cmd.name, result, args);
      return full ? cmd.execute(full, ctx) : result;
    });
    exactWrappers.set(cmd, w);
  }
  return w;
}

const builtinWrappers = new Map<string, Command>();
/** The checking wrapper of just-bash's own `name` (one per name: it holds no state). */
function builtinWrapper(name: string): Command {
  let cmd = builtinWrappers.get(name);
  if (!cmd) builtinWrappers.set(name, (cmd = defineCommand(name, async (args, ctx) => checked(name, args, await ctx.origCommand!(args), (a) => ctx.origCommand!(a)))));
  return cmd;
}
