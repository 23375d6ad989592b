/**
 * The transport floor of the benchmark: `node:http` + `ws`, no framework, no validation, no model, no logging.
 * It answers what `bench/run.ts` measures — health, create, get, delete, fs write, HTTP exec and WebSocket exec
 * of `echo` — with the bytes spritzer sends (see `common.ts`). It does not check auth, bodies or names.
 * Usage: `node --import tsx bench/baselines/bare-node.ts --addr 127.0.0.1:0`.
 * @see docs/performance.md "How it is measured" (the floors spritzer is compared with)
 */
import http from 'node:http';
import { EXEC_PATH, execFrames, FS_WRITE_PATH, HEALTH_JSON, listenAndAnnounce, serveWebSocketExec, SPRITE_PATH, spriteJson, WrittenFiles } from './common.ts';

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
serveWebSocketExec(server);
listenAndAnnounce(server, 'bare-node');
