// Tasks (docs/wire-reference.md §12): leases that keep a sprite active. The in-sprite API is documented at
// `/v1/tasks`; its public form `/v1/sprites/{name}/tasks` is an emulator convenience (UNCONFIRMED), so every
// test here is emulatorOnly.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, emulatorOnly } from './support/index.ts';

const { call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});
const tasks = (rest = '') => `/v1/sprites/${box}/tasks${rest}`;

describe('createTask', () => {
  emulatorOnly.it('answers 201 with the task and 409 when the name is taken', async () => {
    const res = await call('POST', tasks(), { body: { name: 'agent', expire: '1h' } });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('agent');
    expect(Date.parse(res.json.expires_at)).toBeGreaterThan(Date.parse(res.json.started_at));
    expect((await call('POST', tasks(), { body: { name: 'agent', expire: '1h' } })).status).toBe(409);
  });
});

describe('listTasks', () => {
  emulatorOnly.it('lists the live tasks', async () => {
    await call('POST', tasks(), { body: { name: 'listed', expire: 600 } });
    const res = await call('GET', tasks());
    expect(res.status).toBe(200);
    expect(res.json.tasks.map((t: { name: string }) => t.name)).toContain('listed');
  });
});

describe('getTask', () => {
  emulatorOnly.it('returns one task and 404 for an unknown one', async () => {
    await call('POST', tasks(), { body: { name: 'got', expire: '10m' } });
    expect((await call('GET', tasks('/got'))).json.name).toBe('got');
    expect((await call('GET', tasks('/never'))).status).toBe(404);
  });
});

describe('upsertTask', () => {
  emulatorOnly.it('creates or refreshes a task by name with 200', async () => {
    const first = await call('PUT', tasks(), { body: { name: 'upserted', expire: '5m' } });
    expect(first.status).toBe(200);
    const again = await call('PUT', tasks(), { body: { name: 'upserted', expire: '1h' } });
    expect(again.status).toBe(200);
    expect(Date.parse(again.json.expires_at)).toBeGreaterThan(Date.parse(first.json.expires_at));
  });
});

describe('refreshTask', () => {
  emulatorOnly.it('extends a task’s expiry', async () => {
    const created = await call('POST', tasks(), { body: { name: 'refreshed', expire: '1m' } });
    const res = await call('PUT', tasks('/refreshed'), { body: { expire: '1h' } });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.expires_at)).toBeGreaterThan(Date.parse(created.json.expires_at));
  });

  emulatorOnly.it('refuses an expiry above the 1 h cap with 400', async () => {
    await call('POST', tasks(), { body: { name: 'capped', expire: '1m' } });
    expect((await call('PUT', tasks('/capped'), { body: { expire: '2h' } })).status).toBe(400);
  });
});

describe('deleteTask', () => {
  emulatorOnly.it('answers 204, then 404', async () => {
    await call('POST', tasks(), { body: { name: 'deleted', expire: '1h' } });
    expect((await call('DELETE', tasks('/deleted'))).status).toBe(204);
    expect((await call('GET', tasks('/deleted'))).status).toBe(404);
    expect((await call('DELETE', tasks('/deleted'))).status).toBe(404);
  });
});
