/**
 * The texts of the POSIX error codes that sprite filesystems report, worded as Linux's `strerror` and Go's `syscall`
 * errors word them (what the real fs API puts in its messages), in lower case as in `ENOENT: no such file or
 * directory, open '/x'`. One table for the in-memory filesystem and the in-sprite agent, so both engines' messages
 * read the same. It owns the wording only, not which code an operation raises.
 * @see docs/wire-reference.md §8.9
 */

/** Code → text, for every code the fs API and the agent report. */
const POSIX_ERROR_TEXTS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  ELOOP: 'too many symbolic links encountered',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'file name too long',
  ENOSPC: 'no space left on device',
  EIO: 'i/o error',
  ETIMEDOUT: 'connection timed out',
};

/** The text of `code` (`ENOENT` → `no such file or directory`), or undefined for a code outside the table. */
export function posixErrorText(code: string): string | undefined {
  return Object.hasOwn(POSIX_ERROR_TEXTS, code) ? POSIX_ERROR_TEXTS[code] : undefined;
}
