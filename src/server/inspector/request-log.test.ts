/**
 * The inspector's request log on a real express app with a fake clock: bounded to its capacity (oldest dropped),
 * bodies cut at the limit, durations from the injected clock, secrets never stored, the inspector's own polls
 * skipped, and the UI's token sub-protocol turned into a Bearer header only next to `spritzer-ui`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { FakeClock } from '../model/clock.ts';
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

describe('uiTokenOf', () => {
  const enc = (t: string) => `spritzer-token.${Buffer.from(t).toString('base64url')}`;
  it('reads the token only when the spritzer-ui protocol is offered too', () => {
    expect(uiTokenOf(`spritzer-ui, ${enc('tök+/=')}`)).toBe('tök+/=');
    expect(uiTokenOf(enc('abc'))).toBeUndefined();
    expect(uiTokenOf('spritzer-ui')).toBeUndefined();
    expect(uiTokenOf(undefined)).toBeUndefined();
  });
});
