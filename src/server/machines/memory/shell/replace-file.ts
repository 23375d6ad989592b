/**
 * Writing a file the way tools that *replace* it do. GNU `sed -i`, `install`, `patch`, `tar x` and `rsync` write
 * the new content to a new file and rename it over the old name (or unlink the name and create it again), so the
 * name gets a new inode: other hard links of the old file keep the old content, and a symlink at the name is
 * replaced by a regular file instead of its target being overwritten. Shell redirections (`>`, `cat > f`) write
 * into the existing file instead, and use the filesystem's plain `writeFile`.
 * @see https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options (-i: "creating a temporary file")
 * @see rename(2), unlink(2)
 */
import type { IFileSystem } from 'just-bash';
import { linkCount } from './devices.ts';

/**
 * Readies the absolute `path` for a new file: when it is a symlink (even a dangling one) or a regular file with
 * other names, that one name is removed, so the next write there creates a new file. A file with one name, a
 * directory or a missing path is left alone (writing into a file nothing else names cannot be told apart from
 * replacing it, except by its inode number).
 * With `keepAs` (an absolute path: a backup, as `sed -i.bak` makes one by renaming the original), the name is moved
 * there instead of removed, so the backup is the old file itself (its other names, or the symlink).
 * Returns the permission bits (0o7777) of what the name referred to (a symlink's target, when it exists) when the
 * name was removed, else undefined. Errors of `fs.rm`/`fs.mv` (EACCES for a directory the user may not write) propagate.
 */
export async function detachName(fs: IFileSystem, path: string, keepAs?: string): Promise<number | undefined> {
  const st = await fs.lstat(path).catch(() => null);
  if (!st || st.isDirectory) return undefined;
  if (!st.isSymbolicLink && (await linkCount(st, async () => 1)) <= 1) return undefined;
  const target = st.isSymbolicLink ? await fs.stat(path).catch(() => null) : st;
  if (keepAs !== undefined) await fs.mv(path, keepAs);
  else await fs.rm(path);
  return target && !target.isDirectory ? target.mode & 0o7777 : undefined;
}

/**
 * Writes `bytes` to the absolute `path` as a new file (see {@link detachName}); a replaced file's mode is kept,
 * as GNU tools copy the old file's mode to the new one. A new file gets the filesystem's creation mode.
 */
export async function replaceFile(fs: IFileSystem, path: string, bytes: Uint8Array): Promise<void> {
  const mode = await detachName(fs, path);
  await fs.writeFile(path, bytes);
  if (mode !== undefined) await fs.chmod(path, mode);
}
