import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, wsExec, execQuery, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';
import { BOOT_AFTER_MS, COLD_AFTER_MS, WARM_AFTER_MS } from '../../../src/server/model/sprites.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell', { token: TOKEN });
  call = api(srv.url);
});
afterAll(() => srv.close());

describe('createSprite', () => {
  it('answers 201 with the full sprite object, cold, with the local URL that reaches it', async () => {
    const r = await call('POST', '/v1/sprites', { name: 'alpha' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ name: 'alpha', status: 'cold', organization: 'personal', url_settings: { auth: 'sprite' } });
    expect(r.json.id).toMatch(/^sprite-[0-9a-f-]{36}$/);
    // A port of its own on spritzer's address (test/integration/edges/sprite-origin.test.ts).
    expect(r.json.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(r.json.url).port).not.toBe(new URL(srv.url).port);
    expect(r.headers.get('sprite-version')).toBeTruthy();
  });

  it('answers 409 for a taken name and keeps the original', async () => {
    await call('POST', '/v1/sprites', { name: 'taken' });
    const before = await call('GET', '/v1/sprites/taken');
    const r = await call('POST', '/v1/sprites', { name: 'taken' });
    expect(r.status).toBe(409);
    expect(typeof r.json.error).toBe('string');
    expect((await call('GET', '/v1/sprites/taken')).json.id).toBe(before.json.id);
  });

  it('rejects a missing token with 401 in the JSON envelope', async () => {
    const r = await fetch(`${srv.url}/v1/sprites`, { method: 'POST', body: '{"name":"x"}', headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ error: expect.any(String) });
    const wrong = await api(srv.url, 'wrong-token')('GET', '/v1/sprites');
    expect(wrong.status).toBe(401);
  });
});

describe('listSprites', () => {
  it('walks pages with continuation tokens, clamps max_results=100 to 50, and filters by prefix', async () => {
    for (let i = 0; i < 7; i++) expect((await call('POST', '/v1/sprites', { name: `page-${i}` })).status).toBe(201);
    const seen: string[] = [];
    let token: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ prefix: 'page-', max_results: '3' });
      if (token) q.set('continuation_token', token);
      const r = await call('GET', `/v1/sprites?${q}`);
      expect(r.status).toBe(200);
      seen.push(...r.json.sprites.map((s: { name: string }) => s.name));
      expect(r.json.has_more).toBe(r.json.next_continuation_token !== null);
      if (!r.json.has_more) break;
      token = r.json.next_continuation_token;
    }
    expect(seen).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4', 'page-5', 'page-6']);
    const all = await call('GET', '/v1/sprites?max_results=100');
    expect(all.status).toBe(200);
    expect(all.json.sprites.length).toBeLessThanOrEqual(50);
    expect(all.json.org).toMatchObject({ name: 'personal' });
  });
});

describe('updateSprite', () => {
  it('changes url_settings and labels, answering 200 with the sprite', async () => {
    await call('POST', '/v1/sprites', { name: 'upd' });
    const r = await call('PUT', '/v1/sprites/upd', { url_settings: { auth: 'public' }, labels: ['prod'] });
    expect(r.status).toBe(200);
    expect(r.json.url_settings).toEqual({ auth: 'public' });
    expect(r.json.labels).toEqual(['prod']);
    expect((await call('GET', '/v1/sprites/upd')).json.url_settings.auth).toBe('public');
  });
});

describe('deleteSprite', () => {
  it('answers 204, then 404 {"error":"sprite not found"} on every route family', async () => {
    await call('POST', '/v1/sprites', { name: 'gone' });
    expect((await call('DELETE', '/v1/sprites/gone')).status).toBe(204);
    const probes: Array<[string, string, unknown?]> = [
      ['GET', '/v1/sprites/gone'],
      ['PUT', '/v1/sprites/gone', { url_settings: { auth: 'public' } }],
      ['DELETE', '/v1/sprites/gone'],
      ['GET', '/v1/sprites/gone/exec'],
      ['POST', '/v1/sprites/gone/checkpoint', {}],
      ['GET', '/v1/sprites/gone/checkpoints'],
      ['GET', '/v1/sprites/gone/fs/list?path=/'],
      ['GET', '/v1/sprites/gone/services'],
      ['GET', '/v1/sprites/gone/policy/network'],
    ];
    for (const [method, path, body] of probes) {
      const r = await call(method, path, body);
      expect({ path, status: r.status, body: r.json }).toEqual({ path, status: 404, body: { error: 'sprite not found' } });
    }
    await expect(wsExec(srv.url, `/v1/sprites/gone/exec?${execQuery(['true'])}`)).rejects.toMatchObject({ status: 404 });
  });

  it('re-creating a name gives a new id and an empty filesystem', async () => {
    const first = await call('POST', '/v1/sprites', { name: 'again' });
    await call('PUT', '/v1/sprites/again/fs/write?path=/home/sprite/keep.txt', new TextEncoder().encode('x'));
    await call('DELETE', '/v1/sprites/again');
    const second = await call('POST', '/v1/sprites', { name: 'again' });
    expect(second.json.id).not.toBe(first.json.id);
    const list = await call('GET', '/v1/sprites/again/fs/list?path=/home/sprite');
    expect(list.json.entries).toEqual([]);
  });
});

describe('getSprite', () => {
  it('boots after create: cold in the create answer, running once the boot completed, then warm and cold when idle', async () => {
    const clock = new FakeClock();
    const booting = await startTestServer('shell', { token: TOKEN, clock });
    try {
      const c = api(booting.url);
      expect((await c('POST', '/v1/sprites', { name: 'boots' })).json.status).toBe('cold');
      expect((await c('GET', '/v1/sprites/boots')).json.status).toBe('cold');
      clock.advance(BOOT_AFTER_MS);
      const booted = await c('GET', '/v1/sprites/boots');
      expect(booted.json.status).toBe('running');
      expect(booted.json.last_started_at).toBe(new Date(clock.now()).toISOString());
      clock.advance(WARM_AFTER_MS);
      expect((await c('GET', '/v1/sprites/boots')).json.status).toBe('warm');
      clock.advance(COLD_AFTER_MS);
      expect((await c('GET', '/v1/sprites/boots')).json.status).toBe('cold');
    } finally {
      await booting.close();
    }
  });
});
