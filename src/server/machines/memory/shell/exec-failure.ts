/**
 * A wrapper's own failure to exec its program. `env CMD`, `nice CMD`, `timeout N CMD`, `nohup CMD`, `stdbuf … CMD`,
 * `setsid CMD`, `sudo CMD`, `xargs CMD` and `find -exec CMD` run CMD here as a command line of the same shell, so a
 * program that cannot run comes back as the shell's lookup failure (`bash: line 1: CMD: command not found`, status
 * 127; `bash: line 1: /etc: Is a directory`, 126). A real wrapper calls execvp(3) itself and reports the errno in its
 * own words: ENOENT for a name found nowhere on PATH or a missing path, EACCES for a directory or a file without
 * execute permission (execve(2) answers EACCES for a directory).
 * @see execve(2) ERRORS; GNU coreutils env.c, nice.c, nohup.c, stdbuf.c, timeout.c; findutils; util-linux setsid.c
 */
import type { ExecResult, IFileSystem } from 'just-bash';
import { findOnPath } from './program-path.ts';

/** Why the program could not be executed: its errno. */
export type ExecErrno = 'ENOENT' | 'EACCES';

/** The strerror(3) text of an {@link ExecErrno}. */
export const EXEC_ERRNO_TEXT: Readonly<Record<ExecErrno, string>> = { ENOENT: 'No such file or directory', EACCES: 'Permission denied' };

/** The shell's one-line report that it could not run a program, with or without a line number. */
const SHELL_FAILURE = /^bash: (?:line \d+: )?(.+): (command not found|No such file or directory|Permission denied|Is a directory)\n$/;

/**
 * The errno behind `result` when it is the shell's own failure to run `program` (the wrapper's first word of its
 * command): status 127 with `command not found` or `No such file or directory` is ENOENT, status 126 with
 * `Permission denied` or `Is a directory` is EACCES. A program that ran and itself exited 127 or 126 (a `bash -c`
 * whose own command was missing) names another word or writes more, and gives null.
 */
export function execFailure(result: ExecResult, program: string): ExecErrno | null {
  if (result.exitCode !== 127 && result.exitCode !== 126) return null;
  if (result.stdout !== '') return null;
  const m = SHELL_FAILURE.exec(result.stderr);
  if (!m || m[1] !== program) return null;
  const missing = m[2] === 'command not found' || m[2] === 'No such file or directory';
  if (missing !== (result.exitCode === 127)) return null;
  return missing ? 'ENOENT' : 'EACCES';
}

/**
 * `result`, or when it is the shell's failure to run `program` ({@link execFailure}), the wrapper's own report:
 * `message(errno text)` on stderr (with its newline added) and `status(errno)` (by default 127 for ENOENT, 126 for
 * EACCES, as env, nice, nohup, stdbuf, timeout and sudo exit).
 */
export function reportExecFailure<R extends ExecResult>(
  result: R,
  program: string,
  message: (why: string, errno: ExecErrno) => string,
  status: (errno: ExecErrno) => number = (e) => (e === 'ENOENT' ? 127 : 126),
): R | ExecResult {
  const errno = execFailure(result, program);
  if (errno === null) return result;
  return { stdout: '', stderr: `${message(EXEC_ERRNO_TEXT[errno], errno)}\n`, exitCode: status(errno) };
}

/**
 * Whether execvp(3) would find no program `name` (a word without `/`) on `path` (the `PATH` of the wrapper's
 * command; undefined: glibc's default): no directory of it (an empty entry is the current directory) holds an
 * executable regular file of that name. A shell builtin with no program of its name (`cd`, `export`) and a shell
 * function are not found: a wrapper runs programs only (`env cd /` fails with ENOENT). A name with a `/` is left to
 * the exec, whose failure {@link execFailure} reads.
 */
export async function notOnPath(fs: IFileSystem, cwd: string, name: string, path: string | undefined): Promise<boolean> {
  if (name.includes('/')) return false;
  if (name === '') return true;
  return (await findOnPath(fs, cwd, name, path)) === null;
}

/** The result of a wrapper whose program execvp(3) did not find: `message` (ENOENT's text) and `status` (127). */
export function programNotFound(message: (why: string, errno: ExecErrno) => string, status: (errno: ExecErrno) => number = () => 127): ExecResult {
  return { stdout: '', stderr: `${message(EXEC_ERRNO_TEXT.ENOENT, 'ENOENT')}\n`, exitCode: status('ENOENT') };
}
