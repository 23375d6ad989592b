/**
 * Commands that outlive their client on the sandbox engine (test/support/outlive-suite.ts): `python3 -m http.server`
 * started with `max_run_after_disconnect=0` answers through `/proxy` past the default linger, is attached, killed,
 * and ended by its linger, its exit, a restore or a restart; and a restart of the `spritzer` command on its data dir,
 * after `kill -9` and after a clean stop, lists none and leaves none running in the sprite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, TOKEN, wsExec } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { getViaProxy, httpServer, outliveSuite, sessionsOf, startAndDrop } from '../support/outlive-suite.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox commands that outlive their client');

describe.skipIf(skip)('a command that outlives its client (sandbox engine)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('sandbox', { token: TOKEN });
    expect((await api(srv.url)('POST', '/v1/sprites', { name: 'linger' })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });
  outliveSuite(() => srv.url, 'linger', (n) => httpServer(8760 + n));
});

describe.skipIf(skip)('a restart of spritzer on its data dir (sandbox engine)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-sbx-outlive-'));
  afterEach(killChildren);
  afterAll(() => {
    // A test that failed mid-way left a killed server's storage mounted: unmount it before the dir goes.
    spawnSync('umount', ['-l', join(dir, 'vol')]);
    rmSync(dir, { recursive: true, force: true });
  });
  const start = () => startSpritzer(['--exec', 'sandbox', '--data-dir', dir, '--sandbox-spares', '0', '--token', TOKEN]);
  const server = httpServer(8770);
  /** The sprite's own process list (argv of each), from inside it. */
  const processes = async (url: string) => (await wsExec(url, `/v1/sprites/keep/exec?${execQuery(['ps', 'ax', '-o', 'args'])}`)).stdout;

  it('ends what the engine cannot keep, after kill -9 and after a clean stop: none listed, none running, nothing served', async () => {
    let { child, url } = await start();
    expect((await api(url)('POST', '/v1/sprites', { name: 'keep' })).status).toBe(201);
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const id = await startAndDrop(url, 'keep', server);
      expect(await getViaProxy(url, 'keep', server.port!)).toMatch(/^HTTP\/1\.0 200/);
      expect(await processes(url)).toContain('http.server');
      await stopSpritzer(child, signal);

      ({ child, url } = await start());
      expect((await api(url)('GET', '/v1/sprites/keep')).status).toBe(200);
      expect((await sessionsOf(url, 'keep')).size).toBe(0);
      expect((await api(url)('GET', `/v1/sprites/keep/exec/${id}`)).status).toBe(404);
      expect(await getViaProxy(url, 'keep', server.port!)).toBeNull();
      expect(await processes(url)).not.toContain('http.server');
    }
    expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
  }, 240_000);
});
