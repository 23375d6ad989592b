/**
 * `--data-dir` on the sandbox engine, with the real `spritzer` command in a child process: a
 * sprite's disk written by real processes, its checkpoints and its services come back after a `kill -9` and after a
 * clean stop; a restore still works; disks no saved sprite names (an earlier run's spares) are removed at start; a
 * deleted sprite leaves no disk.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, execQuery, TOKEN, wsExec } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox persistence');
const dirs: string[] = [];
afterEach(killChildren);
afterAll(async () => {
  // A last server over each dir, stopped cleanly, frees its mounts; then the dir goes.
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts `spritzer --exec sandbox --data-dir dir` with `spares` spares; resolves once it listens. */
function start(dir: string, spares: number) {
  return startSpritzer(['--exec', 'sandbox', '--data-dir', dir, '--sandbox-spares', String(spares), '--token', TOKEN]);
}
const stop = stopSpritzer;

const sh = (script: string) => ['sh', '-c', script];

async function run(url: string, script: string): Promise<string> {
  const rec = await wsExec(url, `/v1/sprites/keep/exec?${execQuery(sh(script))}`);
  expect(rec.exitCode, rec.stderr).toBe(0);
  return rec.stdout;
}

describe.skipIf(skip)('sandbox sprites across restarts', () => {
  it('keep their disk, checkpoints and services through kill -9 and a clean stop; a restore still works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spritzer-sbx-persist-'));
    dirs.push(dir);
    // First run: the sprite adopts a booted spare, so its disk is named by the spare's key, not its id.
    let { child, url } = await start(dir, 1);
    let call = api(url);
    expect((await call('POST', '/v1/sprites', { name: 'keep', labels: ['a'] })).status).toBe(201);
    expect(await run(url, 'echo first > /home/sprite/f && whoami')).toBe('sprite\n');
    expect((await call('POST', '/v1/sprites/keep/checkpoint', { comment: 'before' })).text).toContain('v1');
    await run(url, 'echo changed > /home/sprite/f');
    expect((await call('PUT', '/v1/sprites/keep/services/idle?duration=0', { cmd: 'sleep', args: ['1000'] })).status).toBe(200);
    expect(await stop(child, 'SIGKILL')).toBe(null);

    // Second run, after kill -9, with no spares: the first run's spare is pruned, the sprite boots on its own disk.
    ({ child, url } = await start(dir, 0));
    call = api(url);
    const sprite = await call('GET', '/v1/sprites/keep');
    expect(sprite.status).toBe(200);
    expect(sprite.json.labels).toStrictEqual(['a']);
    expect(await run(url, 'cat /home/sprite/f; hostname')).toBe('changed\nkeep\n');
    expect((await call('GET', '/v1/sprites/keep/checkpoints')).json.map((c: { id: string }) => c.id)).toStrictEqual(['Current', 'v1']);
    expect((await call('GET', '/v1/sprites/keep/services/idle')).json.state.status).toBe('running');
    expect(await run(url, 'pgrep -x sleep >/dev/null && echo sleeping')).toBe('sleeping\n');
    // The sprite's own API (/.sprite/api.sock, behind sprite-env) answers in a sprite booted again from the data dir.
    expect(await run(url, 'sprite-env services list | grep -q \'"idle"\' && echo listed')).toBe('listed\n');
    expect(readdirSync(join(dir, 'vol', 'layers'))).toHaveLength(1);
    expect((await call('POST', '/v1/sprites/keep/checkpoints/v1/restore')).text).toContain('complete');
    expect(await run(url, 'cat /home/sprite/f')).toBe('first\n');
    expect(await stop(child, 'SIGTERM')).toBe(0);

    // Third run, after a clean stop: still there; deleting it leaves no disk behind.
    ({ child, url } = await start(dir, 0));
    call = api(url);
    expect(await run(url, 'cat /home/sprite/f')).toBe('first\n');
    expect((await call('DELETE', '/v1/sprites/keep')).status).toBe(204);
    expect(readdirSync(join(dir, 'vol', 'layers'))).toStrictEqual([]);
    expect(await stop(child, 'SIGTERM')).toBe(0);
    ({ child, url } = await start(dir, 0));
    expect((await api(url)('GET', '/v1/sprites/keep')).status).toBe(404);
    expect(await stop(child, 'SIGTERM')).toBe(0);
  }, 240_000);
});
