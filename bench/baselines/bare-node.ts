/**
 * The transport floor of the benchmark: `node:http` + `ws`, no framework, no validation, no model, no logging.
 * It answers what `bench/run.ts` measures — health, create, get, delete, fs write, HTTP exec and WebSocket exec
 * of `echo` — with the bytes spritzer sends (see `common.ts`). It does not check auth, bodies or names.
 * Usage: `node --import tsx bench/baselines/bare-node.ts --addr 127.0.0.1:0`.
 * @see docs/performance.md "How it is measured" (the floors spritzer is compared with)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { EXEC_PATH, FS_WRITE_PATH, HEALTH_JSON, SPRITE_PATH, WrittenFiles, execFrames, listenAddress, sessionInfoJson, spriteJson } from './common.ts';

const written = new WrittenFiles();

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Sprite-Version': 'bench' };

function sendJson(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { ...JSON_HEADERS, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://bench.local');
  const path = url.pathname;
  if (req.method === 'GET' && path === '/_spritzer/health') return sendJson(res, 200, HEALTH_JSON);
  if (req.method === 'POST' && path === '/v1/sprites') {
    try {
      const body = JSON.parse((await readBody(req)).toString('utf8')) as { name?: unknown };
      return sendJson(res, 201, spriteJson(String(body.name)));
    } catch {
      return sendJson(res, 400, JSON.stringify({ error: 'invalid_request' }));
    }
  }
  let m = SPRITE_PATH.exec(path);
  if (m && req.method === 'GET') return sendJson(res, 200, spriteJson(decodeURIComponent(m[1]!)));
  if (m && req.method === 'DELETE') {
    res.writeHead(204).end();
    return;
  }
  m = FS_WRITE_PATH.exec(path);
  if (m && req.method === 'PUT') {
    const body = await readBody(req);
    return sendJson(res, 200, written.write(decodeURIComponent(m[1]!), url.searchParams.get('path') ?? '', body));
  }
  m = EXEC_PATH.exec(path);
  if (m && req.method === 'POST') {
    await readBody(req);
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'X-Content-Type-Options': 'nosniff', 'Sprite-Version': 'bench' });
    for (const frame of execFrames(url.searchParams.getAll('cmd'))) res.write(frame);
    res.end();
    return;
  }
  sendJson(res, 404, JSON.stringify({ error: 'not found' }));
}

const server = http.createServer((req, res) => void handle(req, res));
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

const { host, port } = listenAddress(process.argv);
server.listen(port, host, () => {
  const addr = server.address() as AddressInfo;
  process.stdout.write(`bare-node listening on http://${addr.address}:${addr.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
