/**
 * `--data-dir` with the memory engines, in process: everything a user set up is there after a restart of the
 * server on the same data dir. Crashes (`kill -9`) are in persist-crash.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { RandomIds } from '../../../src/server/core/ids.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { DataDirStore } from '../../../src/server/store/store.ts';
import { api, startTestServer, TOKEN } from '../../support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'spritzer-persist-'));
const running: RunningServer[] = [];
afterAll(async () => {
  for (const s of running) await s.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** A server on the data dir (random ids, as the real command uses). */
async function boot(): Promise<{ srv: RunningServer; call: ReturnType<typeof api> }> {
  const clock = new SystemClock();
  const store = DataDirStore.open({ dir, clock, logger: pino({ level: 'silent' }) });
  const srv = await startTestServer('shell', { clock, store, ids: new RandomIds(), token: TOKEN });
  running.push(srv);
  return { srv, call: api(srv.url) };
}

async function stop(srv: RunningServer): Promise<void> {
  await srv.close();
  running.splice(running.indexOf(srv), 1);
}

const text = (r: { text: string }) => r.text;
const POLICY = { rules: [{ domain: 'example.com', action: 'allow' }, { domain: '*', action: 'deny' }] };

describe('state that survives a restart', () => {
  let spriteId: string;
  let minted: string;

  it('first run: sets up sprites, files, a checkpoint, services, a task, a policy and a token', async () => {
    const { srv, call } = await boot();
    const created = await call('POST', '/v1/sprites', { name: 'keep', labels: ['team-a'], url_settings: { auth: 'public' } });
    expect(created.status).toBe(201);
    spriteId = created.json.id;
    expect((await call('POST', '/v1/sprites', { name: 'gone' })).status).toBe(201);
    expect((await call('DELETE', '/v1/sprites/gone')).status).toBe(204);
    expect((await call('PUT', '/v1/sprites/keep/fs/write?path=/home/sprite/notes.txt', 'first')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/keep/fs/write?path=/home/sprite/bin.dat', new Uint8Array([0, 1, 254, 255]))).status).toBe(200);
    expect(text(await call('POST', '/v1/sprites/keep/checkpoint', { comment: 'seed' }))).toContain('v1');
    expect((await call('PUT', '/v1/sprites/keep/fs/write?path=/home/sprite/notes.txt', 'second')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/keep/services/web?duration=0', { cmd: 'sh', args: ['-c', 'sleep 1000'] })).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/keep/services/off?duration=0', { cmd: 'sh', args: ['-c', 'sleep 1000'] })).status).toBe(200);
    expect((await call('POST', '/v1/sprites/keep/services/off/stop')).status).toBe(200);
    expect((await call('POST', '/v1/sprites/keep/tasks', { name: 'lease', expire: '30m' })).status).toBe(201);
    expect((await call('POST', '/v1/sprites/keep/policy/network', POLICY)).status).toBe(204);
    const mint = await fetch(`${srv.url}/v1/organizations/personal/tokens`, {
      method: 'POST',
      headers: { Authorization: `FlyV1 ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(mint.status).toBe(201);
    minted = ((await mint.json()) as { token: string }).token;
    await stop(srv);
  });

  it('second run: everything is back, the wanted service runs again, and a restore works', async () => {
    const { call } = await boot();
    const sprite = await call('GET', '/v1/sprites/keep');
    expect(sprite.json).toMatchObject({ id: spriteId, name: 'keep', labels: ['team-a'], url_settings: { auth: 'public' } });
    expect((await call('GET', '/v1/sprites/gone')).status).toBe(404);
    expect(text(await call('GET', '/v1/sprites/keep/fs/read?path=/home/sprite/notes.txt'))).toBe('second');
    const bin = await fetch(`${running[0]!.url}/v1/sprites/keep/fs/read?path=/home/sprite/bin.dat`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect([...new Uint8Array(await bin.arrayBuffer())]).toEqual([0, 1, 254, 255]);
    const cps = await call('GET', '/v1/sprites/keep/checkpoints');
    expect(cps.json.map((c: { id: string }) => c.id)).toEqual(['Current', 'v1']);
    expect(cps.json[1].comment).toBe('seed');
    const services = await call('GET', '/v1/sprites/keep/services');
    const status = Object.fromEntries(services.json.map((s: { name: string; state: { status: string } }) => [s.name, s.state.status]));
    expect(status).toEqual({ web: 'running', off: 'stopped' });
    expect((await call('GET', '/v1/sprites/keep/tasks')).json.tasks).toEqual([expect.objectContaining({ name: 'lease' })]);
    expect((await call('GET', '/v1/sprites/keep/policy/network')).json).toEqual(POLICY);
    expect((await api(running[0]!.url, minted)('GET', '/v1/sprites/keep')).status).toBe(200);

    expect(text(await call('POST', '/v1/sprites/keep/checkpoints/v1/restore'))).toContain('complete');
    expect(text(await call('GET', '/v1/sprites/keep/fs/read?path=/home/sprite/notes.txt'))).toBe('first');
    expect(text(await call('POST', '/v1/sprites/keep/checkpoint', {}))).toContain('v2');
    await stop(running[0]!);
  });

  it('third run: the restore, the automatic checkpoint it took and the later checkpoint were saved too', async () => {
    const { call } = await boot();
    expect(text(await call('GET', '/v1/sprites/keep/fs/read?path=/home/sprite/notes.txt'))).toBe('first');
    expect((await call('GET', '/v1/sprites/keep/checkpoints')).json.map((c: { id: string }) => c.id)).toEqual(['Current', 'v2', 'v1']);
    const all = (await call('GET', '/v1/sprites/keep/checkpoints?includeAuto=true')).json;
    expect(all.map((c: { id: string }) => c.id)).toEqual(['Current', 'v2', expect.stringMatching(/^auto-\d+$/), 'v1']);
    expect(all[2]).toMatchObject({ comment: 'pre-restore of v1', is_auto: true });
    expect(text(await call('POST', '/v1/sprites/keep/checkpoint', {}))).toContain('v3');
    // The state that restore replaced is still there to go back to.
    expect(text(await call('POST', `/v1/sprites/keep/checkpoints/${all[2].id}/restore`))).toContain('complete');
    expect(text(await call('GET', '/v1/sprites/keep/fs/read?path=/home/sprite/notes.txt'))).toBe('second');
  });
});
