/**
 * The host side of the in-sprite API (docs/wire-reference.md §12): HTTP that a process inside a sprite sends to
 * `/.sprite/api.sock` arrives here as a Duplex (Machine port `onApiConnection`), is parsed by a non-listening
 * `http.Server`, and is answered by spritzer's own app after mapping `/v1/services…`, `/v1/tasks…`,
 * `/v1/checkpoints…` and `POST /v1/checkpoint` onto `/v1/sprites/<name>/…`, and, to read only, `/v1/sprite` onto
 * `/v1/sprites/<name>` and `/policy/network` onto its policy. It owns that mapping, the pinning of
 * each request to its own sprite (the sprite's code is untrusted: docs/security.md "The in-sprite API") and the
 * wiring; every operation's behaviour stays in the routes and the model.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Machine, MachineFactory, MachinePersistence } from '../machines/port.ts';
import { IN_SPRITE_SCOPE } from '../http/auth.ts';

/** The sprite whose API socket a connection came through. */
const SPRITE_OF = Symbol('spritzer.in-sprite-api.sprite');

/**
 * The request headers the in-sprite API passes on to the app: what the routes need to read a body and choose a
 * representation. Everything else a sprite's code sends (`Host`, `X-Forwarded-*`, `Forwarded`, `Origin`,
 * `Cookie`, `Authorization`, …) is dropped, so no header can steer routing (the sprite URL routes on `Host`) or
 * stand for a credential.
 */
const PASSED_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'accept', 'user-agent']);

/**
 * The `Host` every in-sprite API request carries: a name with no dot, so it can never be a host-routed sprite URL
 * (`<name>.<url-domain>`), whatever `--url-domain` is.
 */
export const IN_SPRITE_HOST = 'sprite';

/** Percent-encoded `.`, `/` and `\`: a path holding one could decode into a segment that leaves the sprite. */
const ENCODED_SEPARATOR = /%(2e|2f|5c)/i;

/**
 * The in-sprite paths that only read (GET and HEAD), each with the public path it stands for: the sprite itself, as
 * `GET /v1/sprites/<name>` shows it (what `sprite-env info` prints from), and the network policy in force
 * (`sprite-env curl /policy/network`, as production's docs use it; the sprite cannot change it).
 */
const READ_ONLY_PATHS: Record<string, (name: string) => string> = {
  '/v1/sprite': (name) => `/v1/sprites/${encodeURIComponent(name)}`,
  '/policy/network': (name) => `/v1/sprites/${encodeURIComponent(name)}/policy/network`,
};

/**
 * The public API path an in-sprite API path stands for, for sprite `name` and a request of `method`, or null when
 * the in-sprite API has no such path (`/v1/services…`, `/v1/tasks…`, `/v1/checkpoints…`, `/v1/checkpoint`, and for
 * GET and HEAD only `/v1/sprite` and `/policy/network`; the query is kept). A path that normalising would change
 * (`.` or `..` segments, `//`, `\`, or an encoded `.`, `/` or `\`) has no mapping either: the result always is
 * `/v1/sprites/<name>` or lies under `/v1/sprites/<name>/`, as it is and after any decoding or normalising.
 * @see docs/wire-reference.md §12
 */
export function publicPathOf(name: string, inside: string, method = 'GET'): string | null {
  const q = inside.indexOf('?');
  const readOnly = READ_ONLY_PATHS[q < 0 ? inside : inside.slice(0, q)];
  if (readOnly && !inside.includes('#')) return method === 'GET' || method === 'HEAD' ? `${readOnly(name)}${q < 0 ? '' : inside.slice(q)}` : null;
  const m = /^\/v1\/(services|tasks|checkpoints|checkpoint)(?=[/?]|$)([^?#]*)(\?[^#]*)?$/.exec(inside);
  if (!m) return null;
  const path = `/v1/${m[1]}${m[2]}`;
  if (path.includes('//') || path.includes('\\') || ENCODED_SEPARATOR.test(path) || /\/\.\.?(?=\/|$)/.test(path)) return null;
  return `/v1/sprites/${encodeURIComponent(name)}/${m[1]}${m[2]}${m[3] ?? ''}`;
}

/**
 * Pins `req`, as received on sprite `name`'s API socket, to that sprite's own API: its URL becomes the public path
 * (`publicPathOf`), its headers only `PASSED_HEADERS` plus `Host: sprite`, and it carries the in-sprite scope
 * (`IN_SPRITE_SCOPE`, which the app admits only under `/v1/sprites/<name>/`) instead of any credential. Returns
 * false, changing nothing, when the path has no mapping.
 */
export function pinToSprite(req: IncomingMessage, name: string): boolean {
  const mapped = publicPathOf(name, req.url ?? '/', req.method ?? 'GET');
  if (!mapped) return false;
  const headers: IncomingMessage['headers'] = { host: IN_SPRITE_HOST };
  const raw: string[] = ['Host', IN_SPRITE_HOST];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const key = req.rawHeaders[i].toLowerCase();
    if (!PASSED_HEADERS.has(key)) continue;
    raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
    if (headers[key] === undefined) headers[key] = req.headers[key];
  }
  req.url = mapped;
  req.headers = headers;
  req.rawHeaders = raw;
  (req as IncomingMessage & { [IN_SPRITE_SCOPE]?: string })[IN_SPRITE_SCOPE] = name;
  return true;
}

/**
 * Wraps `factory` so that every machine it gives the server — created, booted again from a data dir
 * (`persistence.reattach`) or adopted at start (`adoptExisting`) — sends its in-sprite API connections to `serve`
 * with the sprite's name (the agent's `/.sprite/api.sock`, the in-memory engines' `sprite-env`). Everything else is
 * the factory's own.
 */
export function withInSpriteApi(factory: MachineFactory, serve: (spriteName: string, conn: Duplex) => void): MachineFactory {
  const served = (name: string, machine: Machine): Machine => {
    machine.onApiConnection((conn) => serve(name, conn));
    return machine;
  };
  const p = factory.persistence;
  const persistence: MachinePersistence | undefined = p && {
    save: (machine, at) => p.save(machine, at),
    saveSnapshot: (snapshot, at) => p.saveSnapshot(snapshot, at),
    reattach: async (spec, saved, at) => served(spec.name, await p.reattach(spec, saved, at)),
    reviveSnapshot: (saved, at) => p.reviveSnapshot(saved, at),
    release: (spriteId) => p.release(spriteId),
    prune: (keep) => p.prune(keep),
  };
  return {
    get engine() {
      return factory.engine;
    },
    get snapshotMode() {
      return factory.snapshotMode;
    },
    create: async (spec) => served(spec.name, await factory.create(spec)),
    close: () => factory.close(),
    persistence,
    warm: () => factory.warm(),
    detach: () => factory.detach(),
    adoptExisting: async () => (await factory.adoptExisting()).map((found) => ({ ...found, machine: served(found.spec.name, found.machine) })),
  };
}

/**
 * The in-sprite API server: `serve(name, conn)` answers HTTP on `conn` as sprite `name`'s own API by handing each
 * request, pinned to that sprite (`pinToSprite`: being inside the sprite is the credential, and it admits nothing
 * but that sprite's own paths), to `app`. Unknown paths answer 404 in the §2.4 envelope; an upgrade is refused
 * (the in-sprite API has no WebSocket). `close()` ends every connection.
 */
export function createInSpriteApi(app: () => (req: IncomingMessage, res: ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    const name = (req.socket as unknown as { [SPRITE_OF]?: string })[SPRITE_OF];
    if (name === undefined || !pinToSprite(req, name)) {
      const text = JSON.stringify({ error: 'not found', message: `no in-sprite API route for ${req.method} ${req.url}` });
      res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      return void res.end(text);
    }
    app()(req, res);
  });
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
    const text = JSON.stringify({ error: 'not found', message: 'the in-sprite API has no WebSocket' });
    // The HTTP server has let go of the socket (and of its error handling): ours, until it closes.
    socket.on('error', () => socket.destroy());
    socket.end(`HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  });
  const conns = new Set<Duplex>();
  return {
    serve(spriteName: string, conn: Duplex): void {
      (conn as unknown as { [SPRITE_OF]?: string })[SPRITE_OF] = spriteName;
      conns.add(conn);
      conn.on('close', () => conns.delete(conn));
      server.emit('connection', conn);
    },
    close(): void {
      for (const c of conns) c.destroy();
      conns.clear();
    },
  };
}
