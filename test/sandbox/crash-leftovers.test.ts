/**
 * A sandbox spritzer without `--data-dir` killed with `kill -9` cannot remove its temp data dir: its btrfs image
 * stays loop-mounted there and its cgroups stay. The next start (the real `spritzer` command) removes them.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mountsUnder } from '../../src/server/machines/sandbox/data-dir.ts';
import { api, TOKEN } from '../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer, tempDirOf } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('crashed sandbox leftovers');
const left: string[] = [];
afterEach(killChildren);
afterAll(() => {
  for (const d of left) {
    if (!existsSync(d)) continue;
    spawnSync('umount', ['-l', join(d, 'vol')]);
    rmSync(d, { recursive: true, force: true });
  }
});

const start = () => startSpritzer(['--exec', 'sandbox', '--sandbox-spares', '0', '--token', TOKEN]);

describe.skipIf(skip)('what a crashed sandbox spritzer left', () => {
  it('is removed by the next start: the temp data dir, its mounts and its cgroups', async () => {
    let { child, url } = await start();
    expect((await api(url)('POST', '/v1/sprites', { name: 'left' })).status).toBe(201);
    const dir = tempDirOf(child.pid!)!;
    expect(dir).toBeDefined();
    left.push(dir);
    const cgroup = `/sys/fs/cgroup/pids/spritzer/${createHash('sha256').update(dir).digest('hex').slice(0, 12)}`;
    expect(await stopSpritzer(child, 'SIGKILL')).toBe(null);
    expect(await mountsUnder(dir)).not.toStrictEqual([]);
    const hadCgroup = existsSync(cgroup);

    ({ child, url } = await start());
    try {
      expect(existsSync(dir)).toBe(false);
      expect(await mountsUnder(dir)).toStrictEqual([]);
      if (hadCgroup) expect(existsSync(cgroup)).toBe(false);
    } finally {
      // Stopped cleanly whatever happened, so this start leaves nothing of its own.
      expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
    }
  }, 120_000);
});
