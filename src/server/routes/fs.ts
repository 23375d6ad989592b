/**
 * Filesystem handlers (docs/wire-reference.md §8) over the sprite's Machine (`machine.fs`). Relative paths resolve
 * against `workingDir` (default `/`); errors are `{error, code, path}` with the status table in `http/errors.ts`.
 * A path can never leave its sprite: `Vfs.normalize` never climbs above `/`, and each machine resolves symlinks
 * in its own view (its own tree, or the sprite's mount namespace).
 */
import type { Request } from 'express';
import type { HandlerMap } from '../context.ts';
import { octalMode, toWireFsEntry } from '../http/wire.ts';
import { bodyOf, queryOf } from '../http/typed.ts';
import { checkString, sendJsonWithLongArray, specItemCheck } from '../http/json-stream.ts';
import { Vfs, VfsError, type VfsEntry } from '../model/vfs.ts';
import { resolveClientPath } from '../model/fs-path.ts';
import { nameGlob } from '../model/name-glob.ts';
import { filterInTurns } from '../event-loop.ts';
import type { MachineFs } from '../machines/types.ts';

/** Resolves a request path against `workingDir` (§8), after the path checks every fs route shares (`fs-path.ts`). */
function resolve(path: string, workingDir: string | undefined): string {
  return resolveClientPath(path, workingDir);
}

/** Parses a mode given as an octal string (`0644`, `755`) or a number. */
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

/** The machine fs of the request's sprite (404 first when the sprite is missing); counts as activity. */
function fsOf(req: Request, ctx: Parameters<HandlerMap[string]>[2]): MachineFs {
  const sprite = ctx.model.get(req.params.name as string);
  sprite.touch();
  return sprite.machine.fs;
}

/** Handlers of the filesystem family, by operationId. */
export const fsHandlers: HandlerMap = {
  /** `GET fs/read` → raw bytes (§8.1). */
  async readFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const q = queryOf(req, 'readFile');
    const data = await fs.readFile(resolve(q.path, q.workingDir));
    res.status(200).type('application/octet-stream').send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  },

  /** `PUT fs/write` (octet-stream body) → `{path, size, mode}` (§8.2; `mkdir` is DOCS-rc43's name for `mkdirParents`). */
  async writeFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const q = queryOf(req, 'writeFile');
    const path = resolve(q.path, q.workingDir);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const mode = q.mode !== undefined ? parseMode(q.mode, path) : undefined;
    const mkdirParents = q.mkdirParents ?? q.mkdir ?? false;
    if (!mkdirParents) await ensureParentDirectory(fs, path);
    const st = await fs.writeFile(path, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { mode, mkdirParents });
    res.json({ path, size: st.size, mode: octalMode(st.mode) });
  },

  /** `GET fs/list`: a file path lists itself (the SDKs' stat), a directory its children (§8.3). */
  async listFiles(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const q = queryOf(req, 'listFiles');
    const path = resolve(q.path, q.workingDir);
    const st = await fs.stat(path);
    const listed: VfsEntry[] =
      st.type !== 'directory'
        ? [{ name: path.split('/').pop() || '/', path, stat: await fs.lstat(path) }]
        : await fs.readdir(path, { recursive: q.recursive ?? false });
    // `pattern` (the JS SDK's readdir option): a shell glob on each entry's name (model/name-glob.ts).
    // Filtered in turns of the event loop: a hostile pattern over a large directory does not hold other requests.
    const match = q.pattern ? nameGlob(q.pattern) : undefined;
    const entries = match ? await filterInTurns(listed, (e) => match(e.name)) : listed;
    // Thousands of long entries: streamed, each checked against the spec (http/json-stream.ts, issue 16 item 6).
    await sendJsonWithLongArray(res, { path, entries: entries.map(toWireFsEntry), count: entries.length }, 'entries', { check: ctx.deps.validateResponses ? specItemCheck('FsEntry') : undefined });
  },

  /** `DELETE fs/delete` → `{deleted: [...], count}` (§8.4). */
  async deleteFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const q = queryOf(req, 'deleteFile');
    const deleted = await fs.rm(resolve(q.path, q.workingDir), { recursive: q.recursive ?? false });
    await sendJsonWithLongArray(res, { deleted, count: deleted.length }, 'deleted', { check: ctx.deps.validateResponses ? checkString : undefined });
  },

  /** `POST fs/rename` → `{source, dest}`; replaces an existing destination (§8.5). */
  async renameFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const b = bodyOf(req, 'renameFile');
    const source = resolve(b.source, b.workingDir);
    const dest = resolve(b.dest, b.workingDir);
    await fs.rename(source, dest);
    res.json({ source, dest });
  },

  /** `POST fs/copy` → `{copied, count, totalBytes}` (§8.6, docs/GO shape). */
  async copyFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const b = bodyOf(req, 'copyFile');
    const pairs = await fs.copy(resolve(b.source, b.workingDir), resolve(b.dest, b.workingDir), {
      recursive: b.recursive ?? false,
    });
    const totalBytes = pairs.reduce((sum, c) => sum + c.size, 0);
    const copied = pairs.map(({ source, dest }) => ({ source, dest }));
    res.json({ copied, count: copied.length, totalBytes });
  },

  /** `POST fs/chmod` → `{affected: [{path, mode}], count}` (§8.7). */
  async chmodFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const b = bodyOf(req, 'chmodFile');
    const path = resolve(b.path, b.workingDir);
    const affected = await fs.chmod(path, parseMode(b.mode, path), { recursive: b.recursive ?? false });
    res.json({ affected: affected.map((a) => ({ path: a.path, mode: octalMode(a.mode) })), count: affected.length });
  },

  /** `POST fs/chown` → `{affected: [{path, uid, gid}], count}`; a null id keeps the current one (§8.8). */
  async chownFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const b = bodyOf(req, 'chownFile');
    const path = resolve(b.path, b.workingDir);
    const affected = await fs.chown(path, b.uid ?? -1, b.gid ?? -1, { recursive: b.recursive ?? false });
    res.json({ affected, count: affected.length });
  },
};
