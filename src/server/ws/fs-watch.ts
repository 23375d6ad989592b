/**
 * The filesystem watch socket (sprites-wire.md §6.3): the client subscribes to paths, spritzer answers
 * `subscribed` and then one `event` message per change under them (`create`, `write`, `remove`, `chmod`),
 * whoever made it (exec, the fs API, a restore). The sprite's Machine reports the changes (`Machine.watch`);
 * this module owns the subscription and the socket, not the change detection.
 */
import type { ChannelHandler } from './router.ts';
import { parseWatchSubscribe } from '../../protocol/messages.ts';
import { ProtocolError, CloseCode } from '../../protocol/close-codes.ts';
import { Vfs } from '../model/vfs.ts';
import { rfc3339 } from '../http/wire.ts';

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
      const cwd = Vfs.normalize(sub.workingDir ?? '/');
      paths = sub.paths.map((p) => Vfs.normalize(p, cwd));
      recursive = sub.recursive ?? true;
    } catch (err) {
      const e = err instanceof ProtocolError ? err : new ProtocolError(CloseCode.PolicyViolation, 'invalid subscribe message');
      return ws.close(e.closeCode, e.reason);
    }
    const stops = paths.map((path) =>
      sprite.machine.watch(path, { recursive }, (changes) => {
        const timestamp = rfc3339(ctx.deps.clock.now());
        for (const change of changes) {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'event', ...change, timestamp }));
        }
      }),
    );
    unsubscribe = () => stops.forEach((stop) => stop());
    ws.send(JSON.stringify({ type: 'subscribed', paths }));
  });
  ws.on('close', () => unsubscribe?.());
};
