/**
 * What Linux's execve(2) refuses with E2BIG ("Argument list too long"), for the programs the shell engine runs: one
 * argument or environment string of 128 KiB or more (MAX_ARG_STRLEN, its NUL included), or strings (the program's
 * path, each argument, each `NAME=value`, with their NULs) and pointers (8 bytes each) past a quarter of the
 * default 8 MiB stack limit. bash then reports the program by the path it ran, status 126; builtins exec nothing.
 * @see execve(2) "Limits on size of arguments and environment"; Linux fs/exec.c (bprm_stack_limits, copy_strings)
 */
import { STREAMING_SHELL } from './shell-command.ts';
import { SINK_DIR } from './sink-dir.ts';

/** Longest string execve copies, its NUL included (32 pages). */
const MAX_ARG_STRLEN = 131072;
/** A quarter of the default stack limit (8 MiB): what the strings and their pointers may take. */
const ARG_SPACE = 2 * 1024 * 1024;

/** The engine's redirections of a nested script's output to its sinks (output-sink.ts), which the script never had. */
const SINK_REDIRECTION = new RegExp(` ?\\d?>\\| ${SINK_DIR.replace(/[.]/g, '\\.')}[\\w.-]+`, 'g');

/** A string's bytes with its NUL, as the user wrote it (without the engine's sink redirections). */
const bytes = (s: string) => Buffer.byteLength(s.includes(SINK_DIR) ? s.replace(SINK_REDIRECTION, '') : s) + 1;

/** Whether execve of `path` with `argv` and `env` fails with E2BIG. */
export function argListTooLong(path: string, argv: readonly string[], env: Readonly<Record<string, string>>): boolean {
  const strings = [...argv, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)];
  let total = bytes(path) + 8 * strings.length;
  for (const s of strings) {
    const n = bytes(s);
    if (n > MAX_ARG_STRLEN) return true;
    total += n;
  }
  return total > ARG_SPACE;
}

/**
 * The program bash would name in `bash: line N: PROGRAM: Argument list too long` when the command `name` (found at
 * `path`, run with `args` and the exported `env`) is too long for execve, else null. PROGRAM is the name as written
 * when it holds a `/`, else the path found. The engine's streaming wrapper of a shell or script (`STREAMING_SHELL
 * PROGRAM ARG…`) is checked as the program it runs.
 */
export function execTooLong(name: string, path: string, args: readonly string[], env: Readonly<Record<string, string>>): string | null {
  if (name === STREAMING_SHELL) {
    const [program = '', ...rest] = args;
    return execTooLong(program, program.includes('/') ? program : `/usr/bin/${program}`, rest, env);
  }
  const shown = name.includes('/') ? name : path;
  return argListTooLong(path, [name, ...args], env) ? shown : null;
}
