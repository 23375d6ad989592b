/**
 * The upgrade router: every WebSocket handshake lands here (Express never sees upgrades). It authenticates,
 * applies fault rules, finds the sprite, and either rejects with an HTTP status and the JSON envelope or upgrades
 * and hands the socket to its channel (exec and attach after exec/start.ts's checks, control, proxy, watches).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { type AppContext } from '../context.ts';
import { SPRITE_VERSION } from '../../protocol/sprite-tree.ts';
import type { Sprite } from '../model/sprites.ts';
import { ModelError } from '../core/errors.ts';
import { execStreamLimits, type ExecStreamLimits } from '../config/exec-limits.ts';
import { UNAUTHORIZED } from '../http/auth.ts';
import { faultResponse } from '../http/faults.ts';
import { maxHeadBytes } from '../http/oversize.ts';
import { badTargetBody, malformedPathBody, malformedQueryBody, parseRequestTarget } from '../http/request-target.ts';
import { startExec, type PendingExec } from '../exec/start.ts';
import { rejectHandshake, rejectHandshakeFor } from '../http/handshake.ts';
import type { ChannelHandler } from './channel.ts';
import { runExecSocket } from './exec.ts';
import { handleProxy } from './proxy.ts';
import { CONTROL_OPS, handleControl } from './control.ts';
import { handlePortsWatch } from './ports-watch.ts';
import { handleFsWatch } from './fs-watch.ts';
import { containedWebSocket } from './contained-socket.ts';
import { channelFrameLimits, limitFrames, type FrameLimits } from './frame-limits.ts';
import { CloseCode, CloseReason } from '../../protocol/close-codes.ts';

/** Channels beyond exec and attach, by the last path segment(s). */
export interface ExtraChannels {
  [channel: string]: { handle: ChannelHandler };
}

/** The proxy and watch channels (docs/wire-reference.md §6). */
export const SPRITE_CHANNELS: ExtraChannels = {
  proxy: { handle: handleProxy },
  'ports/watch': { handle: handlePortsWatch },
  'fs/watch': { handle: handleFsWatch },
};

/** The AsyncAPI operationId of each channel (spec/asyncapi.yaml). */
const CHANNEL_OPERATIONS: Record<string, string> = {
  exec: 'execCommand',
  control: 'controlSession',
  proxy: 'proxyConnect',
  'ports/watch': 'watchPorts',
  'fs/watch': 'watchFilesystem',
};

/** The WebSocket operations spritzer implements. */
export const WS_OPERATIONS = ['execCommand', 'attachExecSession', 'controlSession', 'proxyConnect', 'watchPorts', 'watchFilesystem'] as const;

const ROUTE = /^\/v1\/sprites\/([^/]+)\/(exec(?:\/([^/]+))?|control|proxy|ports\/watch|fs\/watch)\/?$/;

/** A handshake that passed the checks every channel shares. */
interface UpgradeTarget {
  /** The sprite's name (decoded). */
  name: string;
  /** The channel: `exec`, `exec/{id}`, `control`, `proxy`, `ports/watch` or `fs/watch`. */
  channel: string;
  /** The session id of `exec/{id}` (decoded). */
  sessionId: string | undefined;
  /** The AsyncAPI operationId the handshake asks for (the fault rules and the 501 name it). */
  operationId: string;
  query: URLSearchParams;
}

/** Builds the `upgrade` listener for an http.Server. */
export function createUpgradeHandler(ctx: AppContext, channels: ExtraChannels = SPRITE_CHANNELS) {
  const { logger } = ctx.deps;
  const limits = execStreamLimits(ctx.deps.execLimits);
  const sockets = openSockets(ctx, limits);

  function handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = admit(ctx, req, socket);
    if (!target) return;
    const refuse = (err: unknown): void => {
      if (!(err instanceof ModelError)) logger.error({ err }, 'upgrade failed');
      rejectHandshakeFor(socket, err);
    };
    const { channel, query, sessionId } = target;
    const frames = channelFrameLimits(channel, { maxStdinBytes: limits.maxStdinBytes, commandLineMaxBytes: maxHeadBytes(ctx.deps) });
    const upgrade = (then: (ws: WebSocket) => void) => sockets.upgrade(req, socket, head, frames, then);
    try {
      const sprite = ctx.model.get(target.name);
      if (channel === 'control') return upgrade(controlHandler(sprite, query, socket));
      if (channel.startsWith('exec')) {
        const exec = startExec({ sprite, query, sessionId, sessionsMax: ctx.deps.limits.sessionsMax, commandLineMaxBytes: maxHeadBytes(ctx.deps) });
        // An attach to a dead id, the session cap and a missing dir are refused before the upgrade (§4.3, §4.7).
        const run = (pending: PendingExec) => {
          // A handshake that never completes (the client went away meanwhile) gives its place back.
          socket.once('close', () => pending.release());
          upgrade((ws) => runExecSocket(ws, pending, { machine: sprite.machine, limits, logger, socket }));
        };
        return void exec.then(run).catch(refuse);
      }
      const extra = channels[channel];
      if (!extra) return rejectHandshake(socket, 501, { error: 'not_implemented', message: `operation ${target.operationId} is not implemented` });
      upgrade((ws) => extra.handle(ws, sprite, req, ctx));
    } catch (err) {
      refuse(err);
    }
  }

  /** The control socket (ws/control.ts); an auto-start `?op=` must name a known operation (400 otherwise). */
  function controlHandler(sprite: Sprite, q: URLSearchParams, socket: Duplex): (ws: WebSocket) => void {
    const op = q.get('op');
    if (op !== null && !(CONTROL_OPS as readonly string[]).includes(op)) {
      throw new ModelError('invalid_request', `unknown op ${JSON.stringify(op)}: the control socket starts ${CONTROL_OPS.join(' or ')}`);
    }
    return (ws) => handleControl(ws, sprite, ctx, { limits, socket, ...(op !== null ? { autoStart: q } : {}) });
  }

  return { handle, closeAll: sockets.closeAll, closeWith: sockets.closeWith };
}

/**
 * The checks before any channel, in the order a client meets them: a parseable target, a foreign Origin (403),
 * the token (401), a known path (404), the upgrade headers (400/405), malformed path or query (400), then the
 * fault rules. Returns the target, or undefined once the handshake was refused.
 */
function admit(ctx: AppContext, req: IncomingMessage, socket: Duplex): UpgradeTarget | undefined {
  const url = parseRequestTarget(req.url);
  if (!url) return void rejectHandshake(socket, 400, badTargetBody(req.url));
  const m = ROUTE.exec(url.pathname);
  // Browsers send Origin on every WebSocket: a page of another origin is refused whatever the token (http/origin-check.ts).
  const foreign = ctx.originCheck.refusal(req);
  if (foreign) return void rejectHandshake(socket, 403, foreign);
  if (!ctx.credentials.accepts(req.headers.authorization)) return void rejectHandshake(socket, 401, UNAUTHORIZED);
  if (!m) return void rejectHandshake(socket, 404, { error: 'not found', message: `no WebSocket endpoint at ${url.pathname}` });
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') {
    return void rejectHandshake(socket, 400, { error: 'invalid_request', message: 'only WebSocket upgrades are supported' });
  }
  const handshake = handshakeProblem(req);
  if (handshake) return void rejectHandshake(socket, handshake.status, { error: 'invalid_request', message: handshake.message });
  const malformed = malformedPathBody(url.pathname) ?? malformedQueryBody(url.search); // the same 400 REST answers (app.ts)
  if (malformed) return void rejectHandshake(socket, 400, malformed);
  const name = decodeURIComponent(m[1]);
  const channel = m[2];
  const sessionId = m[3] ? decodeURIComponent(m[3]) : undefined;
  const operationId = channel.startsWith('exec') && (sessionId || url.searchParams.has('id')) ? 'attachExecSession' : CHANNEL_OPERATIONS[channel];
  const fault = ctx.faults.take(operationId, name);
  if (fault) {
    const answer = faultResponse(fault, ctx.deps.clock.now());
    return void rejectHandshake(socket, answer.status, answer.body, answer.headers);
  }
  return { name, channel, sessionId, operationId, query: url.searchParams };
}

/** How long the server's `close()` waits for clients to answer its close frames before it ends their connections (ms). */
const CLOSE_GRACE_MS = 500;

/**
 * The server's open sockets: the WebSocketServer every upgrade goes through (the contained socket class, no
 * compression, messages bounded per channel) and the set shutdown closes.
 */
function openSockets(ctx: AppContext, limits: ExecStreamLimits) {
  const { logger } = ctx.deps;
  // No channel takes more in one message than the stdin allowance plus its stream-id byte; each channel's own,
  // smaller limits are applied per socket (ws/frame-limits.ts).
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: limits.maxStdinBytes + 1,
    WebSocket: containedWebSocket(logger),
  });
  wss.on('headers', (headers) => {
    headers.push('X-Sprite-Capabilities: signal', `Sprite-Version: ${SPRITE_VERSION}`);
  });
  const sockets = new Set<WebSocket>();
  /**
   * Sends every open socket a close frame with `code` (1001 on a graceful shutdown, src/server/shutdown.ts);
   * resolves once each has closed.
   */
  const closeWith = (code: number): Promise<void> => {
    const open = [...sockets].filter((ws) => ws.readyState === ws.OPEN || ws.readyState === ws.CLOSING);
    const closed = open.map((ws) => new Promise<void>((resolve) => ws.once('close', () => resolve())));
    for (const ws of open) if (ws.readyState === ws.OPEN) ws.close(code, CloseReason.ShuttingDown);
    return Promise.all(closed).then(() => undefined);
  };
  return {
    /**
     * Completes the handshake, bounds the socket's messages by `frames` (ws/frame-limits.ts) and hands it to `then`;
     * a throw there closes it 1011.
     */
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, frames: FrameLimits, then: (ws: WebSocket) => void): void {
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.add(ws);
        ws.on('close', () => sockets.delete(ws));
        try {
          limitFrames(ws, frames);
          then(ws);
        } catch (err) {
          // After the 101 no HTTP status can be sent: a channel that fails to start closes 1011.
          logger.error({ err, url: req.url }, 'channel handler failed');
          ws.close(CloseCode.InternalError, 'internal error');
        }
      });
    },
    /**
     * Closes every open socket (the server's `close()`): a close frame 1001 "server shutting down" first, then, for
     * a peer that has not answered it within `graceMs` (ms), the connection is ended. A connection dropped without a
     * close frame is an error to a WHATWG WebSocket (Node ≥ 22's global one, browsers): the official JS SDK's
     * control pool rethrows that error as an uncaught exception in the client's process.
     */
    async closeAll(graceMs = CLOSE_GRACE_MS): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([closeWith(CloseCode.GoingAway), grace]);
      clearTimeout(timer);
      for (const ws of sockets) ws.terminate();
      wss.close();
    },
    closeWith,
  };
}

/**
 * What `ws` would refuse in a handshake (RFC 6455 §4.2.1: method GET, a 16-byte base64 `Sec-WebSocket-Key`,
 * `Sec-WebSocket-Version` 8 or 13), found first so the answer is the JSON envelope rather than ws' HTML page.
 */
function handshakeProblem(req: IncomingMessage): { status: number; message: string } | undefined {
  if (req.method !== 'GET') return { status: 405, message: `a WebSocket handshake must use GET, not ${req.method}` };
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key.trim())) {
    return { status: 400, message: 'missing or invalid Sec-WebSocket-Key header' };
  }
  const version = req.headers['sec-websocket-version'];
  if (version !== '8' && version !== '13') return { status: 400, message: 'missing or invalid Sec-WebSocket-Version header (13)' };
  return undefined;
}
