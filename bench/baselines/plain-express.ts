/**
 * The framework floor of the benchmark: a plain Express 5 app (its JSON and raw body parsers, its router) + `ws`
 * on the http.Server's `upgrade`, with no validation, no model and no logging. It answers what `bench/run.ts`
 * measures — health, create, get, delete, fs write, HTTP exec and WebSocket exec of `echo` — with the bytes spritzer sends
 * (see `common.ts`). It does not check auth, bodies or names.
 * Usage: `node --import tsx bench/baselines/plain-express.ts --addr 127.0.0.1:0`.
 * @see docs/performance.md "How it is measured" (the floors spritzer is compared with)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { WebSocketServer } from 'ws';
import { EXEC_PATH, HEALTH_JSON, WrittenFiles, execFrames, listenAddress, sessionInfoJson, spriteJson } from './common.ts';

const written = new WrittenFiles();

const app = express();
app.disable('x-powered-by');
app.use((_req, res, next) => {
  res.setHeader('Sprite-Version', 'bench');
  next();
});
app.use(express.json());
app.use(express.raw({ type: 'application/octet-stream' }));
app.get('/_spritzer/health', (_req, res) => {
  res.type('json').send(HEALTH_JSON);
});
app.post('/v1/sprites', (req, res) => {
  res.status(201).type('json').send(spriteJson(String((req.body as { name?: unknown } | undefined)?.name)));
});
app.get('/v1/sprites/:name', (req, res) => {
  res.type('json').send(spriteJson(req.params.name));
});
app.delete('/v1/sprites/:name', (_req, res) => {
  res.status(204).end();
});
app.put('/v1/sprites/:name/fs/write', (req, res) => {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  res.type('json').send(written.write(req.params.name, String(req.query.path ?? ''), body));
});
app.post('/v1/sprites/:name/exec', (req, res) => {
  const cmd = req.query.cmd;
  const argv = Array.isArray(cmd) ? cmd.map(String) : cmd === undefined ? [] : [String(cmd)];
  res.status(200).setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const frame of execFrames(argv)) res.write(frame);
  res.end();
});
app.use((_req, res) => {
  res.status(404).json({ error: 'not found' });
});

const server = http.createServer(app);
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
  process.stdout.write(`plain-express listening on http://${addr.address}:${addr.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
