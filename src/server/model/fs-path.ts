/**
 * The one check every path from a client goes through before it reaches a sprite's filesystem: the fs API
 * routes (`path`, `workingDir`, `source`, `dest`) and the fs/watch subscribe. It enforces Linux's limits
 * (`PATH_MAX`, `NAME_MAX`) and refuses NUL and newline, in time linear in the path's length. It does not look
 * anything up: existence, symlinks and permissions are the machine's business.
 */
import { DEFAULT_LIMITS, type Limits } from '../config/limits.ts';
import { normalizePath, VfsError } from '../machines/port.ts';

/** The limits `checkPath` applies. */
export type PathLimits = Pick<Limits, 'pathMaxBytes' | 'nameMaxBytes'>;

/**
 * Throws a `VfsError` when `path` (as the client sent it, or as resolved) may not be used:
 * - EINVAL when it contains a NUL byte or a newline (`\n`, `\r`);
 * - ENAMETOOLONG when it has `pathMaxBytes` (4096) UTF-8 bytes or more (Linux counts the terminating NUL in
 *   PATH_MAX), or one component has more than `nameMaxBytes` (255) UTF-8 bytes.
 * The error's `path` is the offending path cut to `pathMaxBytes` characters, so an error never echoes an
 * unbounded input. `syscall` names the operation in the message (`open`, `watch`, …). O(length of `path`).
 * @deviation Linux allows a newline in a file name; spritzer refuses it (an fs watch event or an NDJSON log line
 *   naming such a file could not be told apart from two). See docs/fidelity.md.
 * @see https://man7.org/linux/man-pages/man7/path_resolution.7.html (ENAMETOOLONG), docs/limits.md
 */
export function checkPath(path: string, syscall = 'open', limits: PathLimits = DEFAULT_LIMITS): void {
  const shown = () => (path.length > limits.pathMaxBytes ? path.slice(0, limits.pathMaxBytes) : path);
  if (/[\0\n\r]/.test(path)) throw new VfsError('EINVAL', shown(), syscall);
  // Cheap bound first: a UTF-8 byte is at most 3 per UTF-16 unit, at least 1.
  if (path.length >= limits.pathMaxBytes || Buffer.byteLength(path, 'utf8') >= limits.pathMaxBytes) {
    throw new VfsError('ENAMETOOLONG', shown(), syscall);
  }
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 0x2f /* / */) continue;
    const length = i - start;
    if (length > limits.nameMaxBytes / 3 && Buffer.byteLength(path.slice(start, i), 'utf8') > limits.nameMaxBytes) {
      throw new VfsError('ENAMETOOLONG', shown(), syscall);
    }
    start = i + 1;
  }
}

/**
 * Resolves a client's `path` against its `workingDir` (default `/`) to the normalised absolute path the machine
 * gets, checking the raw `path`, the `workingDir` and the result with `checkPath` (a relative path may be short
 * while the joined one is too long). Throws what `checkPath` throws.
 * @see docs/wire-reference.md §8 (relative paths resolve against `workingDir`), §6.3 (the watch's `workingDir`)
 */
export function resolveClientPath(path: string, workingDir: string | undefined, syscall = 'open', limits: PathLimits = DEFAULT_LIMITS): string {
  checkPath(path, syscall, limits);
  if (workingDir !== undefined) checkPath(workingDir, syscall, limits);
  const resolved = normalizePath(path, normalizePath(workingDir ?? '/'));
  checkPath(resolved, syscall, limits);
  return resolved;
}
