/**
 * The inspector's request log on a real express app with a fake clock: bounded to its capacity (oldest dropped),
 * bodies cut at the limit, durations from the injected clock, secrets never stored, the inspector's own polls
 * skipped, and the UI's token sub-protocol turned into a Bearer header only next to `spritzer-ui`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { WebSocket, WebSocketServer } from 'ws';
import { FakeClock } from '../core/clock.ts';
import { RequestLog, maskQuery } from './request-log.ts';
import { uiTokenOf } from './index.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(log: RequestLog, clock: FakeClock): Promise<string> {
  const app = express();
  app.use(log.middleware());
  app.use(express.json());
  app.post('/v1/sprites/:name/echo', (req, res) => {
    clock.advance(7);
    res.json({ got: req.body, big: 'x'.repeat(100) });
  });
  app.get('/v1/sprites', (_req, res) => res.json({ sprites: [] }));
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('RequestLog', () => {
  it('records method, path, status, duration (fake clock), sprite and bodies, newest first', async () => {
    const clock = new FakeClock();
    const log = new RequestLog(clock);
    const url = await serve(log, clock);
    await fetch(`${url}/v1/sprites`);
    await fetch(`${url}/v1/sprites/my%20box/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    const [last, first] = log.list();
    expect(first).toMatchObject({ id: 1, method: 'GET', path: '/v1/sprites', status: 200, sprite: null, durationMs: 0 });
    expect(last).toMatchObject({ id: 2, method: 'POST', status: 200, sprite: 'my box', durationMs: 7, requestBody: '{"a":1}', truncated: false });
    expect(JSON.parse(last.responseBody)).toMatchObject({ got: { a: 1 } });
  });

  it('gives a streamed answer its status once its head is sent, while its body is still open', async () => {
    const clock = new FakeClock();
    const log = new RequestLog(clock);
    const app = express();
    app.use(log.middleware());
    let end: () => void = () => {};
    app.put('/v1/sprites/:name/services/:svc', (_req, res) => {
      res.status(200).type('application/x-ndjson');
      res.write('{"type":"started"}\n');
      end = () => res.end();
    });
    const server = http.createServer(app);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sprites/s/services/web`, { method: 'PUT' });
    expect(res.status).toBe(200);
    expect(log.list()[0]).toMatchObject({ method: 'PUT', status: 200, durationMs: null, sprite: 's' });
    end();
    await res.text();
    expect(log.list()[0]).toMatchObject({ status: 200, durationMs: 0, responseBody: '{"type":"started"}\n' });
  });

  it('keeps only the last `capacity` records and cuts bodies at `bodyBytes`', async () => {
    const clock = new FakeClock();
    const log = new RequestLog(clock, { capacity: 3, bodyBytes: 16 });
    const url = await serve(log, clock);
    for (let i = 0; i < 5; i++) await fetch(`${url}/v1/sprites?i=${i}`);
    expect(log.list().map((r) => r.path)).toEqual(['/v1/sprites?i=4', '/v1/sprites?i=3', '/v1/sprites?i=2']);
    await fetch(`${url}/v1/sprites/s/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ long: 'y'.repeat(50) }) });
    const rec = log.list()[0];
    expect(Buffer.byteLength(rec.responseBody)).toBe(16);
    expect(Buffer.byteLength(rec.requestBody)).toBe(16);
    expect(rec.truncated).toBe(true);
  });

  it('never stores Authorization, cookies or token query values, and skips the inspector polls', async () => {
    const clock = new FakeClock();
    const log = new RequestLog(clock);
    const url = await serve(log, clock);
    await fetch(`${url}/v1/sprites?token=s3cret&prefix=a`, { headers: { Authorization: 'Bearer s3cret', Cookie: 'k=s3cret' } });
    await fetch(`${url}/v1/sprites`, { headers: { 'X-Spritzer-Inspector': 'poll' } });
    expect(log.list()).toHaveLength(1);
    expect(JSON.stringify(log.list())).not.toContain('s3cret');
    expect(log.list()[0].path).toBe('/v1/sprites?token=***&prefix=a');
  });

  it('maskQuery masks token-like parameters only', () => {
    expect(maskQuery('/x?access_token=a&cmd=token')).toBe('/x?access_token=***&cmd=token');
    expect(maskQuery('/x')).toBe('/x');
  });
});

describe('RequestLog.wrapUpgrade', () => {
  it('logs a rejected handshake with its status and body, and an accepted one until its socket closes', async () => {
    const clock = new FakeClock();
    const log = new RequestLog(clock);
    const wss = new WebSocketServer({ noServer: true });
    const server = http.createServer();
    servers.push(server);
    server.on(
      'upgrade',
      log.wrapUpgrade((req, socket, head) => {
        if (req.url?.includes('deny')) return void socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n\r\n{"error":"unauthorized"}');
        wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', () => ws.close()));
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const denied = new WebSocket(`${url}/v1/sprites/a/exec?deny=1&token=s3cret`, { headers: { Authorization: 'Bearer s3cret' } });
    await new Promise((r) => denied.on('error', r));
    const ok = new WebSocket(`${url}/v1/sprites/b/exec`);
    await new Promise((r) => ok.on('open', r));
    const open = log.list()[0];
    expect(open).toMatchObject({ kind: 'ws', status: 101, sprite: 'b', durationMs: null });
    clock.advance(250);
    ok.send('bye');
    await new Promise((r) => ok.on('close', r));
    await expect.poll(() => log.list()[0].durationMs).toBe(250);
    expect(log.list()[1]).toMatchObject({ kind: 'ws', status: 401, sprite: 'a', responseBody: '{"error":"unauthorized"}' });
    expect(JSON.stringify(log.list())).not.toContain('s3cret');
    wss.close();
  });
});

describe('uiTokenOf', () => {
  const enc = (t: string) => `spritzer-token.${Buffer.from(t).toString('base64url')}`;
  it('reads the token only when the spritzer-ui protocol is offered too', () => {
    expect(uiTokenOf(`spritzer-ui, ${enc('tök+/=')}`)).toBe('tök+/=');
    expect(uiTokenOf(enc('abc'))).toBeUndefined();
    expect(uiTokenOf('spritzer-ui')).toBeUndefined();
    expect(uiTokenOf(undefined)).toBeUndefined();
  });
});
