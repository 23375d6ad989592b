/**
 * The lexical normal form of a sprite path, one rule for the server (every path reaches a machine in this form) and
 * the in-sprite agent (which checks what the server sends before it touches a file). It resolves nothing on disk:
 * symlinks, existence and permissions are the machine's business.
 */

/**
 * The absolute canonical form of `path` (resolved against `cwd` when relative): `.` and empty components dropped,
 * `..` taken lexically (above `/` stays `/`), no trailing slash. Symlinks are not resolved (the machine does that).
 * Every path reaches a `MachineFs` in this form.
 */
export function normalizePath(path: string, cwd = '/'): string {
  const full = path.startsWith('/') ? path : `${cwd.startsWith('/') ? cwd : `/${cwd}`}/${path}`;
  const out: string[] = [];
  for (const part of full.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
