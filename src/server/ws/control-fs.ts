/**
 * The sprites-go filesystem operations over the control socket (docs/wire-reference.md §5.3: `fs.read`,
 * `fs.write`, `fs.list`, `fs.delete`, `fs.chmod`, `fs.chown`, `fs.copy`, `fs.rename`, `fs.stat` with a
 * URL-encoded string `args`). Replies are bare JSON (no `control:` prefix), as sprites-go parses them.
 * @deviation not implemented yet: every fs op is refused with a bare `op.error` naming the HTTP fs API, which
 *   is what sprites-go's own `Filesystem()` uses (docs/fidelity.md).
 */
import type { WebSocket } from 'ws';
import type { AppContext } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';

/** The refusal's text. */
export const FS_OPS_UNSUPPORTED = 'fs.* operations over the control socket are not supported by spritzer; use the HTTP fs API (/v1/sprites/{name}/fs/...)';

/** Answers one `fs.*` op on `ws`. */
export async function runControlFsOp(ws: WebSocket, _sprite: Sprite, _ctx: AppContext, op: string, _args: URLSearchParams): Promise<void> {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'op.error', op, args: { error: FS_OPS_UNSUPPORTED, code: 'op.not_found' } }));
}
