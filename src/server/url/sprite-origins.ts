/**
 * A sprite URL that is an origin of its own: each sprite gets a listening port on spritzer's address, so its `url`
 * is `http://<host>:<port>` and browsers keep its pages, service workers and storage apart from the API, the
 * inspector and every other sprite; every client (curl, Python, Node, Go) reaches it with no DNS set-up. It owns the
 * ports (allocation from a range, or the kernel's choice), their listeners and their release; what a listener
 * answers is the sprite relay's business (url/sprite-url.ts).
 */
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { SpriteOriginRegistry } from '../model/sprites.ts';
import { containRequests, containUpgrades } from '../http/containment.ts';
import { spareConnectionsWithWaitingRequests } from '../http/keep-alive.ts';
import { answerOversizeHeads } from '../http/oversize.ts';
import { localHostOf } from './local-address.ts';
import type { SpriteRelay } from './sprite-url.ts';
import type { SpritePortRange } from '../config/sprite-ports.ts';

/** One sprite's listener. */
interface Listener {
  /** The listening socket; its connections are served by the shared http.Server. */
  server: net.Server;
  url: string;
  port: number;
  /** Its open connections (HTTP and upgraded alike), ended when the sprite's port is released. */
  connections: Set<Socket>;
}

/** Options of {@link SpriteOrigins}. */
export interface SpriteOriginsOptions {
  /** The relay each listener hands its requests to (built after the app's context, hence a getter). */
  relay: () => SpriteRelay;
  range: SpritePortRange;
  logger: Logger;
  /** `--max-header-size`, as on the API's own listener. */
  maxHeaderBytes: number;
}

/**
 * The per-sprite listeners. Inactive until {@link listenOn} names the address (then `open` gives each sprite a port);
 * inactive, every sprite keeps the path form. Memory: one listening socket per sprite; the HTTP parsing of every
 * sprite's connections is one shared http.Server, told by each connection which sprite it came in for (an
 * http.Server per sprite held about 3 KiB of heap and a 30 s timer each: docs/performance.md "Sprite ports").
 */
export class SpriteOrigins implements SpriteOriginRegistry {
  private host: string | undefined;
  private readonly listeners = new Map<string, Listener>();
  /** The sprite each open connection came in for. */
  private readonly spriteOf = new WeakMap<Socket, string>();
  /** Serves every sprite port's connections (never listens itself); made on the first port. */
  private http: http.Server | undefined;
  private readonly opening = new Map<string, Promise<void>>();
  /** Where the search of a free port in the range starts next (ports are tried round the range once). */
  private cursor = 0;

  constructor(private readonly opts: SpriteOriginsOptions) {}

  /** Makes the registry active: sprite ports are opened on `host` (spritzer's own bind address) from now on. */
  listenOn(host: string): void {
    this.host = host;
  }

  /** The sprite's own URL (`http://<host>:<port>`), or undefined while it has no port. */
  urlOf(name: string): string | undefined {
    return this.listeners.get(name)?.url;
  }

  /** The port of each sprite that has one (tests, state view). */
  ports(): Map<string, number> {
    return new Map([...this.listeners].map(([name, l]) => [name, l.port]));
  }

  /**
   * Gives sprite `name` a listening port, once (later calls wait for the first). Never rejects: when no port can be
   * had (the range is full) the failure is logged and the sprite keeps the path form.
   */
  open(name: string): Promise<void> {
    if (this.host === undefined || this.listeners.has(name)) return Promise.resolve();
    let pending = this.opening.get(name);
    if (!pending) {
      pending = this.listen(name, this.host).then(
        (l) => void this.listeners.set(name, l),
        (err: unknown) => this.opts.logger.warn({ err, sprite: name }, 'no port for the sprite url; it keeps the path form'),
      );
      pending = pending.finally(() => this.opening.delete(name));
      this.opening.set(name, pending);
    }
    return pending;
  }

  /** Closes the sprite's listener and its connections (sprite deleted); the port is free again once this resolves. */
  async release(name: string): Promise<void> {
    await this.opening.get(name);
    const l = this.listeners.get(name);
    if (!l) return;
    this.listeners.delete(name);
    const closed = new Promise<void>((resolve) => l.server.close(() => resolve()));
    for (const c of l.connections) c.destroy();
    await closed;
  }

  /** Closes every listener (server close) and stays inactive. */
  async close(): Promise<void> {
    this.host = undefined;
    await Promise.all([...this.opening.keys(), ...this.listeners.keys()].map((name) => this.release(name)));
    this.http?.close();
    this.http = undefined;
  }

  /** Binds a listener for `name`: port 0, or each port of the range in turn until one is free. */
  private async listen(name: string, host: string): Promise<Listener> {
    const { range } = this.opts;
    if (range === 'auto') return this.bind(name, host, 0);
    const size = range.to - range.from + 1;
    const taken = new Set([...this.listeners.values()].map((l) => l.port));
    let last: unknown;
    for (let i = 0; i < size; i++) {
      const port = range.from + ((this.cursor + i) % size);
      if (taken.has(port)) continue;
      try {
        const l = await this.bind(name, host, port);
        this.cursor = (port - range.from + 1) % size;
        return l;
      } catch (err) {
        // Another program (another spritzer, too) holds it: the next one.
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
        last = err;
      }
    }
    throw Object.assign(new Error(`every port of ${range.from}-${range.to} is in use`), { cause: last });
  }

  /**
   * The http.Server that parses the requests of every sprite port: a request or upgrade goes to the sprite its
   * connection came in for, whatever its path or Host.
   */
  private shared(): http.Server {
    if (this.http) return this.http;
    const { logger, maxHeaderBytes } = this.opts;
    const server = http.createServer(
      { maxHeaderSize: maxHeaderBytes },
      containRequests((req, res) => this.opts.relay().request({ name: this.spriteOf.get(req.socket as Socket)!, path: req.url ?? '/', pathRouted: false }, req, res), logger),
    );
    answerOversizeHeads(server, maxHeaderBytes);
    spareConnectionsWithWaitingRequests(server);
    server.on(
      'upgrade',
      containUpgrades(
        server,
        (req, socket, head) => this.opts.relay().upgrade({ name: this.spriteOf.get(socket as Socket)!, path: req.url ?? '/', pathRouted: false }, req, socket, head),
        logger,
      ),
    );
    // An http.Server starts checking its connections' header and request timeouts (slow clients) when it starts
    // listening; this one never listens itself, so it is told it does.
    server.emit('listening');
    return (this.http = server);
  }

  /** A listening socket on `host:port` whose connections are sprite `name`'s, handed to the shared http.Server. */
  private bind(name: string, host: string, port: number): Promise<Listener> {
    const { logger } = this.opts;
    const http = this.shared();
    const connections = new Set<Socket>();
    const server = net.createServer((socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
      this.spriteOf.set(socket, name);
      http.emit('connection', socket);
    });
    return new Promise<Listener>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        server.on('error', (err) => logger.warn({ err, sprite: name }, 'sprite url listener error'));
        const addr = server.address() as AddressInfo;
        resolve({ server, connections, port: addr.port, url: `http://${localHostOf(addr)}:${addr.port}` });
      });
    });
  }
}
