/**
 * A supervisor may stop spritzer while it starts or the moment it prints that it listens: spritzer then shuts down
 * (exit 0) and leaves nothing — never dies by the signal's default action, which would leave its temp data dir, the
 * btrfs image's loop mount and its cgroups. The sandbox engine's start is where both gaps showed (a signal before the
 * listening line, and one while the engine made its data dir).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { mountsUnder } from '../../src/server/machines/sandbox/data-dir.ts';
import { TOKEN } from '../support/server.ts';
import { children, killChildren, startSpritzer, stopSpritzer, tempDirOf } from '../support/spritzer-process.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('signal at start');
const BIN = fileURLToPath(new URL('../../bin/spritzer.mjs', import.meta.url));
afterEach(killChildren);

describe.skipIf(skip)('a SIGTERM while spritzer starts', () => {
  it('as soon as it listens: shuts it down cleanly, every time', async () => {
    for (let i = 0; i < 5; i++) {
      const { child } = await startSpritzer(['--exec', 'sandbox', '--sandbox-spares', '0', '--token', TOKEN]);
      expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
    }
  }, 120_000);

  it('once its temp data dir exists, before it listens: exit 0, and the dir and its mounts are gone', async () => {
    const child = spawn(process.execPath, [BIN, '--addr', '127.0.0.1:0', '--log-level', 'silent', '--exec', 'sandbox', '--sandbox-spares', '0', '--token', TOKEN], { stdio: 'ignore' });
    children.add(child);
    let dir: string | undefined;
    while (!(dir = tempDirOf(child.pid!)) && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
    expect(dir).toBeDefined();
    expect(await stopSpritzer(child, 'SIGTERM')).toBe(0);
    expect(await mountsUnder(dir!)).toStrictEqual([]);
    expect(existsSync(dir!)).toBe(false);
  }, 60_000);
});
