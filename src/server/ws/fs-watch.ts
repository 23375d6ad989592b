/**
 * The filesystem watch socket (docs/wire-reference.md §6.3): the client subscribes to paths, spritzer answers
 * `subscribed` and then one `event` message per change under them (`create`, `write`, `remove`, `chmod`),
 * whoever made it (exec, the fs API, a restore). The sprite's Machine reports the changes (`Machine.watch`);
 * this module owns the subscription and the socket, not the change detection. Its bounds (paths per subscribe,
 * the backlog of a slow client) are in `watch-limits.ts`.
 */
import type { ChannelHandler } from './channel.ts';
import { parseWatchSubscribe } from '../../protocol/messages.ts';
import { ProtocolError, CloseCode } from '../../protocol/close-codes.ts';
import { rfc3339 } from '../core/clock.ts';
import { boundedSender, watchPaths } from './watch-limits.ts';

/** Handles one fs/watch socket. */
export const handleFsWatch: ChannelHandler = (ws, sprite, _req, ctx) => {
  let unsubscribe: (() => void) | null = null;
  ws.on('message', (data, isBinary) => {
    if (unsubscribe) return; // one subscription per socket; later messages carry no meaning
    let paths: string[];
    let recursive: boolean;
    try {
      if (isBinary) throw new ProtocolError(CloseCode.PolicyViolation, 'expected a subscribe message');
      const sub = parseWatchSubscribe(data.toString());
      recursive = sub.recursive ?? true;
      paths = watchPaths(sub.paths, sub.workingDir, recursive, ctx.deps.limits);
    } catch (err) {
      const e = err instanceof ProtocolError ? err : new ProtocolError(CloseCode.PolicyViolation, 'invalid subscribe message');
      return ws.close(e.closeCode, e.reason);
    }
    const send = boundedSender(ws, () => unsubscribe?.(), ctx.deps.limits);
    const stops = paths.map((path) =>
      sprite.machine.watch(path, { recursive }, (changes) => {
        const timestamp = rfc3339(ctx.deps.clock.now());
        for (const change of changes) {
          if (!send(JSON.stringify({ type: 'event', ...change, timestamp }))) return;
        }
      }),
    );
    unsubscribe = () => stops.forEach((stop) => stop());
    ws.send(JSON.stringify({ type: 'subscribed', paths }));
  });
  ws.on('close', () => unsubscribe?.());
};
