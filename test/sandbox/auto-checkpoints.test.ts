/**
 * The automatic checkpoint a restore takes first, on the sandbox engine with btrfs storage, through spritzer's API:
 * files written by real commands are checkpointed, changed and restored; the automatic checkpoint (listed with
 * `includeAuto=true`) is a btrfs snapshot like any checkpoint, gives the replaced files back when restored, and its
 * snapshot goes when it is deleted. Skips, saying so, in copy mode; like the other sandbox tests it needs Linux,
 * root and bubblewrap.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, TOKEN, wsExec } from '../support/server.ts';
import { agentBundle } from '../support/agent.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { SandboxMachineFactory } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox automatic checkpoints');

describe.skipIf(skip)('automatic checkpoints on btrfs', () => {
  let factory: SandboxMachineFactory;
  let srv: RunningServer;
  let call: ReturnType<typeof api>;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ spares: 0 });
    if (factory.snapshotMode !== 'btrfs') console.warn('sandbox automatic checkpoint tests skipped: storage is in copy mode');
    srv = await startTestServer('sandbox', { token: TOKEN, machines: factory });
    call = api(srv.url);
  });
  afterAll(async () => {
    await srv?.close();
  });

  /** Runs `script` in sprite `undo` with a real shell; its stdout (exit 0 asserted). */
  async function run(script: string): Promise<string> {
    const rec = await wsExec(srv.url, `/v1/sprites/undo/exec?${execQuery(['sh', '-c', script])}`);
    expect(rec.exitCode, rec.stderr).toBe(0);
    return rec.stdout;
  }

  /** The btrfs snapshots the storage holds for all sprites (`vol/snaps/<sprite>/<n>`). */
  function snapshots(): number {
    const root = join(factory.dataDir, 'vol', 'snaps');
    return readdirSync(root).reduce((n, id) => n + readdirSync(join(root, id)).length, 0);
  }

  it('a restore snapshots what it replaces; restoring that gives the files back; deleting it frees its snapshot', async (ctx) => {
    if (factory.snapshotMode !== 'btrfs') ctx.skip();
    expect((await call('POST', '/v1/sprites', { name: 'undo' })).status).toBe(201);
    await run('echo first > /home/sprite/notes');
    expect((await call('POST', '/v1/sprites/undo/checkpoint', { comment: 'base' })).text).toContain('Checkpoint v1 created successfully');
    await run('echo second >> /home/sprite/notes && mkdir /home/sprite/build && echo built > /home/sprite/build/out');
    const before = snapshots();

    const restored = await call('POST', '/v1/sprites/undo/checkpoints/v1/restore');
    expect(restored.text).toContain('Creating checkpoint before restore...');
    expect(restored.text).toContain('Restore from v1 complete');
    expect(await run('cat /home/sprite/notes; test -e /home/sprite/build || echo no-build')).toBe('first\nno-build\n');
    expect(snapshots()).toBe(before + 1);

    expect((await call('GET', '/v1/sprites/undo/checkpoints')).json.map((c: { id: string }) => c.id)).toEqual(['Current', 'v1']);
    const listed = (await call('GET', '/v1/sprites/undo/checkpoints?includeAuto=true')).json;
    expect(listed.map((c: { id: string }) => c.id)).toEqual(['Current', expect.stringMatching(/^auto-\d{13}$/), 'v1']);
    const auto = listed[1];
    expect(auto).toMatchObject({ is_auto: true, comment: 'pre-restore of v1', source_id: 'v1' });

    const back = await call('POST', `/v1/sprites/undo/checkpoints/${auto.id}/restore`);
    expect(back.text).toContain(`Restore from ${auto.id} complete`);
    expect(await run('cat /home/sprite/notes /home/sprite/build/out')).toBe('first\nsecond\nbuilt\n');
    expect(snapshots()).toBe(before + 2);

    // The newer automatic one (taken by that second restore) is not current: deleting it frees its snapshot.
    const newer = (await call('GET', '/v1/sprites/undo/checkpoints?includeAuto=true')).json[1];
    expect(newer).toMatchObject({ is_auto: true, comment: `pre-restore of ${auto.id}` });
    expect((await call('DELETE', `/v1/sprites/undo/checkpoints/${auto.id}`)).status).toBe(409);
    expect((await call('DELETE', `/v1/sprites/undo/checkpoints/${newer.id}`)).status).toBe(204);
    for (let i = 0; i < 100 && snapshots() > before + 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(snapshots()).toBe(before + 1);
  });
});
