import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, wsExec, execQuery, ENGINES, memoryMachines } from '../../support/server.ts';
import { factoryWith } from '../../support/model.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { ModelError } from '../../../src/server/core/errors.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import type { RunningServer } from '../../../src/server/server.ts';

function ndjson(text: string): any[] {
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

describe.each(ENGINES)('checkpoints (%s engine)', (engine) => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  const exec = (name: string, script: string) => wsExec(srv.url, `/v1/sprites/${name}/exec?${execQuery(['sh', '-c', script])}`);
  beforeAll(async () => {
    srv = await startTestServer(engine);
    call = api(srv.url);
  });
  afterAll(() => srv.close());

  // Skipped on sandbox: the seed's demo `./risky.sh` (and its `/work`) exist only in the memory engines' skeleton
  // (docs/fidelity.md "Sandbox: seed demo files"); test/sandbox/machine.test.ts rewinds real commands' writes.
  it.skipIf(engine === 'sandbox')('the compensation story: write, checkpoint, overwrite or fail with ./risky.sh, restore, the key is back', async () => {
    await call('POST', '/v1/sprites', { name: 'comp' });
    expect((await exec('comp', 'echo v1 > /home/sprite/key')).exitCode).toBe(0);
    const created = await call('POST', '/v1/sprites/comp/checkpoint', { comment: 'base' });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = ndjson(created.text);
    expect(lines.at(-1)).toMatchObject({ type: 'complete', data: 'Checkpoint v1 created successfully' });
    for (const l of lines) expect(typeof l.time).toBe('string');

    await exec('comp', 'echo v2 > /home/sprite/key');
    const risky = await wsExec(srv.url, `/v1/sprites/comp/exec?${execQuery(['./risky.sh'])}`);
    expect(risky.exitCode).toBe(1);
    expect(risky.stderr).toBe('risky.sh: failed\n');
    expect((await call('GET', '/v1/sprites/comp/fs/read?path=/work/output')).text).toBe('partial-corrupt');

    const restored = await call('POST', '/v1/sprites/comp/checkpoints/v1/restore');
    expect(restored.status).toBe(200);
    expect(ndjson(restored.text).at(-1)).toMatchObject({ type: 'complete' });
    expect((await call('GET', '/v1/sprites/comp/fs/read?path=/home/sprite/key')).text.trim()).toBe('v1');
    expect((await call('GET', '/v1/sprites/comp/fs/read?path=/work/output')).status).toBe(404);
    expect((await call('GET', '/v1/sprites/comp')).json.status).toBe('running');
  });

  // The interpreter engine runs a handful of built-in programs, without `ln` or `stat`.
  it.skipIf(engine === 'interpreter')('a restore brings hard links back linked: two names of one file, as when the checkpoint was taken', async () => {
    await call('POST', '/v1/sprites', { name: 'links' });
    expect((await exec('links', 'cd /home/sprite && echo one > a && ln a b')).exitCode).toBe(0);
    expect((await call('POST', '/v1/sprites/links/checkpoint', {})).status).toBe(200);
    await exec('links', 'cd /home/sprite && echo two > b && rm a');
    expect((await call('POST', '/v1/sprites/links/checkpoints/v1/restore')).status).toBe(200);
    const r = await exec('links', 'cd /home/sprite && cat b && stat -c %h a && echo three > a && cat b');
    expect({ out: r.stdout, exit: r.exitCode }).toEqual({ out: 'one\n2\nthree\n', exit: 0 });
  });

  it('lists Current first, ids never reused, a checkpoint never changes after it is taken', async () => {
    await call('POST', '/v1/sprites', { name: 'cps' });
    await call('PUT', '/v1/sprites/cps/fs/write?path=/home/sprite/f', 'one');
    await call('POST', '/v1/sprites/cps/checkpoint', {});
    await call('PUT', '/v1/sprites/cps/fs/write?path=/home/sprite/f', 'two');
    await call('POST', '/v1/sprites/cps/checkpoint', { comment: 'second' });
    const list = await call('GET', '/v1/sprites/cps/checkpoints');
    expect(list.status).toBe(200);
    expect(list.json[0].id).toBe('Current');
    expect(list.json.slice(1).map((c: { id: string }) => c.id).sort()).toEqual(['v1', 'v2']);
    const v2 = await call('GET', '/v1/sprites/cps/checkpoints/v2');
    expect(v2.json).toMatchObject({ id: 'v2', comment: 'second', source_id: 'v1' });
    expect((await call('GET', '/v1/sprites/cps/checkpoints/v9')).status).toBe(404);
    // current is v2: deleting it is refused; v1 can go, and its id is never reused
    expect((await call('DELETE', '/v1/sprites/cps/checkpoints/v2')).status).toBe(409);
    await call('POST', '/v1/sprites/cps/checkpoints/v1/restore');
    expect((await call('GET', '/v1/sprites/cps/fs/read?path=/home/sprite/f')).text).toBe('one');
    await call('PUT', '/v1/sprites/cps/fs/write?path=/home/sprite/f', 'three');
    await call('POST', '/v1/sprites/cps/checkpoints/v2/restore');
    expect((await call('GET', '/v1/sprites/cps/fs/read?path=/home/sprite/f')).text).toBe('two');
    expect((await call('DELETE', '/v1/sprites/cps/checkpoints/v1')).status).toBe(204);
    const third = await call('POST', '/v1/sprites/cps/checkpoint', {});
    expect(ndjson(third.text).at(-1).data).toBe('Checkpoint v3 created successfully');
  });

  it('a restore first checkpoints what it replaces: hidden by default, listed with includeAuto=true, restorable, deletable', async () => {
    await call('POST', '/v1/sprites', { name: 'undo' });
    await call('PUT', '/v1/sprites/undo/fs/write?path=/home/sprite/notes', 'first draft');
    await call('POST', '/v1/sprites/undo/checkpoint', { comment: 'base' });
    await call('PUT', '/v1/sprites/undo/fs/write?path=/home/sprite/notes', 'hours of work');
    const restored = await call('POST', '/v1/sprites/undo/checkpoints/v1/restore');
    expect(ndjson(restored.text).map((l) => l.data ?? l.error)).toEqual([
      'Stopping process for restore...',
      'Creating checkpoint before restore...',
      'Restoring from checkpoint v1...',
      'Restore from v1 complete',
    ]);
    expect((await call('GET', '/v1/sprites/undo/fs/read?path=/home/sprite/notes')).text).toBe('first draft');

    expect((await call('GET', '/v1/sprites/undo/checkpoints')).json.map((c: { id: string }) => c.id)).toEqual(['Current', 'v1']);
    const all = (await call('GET', '/v1/sprites/undo/checkpoints?includeAuto=true')).json;
    expect(all.map((c: { id: string }) => c.id)).toEqual(['Current', expect.stringMatching(/^auto-\d{13}$/), 'v1']);
    const auto = all[1];
    expect(auto).toEqual({ id: auto.id, create_time: expect.any(String), comment: 'pre-restore of v1', is_auto: true, source_id: 'v1' });
    // The id names the millisecond of its create_time, taken after v1.
    expect(Number(auto.id.slice('auto-'.length))).toBe(Date.parse(auto.create_time));
    expect(Date.parse(auto.create_time)).toBeGreaterThanOrEqual(Date.parse(all[2].create_time));
    expect(all[2]).toMatchObject({ id: 'v1', is_auto: false });
    expect((await call('GET', `/v1/sprites/undo/checkpoints/${auto.id}`)).json).toMatchObject({ id: auto.id, is_auto: true, history: ['v1'] });

    // The automatic one gives the replaced work back, and that restore is itself undoable.
    const back = await call('POST', `/v1/sprites/undo/checkpoints/${auto.id}/restore`);
    expect(ndjson(back.text).at(-1)).toMatchObject({ type: 'complete', data: `Restore from ${auto.id} complete` });
    expect((await call('GET', '/v1/sprites/undo/fs/read?path=/home/sprite/notes')).text).toBe('hours of work');
    const autos = (await call('GET', '/v1/sprites/undo/checkpoints?includeAuto=true')).json.filter((c: { is_auto?: boolean }) => c.is_auto);
    expect(autos.map((c: { comment: string }) => c.comment)).toEqual([`pre-restore of ${auto.id}`, 'pre-restore of v1']);
    // Manual ids go on from v1; the current (automatic) one cannot be deleted, an older one can.
    expect(ndjson((await call('POST', '/v1/sprites/undo/checkpoint', {})).text).at(-1).data).toBe('Checkpoint v2 created successfully');
    await call('POST', '/v1/sprites/undo/checkpoints/v1/restore');
    expect((await call('DELETE', `/v1/sprites/undo/checkpoints/${autos[0].id}`)).status).toBe(204);
    expect((await call('GET', `/v1/sprites/undo/checkpoints/${autos[0].id}`)).status).toBe(404);
  });

  it('restore of an unknown id is 404 before any stream, and ends running sessions', async () => {
    await call('POST', '/v1/sprites', { name: 'rs' });
    const r = await call('POST', '/v1/sprites/rs/checkpoints/v7/restore');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).not.toContain('ndjson');
  });
});

describe('a checkpoint the disk quota has no room for', () => {
  // Machines whose snapshot is refused as the container engine refuses a commit past the quota.
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    const clock = new SystemClock();
    const inner = memoryMachines(createEngine('shell', { clock }), clock);
    const machines = factoryWith(inner, {
      create: async (spec) => {
        const machine = await inner.create(spec);
        return new Proxy(machine, {
          get: (target, prop) =>
            prop === 'snapshot'
              ? () => Promise.reject(new ModelError('checkpoint_no_space', 'no space left on device: the checkpoint would pass the disk quota'))
              : (Reflect.get(target, prop, target) as unknown),
        });
      },
    });
    srv = await startTestServer('shell', { clock, machines });
    call = api(srv.url);
  });
  afterAll(() => srv.close());

  it('streams 200 with the error line SDKs raise ("Failed to create checkpoint: …"); no checkpoint is listed', async () => {
    expect((await call('POST', '/v1/sprites', { name: 'full' })).status).toBe(201);
    const created = await call('POST', '/v1/sprites/full/checkpoint', { comment: 'one too many' });
    expect(created.status).toBe(200);
    const last = ndjson(created.text).at(-1);
    expect(last).toMatchObject({ type: 'error', error: 'Failed to create checkpoint: no space left on device: the checkpoint would pass the disk quota' });
    const list = await call('GET', '/v1/sprites/full/checkpoints');
    expect(JSON.parse(list.text).map((c: { id: string }) => c.id)).toStrictEqual(['Current']);
  });
});
