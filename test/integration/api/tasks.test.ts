/**
 * The tasks API as spritzer exposes it under `/v1/sprites/{name}/tasks` (docs/wire-reference.md §12; an emulator
 * convenience): create, conflicts, list, get, refresh, upsert, delete, expiry on a FakeClock, the 1 h cap, and a
 * live task keeping the sprite running.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';

const clock = new FakeClock();
let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell', { clock });
  call = api(srv.url);
  await call('POST', '/v1/sprites', { name: 'box' });
});
afterAll(() => srv.close());

const iso = (ms: number) => new Date(ms).toISOString();
const tasks = '/v1/sprites/box/tasks';

describe('createTask', () => {
  it('answers 201 with the task, its times from the clock', async () => {
    const r = await call('POST', tasks, { name: 'agent', expire: '30m' });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ name: 'agent', started_at: iso(clock.now()), expires_at: iso(clock.now() + 30 * 60_000) });
  });

  it('accepts integer seconds', async () => {
    const r = await call('POST', tasks, { name: 'secs', expire: 90 });
    expect(r.status).toBe(201);
    expect(Date.parse(r.json.expires_at) - Date.parse(r.json.started_at)).toBe(90_000);
  });

  it('answers 409 while the name is taken, keeping the first lease', async () => {
    const r = await call('POST', tasks, { name: 'agent', expire: '5m' });
    expect(r.status).toBe(409);
    expect((await call('GET', `${tasks}/agent`)).json.expires_at).toBe(iso(clock.now() + 30 * 60_000));
  });

  it.each([
    ['more than 1 h as a string', '2h'],
    ['more than 1 h in seconds', 3601],
    ['zero', '0s'],
    ['garbage', 'soon'],
  ])('answers 400 for an expire of %s', async (_what, expire) => {
    const r = await call('POST', tasks, { name: 'toolong', expire });
    expect(r.status).toBe(400);
    expect((await call('GET', `${tasks}/toolong`)).status).toBe(404);
  });

  it('defaults expire to 1 h (spec TaskRequest)', async () => {
    const r = await call('POST', tasks, { name: 'dflt' });
    expect(r.status).toBe(201);
    expect(r.json.expires_at).toBe(iso(clock.now() + 3600_000));
    expect((await call('DELETE', `${tasks}/dflt`)).status).toBe(204);
  });

  it('accepts exactly 1 h', async () => {
    expect((await call('POST', tasks, { name: 'hour', expire: '1h' })).status).toBe(201);
    expect((await call('DELETE', `${tasks}/hour`)).status).toBe(204);
  });
});

describe('listTasks', () => {
  it('answers {tasks} ordered by name', async () => {
    const r = await call('GET', tasks);
    expect(r.status).toBe(200);
    expect(r.json.tasks.map((t: { name: string }) => t.name)).toEqual(['agent', 'secs']);
  });
});

describe('getTask', () => {
  it('answers the task, and 404 for an unknown one', async () => {
    expect((await call('GET', `${tasks}/agent`)).json).toMatchObject({ name: 'agent' });
    expect((await call('GET', `${tasks}/nope`)).status).toBe(404);
  });
});

describe('refreshTask', () => {
  it('creates a task that does not exist, with the default 1 h lease when no body is sent (spec refreshTask)', async () => {
    const r = await call('PUT', `${tasks}/fresh`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ name: 'fresh', started_at: iso(clock.now()), expires_at: iso(clock.now() + 3600_000) });
    expect((await call('DELETE', `${tasks}/fresh`)).status).toBe(204);
  });

  it('restarts the lease from now and keeps started_at', async () => {
    const started = iso(clock.now());
    clock.advance(10 * 60_000);
    const r = await call('PUT', `${tasks}/agent`, { expire: '20m' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ name: 'agent', started_at: started, expires_at: iso(clock.now() + 20 * 60_000) });
  });
});

describe('upsertTask', () => {
  it('creates a task that does not exist, then refreshes it', async () => {
    const created = await call('PUT', tasks, { name: 'job', expire: 60 });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ name: 'job', started_at: iso(clock.now()), expires_at: iso(clock.now() + 60_000) });
    clock.advance(30_000);
    const refreshed = await call('PUT', tasks, { name: 'job', expire: 60 });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.started_at).toBe(created.json.started_at);
    expect(refreshed.json.expires_at).toBe(iso(clock.now() + 60_000));
  });
});

describe('deleteTask', () => {
  it('answers 204, then 404', async () => {
    const r = await call('DELETE', `${tasks}/job`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await call('GET', `${tasks}/job`)).status).toBe(404);
    expect((await call('DELETE', `${tasks}/job`)).status).toBe(404);
  });
});

describe('task expiry', () => {
  it('a task vanishes at expires_at, and keeps the sprite running until then', async () => {
    const r = await call('POST', tasks, { name: 'lease', expire: '10m' });
    expect(r.status).toBe(201);
    clock.advance(10 * 60_000 - 1);
    expect((await call('GET', `${tasks}/lease`)).status).toBe(200);
    expect((await call('GET', '/v1/sprites/box')).json.status).toBe('running');
    clock.advance(1);
    expect((await call('GET', `${tasks}/lease`)).status).toBe(404);
    expect((await call('GET', tasks)).json.tasks.map((t: { name: string }) => t.name)).not.toContain('lease');
    clock.advance(3600_000);
    expect((await call('GET', tasks)).json).toEqual({ tasks: [] });
    clock.advance(24 * 3600_000);
    expect((await call('GET', '/v1/sprites/box')).json.status).not.toBe('running');
  });
});

describe('tasks of a missing sprite', () => {
  it('answer 404', async () => {
    expect((await call('GET', '/v1/sprites/nope/tasks')).status).toBe(404);
    expect((await call('POST', '/v1/sprites/nope/tasks', { name: 'x', expire: 60 })).status).toBe(404);
  });
});
