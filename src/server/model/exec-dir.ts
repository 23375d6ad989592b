/**
 * The path check an exec's working directory (`dir`) goes through before the command starts: Linux's PATH_MAX and
 * NAME_MAX, no NUL or newline (the same `checkPath` the fs API uses). It does not look the directory up (the
 * session manager does).
 * @see docs/wire-reference.md §4.2 (`dir`), docs/limits.md (path length)
 */
import { checkPath } from '../machines/port.ts';
import { ModelError } from '../core/errors.ts';
import { VfsError } from '../machines/port.ts';

/**
 * Throws ModelError `invalid_request` (HTTP 400) `chdir <dir>: file name too long` when `dir` is over 4095 bytes or
 * has a component over 255 bytes, `chdir <dir>: invalid argument` when it holds a NUL byte or a newline; the
 * `dir` shown is cut to 4096 characters. Returns nothing for any other `dir`.
 */
export function checkExecDir(dir: string): void {
  try {
    checkPath(dir, 'chdir');
  } catch (err) {
    if (!(err instanceof VfsError)) throw err;
    const reason = err.code === 'ENAMETOOLONG' ? 'file name too long' : 'invalid argument';
    throw new ModelError('invalid_request', `chdir ${err.path}: ${reason}`);
  }
}
