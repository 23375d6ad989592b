/**
 * No data loss on a bad boot (`--data-dir`, the real `spritzer` command in a child process): a saved sprite whose
 * disk no longer boots at restart (its `/usr/bin/sh`, the shell PID 1 runs, deleted through the fs API, then
 * `kill -9`) is kept with its files and checkpoints, listed `cold` (the API's only status for a sprite that runs
 * nothing) with the boot's error in `/_spritzer/state`, refuses exec with a message naming what to do, and can be
 * restored to a checkpoint (it boots again, with that checkpoint's files) or deleted (its disk goes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, execQuery, TOKEN, wsExec } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox bad boot');
const dirs: string[] = [];
afterEach(killChildren);
afterAll(() => {
  for (const d of dirs) {
    // A server killed with -9 cannot unmount its btrfs volume: the test does it, so no mount outlives the run.
    if (existsSync(join(d, 'vol'))) spawnSync('umount', [join(d, 'vol')]);
    expect(readFileSync('/proc/mounts', 'utf8')).not.toContain(`${d}/vol`);
    rmSync(d, { recursive: true, force: true });
  }
});

/** Starts `spritzer --exec sandbox --data-dir dir` without spares; resolves once it listens. */
function start(dir: string) {
  return startSpritzer(['--exec', 'sandbox', '--data-dir', dir, '--sandbox-spares', '0', '--token', TOKEN]);
}
const stop = stopSpritzer;

async function run(url: string, script: string) {
  return wsExec(url, `/v1/sprites/frail/exec?${execQuery(['sh', '-c', script])}`);
}

describe.skipIf(skip)('a saved sprite that cannot boot at restart', () => {
  it('is kept with its files and checkpoints, says why, and can be restored or deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spritzer-sbx-badboot-'));
    dirs.push(dir);
    let { child, url } = await start(dir);
    let call = api(url);
    expect((await call('POST', '/v1/sprites', { name: 'frail' })).status).toBe(201);
    expect((await run(url, 'echo precious > /home/sprite/f')).exitCode).toBe(0);
    expect((await call('POST', '/v1/sprites/frail/checkpoint', { comment: 'good' })).text).toContain('v1');
    expect((await call('DELETE', '/v1/sprites/frail/fs/delete?path=/usr/bin/sh')).status).toBe(200);
    expect(await stop(child, 'SIGKILL')).toBe(null);

    ({ child, url } = await start(dir));
    call = api(url);
    const sprite = await call('GET', '/v1/sprites/frail');
    expect(sprite.status).toBe(200);
    expect(sprite.json.status).toBe('cold');
    expect(sprite.json).not.toHaveProperty('boot_error');
    expect((await call('GET', '/v1/sprites')).json.sprites.map((s: { name: string }) => s.name)).toContain('frail');
    const state = (await call('GET', '/_spritzer/state')).json.sprites.find((s: { name: string }) => s.name === 'frail');
    expect(state).toMatchObject({ status: 'cold', checkpoints: 1 });
    expect(state.boot_error).toEqual(expect.any(String));
    expect(state.bytes).toBeGreaterThan(0);
    expect((await call('GET', '/v1/sprites/frail/checkpoints')).json.map((c: { id: string }) => c.id)).toContain('v1');
    const refused = await call('GET', '/v1/sprites/frail/fs/read?path=/home/sprite/f');
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(refused.text).toContain('could not boot');
    expect(refused.text).toContain('restore one of its checkpoints or delete it');

    expect((await call('POST', '/v1/sprites/frail/checkpoints/v1/restore')).text).toContain('complete');
    const back = await run(url, 'cat /home/sprite/f');
    expect([back.stdout, back.exitCode]).toEqual(['precious\n', 0]);
    expect((await call('GET', '/_spritzer/state')).json.sprites.find((s: { name: string }) => s.name === 'frail')).not.toHaveProperty('boot_error');

    // Broken again, restarted, and deleted this time: its disk goes.
    expect((await call('DELETE', '/v1/sprites/frail/fs/delete?path=/usr/bin/sh')).status).toBe(200);
    expect(await stop(child, 'SIGKILL')).toBe(null);
    ({ child, url } = await start(dir));
    call = api(url);
    expect((await call('GET', '/_spritzer/state')).json.sprites.find((s: { name: string }) => s.name === 'frail').boot_error).toEqual(expect.any(String));
    expect((await call('DELETE', '/v1/sprites/frail')).status).toBe(204);
    expect((await call('GET', '/v1/sprites/frail')).status).toBe(404);
    expect(readdirSync(join(dir, 'vol', 'layers'))).toStrictEqual([]);
    expect(await stop(child, 'SIGTERM')).toBe(0);
  }, 240_000);
});
