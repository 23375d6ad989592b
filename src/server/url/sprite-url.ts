/**
 * The sprite URL (docs/wire-reference.md §11): `ANY /s/<name>/<path>` (path-routed), `Host: <name>.<url-domain>`
 * (host-routed) and a port of the sprite's own (url/sprite-origins.ts) reach the sprite's HTTP port (the service with `http_port`, else 8080) through the Machine port's
 * `connect`, for plain HTTP and for upgrades (WebSocket), streaming both ways without buffering. It owns routing,
 * `url_settings.auth` and the 401/404/502 answers; it does not own the dialling (the machine) or the services.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import { ModelError } from '../core/errors.ts';
import { UNAUTHORIZED, type Credentials } from '../http/auth.ts';
import { rejectHandshake } from '../http/handshake.ts';
import { pathFormHeaders, pathFormRefusal } from './path-form.ts';

/** The port a sprite's URL reaches when no service has `http_port` (docs/wire-reference.md §11). */
export const DEFAULT_HTTP_PORT = 8080;

/** The default `--url-domain`: `http://<name>.localhost:<port>/` resolves to loopback in browsers with no DNS set-up. */
export const DEFAULT_URL_DOMAIN = 'localhost';

/** Where a request to the sprite URL goes: the sprite's name and the path (with query) inside the sprite. */
export interface SpriteUrlTarget {
  name: string;
  /** Always starts with `/`. */
  path: string;
  /** Whether the request came path-routed (`/s/<name>/…`). */
  pathRouted: boolean;
}

/**
 * Whether `req` addresses a sprite URL, and which: `/s/<name>[/<path>]` (any Host), or a Host header
 * `<name>.<urlDomain>[:port]` (case-insensitive, one label for the name). Anything else is null (the API).
 */
export function spriteUrlTarget(req: Pick<IncomingMessage, 'url' | 'headers'>, urlDomain: string = DEFAULT_URL_DOMAIN): SpriteUrlTarget | null {
  const url = req.url ?? '/';
  const m = /^\/s\/([^/?#]+)(\/[^]*|\?[^]*)?$/.exec(url);
  if (m) {
    let name: string;
    try {
      name = decodeURIComponent(m[1]);
    } catch {
      return null;
    }
    const rest = m[2] ?? '/';
    return { name, path: rest.startsWith('?') ? `/${rest}` : rest, pathRouted: true };
  }
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${urlDomain.toLowerCase()}`;
  if (host.endsWith(suffix)) {
    const name = host.slice(0, -suffix.length);
    if (/^[a-z0-9][a-z0-9-]*$/.test(name)) return { name, path: url.startsWith('/') ? url : `/${url}`, pathRouted: false };
  }
  return null;
}

/** The port inside the sprite the URL reaches: the service that has `http_port`, else 8080 (§11). */
export function httpPortOf(sprite: Sprite): number {
  return sprite.services.list().find((s) => s.httpPort !== null)?.httpPort ?? DEFAULT_HTTP_PORT;
}

/** How long a request waits for an `http_port` service it started on demand to listen, in ms. */
export const ON_DEMAND_WAIT_MS = 10_000;
/** How often the URL retries the dial while that service starts, in ms. */
export const ON_DEMAND_RETRY_MS = 100;

/**
 * Dials the sprite's HTTP port. When nothing listens and the service that has `http_port` is stopped or failed,
 * starts it (docs/wire-reference.md §9.2 "an http_port service is auto-started when a request hits the sprite URL")
 * and retries every 100 ms for up to 10 s on the injected clock. Rejects with the last dial error.
 */
export async function dialHttpPort(sprite: Sprite, port: number, clock: AppContext['deps']['clock']): Promise<Duplex> {
  try {
    return await sprite.machine.connect('127.0.0.1', port);
  } catch (err) {
    const svc = sprite.services.list().find((s) => s.httpPort === port);
    if (!svc || !['stopped', 'failed'].includes(svc.state.status)) throw err;
    try {
      sprite.services.start(svc.name);
    } catch {
      // started meanwhile by someone else: wait for it all the same
    }
    let lastError = err;
    const deadline = clock.now() + ON_DEMAND_WAIT_MS;
    while (clock.now() < deadline) {
      await new Promise<void>((r) => clock.setTimeout(r, ON_DEMAND_RETRY_MS));
      try {
        return await sprite.machine.connect('127.0.0.1', port);
      } catch (e) {
        lastError = e;
        const now = sprite.services.list().find((s) => s.name === svc.name)?.state.status;
        if (now === 'failed' || now === 'stopped') break; // it died at start: nothing will listen
      }
    }
    throw lastError;
  }
}

type Refusal = { status: number; body: { error: string; message?: string } };

/** Finds the sprite and applies `url_settings.auth` (`sprite`: the API token as a bearer header; `public`: open). */
function admit(ctx: AppContext, target: SpriteUrlTarget, req: IncomingMessage): { sprite: Sprite } | Refusal {
  const sprite = (() => {
    try {
      return ctx.model.get(target.name);
    } catch {
      return undefined;
    }
  })();
  // An unknown sprite and a refused token look the same to a caller without the token (no name probing).
  if (sprite?.urlSettings.auth !== 'public' && !ctx.credentials.accepts(req.headers.authorization)) return { status: 401, body: UNAUTHORIZED };
  if (!sprite) return { status: 404, body: { error: 'sprite not found' } };
  return { sprite };
}

/**
 * The headers forwarded to the sprite: hop-by-hop ones stay (the relay is transparent) but spritzer's credentials
 * never reach the sprite's server: `Proxy-Authorization` (addressed to spritzer, the proxy), and `Authorization`
 * when it opened a `sprite`-auth URL or carries a token spritzer issued. A public URL passes the client's own
 * `Authorization` (an app's Basic or bearer login) untouched.
 */
function forwardedHeaders(req: IncomingMessage, sprite: Sprite, credentials: Credentials): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
  // @deviation The token that opened a `sprite`-auth URL, or any spritzer token sent to a public one, is not passed
  // on to the sprite's server (whether the real proxy passes it is not documented).
  if (sprite.urlSettings.auth !== 'public' || credentials.carriesOwnToken(req.headers.authorization)) delete headers.authorization;
  delete headers['proxy-authorization'];
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

/** Headers of a plain (non-upgrade) request: one request per connection to the sprite, so no keep-alive. */
function plainHeaders(req: IncomingMessage, sprite: Sprite, credentials: Credentials): Record<string, string | string[]> {
  const headers = forwardedHeaders(req, sprite, credentials);
  for (const h of ['connection', 'keep-alive', 'proxy-connection', 'upgrade']) delete headers[h];
  headers.connection = 'close';
  return headers;
}

/**
 * Why the sprite's HTTP port could not be dialled, as the answer: 503 `sprite_unavailable` with the machine's words
 * when the sprite itself cannot be reached (its container or pod is down and being made again: what exec answers
 * then too), else 502 `bad_gateway` naming the port (nothing listens there, or the machine has no network).
 */
export function badGateway(sprite: Pick<Sprite, 'name'>, port: number, err: unknown): Refusal {
  if (err instanceof ModelError && err.kind === 'sprite_unavailable') return { status: 503, body: { error: 'sprite_unavailable', message: err.message } };
  const code = (err as NodeJS.ErrnoException)?.code;
  return {
    status: 502,
    body: {
      error: 'bad_gateway',
      message: `nothing is listening on port ${port} in sprite ${sprite.name}${code && code !== 'ECONNREFUSED' ? ` (${code})` : ''}`,
    },
  };
}

/** Sends a JSON refusal on an HTTP response (the §2.4 envelope). */
function refuseHttp(res: ServerResponse, r: Refusal): void {
  if (res.headersSent) return void res.destroy();
  const text = JSON.stringify(r.body);
  res.writeHead(r.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The relay to one sprite's HTTP port, for a target already decided (path, host or port form). */
export interface SpriteRelay {
  /** Answers `req` from the sprite `target.name` (401/404/502 in the envelope when it cannot). */
  request(target: SpriteUrlTarget, req: IncomingMessage, res: ServerResponse): void;
  /** Relays an upgrade (WebSocket or any other) to the sprite, or rejects the handshake in the envelope. */
  upgrade(target: SpriteUrlTarget, req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * Builds the relay over `ctx` (the model, the credentials, the logger). A request counts as activity (`touch`).
 * Errors: 401 `{error:'unauthorized'}` without an accepted token on a `sprite`-auth sprite, 404 for an unknown
 * sprite, 502 `{error:'bad_gateway'}` when nothing listens. A path-routed answer is made safe for spritzer's own
 * origin (url/path-form.ts). @see docs/wire-reference.md §11
 */
export function createSpriteRelay(ctx: AppContext): SpriteRelay {
  const { logger } = ctx.deps;
  return {
    request(target, req, res) {
      const admitted = admit(ctx, target, req);
      if (!('sprite' in admitted)) return refuseHttp(res, admitted);
      const refused = target.pathRouted ? pathFormRefusal(req) : undefined;
      if (refused) return refuseHttp(res, refused);
      const { sprite } = admitted;
      sprite.touch();
      const port = httpPortOf(sprite);
      let dialFailed: unknown;
      const upstream = http.request({
        method: req.method,
        path: target.path,
        headers: plainHeaders(req, sprite, ctx.credentials),
        createConnection: ((_opts: unknown, cb: (err: Error | null, s?: Duplex) => void) => {
          dialHttpPort(sprite, port, ctx.deps.clock).then(
            (conn) => cb(null, conn),
            (err: Error) => {
              dialFailed = err;
              cb(err);
            },
          );
          return undefined;
        }) as unknown as http.RequestOptions['createConnection'],
      });
      upstream.on('response', (up) => {
        const headers: string[] = [];
        for (let i = 0; i < up.rawHeaders.length; i += 2) {
          if (!/^(connection|keep-alive)$/i.test(up.rawHeaders[i])) headers.push(up.rawHeaders[i], up.rawHeaders[i + 1]);
        }
        res.writeHead(up.statusCode ?? 502, up.statusMessage, target.pathRouted ? pathFormHeaders(headers) : headers);
        res.flushHeaders();
        up.pipe(res);
        up.on('error', () => res.destroy());
      });
      upstream.on('error', (err) => {
        if (dialFailed !== undefined) return refuseHttp(res, badGateway(sprite, port, dialFailed));
        logger.debug({ err, sprite: sprite.name }, 'sprite url: upstream error');
        if (res.headersSent) res.destroy();
        else refuseHttp(res, { status: 502, body: { error: 'bad_gateway', message: `the sprite's server on port ${port} failed: ${err.message}` } });
      });
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    },

    upgrade(target, req, socket, head) {
      const admitted = admit(ctx, target, req);
      if (!('sprite' in admitted)) return rejectHandshake(socket, admitted.status, admitted.body);
      const { sprite } = admitted;
      sprite.touch();
      const port = httpPortOf(sprite);
      dialHttpPort(sprite, port, ctx.deps.clock).then(
        (conn) => {
          if (socket.destroyed) return void conn.destroy();
          // The request head goes as received (with the path inside the sprite); then the bytes flow both ways.
          const lines = [`${req.method} ${target.path} HTTP/${req.httpVersion}`];
          const headers = forwardedHeaders(req, sprite, ctx.credentials);
          for (const [k, v] of Object.entries(headers)) for (const one of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${one}`);
          conn.write(`${lines.join('\r\n')}\r\n\r\n`);
          if (head.length > 0) conn.write(head);
          socket.pipe(conn);
          conn.pipe(socket);
          const end = () => {
            socket.destroy();
            conn.destroy();
          };
          conn.on('error', end);
          socket.on('error', end);
          conn.on('close', end);
          socket.on('close', end);
        },
        (err: unknown) => {
          const r = badGateway(sprite, port, err);
          rejectHandshake(socket, r.status, r.body);
        },
      );
    },
  };
}

/** The two entry points of the sprite URL on spritzer's own address: one for requests, one for upgrades. */
export interface SpriteUrlHandlers {
  /** Handles `req` when it addresses a sprite URL and returns true; false leaves it to the API. */
  request(req: IncomingMessage, res: ServerResponse): boolean;
  /** Handles an upgrade (`Upgrade: websocket` or any other) to a sprite URL and returns true; false leaves it to the API. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

/**
 * The path and host forms of the sprite URL on spritzer's own address (`relay` does the rest). `urlDomain` is
 * `--url-domain` (`SPRITZER_URL_DOMAIN`, default `localhost`). @see docs/wire-reference.md §11
 */
export function createSpriteUrl(relay: SpriteRelay, urlDomain: string = DEFAULT_URL_DOMAIN): SpriteUrlHandlers {
  return {
    request(req, res) {
      const target = spriteUrlTarget(req, urlDomain);
      if (!target) return false;
      relay.request(target, req, res);
      return true;
    },
    upgrade(req, socket, head) {
      const target = spriteUrlTarget(req, urlDomain);
      if (!target) return false;
      relay.upgrade(target, req, socket, head);
      return true;
    },
  };
}
