/**
 * Filesystem handlers (docs/wire-reference.md §8) over the sprite's Machine (`machine.fs`): each parses its
 * request and calls the operation in `fs-ops.ts` (shared with the control socket's `fs.*` ops). Relative paths
 * resolve against `workingDir` (default `/`); errors are `{error, code, path}` with the status table in
 * `http/errors.ts`. A path can never leave its sprite: `Vfs.normalize` never climbs above `/`, and each machine
 * resolves symlinks in its own view (its own tree, or the sprite's mount namespace).
 */
import type { Request } from 'express';
import type { HandlerMap } from '../context.ts';
import { bodyOf, queryOf } from '../http/typed.ts';
import { checkString, sendJsonWithLongArray, specItemCheck } from '../http/json-stream.ts';
import type { MachineFs } from '../machines/port.ts';
import { chmodFileOp, chownFileOp, copyFileOp, deleteFileOp, listFilesOp, readFileOp, renameFileOp, writeFileOp } from '../operations/fs.ts';

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
    const { data } = await readFileOp(fsOf(req, ctx), queryOf(req, 'readFile'));
    res.status(200).type('application/octet-stream').send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  },

  /** `PUT fs/write` (octet-stream body) → `{path, size, mode}` (§8.2; `mkdir` is DOCS-rc43's name for `mkdirParents`). */
  async writeFile(req, res, ctx) {
    const fs = fsOf(req, ctx);
    const q = queryOf(req, 'writeFile');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const mkdirParents = q.mkdirParents ?? q.mkdir ?? false;
    res.json(await writeFileOp(fs, { ...q, mkdirParents }, new Uint8Array(body.buffer, body.byteOffset, body.byteLength)));
  },

  /** `GET fs/list`: a file path lists itself (the SDKs' stat), a directory its children (§8.3). */
  async listFiles(req, res, ctx) {
    const result = await listFilesOp(fsOf(req, ctx), queryOf(req, 'listFiles'));
    // Thousands of long entries: streamed, each checked against the spec (http/json-stream.ts).
    await sendJsonWithLongArray(res, result, 'entries', { check: ctx.deps.validateResponses ? specItemCheck('FsEntry') : undefined });
  },

  /** `DELETE fs/delete` → `{deleted: [...], count}` (§8.4). */
  async deleteFile(req, res, ctx) {
    const result = await deleteFileOp(fsOf(req, ctx), queryOf(req, 'deleteFile'));
    await sendJsonWithLongArray(res, result, 'deleted', { check: ctx.deps.validateResponses ? checkString : undefined });
  },

  /** `POST fs/rename` → `{source, dest}`; replaces an existing destination (§8.5). */
  async renameFile(req, res, ctx) {
    res.json(await renameFileOp(fsOf(req, ctx), bodyOf(req, 'renameFile')));
  },

  /** `POST fs/copy` → `{copied, count, totalBytes}` (§8.6, docs/GO shape). */
  async copyFile(req, res, ctx) {
    res.json(await copyFileOp(fsOf(req, ctx), bodyOf(req, 'copyFile')));
  },

  /** `POST fs/chmod` → `{affected: [{path, mode}], count}` (§8.7). */
  async chmodFile(req, res, ctx) {
    res.json(await chmodFileOp(fsOf(req, ctx), bodyOf(req, 'chmodFile')));
  },

  /** `POST fs/chown` → `{affected: [{path, uid, gid}], count}`; a null id keeps the current one (§8.8). */
  async chownFile(req, res, ctx) {
    res.json(await chownFileOp(fsOf(req, ctx), bodyOf(req, 'chownFile')));
  },
};
