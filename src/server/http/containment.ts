/**
 * Crash containment for the http.Server (one request must never take spritzer down): wrappers for
 * the `request` and `upgrade` listeners that catch a throw or a rejected promise where it happens and answer it
 * in the JSON envelope, the request-target check both share, the hand-off of non-WebSocket upgrades (`h2c`)
 * to the ordinary request path, timer callbacks scheduled through the injected clock, and the last-resort
 * process handlers of the CLI. WebSocket listeners are contained by `ws/contained-socket.ts`. It does not
 * route, authenticate or know any endpoint.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { SPRITE_VERSION } from '../../protocol/sprite-tree.ts';
import type { Clock } from '../core/clock.ts';
import type { ApiErrorBody } from './errors.ts';
import { badTargetBody, parseRequestTarget, toOriginForm } from './request-target.ts';
import { rejectHandshake } from './handshake.ts';

/** The 500 body of a contained failure: no stack, no detail (those go to the log). */
export const INTERNAL_ERROR: ApiErrorBody = { error: 'internal_error', message: 'internal server error' };

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
type UpgradeListener = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => unknown;

/** Logs without ever throwing: a failing logger must not turn a contained error into a crash. */
function safeLog(logger: Logger, obj: object, msg: string): void {
  try {
    logger.error(obj, msg);
  } catch {
    // nothing left to tell
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** Answers a plain ServerResponse with a JSON error body (used before or outside Express). */
function answerJson(res: http.ServerResponse, status: number, body: ApiErrorBody): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Sprite-Version': SPRITE_VERSION,
  });
  res.end(text);
}

/**
 * Wraps the http.Server `request` listener (the Express app). A request-target that is not a URL
 * (`GET http://[ HTTP/1.1`, which Express would answer with its HTML 404 page) is a 400 in the JSON envelope
 * before the listener runs. A synchronous throw or a rejected promise of the listener is logged with the
 * method and URL and answered 500 `{"error":"internal_error"}` (or, after the headers went out, the
 * connection is destroyed); the server keeps serving.
 * @see docs/wire-reference.md §2.4 (the outer API's JSON error envelope); docs/limits.md "Request-target"
 */
export function containRequests(listener: RequestListener, logger: Logger): RequestListener {
  return (req, res) => {
    const failed = (err: unknown) => {
      safeLog(logger, { err, method: req.method, url: req.url }, 'request listener failed');
      try {
        if (!res.headersSent) answerJson(res, 500, INTERNAL_ERROR);
        else res.destroy();
      } catch {
        res.destroy();
      }
    };
    try {
      const target = parseRequestTarget(req.url);
      if (!target) return answerJson(res, 400, badTargetBody(req.url));
      toOriginForm(req, target);
      const result = listener(req, res);
      if (isThenable(result)) result.then(undefined, failed);
    } catch (err) {
      failed(err);
    }
  };
}

/** True when the `Upgrade` header asks for WebSocket (RFC 6455 §4.2.1: the token `websocket`, any case). */
export function isWebSocketUpgrade(req: http.IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return typeof upgrade === 'string' && upgrade.split(',').some((p) => p.trim().toLowerCase() === 'websocket');
}

/**
 * Wraps the http.Server `upgrade` listener. Node hands every request that carries `Connection: Upgrade` to this
 * listener once one is registered (Node 20 has no `shouldUpgradeCallback`), so:
 * - the raw socket gets an `error` listener at once (Node removed its own; an unhandled socket error would
 *   crash the process);
 * - a request-target that is not a URL is rejected 400 in the JSON envelope;
 * - an upgrade to anything but `websocket` (e.g. `h2c` from `curl --http2`) is ignored: the request is
 *   replayed, without its `Upgrade` header, through the server's ordinary request path, body included, and
 *   answered like any other request (RFC 9110 §7.8: a server may ignore Upgrade; @deviation spritzer speaks
 *   no HTTP/2, real Sprites negotiate it over TLS);
 * - a throw or rejected promise of `listener` is logged and answered 500 in the envelope.
 * `server` is the http.Server the listener is registered on (the replay goes through its `connection` event).
 * @see docs/limits.md "Request-target" and "Percent-encoding in a path"
 */
export function containUpgrades(server: http.Server, listener: UpgradeListener, logger: Logger): UpgradeListener {
  return (req, socket, head) => {
    socket.on('error', (err) => {
      try {
        logger.debug({ err, url: req.url }, 'upgrade socket error');
      } catch {
        // ignore
      }
    });
    const failed = (err: unknown) => {
      safeLog(logger, { err, url: req.url }, 'upgrade listener failed');
      try {
        if (!socket.destroyed) rejectHandshake(socket, 500, INTERNAL_ERROR);
      } catch {
        socket.destroy();
      }
    };
    try {
      const target = parseRequestTarget(req.url);
      if (!target) return rejectHandshake(socket, 400, badTargetBody(req.url));
      toOriginForm(req, target);
      if (!isWebSocketUpgrade(req)) return replayAsRequest(server, req, socket, head);
      const result = listener(req, socket, head);
      if (isThenable(result)) result.then(undefined, failed);
    } catch (err) {
      failed(err);
    }
  };
}

/** Headers that belong to the declined upgrade and must not reach the replayed request. */
const UPGRADE_ONLY = new Set(['upgrade', 'http2-settings']);

/**
 * Puts the request's head back in front of the socket's unread bytes, without `Upgrade` (and without
 * `upgrade`/`HTTP2-Settings` in `Connection`), and hands the socket to the server as a new connection: Node's
 * parser reads the request again, body and pipelined requests included, and Express answers it. The
 * `connection` event accepting any Duplex is documented: https://nodejs.org/docs/latest-v20.x/api/http.html#event-connection
 */
function replayAsRequest(server: http.Server, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const lower = name.toLowerCase();
    if (UPGRADE_ONLY.has(lower)) continue;
    if (lower === 'connection') {
      const kept = raw[i + 1]
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && !UPGRADE_ONLY.has(t.toLowerCase()));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${raw[i + 1]}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

/**
 * Wraps a clock so that a throw in a timer callback (session linger kills, service restarts, task expiry, status
 * decay) is logged as `timer callback failed` instead of escaping from Node's timer queue. Time and
 * cancellation behave exactly as `clock`'s (a FakeClock still fires on `advance`).
 */
export function containTimers(clock: Clock, logger: Logger): Clock {
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) =>
      clock.setTimeout(() => {
        try {
          fn();
        } catch (err) {
          safeLog(logger, { err }, 'timer callback failed');
        }
      }, ms),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  };
}

/**
 * Installs the last-resort handlers of the `spritzer` command on `proc` (the process): an `uncaughtException`
 * or `unhandledRejection` that escaped every contained layer is logged at `fatal` with its origin, and the
 * server keeps serving instead of exiting and losing all in-memory state. Returns a function that removes
 * both handlers. Tests pass an EventEmitter in place of the process.
 * @see https://nodejs.org/docs/latest-v20.x/api/process.html#event-uncaughtexception
 */
export function installLastResort(proc: NodeJS.EventEmitter, logger: Logger): () => void {
  const onException = (err: unknown, origin?: string) => {
    try {
      logger.fatal({ err, origin: origin ?? 'uncaughtException' }, 'uncaught exception contained; still serving');
    } catch {
      // ignore
    }
  };
  const onRejection = (reason: unknown) => {
    try {
      logger.fatal({ err: reason, origin: 'unhandledRejection' }, 'unhandled rejection contained; still serving');
    } catch {
      // ignore
    }
  };
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  return () => {
    proc.off('uncaughtException', onException);
    proc.off('unhandledRejection', onRejection);
  };
}
