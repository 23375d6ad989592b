/**
 * The rest of the outer API (docs/wire-reference.md §3.5, §3.7, §3.9): upgrade (204), the partial sprite update
 * (`url_settings`, `labels`, `clear_labels` → 200 with the sprite) and token minting with `FlyV1` auth.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';

const clock = new FakeClock();
let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell', { clock, token: TOKEN });
  call = api(srv.url);
  await call('POST', '/v1/sprites', { name: 'box' });
});
afterAll(() => srv.close());

describe('upgradeSprite', () => {
  it('answers 204 with no body', async () => {
    const r = await call('POST', '/v1/sprites/box/upgrade');
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
  });

  it('answers 404 for a missing sprite and 401 without a valid token', async () => {
    expect((await call('POST', '/v1/sprites/nope/upgrade')).status).toBe(404);
    expect((await api(srv.url, 'wrong')('POST', '/v1/sprites/box/upgrade')).status).toBe(401);
  });
});

describe('updateSprite', () => {
  it('applies url_settings and labels, answers 200 with the sprite, and stamps updated_at', async () => {
    const before = (await call('GET', '/v1/sprites/box')).json;
    clock.advance(60_000);
    const r = await call('PUT', '/v1/sprites/box', { url_settings: { auth: 'public', private_access: 'admins' }, labels: ['prod', 'api'] });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'box', id: before.id, url_settings: { auth: 'public', private_access: 'admins' }, labels: ['prod', 'api'] });
    expect(Date.parse(r.json.updated_at)).toBe(clock.now());
    expect(r.json.created_at).toBe(before.created_at);
    expect((await call('GET', '/v1/sprites/box')).json).toMatchObject({ url_settings: { auth: 'public' }, labels: ['prod', 'api'] });
  });

  it('leaves omitted fields unchanged', async () => {
    const onlyLabels = await call('PUT', '/v1/sprites/box', { labels: ['staging'] });
    expect(onlyLabels.status).toBe(200);
    expect(onlyLabels.json).toMatchObject({ url_settings: { auth: 'public', private_access: 'admins' }, labels: ['staging'] });
    const onlySettings = await call('PUT', '/v1/sprites/box', { url_settings: { auth: 'sprite' } });
    expect(onlySettings.json).toMatchObject({ url_settings: { auth: 'sprite' }, labels: ['staging'] });
  });

  it('clear_labels removes every label, before the labels of the same request are applied', async () => {
    const cleared = await call('PUT', '/v1/sprites/box', { clear_labels: true });
    expect(cleared.status).toBe(200);
    expect(cleared.json.labels).toEqual([]);
    const replaced = await call('PUT', '/v1/sprites/box', { clear_labels: true, labels: ['fresh'] });
    expect(replaced.json.labels).toEqual(['fresh']);
    expect((await call('GET', '/v1/sprites/box')).json.labels).toEqual(['fresh']);
  });

  it('answers 400 for a bad url_settings.auth and 404 for a missing sprite', async () => {
    expect((await call('PUT', '/v1/sprites/box', { url_settings: { auth: 'everyone' } })).status).toBe(400);
    expect((await call('GET', '/v1/sprites/box')).json.url_settings.auth).toBe('sprite');
    expect((await call('PUT', '/v1/sprites/nope', { labels: [] })).status).toBe(404);
  });
});

describe('createToken', () => {
  const mint = (headers: Record<string, string>) =>
    fetch(`${srv.url}/v1/organizations/personal/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ description: 'Sprite SDK Token' }),
    });

  it('answers 201 {token} with Authorization: FlyV1, a new token each time', async () => {
    const a = await mint({ Authorization: `FlyV1 ${TOKEN}` });
    expect(a.status).toBe(201);
    const body = await a.json();
    expect(Object.keys(body)).toEqual(['token']);
    expect(typeof body.token).toBe('string');
    expect(body.token.length).toBeGreaterThan(0);
    const b = await (await mint({ Authorization: `FlyV1 ${TOKEN}` })).json();
    expect(b.token).not.toBe(body.token);
  });

  it('a minted token authenticates later calls, even when the server requires --token', async () => {
    const { token } = await (await mint({ Authorization: `FlyV1 ${TOKEN}` })).json();
    const withMinted = await fetch(`${srv.url}/v1/sprites`, { headers: { Authorization: `Bearer ${token}` } });
    expect(withMinted.status).toBe(200);
    const unknown = await fetch(`${srv.url}/v1/sprites`, { headers: { Authorization: 'Bearer never-minted' } });
    expect(unknown.status).toBe(401);
  });

  it('under --token, minting needs FlyV1 with that token: a made-up macaroon cannot mint a working token', async () => {
    expect((await mint({ Authorization: 'FlyV1 junk' })).status).toBe(401);
  });

  it('answers 401 without Authorization, and with a Bearer token instead of FlyV1', async () => {
    expect((await mint({})).status).toBe(401);
    expect((await mint({ Authorization: `Bearer ${TOKEN}` })).status).toBe(401);
    expect((await mint({ Authorization: 'FlyV1' })).status).toBe(401);
  });
});

describe('/_spritzer with --token', () => {
  it('health stays open; reset, state and faults need the bearer token', async () => {
    expect((await fetch(`${srv.url}/_spritzer/health`)).status).toBe(200);
    for (const [method, path] of [['POST', '/_spritzer/reset'], ['GET', '/_spritzer/state'], ['GET', '/_spritzer/faults']]) {
      const anonymous = await fetch(`${srv.url}${path}`, { method });
      expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
    }
    expect((await call('GET', '/_spritzer/state')).status).toBe(200);
  });
});
