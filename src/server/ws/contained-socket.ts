/**
 * A `ws` WebSocket class whose event listeners cannot crash the server: a throw (or a rejected promise) in any
 * listener a channel registers (`message`, `close`, `error`, …) is logged with the event name and the socket is
 * closed 1011, instead of escaping into `ws`' socket handlers and from there to the process. It is handed to
 * the WebSocketServer through its documented `WebSocket` option; it changes no protocol behaviour.
 */
import { WebSocket } from 'ws';
import type { Logger } from 'pino';
import { CloseCode } from '../../protocol/close-codes.ts';

type Listener = (...args: unknown[]) => unknown;

/**
 * Builds the WebSocket class for a `WebSocketServer({ WebSocket })`. `logger` receives `{err, event}` at
 * `error` level for every contained failure. After a failure in any listener but `close`/`error`, the socket
 * closes with 1011 `internal error` (spec/asyncapi.yaml `x-close-codes`): the channel's state is unknown.
 * An `error` event with no listener is logged instead of thrown (at `info` level, without a stack, when it is ws's
 * refusal of a frame the client got wrong: a `WS_ERR_…` code, already answered with its close code).
 * @see https://github.com/websockets/ws/blob/master/doc/ws.md#new-websocketserveroptions-callback (`WebSocket`)
 */
export function containedWebSocket(logger: Logger): typeof WebSocket {
  return class ContainedWebSocket extends WebSocket {
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      const listeners = this.rawListeners(event) as Listener[];
      if (listeners.length === 0) {
        if (event === 'error') this.contain(args[0], event);
        return false;
      }
      for (const listener of listeners) {
        try {
          const result = listener.apply(this, args);
          if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
            (result as PromiseLike<unknown>).then(undefined, (err) => this.contain(err, event));
          }
        } catch (err) {
          this.contain(err, event);
        }
      }
      return true;
    }

    private contain(err: unknown, event: string | symbol): void {
      try {
        // A frame the client got wrong (too large, bad opcode, invalid UTF-8: ws's `WS_ERR_…` codes) is the client's
        // mistake, answered by ws's close code: not a failure of spritzer's.
        const code = (err as { code?: unknown } | undefined)?.code;
        if (event === 'error' && typeof code === 'string' && code.startsWith('WS_ERR_')) logger.info({ code, message: (err as Error).message }, 'WebSocket client broke the protocol; the socket is closed');
        else logger.error({ err, event: String(event) }, 'WebSocket listener failed; closing the socket');
      } catch {
        // a failing logger must not undo the containment
      }
      if (event === 'close' || event === 'error') return;
      try {
        if (this.readyState === WebSocket.OPEN || this.readyState === WebSocket.CONNECTING) this.close(CloseCode.InternalError, 'internal error');
      } catch {
        this.terminate();
      }
    }
  };
}
