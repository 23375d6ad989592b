/**
 * Filesystem handlers (docs/wire-reference.md §8) over the sprite's Machine (`machine.fs`): each parses its
 * request and calls the operation in `fs-ops.ts` (shared with the control socket's `fs.*` ops). Relative paths
 * resolve against `workingDir` (default `/`); errors are `{error, code, path}` with the status table in
 * `http/errors.ts`. A path can never leave its sprite: `Vfs.normalize` never climbs above `/`, and each machine
 * resolves symlinks in its own view (its own tree, or the sprite's mount namespace).
 */
import type { AppContext, HandlerMap } from '../context.ts';
import { checkString, sendJsonWithLongArray, specItemCheck } from '../http/json-stream.ts';
import type { MachineFs } from '../machines/port.ts';
import { sendByteStream } from '../http/byte-stream.ts';
import { chmodFileOp, chownFileOp, copyFileOp, deleteFileOp, listFilesOp, openFileRead, renameFileOp, writeFileOp } from '../operations/fs.ts';

/** The machine fs of sprite `name` (404 first when the sprite is missing); counts as activity. */
function fsOf(ctx: AppContext, name: string): MachineFs {
  const sprite = ctx.model.get(name);
  sprite.touch();
  return sprite.machine.fs;
}

/** Handlers of the filesystem family, by operationId. */
export const fsHandlers: HandlerMap = {
  /**
   * `GET fs/read` → raw bytes (§8.1). A file that fits one chunk is sent whole (with `Content-Length`); a longer one
   * is streamed with back-pressure (operations/fs.ts `openFileRead`), so its size costs spritzer no memory.
   */
  async readFile({ path, query }, res, ctx) {
    const { path: file, first, rest } = await openFileRead(fsOf(ctx, path.name), query);
    if (!rest) {
      res.status(200).type('application/octet-stream').send(Buffer.from(first.buffer, first.byteOffset, first.byteLength));
      return;
    }
    await sendByteStream(res, first, rest, (err) => ctx.deps.logger.warn({ err, sprite: path.name, path: file }, 'fs/read: the file could not be read to its end; the response was cut'));
  },

  /** `PUT fs/write` (octet-stream body) → `{path, size, mode}` (§8.2; `mkdir` is DOCS-rc43's name for `mkdirParents`). */
  async writeFile({ path, query: q, body }, res, ctx) {
    const fs = fsOf(ctx, path.name);
    const mkdirParents = q.mkdirParents ?? q.mkdir ?? false;
    res.json(await writeFileOp(fs, { ...q, mkdirParents }, new Uint8Array(body.buffer, body.byteOffset, body.byteLength)));
  },

  /** `GET fs/list`: a file path lists itself (the SDKs' stat), a directory its children (§8.3). */
  async listFiles({ path, query }, res, ctx) {
    const result = await listFilesOp(fsOf(ctx, path.name), query);
    // Thousands of long entries: streamed, each checked against the spec (http/json-stream.ts).
    await sendJsonWithLongArray(res, result, 'entries', { check: ctx.deps.validateResponses ? specItemCheck('FsEntry') : undefined });
  },

  /** `DELETE fs/delete` → `{deleted: [...], count}` (§8.4). */
  async deleteFile({ path, query }, res, ctx) {
    const result = await deleteFileOp(fsOf(ctx, path.name), query);
    await sendJsonWithLongArray(res, result, 'deleted', { check: ctx.deps.validateResponses ? checkString : undefined });
  },

  /** `POST fs/rename` → `{source, dest}`; replaces an existing destination (§8.5). */
  async renameFile({ path, body }, res, ctx) {
    res.json(await renameFileOp(fsOf(ctx, path.name), body));
  },

  /** `POST fs/copy` → `{copied, count, totalBytes}` (§8.6, docs/GO shape). */
  async copyFile({ path, body }, res, ctx) {
    res.json(await copyFileOp(fsOf(ctx, path.name), body));
  },

  /** `POST fs/chmod` → `{affected: [{path, mode}], count}` (§8.7). */
  async chmodFile({ path, body }, res, ctx) {
    res.json(await chmodFileOp(fsOf(ctx, path.name), body));
  },

  /** `POST fs/chown` → `{affected: [{path, uid, gid}], count}`; a null id keeps the current one (§8.8). */
  async chownFile({ path, body }, res, ctx) {
    res.json(await chownFileOp(fsOf(ctx, path.name), body));
  },
};
