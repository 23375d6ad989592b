/**
 * The text a POSIX error code reads as in a GNU tool's message (strerror in the C locale), for the file commands
 * spritzer writes itself. A pure table.
 */

const TEXT: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  ENOTEMPTY: 'Directory not empty',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EINVAL: 'Invalid argument',
  ENOSPC: 'No space left on device',
  ENXIO: 'No such device or address',
  EBADF: 'Bad file descriptor',
};

/** The message of POSIX error `code`, or undefined when the table has none. */
export function errnoText(code: string | undefined): string | undefined {
  return code === undefined ? undefined : TEXT[code];
}

/** The message of a filesystem error (its `code`); `No such file or directory` when it has none known. */
export function strerror(err: unknown): string {
  return TEXT[(err as { code?: string } | null)?.code ?? ''] ?? TEXT.ENOENT!;
}
