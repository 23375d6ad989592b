/**
 * What both baseline servers answer, with no validation, no model and no logging: a fixed sprite object, the
 * `echo` command as exec output, written files kept as bytes, the WebSocket exec (the same `ws` server in both) and the
 * listen/port plumbing. It owns the bytes the baselines send (so the two floors are measured on identical answers);
 * each baseline serves HTTP its own way (bare `node:http` or Express), which is what the comparison measures.
 * The frames come from spritzer's own codec, so the wire is byte-for-byte what spritzer sends.
 * @see bench/run.ts; docs/performance.md "How it is measured"
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { StreamId, encodeExitFrame, encodeFrame } from '../../src/protocol/frames.ts';

/** Answer of `GET /v1/sprites/{name}` and `POST /v1/sprites`: the shape spritzer sends (docs/wire-reference.md §3.1). */
export function spriteJson(name: string): string {
  return JSON.stringify({
    id: 'sprite-00000000-0000-4000-8000-000000000000',
    name,
    organization: 'personal',
    org_slug: 'personal',
    status: 'cold',
    url: `https://${name}-bench.sprites.app`,
    url_settings: { auth: 'sprite' },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_started_at: null,
    last_active_at: null,
    last_running_at: null,
    last_warming_at: null,
    labels: [],
  });
}

/** The `session_info` text message spritzer sends first on every exec socket (docs/wire-reference.md §4.6). */
export function sessionInfoJson(argv: string[]): string {
  return JSON.stringify({ type: 'session_info', session_id: '1', command: argv.join(' '), created: 0, cols: 0, rows: 0, is_owner: true, tty: false });
}

/**
 * The frames of running `argv`: `echo a b` → `[1]"a b\n"`, `[3][0]`; anything else → `[2]"…: not found\n"`,
 * `[3][127]`. `cmd` query values in order (docs/wire-reference.md §4.2, §4.4).
 */
export function execFrames(argv: string[]): Uint8Array[] {
  if (argv[0] === 'echo') return [encodeFrame(StreamId.Stdout, `${argv.slice(1).join(' ')}\n`), encodeExitFrame(0)];
  return [encodeFrame(StreamId.Stderr, `${argv[0] ?? ''}: command not found\n`), encodeExitFrame(127)];
}

/** `/v1/sprites/{name}` and `/v1/sprites/{name}/exec` path matchers; `name` is URL-decoded. */
export const SPRITE_PATH = /^\/v1\/sprites\/([^/]+)$/;
export const EXEC_PATH = /^\/v1\/sprites\/([^/]+)\/exec$/;
/** `/v1/sprites/{name}/fs/write`. */
export const FS_WRITE_PATH = /^\/v1\/sprites\/([^/]+)\/fs\/write$/;

/**
 * The written files of a baseline, by sprite and path: a `Map` of the bytes, so a baseline holds what it was sent
 * (as spritzer does) without a filesystem model. Answers `PUT …/fs/write` with spritzer's `FsWriteResult` shape
 * (`{path, size, mode}`, docs/wire-reference.md §8).
 */
export class WrittenFiles {
  private readonly files = new Map<string, Uint8Array>();
  write(sprite: string, path: string, data: Uint8Array): string {
    this.files.set(`${sprite}\0${path}`, data);
    return JSON.stringify({ path, size: data.byteLength, mode: '0644' });
  }
}

/** The health answer every server in the benchmark gives (`GET /_spritzer/health`), used for cold start. */
export const HEALTH_JSON = JSON.stringify({ status: 'ok' });

/** `host:port` from `--addr host:port` (default 127.0.0.1:0); exits 2 on a malformed value. */
export function listenAddress(argv: string[]): { host: string; port: number } {
  const i = argv.indexOf('--addr');
  const raw = i >= 0 ? argv[i + 1] ?? '' : '127.0.0.1:0';
  const m = /^(.*):(\d+)$/.exec(raw);
  if (!m) {
    console.error(`invalid --addr ${JSON.stringify(raw)} (expected host:port)`);
    process.exit(2);
  }
  return { host: m[1] || '127.0.0.1', port: Number(m[2]) };
}

/**
 * Serves WebSocket exec on `server`: `GET /v1/sprites/{name}/exec?cmd=…` upgrades, sends `session_info`, the
 * command's frames and closes 1000; any other upgrade is a bare 404.
 */
export function serveWebSocketExec(server: http.Server): void {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://bench.local');
    if (!EXEC_PATH.test(url.pathname)) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const argv = url.searchParams.getAll('cmd');
      ws.send(sessionInfoJson(argv));
      for (const frame of execFrames(argv)) ws.send(frame, { binary: true });
      ws.close(1000);
    });
  });
}

/**
 * Listens on the `--addr` of this process, prints `<name> listening on http://host:port` (what bench/lib/servers.ts
 * waits for) and exits 0 on SIGTERM or SIGINT.
 */
export function listenAndAnnounce(server: http.Server, name: string): void {
  const { host, port } = listenAddress(process.argv);
  server.listen(port, host, () => {
    const addr = server.address() as AddressInfo;
    process.stdout.write(`${name} listening on http://${addr.address}:${addr.port}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
  process.on('SIGINT', () => process.exit(0));
}
