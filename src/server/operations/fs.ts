/**
 * The filesystem operations of the fs API (docs/wire-reference.md §8) over a sprite's `MachineFs`, independent
 * of how the request arrived: the HTTP routes (routes/fs.ts) and the sprites-go `fs.*` ops over the control
 * socket (ws/control-fs.ts) both call these, so both answer the same shapes and the same `VfsError`s. Each takes
 * the client's (unresolved) paths and its `workingDir`, resolves them with `resolveClientPath`, and returns the
 * wire result object (camelCase, modes as 4-digit octal strings). Errors: `VfsError` (the caller turns it into
 * `{error, code, path}` with `fsErrorBody`).
 */
import { rfc3339 } from '../core/clock.ts';
import type { components } from '../../../generated/openapi.d.ts';
import { resolveClientPath, VfsError, type MachineFs, type VfsEntry } from '../machines/port.ts';
import { nameGlob } from '../core/name-glob.ts';
import { filterInTurns } from '../runtime/event-loop.ts';

type Schemas = components['schemas'];

/** Parses a mode given as an octal string (`0644`, `755`) or a number; EINVAL otherwise or above 0o7777. */
export function parseMode(mode: string | number, path: string): number {
  const value = typeof mode === 'number' ? mode : /^[0-7]{1,4}$/.test(mode) ? parseInt(mode, 8) : NaN;
  if (!Number.isInteger(value) || value < 0 || value > 0o7777) {
    throw new VfsError('EINVAL', path, 'chmod');
  }
  return value;
}

/**
 * Without `mkdirParents`, a write still creates the file's own directory when that directory's parent exists
 * (one level, like `mkdir` without `-p`); deeper missing ancestors stay ENOENT. This is what makes the SDKs'
 * `mkdir(dir)` work: JS and PY implement it as a write of `<dir>/.keep` with `mkdirParents=false` (§8.10, §18).
 */
async function ensureParentDirectory(fs: MachineFs, path: string): Promise<void> {
  const parent = path.slice(0, path.lastIndexOf('/')) || '/';
  if (parent === '/') return;
  try {
    await fs.lstat(parent);
  } catch (e) {
    if (e instanceof VfsError && e.code === 'ENOENT') await fs.mkdir(parent);
  }
}

/** `fs/read` (§8.1): the absolute path and the file's bytes (follows symlinks; EISDIR for a directory). */
export async function readFileOp(fs: MachineFs, q: { path: string; workingDir?: string }): Promise<{ path: string; data: Uint8Array }> {
  const path = resolveClientPath(q.path, q.workingDir);
  return { path, data: await fs.readFile(path) };
}

/** Bytes each step of a streamed `fs/read` reads: about what spritzer holds for one read in flight. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * `fs/read` (§8.1) as a stream, so a file of any size (a sparse one of many GiB) costs spritzer about one chunk of
 * memory and no long turn of the event loop: the absolute path, the first chunk of at most `chunkBytes` (read before
 * anything is answered, so a missing file or a directory is still an error), and `rest` when the file may hold more:
 * each further chunk is read (`MachineFs.readFile` with a range: the VFS slices its shared bytes, the agent reads
 * only that range) when the consumer asks for it, so a slow client slows the reads down rather than queueing bytes.
 * The read ends at the first short chunk, as `read(2)` ends at end of file: bytes appended meanwhile are read too.
 */
export async function openFileRead(
  fs: MachineFs,
  q: { path: string; workingDir?: string },
  chunkBytes = READ_CHUNK_BYTES,
): Promise<{ path: string; first: Uint8Array; rest: AsyncIterable<Uint8Array> | undefined }> {
  const path = resolveClientPath(q.path, q.workingDir);
  const first = await fs.readFile(path, { offset: 0, length: chunkBytes });
  if (first.byteLength < chunkBytes) return { path, first, rest: undefined };
  async function* rest(): AsyncIterable<Uint8Array> {
    for (let offset = first.byteLength; ; ) {
      const chunk = await fs.readFile(path, { offset, length: chunkBytes });
      if (chunk.byteLength > 0) yield chunk;
      if (chunk.byteLength < chunkBytes) return;
      offset += chunk.byteLength;
    }
  }
  return { path, first, rest: rest() };
}

/**
 * `fs/write` (§8.2): writes `body` → `{path, size, mode}`. `mkdirParents` false creates one missing level. `mode` is
 * the mode of a file the write creates, as open(2)'s O_CREAT mode is: a file that exists (the target of a link at
 * `path` too) keeps its own. The Python and Go SDKs send `mode` (0644 by default) on every write, and sprites-py
 * documents it as "File permissions used when creating the file"; Fly's Strands sandbox (strands-sprites) edits files
 * with such writes and checks against Sprites that a 0755 script stays 0755 (its README, "workspace check").
 */
export async function writeFileOp(
  fs: MachineFs,
  q: { path: string; workingDir?: string; mode?: string; mkdirParents: boolean },
  body: Uint8Array,
): Promise<Schemas['FsWriteResult']> {
  const path = resolveClientPath(q.path, q.workingDir);
  const asked = q.mode !== undefined ? parseMode(q.mode, path) : undefined;
  // Anything the stat cannot find (or reach) is left to the write, which creates it or answers the error.
  const exists = asked !== undefined && (await fs.stat(path).then(() => true, () => false));
  const mode = exists ? undefined : asked;
  if (!q.mkdirParents) await ensureParentDirectory(fs, path);
  const st = await fs.writeFile(path, body, { mode, mkdirParents: q.mkdirParents });
  return { path, size: st.size, mode: octalMode(st.mode) };
}

/**
 * `fs/list` (§8.3): a file path lists itself (the SDKs' stat), a directory its children (all descendants with
 * `recursive`). `pattern` (the JS SDK's readdir option) is a shell glob on each entry's name, filtered in turns
 * of the event loop so a hostile pattern over a large directory does not hold other requests.
 */
export async function listFilesOp(
  fs: MachineFs,
  q: { path: string; workingDir?: string; recursive?: boolean; pattern?: string },
): Promise<{ path: string; entries: Schemas['FsEntry'][]; count: number }> {
  const path = resolveClientPath(q.path, q.workingDir);
  const st = await fs.stat(path);
  const listed: VfsEntry[] =
    st.type !== 'directory'
      ? [{ name: path.split('/').pop() || '/', path, stat: await fs.lstat(path) }]
      : await fs.readdir(path, { recursive: q.recursive ?? false });
  const match = q.pattern ? nameGlob(q.pattern) : undefined;
  const entries = match ? await filterInTurns(listed, (e) => match(e.name)) : listed;
  return { path, entries: entries.map(toWireFsEntry), count: entries.length };
}

/** `fs/delete` (§8.4) → `{deleted: [...], count}`, the top path first; ENOTEMPTY without `recursive`. */
export async function deleteFileOp(fs: MachineFs, q: { path: string; workingDir?: string; recursive?: boolean }): Promise<{ deleted: string[]; count: number }> {
  const deleted = await fs.rm(resolveClientPath(q.path, q.workingDir), { recursive: q.recursive ?? false });
  return { deleted, count: deleted.length };
}

/** `fs/rename` (§8.5) → `{source, dest}`; replaces an existing destination. */
export async function renameFileOp(fs: MachineFs, b: { source: string; dest: string; workingDir?: string }): Promise<Schemas['FsRenameResult']> {
  const source = resolveClientPath(b.source, b.workingDir);
  const dest = resolveClientPath(b.dest, b.workingDir);
  await fs.rename(source, dest);
  return { source, dest };
}

/** `fs/copy` (§8.6) → `{copied: [{source, dest}], count, totalBytes}` (the docs/Go shape). */
export async function copyFileOp(
  fs: MachineFs,
  b: { source: string; dest: string; workingDir?: string; recursive?: boolean },
): Promise<Schemas['FsCopyResult']> {
  const pairs = await fs.copy(resolveClientPath(b.source, b.workingDir), resolveClientPath(b.dest, b.workingDir), {
    recursive: b.recursive ?? false,
  });
  const totalBytes = pairs.reduce((sum, c) => sum + c.size, 0);
  const copied = pairs.map(({ source, dest }) => ({ source, dest }));
  return { copied, count: copied.length, totalBytes };
}

/** `fs/chmod` (§8.7) → `{affected: [{path, mode}], count}`; EINVAL for a mode that is not octal ≤ 7777. */
export async function chmodFileOp(
  fs: MachineFs,
  b: { path: string; workingDir?: string; mode: string | number; recursive?: boolean },
): Promise<Schemas['FsChmodResult']> {
  const path = resolveClientPath(b.path, b.workingDir);
  const affected = await fs.chmod(path, parseMode(b.mode, path), { recursive: b.recursive ?? false });
  return { affected: affected.map((a) => ({ path: a.path, mode: octalMode(a.mode) })), count: affected.length };
}

/** `fs/chown` (§8.8) → `{affected: [{path, uid, gid}], count}`; an absent (null) id keeps the current one. */
export async function chownFileOp(
  fs: MachineFs,
  b: { path: string; workingDir?: string; uid?: number | null; gid?: number | null; recursive?: boolean },
): Promise<Schemas['FsChownResult']> {
  const path = resolveClientPath(b.path, b.workingDir);
  const affected = await fs.chown(path, b.uid ?? -1, b.gid ?? -1, { recursive: b.recursive ?? false });
  return { affected, count: affected.length };
}

/** Permission bits as a 4-digit octal string (`0644`, docs/wire-reference.md §8.3). */
export function octalMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** A filesystem entry (docs/wire-reference.md §8.3): camelCase `modTime`, `isDir`. */
export function toWireFsEntry(e: VfsEntry): Schemas['FsEntry'] {
  return {
    name: e.name,
    path: e.path,
    type: e.stat.type,
    size: e.stat.size,
    mode: octalMode(e.stat.mode),
    modTime: rfc3339(e.stat.mtimeMs),
    isDir: e.stat.type === 'directory',
  };
}
