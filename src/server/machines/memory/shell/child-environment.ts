/**
 * The environment a program the shell starts receives: exactly the shell's exported variables at that moment (its
 * prefix assignments included, `export -f` functions as `BASH_FUNC_NAME%%`), never its other shell variables nor
 * the environment the exec began with. just-bash's nested runs (`ctx.exec`) start from the interpreter's state as the
 * exec began, so a command that runs another program (`timeout`, `nice`, `nohup`, `xargs`, `find -exec`, `node`)
 * must hand over the current exports itself: without it `export FOO=1; timeout 5 printenv FOO` printed nothing.
 * @see bash(1) "ENVIRONMENT" and "COMMAND EXECUTION ENVIRONMENT"; execve(2)
 */
import type { CommandContext } from 'just-bash';

/**
 * The exported variables a command sees, in the order bash hands them over (patches/just-bash/variables-export-order.mjs:
 * its prefix assignments, then bash's hash-table order), with `_`, the pathname of the program run, where bash puts
 * it (patches/just-bash/underscore-variable.mjs): in its place when the shell inherited it, else last. Without the
 * interpreter's exported set: all variables.
 */
export function exported(ctx: CommandContext): Record<string, string> {
  const names = ctx.exportedEnv;
  if (!names) return Object.fromEntries(ctx.env);
  return Object.fromEntries(Object.keys(names).map((name) => [name, names[name] ?? ctx.env.get(name)!]));
}

/**
 * The `ctx.exec` options that start a command line as a new process of this command: its environment is `extra`
 * over {@link exported}`(ctx)`, all of it exported (`exportedNames`: patches/just-bash/child-shell-exports.mjs), and
 * nothing else of the shell (`replaceEnv`: no unexported variables, arrays, options or readonly marks carry over).
 */
export function childProcess(ctx: CommandContext, extra: Record<string, string> = {}): { env: Record<string, string>; replaceEnv: true; exportedNames: string[] } {
  const env = { ...exported(ctx), ...extra };
  return { env, replaceEnv: true, exportedNames: Object.keys(env) };
}
