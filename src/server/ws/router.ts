/**
 * The upgrade router: every WebSocket handshake lands here (Express never sees upgrades). It authenticates,
 * applies fault rules, finds the sprite, parses the query, and either rejects with an HTTP status and the JSON
 * envelope or upgrades and hands the socket to its channel (exec, attach, control, proxy, watches).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { SPRITE_VERSION, type AppContext } from '../context.ts';
import { UNAUTHORIZED } from '../http/auth.ts';
import { rejectHandshake } from './handshake.ts';
import { faultResponse } from '../http/faults.ts';
import { ModelError } from '../core/errors.ts';
import { statusOf } from '../http/errors.ts';
import { parseExecQuery } from '../exec/params.ts';
import { sendSessionInfo, socketListener, wireClient } from './exec.ts';
import { reportTtyPorts } from './tty-ports.ts';
import type { Sprite } from '../model/sprites.ts';
import { handleProxy } from './proxy.ts';
import { CONTROL_OPS, handleControl } from './control.ts';
import { handlePortsWatch } from './ports-watch.ts';
import { handleFsWatch } from './fs-watch.ts';
import { badTargetBody, malformedPathBody, malformedQueryBody, parseRequestTarget } from '../http/request-target.ts';
import { containedWebSocket } from './contained-socket.ts';
import { CloseCode } from '../../protocol/close-codes.ts';
import { execStreamLimits } from '../config/exec-limits.ts';
import { checkSessionLimit } from '../exec/session-limit.ts';

/** A channel handler, called after a successful upgrade. */
export type ChannelHandler = (ws: WebSocket, sprite: Sprite, req: IncomingMessage, ctx: AppContext) => void;

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

/** Builds the `upgrade` listener for an http.Server. */
export function createUpgradeHandler(ctx: AppContext, channels: ExtraChannels = SPRITE_CHANNELS) {
  const { logger } = ctx.deps;
  const limits = execStreamLimits(ctx.deps.execLimits);
  // One frame may carry the whole stdin allowance plus its stream-id byte; a larger one is closed with 1009.
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

  function handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = parseRequestTarget(req.url);
    if (!url) return rejectHandshake(socket, 400, badTargetBody(req.url));
    const m = ROUTE.exec(url.pathname);
    // Browsers send Origin on every WebSocket: a page of another origin is refused whatever the token (http/origin-check.ts).
    const foreign = ctx.originCheck.refusal(req);
    if (foreign) return rejectHandshake(socket, 403, foreign);
    if (!ctx.credentials.accepts(req.headers.authorization)) return rejectHandshake(socket, 401, UNAUTHORIZED);
    if (!m) return rejectHandshake(socket, 404, { error: 'not found', message: `no WebSocket endpoint at ${url.pathname}` });
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') {
      return rejectHandshake(socket, 400, { error: 'invalid_request', message: 'only WebSocket upgrades are supported' });
    }
    const handshake = handshakeProblem(req);
    if (handshake) return rejectHandshake(socket, handshake.status, { error: 'invalid_request', message: handshake.message });
    const malformed = malformedPathBody(url.pathname) ?? malformedQueryBody(url.search); // the same 400 REST answers (app.ts)
    if (malformed) return rejectHandshake(socket, 400, malformed);
    const name = decodeURIComponent(m[1]);
    const channel = m[2];
    const sessionId = m[3] ? decodeURIComponent(m[3]) : undefined;
    const operationId =
      channel.startsWith('exec') && (sessionId || url.searchParams.has('id')) ? 'attachExecSession' : CHANNEL_OPERATIONS[channel];
    const fault = ctx.faults.take(operationId, name);
    if (fault) {
      const answer = faultResponse(fault, ctx.deps.clock.now());
      return rejectHandshake(socket, answer.status, answer.body, answer.headers);
    }
    let sprite: Sprite;
    try {
      sprite = ctx.model.get(name);
      if (channel === 'control') return upgradeControl(req, socket, head, sprite, url.searchParams);
      if (channel.startsWith('exec')) {
        return void upgradeExec(req, socket, head, sprite, url.searchParams, sessionId).catch((err: unknown) => refuse(err));
      }
      const extra = channels[channel];
      if (!extra) return rejectHandshake(socket, 501, { error: 'not_implemented', message: `operation ${operationId} is not implemented` });
      upgrade(req, socket, head, (ws) => extra.handle(ws, sprite, req, ctx));
    } catch (err) {
      refuse(err);
    }

    /** Answers a failure before the upgrade with its status and envelope. */
    function refuse(err: unknown): void {
      if (err instanceof ModelError) {
        const body =
          err.kind === 'sprite_not_found'
            ? { error: 'sprite not found' }
            : { error: err.kind === 'invalid_request' ? 'invalid_request' : err.kind, message: err.message, ...err.details };
        const headers = err.kind === 'rate_limited' ? { 'Retry-After': String(err.details.retry_after_seconds ?? 60) } : undefined;
        return rejectHandshake(socket, statusOf(err.kind), body, headers);
      }
      logger.error({ err }, 'upgrade failed');
      return rejectHandshake(socket, 500, { error: 'internal_error', message: 'internal server error' });
    }
  }

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, then: (ws: WebSocket) => void): void {
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      try {
        then(ws);
      } catch (err) {
        // After the 101 no HTTP status can be sent: a channel that fails to start closes 1011.
        logger.error({ err, url: req.url }, 'channel handler failed');
        ws.close(CloseCode.InternalError, 'internal error');
      }
    });
  }

  /** The control socket (ws/control.ts); an auto-start `?op=` must name a known operation (400 otherwise). */
  function upgradeControl(req: IncomingMessage, socket: Duplex, head: Buffer, sprite: Sprite, q: URLSearchParams): void {
    const op = q.get('op');
    if (op !== null && !(CONTROL_OPS as readonly string[]).includes(op)) {
      throw new ModelError('invalid_request', `unknown op ${JSON.stringify(op)}: the control socket starts ${CONTROL_OPS.join(' or ')}`);
    }
    upgrade(req, socket, head, (ws) => handleControl(ws, sprite, ctx, { limits, socket, ...(op !== null ? { autoStart: q } : {}) }));
  }

  async function upgradeExec(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    sprite: Sprite,
    q: URLSearchParams,
    pathSessionId: string | undefined,
  ): Promise<void> {
    const { init, id, hasCommand } = parseExecQuery(q, sprite.environment);
    const attachId = pathSessionId ?? id;
    if (attachId !== undefined) {
      const session = sprite.sessions.get(attachId); // 404 before the upgrade for a dead id (§4.7)
      return upgrade(req, socket, head, (ws) => {
        const isOwner = !session.isActive;
        sendSessionInfo(ws, session, isOwner);
        if (session.tty) reportTtyPorts(ws, sprite.machine);
        const detach = session.attach(socketListener(ws, session.tty, limits, () => detach()), { replay: true });
        sprite.touch();
        wireClient(ws, session, detach, { stdin: q.get('stdin') !== 'false', logger, socket });
      });
    }
    if (!hasCommand) throw new ModelError('invalid_request', 'No command specified');
    checkSessionLimit(sprite.sessions, ctx.deps.limits.sessionsMax);
    await sprite.sessions.validate(init);
    upgrade(req, socket, head, (ws) => {
      const listener = socketListener(ws, init.tty, limits, () => session.detachListener(listener));
      const session = sprite.sessions.start(init, listener);
      sendSessionInfo(ws, session, true);
      if (init.tty) reportTtyPorts(ws, sprite.machine);
      wireClient(ws, session, () => session.detachListener(listener), { stdin: init.stdin, logger, socket });
    });
  }

  return {
    handle,
    /** Closes every open socket (shutdown). */
    closeAll(): void {
      for (const ws of sockets) ws.terminate();
      wss.close();
    },
    /**
     * Sends every open socket a close frame with `code` (1001 on a graceful shutdown, src/server/shutdown.ts);
     * resolves once each has closed.
     */
    closeWith(code: number): Promise<void> {
      const open = [...sockets].filter((ws) => ws.readyState === ws.OPEN || ws.readyState === ws.CLOSING);
      const closed = open.map((ws) => new Promise<void>((resolve) => ws.once('close', () => resolve())));
      for (const ws of open) if (ws.readyState === ws.OPEN) ws.close(code, 'server shutting down');
      return Promise.all(closed).then(() => undefined);
    },
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
