/**
 * The host side of the in-sprite API (docs/wire-reference.md §12): HTTP that a process inside a sprite sends to
 * `/.sprite/api.sock` arrives here as a Duplex (Machine port `onApiConnection`), is parsed by a non-listening
 * `http.Server`, and is answered by spritzer's own app after mapping `/v1/services…`, `/v1/tasks…`,
 * `/v1/checkpoints…` and `POST /v1/checkpoint` onto `/v1/sprites/<name>/…`. It owns that mapping and the
 * wiring; every operation's behaviour stays in the routes and the model.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Machine, MachineFactory, MachinePersistence } from '../machines/types.ts';

/** The sprite whose API socket a connection came through. */
const SPRITE_OF = Symbol('spritzer.in-sprite-api.sprite');

/**
 * The public API path an in-sprite API path stands for, for sprite `name`, or null when the in-sprite API has no
 * such path (`/v1/services…`, `/v1/tasks…`, `/v1/checkpoints…`, `/v1/checkpoint`; the query is kept).
 * @see docs/wire-reference.md §12
 */
export function publicPathOf(name: string, inside: string): string | null {
  const m = /^\/v1\/(services|tasks|checkpoints|checkpoint)(?=[/?]|$)([^]*)$/.exec(inside);
  if (!m) return null;
  return `/v1/sprites/${encodeURIComponent(name)}/${m[1]}${m[2]}`;
}

/**
 * Wraps `factory` so that every machine it gives the server — created, booted again from a data dir
 * (`persistence.reattach`) or adopted at start (`adoptExisting`) — sends its in-sprite API connections to `serve`
 * with the sprite's name (the agent's `/.sprite/api.sock`, the in-memory engines' `sprite-env`). Machines without
 * `onApiConnection` are returned as they are; everything else is the factory's own.
 */
export function withInSpriteApi(factory: MachineFactory, serve: (spriteName: string, conn: Duplex) => void): MachineFactory {
  const served = (name: string, machine: Machine): Machine => {
    machine.onApiConnection?.((conn) => serve(name, conn));
    return machine;
  };
  const p = factory.persistence;
  const persistence: MachinePersistence | undefined = p && {
    save: (machine) => p.save(machine),
    saveSnapshot: (snapshot) => p.saveSnapshot(snapshot),
    reattach: async (spec, saved) => served(spec.name, await p.reattach(spec, saved)),
    reviveSnapshot: (saved) => p.reviveSnapshot(saved),
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
    ...(factory.warm && { warm: () => factory.warm!() }),
    ...(factory.detach && { detach: () => factory.detach!() }),
    ...(factory.adoptExisting && {
      adoptExisting: async () => (await factory.adoptExisting!()).map((found) => ({ ...found, machine: served(found.spec.name, found.machine) })),
    }),
  };
}

/**
 * The in-sprite API server: `serve(name, conn)` answers HTTP on `conn` as sprite `name`'s own API by handing each
 * request, mapped onto the public path and authenticated with the server's own token (`token`, or any bearer when the
 * server runs without one), to `app`. Unknown paths answer 404 in the §2.4 envelope. `close()` ends every connection.
 */
export function createInSpriteApi(app: () => (req: IncomingMessage, res: ServerResponse) => void, token: string | undefined) {
  const server = http.createServer((req, res) => {
    const name = (req.socket as unknown as { [SPRITE_OF]?: string })[SPRITE_OF];
    const mapped = name === undefined ? null : publicPathOf(name, req.url ?? '/');
    if (!mapped) {
      const text = JSON.stringify({ error: 'not found', message: `no in-sprite API route for ${req.method} ${req.url}` });
      res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      return void res.end(text);
    }
    req.url = mapped;
    // Being inside the sprite is the credential (the socket is only reachable from there).
    req.headers.authorization = `Bearer ${token ?? 'in-sprite'}`;
    app()(req, res);
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
