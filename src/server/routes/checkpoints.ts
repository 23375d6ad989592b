/**
 * Checkpoint handlers (docs/wire-reference.md §7): create and restore stream NDJSON `{type, data, time}` lines ending
 * in `complete`; list is a bare array headed by the `Current` pseudo entry, automatic checkpoints only with
 * `includeAuto=true`; delete refuses the current one. Every lookup happens before the first byte, so a missing sprite
 * or checkpoint is a plain 404.
 */
import type { HandlerMap } from '../context.ts';
import { ModelError } from '../core/errors.ts';
import { startNdjson } from '../http/ndjson.ts';
import { currentCheckpoint, toWireCheckpoint } from '../http/wire.ts';
import { rfc3339 } from '../core/clock.ts';
import { sendJsonArray } from '../http/json-array.ts';
import { withAncestor } from '../model/checkpoint-history.ts';

/** Handlers of the checkpoint family, by operationId. */
export const checkpointHandlers: HandlerMap = {
  /**
   * `POST …/checkpoint` → 200 NDJSON; the new id appears only in the text (§7.1). A checkpoint the disk quota has no
   * room for is the stream's `error` line `Failed to create checkpoint: …` (§7.1, SRV's wording), still 200.
   */
  async createCheckpoint({ path, body }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const comment = body?.comment ?? '';
    const time = () => rfc3339(deps.clock.now());
    const cp = await sprite.createCheckpoint(comment).catch((err: unknown) => {
      if (!(err instanceof ModelError) || err.kind !== 'checkpoint_no_space') throw err;
      const out = startNdjson(res);
      out.line({ type: 'info', data: 'Creating checkpoint...', time: time() });
      out.line({ type: 'error', error: `Failed to create checkpoint: ${err.message}`, time: time() });
      out.end();
      return undefined;
    });
    if (!cp) return;
    const out = startNdjson(res);
    out.line({ type: 'info', data: 'Creating checkpoint...', time: time() });
    out.line({ type: 'info', data: 'Saving filesystem state...', time: time() });
    out.line({ type: 'info', data: `Checkpoint created successfully at checkpoints/${cp.id}`, time: time() });
    out.line({ type: 'complete', data: `Checkpoint ${cp.id} created successfully`, time: time() });
    out.end();
  },

  /**
   * `GET …/checkpoints` → bare array, `Current` first, then checkpoints newest first (SRV order), without
   * `history` (SRV sends it from the single get only); automatic ones only with `includeAuto=true`. With
   * `?history=vN` it answers text/plain, one line per checkpoint (the same ones) whose history contains vN (§7.3),
   * found in one linear pass.
   */
  async listCheckpoints({ path, query }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const history = query.history;
    const newestFirst = sprite.listCheckpoints({ includeAuto: query.includeAuto === true });
    if (history !== undefined) {
      const lines = withAncestor(newestFirst, history).map((c) => `${c.id}\n`);
      res.status(200).type('text/plain; charset=utf-8').send(lines.join(''));
      return;
    }
    // Items without `history` (SRV: single get only), streamed when long, so the list stays linear in size.
    await sendJsonArray(res, [currentCheckpoint(deps.clock.now()), ...newestFirst.map((c) => toWireCheckpoint(c, { history: false }))]);
  },

  /** `GET …/checkpoints/{checkpoint_id}` → the checkpoint; `Current` is the pseudo entry (§7.4). */
  getCheckpoint({ path }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const id = path.checkpoint_id;
    if (id === 'Current') return void res.json(currentCheckpoint(deps.clock.now()));
    res.json(toWireCheckpoint(sprite.getCheckpoint(id)));
  },

  /**
   * `POST …/checkpoints/{checkpoint_id}/restore` → 200 NDJSON; an automatic checkpoint of the state replaced is
   * taken first (its line is the old in-VM server's wording), then sessions end and files rewind (§7.5).
   */
  async restoreCheckpoint({ path }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const cp = sprite.getCheckpoint(path.checkpoint_id);
    const out = startNdjson(res);
    const time = () => rfc3339(deps.clock.now());
    out.line({ type: 'info', data: 'Stopping process for restore...', time: time() });
    if (sprite.takesAutoCheckpoints) out.line({ type: 'info', data: 'Creating checkpoint before restore...', time: time() });
    try {
      await sprite.restoreCheckpoint(cp.id);
    } catch (err) {
      out.line({ type: 'error', error: `Failed to restore checkpoint: ${(err as Error).message}`, time: time() });
      return out.end();
    }
    out.line({ type: 'info', data: `Restoring from checkpoint ${cp.id}...`, time: time() });
    out.line({ type: 'complete', data: `Restore from ${cp.id} complete`, time: time() });
    out.end();
  },

  /** `DELETE …/checkpoints/{checkpoint_id}` → 204; 409 for the current one (§7.6). */
  deleteCheckpoint({ path }, res, { model }) {
    model.get(path.name).deleteCheckpoint(path.checkpoint_id);
    res.status(204).end();
  },
};
