/**
 * The supervisor on its own (no socket): while paused (the host connection is congested) a fast writer blocks on
 * its full output socket (Node gives children a socketpair) instead of the agent buffering its output; resumed, every byte arrives and the exit follows.
 */
import { describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { Supervisor } from './supervisor.ts';

const LINUX = process.platform === 'linux';
if (!LINUX) console.warn('supervisor tests skipped: they need Linux (/proc)');

/** Children of every thread of this process (vitest runs tests in a worker thread). */
function childPids(): number[] {
  return readdirSync('/proc/self/task').flatMap((t) =>
    readFileSync(`/proc/self/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

describe.skipIf(!LINUX)('supervisor backpressure', { timeout: 30000 }, () => {
  it('a paused writer blocks on its full output channel; on resume all of its output arrives, then the exit', async () => {
    let received = 0;
    let exitCode: number | undefined;
    const sup = new Supervisor(
      { stdout: (_id, d) => void (received += d.byteLength), stderr: () => undefined, exit: (_id, code) => void (exitCode = code), started: () => undefined },
      { root: '', dropPrivileges: false, exitDrainMs: 100, sweepNamespace: false, logOwner: null },
    );
    sup.setPaused(true);
    const total = 8 * 1024 * 1024;
    sup.spawn(1, { argv: ['head', '-c', String(total), '/dev/zero'], env: { PATH: '/usr/bin:/bin' }, dir: '/', tty: false, rows: 24, cols: 80, uid: 0, gid: 0, stdin: false });
    // The writer ends up asleep on its full pipe: the agent is not draining it into memory.
    const headPid = await vi.waitFor(() => {
      const pid = childPids().find((p) => {
        try {
          return readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'head';
        } catch {
          return false;
        }
      });
      expect(pid).toBeDefined();
      expect(readFileSync(`/proc/${pid}/wchan`, 'utf8')).toMatch(/pipe_write|pipe_wait|sock_alloc_send|unix_stream_sendmsg|wait_for_unix/);
      return pid!;
    }, { timeout: 15000, interval: 20 });
    expect(headPid).toBeGreaterThan(0);
    expect(received).toBeLessThan(total);
    expect(exitCode).toBeUndefined();
    sup.setPaused(false);
    await vi.waitFor(() => expect(exitCode).toBe(0), { timeout: 15000 });
    expect(received).toBe(total);
  }, 20000);
});
