/**
 * The framework floor of the benchmark: a plain Express 5 app (its JSON and raw body parsers, its router) + `ws`
 * on the http.Server's `upgrade`, with no validation, no model and no logging. It answers what `bench/run.ts`
 * measures — health, create, get, delete, fs write, HTTP exec and WebSocket exec of `echo` — with the bytes spritzer sends
 * (see `common.ts`). It does not check auth, bodies or names.
 * Usage: `node --import tsx bench/baselines/plain-express.ts --addr 127.0.0.1:0`.
 * @see docs/performance.md "How it is measured" (the floors spritzer is compared with)
 */
import http from 'node:http';
import express from 'express';
import { execFrames, HEALTH_JSON, listenAndAnnounce, serveWebSocketExec, spriteJson, WrittenFiles } from './common.ts';

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
serveWebSocketExec(server);
listenAndAnnounce(server, 'plain-express');
