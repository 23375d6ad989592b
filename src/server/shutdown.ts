/**
 * Graceful shutdown of a running server on SIGTERM/SIGINT (running commands and streams end with their real exit
 * frames instead of dropped connections, and state is saved), and the debug log lines of WebSocket upgrades and
 * closes (like the one line of each HTTP request). It owns the order of the shutdown, not what each part does when
 * closed (server.ts `close()`, the model, the store).
 */
import type http from 'node:http';
import type { Logger } from 'pino';
import type { RunningServer } from './server.ts';
import { CloseCode } from '../protocol/close-codes.ts';

/** Default of `--shutdown-timeout`, in ms. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** The WebSocket close code of a server going away (RFC 6455 §7.4.1). */
export const CLOSE_GOING_AWAY = CloseCode.GoingAway;

/** Counts the HTTP requests whose response has not finished (NDJSON streams included). */
export interface RequestTracker {
  active(): number;
}

/** Starts counting the requests of `server`; call right after it listens. */
export function trackRequests(server: http.Server): RequestTracker {
  let active = 0;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    active += 1;
    res.once('close', () => (active -= 1));
  });
  return { active: () => active };
}

/**
 * Logs each WebSocket upgrade (method, path) and the close of its socket at debug level, like the one line of
 * each HTTP request. Never logs headers (they carry bearer tokens).
 */
export function logUpgrades(server: http.Server, logger: Logger): void {
  server.on('upgrade', (req: http.IncomingMessage, socket: NodeJS.EventEmitter) => {
    const url = req.url ?? '';
    logger.debug({ req: { method: req.method, url } }, 'websocket upgrade');
    socket.once('close', () => logger.debug({ req: { url } }, 'websocket closed'));
  });
}

/**
 * Shuts `running` down: stops accepting connections; sends TERM to every running exec so each client gets its
 * real exit frame (the signal's exit code); waits (until `timeoutMs` from now) for those commands and for in-flight
 * HTTP requests and streams to finish; closes the remaining WebSockets with 1001; then `running.close()` (the store is saved
 * first, then sprites, machines and connections end). Resolves when done; never rejects (failures are logged).
 * @see docs/limits.md (`--shutdown-timeout`)
 */
export async function gracefulShutdown(
  running: RunningServer,
  tracker: RequestTracker,
  opts: { timeoutMs: number; logger: Logger; now?: () => number },
): Promise<void> {
  const now = opts.now ?? Date.now;
  const deadline = now() + opts.timeoutMs;
  const { server, spritzer } = running;
  const until = async (done: () => boolean) => {
    while (!done() && now() < deadline) {
      server.closeIdleConnections();
      await new Promise((r) => setTimeout(r, 20));
    }
    return done();
  };
  server.close();
  server.closeIdleConnections();
  // Commands get TERM at once (a long command would otherwise hold the shutdown for the whole timeout); their
  // clients, WebSocket or HTTP exec, get the exit frame with the signal's code as their stream's end.
  const sessions = spritzer.ctx.model.all().flatMap((s) => s.sessions.list()).filter((s) => !s.exited);
  for (const s of sessions) s.process.signal('TERM');
  if (!(await until(() => sessions.every((s) => s.exited)))) opts.logger.warn('shutdown timeout: killing commands');
  if (!(await until(() => tracker.active() === 0))) opts.logger.warn({ active: tracker.active() }, 'shutdown timeout: cutting in-flight requests');
  await new Promise((r) => setImmediate(r)); // the exit frames are written before the sockets close
  let closed = false;
  void spritzer.closeSockets(CLOSE_GOING_AWAY).then(() => (closed = true));
  // The clients' side of the close handshake, so the frame is not cut by the hard close below.
  if (!(await until(() => closed))) opts.logger.warn('shutdown timeout: cutting WebSockets');
  try {
    await running.close();
  } catch (e) {
    opts.logger.error({ err: (e as Error).message }, 'shutdown failed');
  }
}
