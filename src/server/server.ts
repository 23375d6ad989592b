/**
 * Starts spritzer on an address: builds the app from deps, creates the http.Server with the upgrade router,
 * listens, and returns the base URL and a `close()` that ends sockets, commands and services. Used by the
 * `spritzer` command and by tests (port 0).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp, type SpritzerApp } from './app.ts';
import { adoptMachines } from './model/adopt.ts';
import type { Deps } from './context.ts';
import { SystemClock } from './core/clock.ts';
import { RandomIds } from './core/ids.ts';
import { createMachineFactory } from './machines/index.ts';
import { DEFAULT_LIMITS } from './core/limits.ts';
import { containRequests, containTimers, containUpgrades } from './http/containment.ts';
import { spareConnectionsWithWaitingRequests } from './http/keep-alive.ts';
import { answerOversizeHeads, DEFAULT_MAX_HEADER_BYTES } from './http/oversize.ts';
import { warmUp } from './http/warm-up.ts';
import { localHostOf } from './url/local-address.ts';

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4290`. */
  url: string;
  spritzer: SpritzerApp;
  server: http.Server;
  close(): Promise<void>;
}

/** Default dependencies; anything given overrides them. */
export function defaultDeps(overrides: Partial<Deps> = {}): Deps {
  const clock = overrides.clock ?? new SystemClock();
  return {
    clock,
    ids: new RandomIds(),
    machines: overrides.machines ?? createMachineFactory('shell', { clock }),
    logger: pino({ level: 'silent' }),
    organization: 'personal',
    validateResponses: process.env.NODE_ENV !== 'production',
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}

/** Listens on `host:port` (port 0 picks a free one). */
export async function startServer(deps: Deps, host = '127.0.0.1', port = 0): Promise<RunningServer> {
  const spritzer = createApp({ ...deps, clock: containTimers(deps.clock, deps.logger) });
  // --data-dir: the saved sprites and tokens are back before the first request (src/server/store).
  if (deps.store) await deps.store.load(spritzer.ctx);
  // Machines that outlive spritzer (the container engine) come back as sprites (model/adopt.ts).
  await adoptMachines(spritzer.ctx.model, deps.logger);
  // Contained: no throw in either listener reaches the process, so one request never takes spritzer down
  // (containment.ts).
  // The request head may be long (a 200 KB command line in exec's query); past the limit 414/431 JSON (http/oversize.ts).
  const maxHeaderSize = deps.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  const server = http.createServer({ maxHeaderSize }, containRequests(spritzer.app, deps.logger));
  answerOversizeHeads(server, maxHeaderSize);
  // A reused connection is not cut under a request it already carries when the loop was busy (http/keep-alive.ts).
  spareConnectionsWithWaitingRequests(server);
  server.on('upgrade', containUpgrades(server, (req, socket, head) => spritzer.upgrade(req, socket, head), deps.logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${shownHost}:${addr.port}`;
  // The default sprite URL is path-routed on this address (SpritesModel.urlFor); a wildcard bind is reached on loopback.
  spritzer.ctx.model.localBase = `http://${localHostOf(addr)}:${addr.port}`;
  // Each sprite's url is a port of its own on this address (url/sprite-origins.ts): the saved and adopted ones get theirs now.
  if (spritzer.origins) {
    spritzer.origins.listenOn(host);
    await Promise.all(spritzer.ctx.model.all().map((s) => spritzer.origins!.open(s.name)));
  }
  // The validator loads and compiles spec/openapi.yaml on its first request: do that now (http/warm-up.ts).
  await warmUp(addr.address, addr.port);
  return {
    url,
    spritzer,
    server,
    async close() {
      deps.store?.close(); // saved first: what the shutdown ends (services, sessions) must not be saved as wanted
      await spritzer.close();
      await deps.machines.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
