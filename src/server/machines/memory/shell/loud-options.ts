/**
 * Options the `shell` engine's commands do not know fail loudly. just-bash's commands reject an option they lack
 * the way GNU rejects a typo (`cp: invalid option -- 'T'`, exit 1), but GNU has the option: a script's
 * `cp -T a b || fallback` would take the fallback on `shell` and not on a real sprite, silently. Every command's
 * result is checked: a rejection of an option names it and `--exec sandbox` instead, with exit 2:
 * `cp: option -T is not available in the shell engine; run spritzer with --exec sandbox`.
 * @see docs/fidelity.md "shell engine"; test/external/differential (the corpus that finds these)
 */
import { defineCommand, type Command, type CustomCommand, type ExecResult } from 'just-bash';

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
];

/**
 * `result` with a rejected option of `name` turned into the loud refusal (exit 2); any other result unchanged.
 * Only lines naming `name` itself count (a nested command's own lines were handled when it ran).
 */
export function loudOptions(name: string, result: ExecResult): ExecResult {
  if (result.exitCode === 0 || !result.stderr) return result;
  let hit = false;
  const stderr = result.stderr
    .split('\n')
    .map((line) => {
      for (const re of REJECTIONS) {
        const m = re.exec(line);
        if (m && m[1] === name) {
          hit = true;
          const opt = m[2]!.length === 1 && !m[2]!.startsWith('-') ? `-${m[2]}` : m[2]!;
          return `${name}: option ${opt} is not available in the shell engine; ${HINT}`;
        }
      }
      return line;
    })
    .join('\n');
  return hit ? { ...result, stderr, exitCode: 2 } : result;
}

/** Commands that run other commands: their stderr holds their children's lines, already checked. */
const RUNNERS = new Set(['sh', 'bash', 'xargs', 'env', 'time', 'timeout', 'sudo', 'nohup']);

/**
 * `commands` with every result passed through {@link loudOptions}, plus a checking wrapper over each of just-bash's
 * own commands in `builtins` that `commands` does not define. Lazy commands, and the commands named in `exact`
 * (spritzer's own, which reject an option with GNU's own words because GNU has no such option), are kept as they are.
 */
export function withLoudOptions(commands: CustomCommand[], builtins: Iterable<string>, exact: ReadonlySet<string> = new Set()): CustomCommand[] {
  const defined = new Set(commands.map((c) => c.name));
  const wrapped = commands.map((c): CustomCommand => {
    if ('load' in c || RUNNERS.has(c.name) || exact.has(c.name)) return c;
    return loudWrapper(c as Command);
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
  if (!w) loudWrappers.set(cmd, (w = defineCommand(cmd.name, async (args, ctx) => loudOptions(cmd.name, await cmd.execute(args, ctx)))));
  return w;
}

const builtinWrappers = new Map<string, Command>();
/** The checking wrapper of just-bash's own `name` (one per name: it holds no state). */
function builtinWrapper(name: string): Command {
  let cmd = builtinWrappers.get(name);
  if (!cmd) builtinWrappers.set(name, (cmd = defineCommand(name, async (args, ctx) => loudOptions(name, await ctx.origCommand!(args)))));
  return cmd;
}
