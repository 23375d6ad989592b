/**
 * The inspector: the browser UI at `/_spritzer/ui/` (static files built by ./bundle.ts),
 * the redirect of a browser's `GET /` there, the request log behind `GET /_spritzer/requests`, and the UI's
 * way to pass its token on a WebSocket upgrade. Mounted from app.ts; it owns no API state beyond the log.
 * @see docs/inspector.md
 */
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext, HandlerMap } from '../context.ts';
import { RequestLog } from './request-log.ts';
import { ensureInspector } from './bundle.ts';

export { RequestLog } from './request-log.ts';

/** The sub-protocol the inspector offers first on every WebSocket it opens. */
export const UI_PROTOCOL = 'spritzer-ui';
/** Prefix of the sub-protocol that carries the token, base64url-encoded: `spritzer-token.<b64url>`. */
export const UI_TOKEN_PROTOCOL_PREFIX = 'spritzer-token.';

const logs = new WeakMap<AppContext, RequestLog>();

/** Handlers of the inspector's operations, by operationId (spec tag `spritzer`). */
export const inspectorHandlers: HandlerMap = {
  /** `GET /_spritzer/requests` → `{requests}`: the logged exchanges, newest first (schema `SpritzerRequestList`). */
  listSpritzerRequests(_request, res, ctx) {
    res.json({ requests: logs.get(ctx)?.list() ?? [] });
  },
};

/**
 * Mounts, before authentication: the request log's middleware, then `afterLog` (the app's request line and the
 * sprite URL, which must reach a sprite's host before the inspector's own paths), then the static UI and the
 * browser redirect of `/`. The UI's files carry no secret, so they need no token; the page asks for one when the
 * API answers 401. Returns the log (the caller wraps its upgrade listener with {@link wrapUpgrade}).
 */
export function mountInspector(app: Express, ctx: AppContext, afterLog: RequestHandler[] = [], log = new RequestLog(ctx.deps.clock)): RequestLog {
  logs.set(ctx, log);
  app.use(log.middleware());
  for (const handler of afterLog) app.use(handler);
  app.get('/', (req: Request, res: Response, next: NextFunction) => {
    // Browsers (Accept: text/html) go to the inspector; API clients keep today's answer.
    if ((req.headers.accept ?? '').includes('text/html')) {
      return res.redirect(302, '/_spritzer/ui/');
    }
    next();
  });
  let statics: ReturnType<typeof express.static> | undefined;
  app.use('/_spritzer/ui', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' && !req.originalUrl.split('?')[0].endsWith('/')) return res.redirect(301, '/_spritzer/ui/');
    ensureInspector().then(
      (dir) => {
        statics ??= express.static(dir, { index: 'index.html', maxAge: 0 });
        statics(req, res, next);
      },
      (err: unknown) => {
        ctx.deps.logger.error({ err }, 'cannot build the inspector');
        res.status(500).json({ error: 'internal_error', message: 'the inspector is not built (npm run build:ui)' });
      },
    );
  });
  return log;
}

/**
 * Wraps the upgrade listener: logs the handshake, and when the browser offers the `spritzer-ui` sub-protocol with
 * a `spritzer-token.<base64url>` one (browsers cannot set `Authorization` on a WebSocket), and no Authorization
 * header is present, uses that token as `Bearer <token>`.
 * @deviation emulator-only: real Sprites accept the token only in the Authorization header (docs/fidelity.md).
 */
export function wrapUpgrade(log: RequestLog, handle: (req: IncomingMessage, socket: Duplex, head: Buffer) => void) {
  return log.wrapUpgrade((req, socket, head) => {
    const token = uiTokenOf(req.headers['sec-websocket-protocol']);
    if (token !== undefined && !req.headers.authorization) req.headers.authorization = `Bearer ${token}`;
    handle(req, socket, head);
  });
}

/** The token in a `Sec-WebSocket-Protocol` list that also names `spritzer-ui`, or undefined. */
export function uiTokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const offered = header.split(',').map((p) => p.trim());
  if (!offered.includes(UI_PROTOCOL)) return undefined;
  const entry = offered.find((p) => p.startsWith(UI_TOKEN_PROTOCOL_PREFIX));
  if (!entry) return undefined;
  const text = Buffer.from(entry.slice(UI_TOKEN_PROTOCOL_PREFIX.length), 'base64url').toString('utf8');
  return text.length > 0 ? text : undefined;
}
