/**
 * What of the host a sandbox sprite must not see. The base shows host trees (the host's `/usr`, a real `/lib64`…)
 * idmapped so that host root is the sprite's root, whose capabilities (and `sudo`) would then read every root-only
 * file there. This module finds the entries of such a tree that not every host user may read, and builds a layer of
 * overlayfs whiteouts that, stacked above the tree as its topmost lower layer, makes them absent inside, whoever
 * asks. It builds directories and device nodes only; it mounts nothing.
 */
import { execFile } from 'node:child_process';
import { chmod, lchown, lstat, mkdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './run.ts';

/**
 * find(1) predicates: a directory others cannot both read and search (printed, not descended), or any other entry
 * but a symlink (always 0777; what it names is judged where it points) that others cannot read.
 */
const UNREADABLE = [
  '(', '-type', 'd', '!', '-perm', '-o=rx', '-prune', '-print0', ')', '-o',
  '(', '!', '-type', 'd', '!', '-type', 'l', '!', '-perm', '-o=r', '-print0', ')',
];
/** Whiteouts made per `mknod` shell (bounded by the argument list's size). */
const MKNOD_BATCH = 256;

/**
 * The entries of host directory `dir` that an unprivileged host user cannot read, as paths relative to `dir`,
 * sorted: files, devices, sockets and fifos without `o+r`, and directories without `o+r` or `o+x` (whose contents
 * are then not listed: the whole directory is hidden). Stays on `dir`'s filesystem (`-xdev`), as overlayfs does.
 * Spawns `find`: about 0.4 s for the 160,000 entries of a Debian `/usr` with a warm cache.
 * Rejects when `find` fails (an entry that vanishes during the walk is not a failure), or when `dir` itself is
 * hidden (a tree that no host user may read cannot be the base of a sprite).
 */
export function findUnreadable(dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('find', [dir, '-xdev', ...UNREADABLE], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      // find exits 1 when an entry vanished between its readdir and its stat: the entry is gone, nothing to hide.
      const vanished = String(stderr).split('\n').filter(Boolean).every((l) => l.endsWith('No such file or directory'));
      if (err && !(err.code === 1 && vanished)) {
        reject(new Error(`find ${dir} failed: ${String(stderr).trim() || err.message}`));
        return;
      }
      const found = stdout.toString('utf8').split('\0').filter(Boolean);
      if (found.includes(dir)) {
        reject(new Error(`${dir} is not readable and searchable by every host user, so it cannot be shown to sprites`));
        return;
      }
      resolve(found.map((p) => p.slice(dir.length + 1)).sort());
    });
  });
}

/**
 * Builds in `dest` (created; it should be empty) the whiteout layer of host directory `src` for the entries `rels`
 * (from `findUnreadable`): a whiteout (a character device 0:0, made with `mknod`, so it needs root) at each, and
 * every directory above them with the owner, mode and times of `src`'s, because overlayfs shows a merged directory
 * with the attributes of its topmost layer. Resolves with `dest`. @see overlayfs(5) "whiteouts and opaque directories"
 */
export async function buildWhiteouts(src: string, dest: string, rels: readonly string[]): Promise<string> {
  const dirs = new Set<string>(['']);
  for (const rel of rels) {
    for (let at = rel.indexOf('/'); at >= 0; at = rel.indexOf('/', at + 1)) dirs.add(rel.slice(0, at));
  }
  const ordered = [...dirs].sort();
  for (const d of ordered) await mkdir(join(dest, d), { recursive: true, mode: 0o700 });
  for (let i = 0; i < rels.length; i += MKNOD_BATCH) {
    const batch = rels.slice(i, i + MKNOD_BATCH).map((r) => join(dest, r));
    await run('sh', ['-c', 'for p; do mknod "$p" c 0 0 || exit 1; done', 'sh', ...batch]);
  }
  // Deepest first: setting a directory's times must come after every change inside it.
  for (const d of ordered.reverse()) {
    const st = await lstat(join(src, d));
    await lchown(join(dest, d), st.uid, st.gid);
    await chmod(join(dest, d), st.mode & 0o7777);
    await utimes(join(dest, d), st.atimeMs / 1000, st.mtimeMs / 1000);
  }
  return dest;
}
