// Services (docs/wire-reference.md §9): a service's lifecycle — put (NDJSON), list, get, stop, start, restart,
// signal (204, 400, 409), logs, delete (409 while running, 204, then 404). Every NDJSON line is validated.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified } from './support/index.ts';

const { call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

const svc = (name: string, rest = '') => `/v1/sprites/${box}/services/${name}${rest}`;

/** The NDJSON contract of every service stream: a `complete` line ends it, and only it. */
function expectStream(res: { status: number; lines?: any[]; text: string }): string[] {
  expect(res.status, res.text).toBe(200);
  const types = res.lines!.map((l) => l.type);
  expect(types.at(-1)).toBe('complete');
  expect(types.filter((t) => t === 'complete')).toHaveLength(1);
  for (const l of res.lines!) expect(Number.isInteger(l.timestamp)).toBe(true);
  return types;
}

describe('putService', () => {
  verified.it('creates a service and streams started … complete', async () => {
    const res = await call('PUT', svc('sleeper-put'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    const types = expectStream(res);
    expect(types).toContain('started');
    const got = await call('GET', svc('sleeper-put'));
    expect(got.json).toMatchObject({ name: 'sleeper-put', cmd: 'sleep', args: ['1000'], state: { status: 'running' } });
    await call('POST', svc('sleeper-put', '/stop'));
  });

  verified.it('rejects a definition without cmd with 400', async () => {
    const res = await call('PUT', svc('no-cmd'), { query: { duration: '0s' }, body: { args: ['x'] } });
    expect(res.status).toBe(400);
  });

  verified.it('streams a short command’s output and exit within the duration window', async () => {
    const res = await call('PUT', svc('echo-once'), { query: { duration: '2s' }, body: { cmd: 'sh', args: ['-c', 'echo hello-service'] } });
    const types = expectStream(res);
    expect(types[0]).toBe('started');
    const out = res.lines!.filter((l) => l.type === 'stdout').map((l) => l.data).join('');
    expect(out).toContain('hello-service');
    expect(res.lines!.find((l) => l.type === 'exit')?.exit_code).toBe(0);
    await call('POST', svc('echo-once', '/stop'));
  });
});

describe('listServices', () => {
  verified.it('is a bare array of services with their state', async () => {
    await call('PUT', svc('listed'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    const res = await call('GET', `/v1/sprites/${box}/services`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json.find((s: { name: string }) => s.name === 'listed')?.state.status).toBe('running');
    await call('POST', svc('listed', '/stop'));
  });
});

describe('getService', () => {
  verified.it('answers 404 for an unknown service', async () => {
    expect((await call('GET', svc('never-defined'))).status).toBe(404);
  });
});

describe('stopService', () => {
  verified.it('streams stopping → stopped → complete; the service is stopped; stopping again is 409', async () => {
    await call('PUT', svc('stopper'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    const res = await call('POST', svc('stopper', '/stop'), { query: { timeout: '5s' } });
    const types = expectStream(res);
    expect(types).toEqual(expect.arrayContaining(['stopping', 'stopped']));
    expect((await call('GET', svc('stopper'))).json.state.status).toBe('stopped');
    expect((await call('POST', svc('stopper', '/stop'))).status).toBe(409);
  });
});

describe('startService', () => {
  verified.it('starts a stopped service again', async () => {
    await call('PUT', svc('starter'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    await call('POST', svc('starter', '/stop'));
    const res = await call('POST', svc('starter', '/start'), { query: { duration: '0s' } });
    expect(expectStream(res)).toContain('started');
    expect((await call('GET', svc('starter'))).json.state.status).toBe('running');
    await call('POST', svc('starter', '/stop'));
  });

  verified.it('answers 404 for an unknown service', async () => {
    expect((await call('POST', svc('never-defined', '/start'))).status).toBe(404);
  });
});

describe('restartService', () => {
  verified.it('stops then starts a running service', async () => {
    await call('PUT', svc('restarter'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    const before = (await call('GET', svc('restarter'))).json.state;
    const res = await call('POST', svc('restarter', '/restart'), { query: { duration: '0s' } });
    const types = expectStream(res);
    expect(types).toEqual(expect.arrayContaining(['stopping', 'started']));
    const after = (await call('GET', svc('restarter'))).json.state;
    expect(after.status).toBe('running');
    expect(after.pid).not.toBe(before.pid);
    await call('POST', svc('restarter', '/stop'));
  });
});

describe('getServiceLogs', () => {
  verified.it('replays the service’s output as NDJSON ending in complete', async () => {
    await call('PUT', svc('logger'), { query: { duration: '2s' }, body: { cmd: 'sh', args: ['-c', 'echo logged-line'] } });
    const res = await call('GET', svc('logger', '/logs'));
    expectStream(res);
    const out = res.lines!.filter((l) => l.type === 'stdout').map((l) => l.data).join('');
    expect(out).toContain('logged-line');
    await call('POST', svc('logger', '/stop'));
  });
});

describe('signalService', () => {
  verified.it('answers 204 for a running service, 400 for an unknown signal, 409 when not running', async () => {
    await call('PUT', svc('signalled'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    const ok = await call('POST', `/v1/sprites/${box}/services/signal`, { body: { name: 'signalled', signal: 'USR1' } });
    expect(ok.status).toBe(204);
    const bad = await call('POST', `/v1/sprites/${box}/services/signal`, { body: { name: 'signalled', signal: 'NOT-A-SIGNAL' } });
    expect(bad.status).toBe(400);
    await call('POST', svc('signalled', '/stop'));
    const stopped = await call('POST', `/v1/sprites/${box}/services/signal`, { body: { name: 'signalled', signal: 'HUP' } });
    expect(stopped.status).toBe(409);
  });
});

describe('deleteService', () => {
  verified.it('refuses a running service with 409, deletes a stopped one with 204, then 404', async () => {
    await call('PUT', svc('deleted'), { query: { duration: '0s' }, body: { cmd: 'sleep', args: ['1000'] } });
    expect((await call('DELETE', svc('deleted'))).status).toBe(409);
    await call('POST', svc('deleted', '/stop'));
    const del = await call('DELETE', svc('deleted'));
    expect(del.status).toBe(204);
    expect((await call('GET', svc('deleted'))).status).toBe(404);
  });
});
