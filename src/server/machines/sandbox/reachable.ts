/**
 * Bubblewrap opens some host paths by name after it has become the sprite's root, which is an unprivileged host
 * uid of the sprite's own range (docs/sandbox.md "User namespaces"): the sprite's merged root under the data dir and
 * the agent's files it binds read-only (the node binary, the bundle, node-pty). Every directory above them must be
 * searchable by others (o+x) and the files readable by others. This module checks that when the engine opens, so a
 * data dir or an installation under a private directory (root's 0700 home, say) is refused at start with the
 * directory and the fix named, instead of every sprite failing to boot with bubblewrap's "Permission denied". It
 * changes no mode itself: a user's home is not spritzer's to open.
 */
import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** One path bubblewrap must reach: what it is (for the message), and how it must be reachable. */
export interface ReachablePath {
  path: string;
  /** e.g. `the data dir (--data-dir)`, `the agent's node binary`. */
  what: string;
  /** `dir`: its ancestors searchable; `file`: also readable by others; `exec`: also readable and executable. */
  need: 'dir' | 'file' | 'exec';
}

const OTHER_X = 0o001;
const OTHER_R = 0o004;

/**
 * Why `entry` is not reachable by an unprivileged user, or undefined when it is: the first ancestor (of its real
 * path) that others cannot search, or the file itself that others cannot read (or run). A path that does not exist
 * is left to the code that uses it.
 */
export async function unreachable(entry: ReachablePath): Promise<string | undefined> {
  const real = await realpath(entry.path).catch(() => undefined);
  if (real === undefined) return undefined;
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    const mode = (await stat(dir)).mode & 0o7777;
    if ((mode & OTHER_X) === 0) {
      return `${dir} is not searchable by others (mode ${mode.toString(8).padStart(4, '0')}): run chmod o+x ${dir}`;
    }
    if (dir === '/') break;
  }
  if (entry.need === 'dir') return undefined;
  const mode = (await stat(real)).mode & 0o7777;
  const want = entry.need === 'exec' ? OTHER_R | OTHER_X : OTHER_R;
  if ((mode & want) !== want) {
    return `${real} is not ${entry.need === 'exec' ? 'readable and executable' : 'readable'} by others (mode ${mode.toString(8).padStart(4, '0')}): run chmod o+${entry.need === 'exec' ? 'rx' : 'r'} ${real}`;
  }
  return undefined;
}

/**
 * Throws one Error naming every entry that an unprivileged user cannot reach, with the fix for each, and that the
 * sandbox engine needs them reachable; resolves when all are. @see docs/sandbox.md "User namespaces"
 */
export async function assertReachable(entries: ReachablePath[]): Promise<void> {
  const problems: string[] = [];
  for (const e of entries) {
    const why = await unreachable(e);
    if (why) problems.push(`${e.what} ${e.path}: ${why}`);
  }
  if (problems.length) {
    throw new Error(
      `the sandbox engine runs each sprite as an unprivileged host user, which must reach these paths: ${problems.join('; ')} ` +
        '(or choose a --data-dir, or install spritzer, outside the private directory)',
    );
  }
}
