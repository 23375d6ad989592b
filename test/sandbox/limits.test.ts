/**
 * Every resource of a sandbox sprite is bounded, and a sprite at a limit gets the Linux error while the others go
 * on: a memory hog is OOM-killed inside its own sprite, `/dev/shm` fills at its size, a fork bomb gets EAGAIN in its
 * own sprite, all sprites together stop at the total pids limit (also those of two servers) and at the total memory
 * limit, inotify instances and watches stop at theirs. Small
 * limits are set so the tests are quick. Skips with the reason printed where the sandbox cannot run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBundle } from '../support/agent.ts';
import { defaultSpriteResources } from '../../src/server/config/sprite-resources.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec } from './support.ts';
import { bombParent, HOLD_EVERY_TASK } from '../support/task-limit.ts';

const skip = announceSkip('sandbox limit tests');
const MiB = 1024 ** 2;

/** python3: forks children that sleep `secs` until fork fails; prints how many and the errno name. */
const forkBomb = (max: number, secs: number) => `python3 -c '
import os, errno, time
n = 0
try:
    while n < ${max}:
        if os.fork() == 0:
            time.sleep(${secs}); os._exit(0)
        n += 1
    print(n, "ok")
except OSError as e:
    print(n, errno.errorcode[e.errno])
'`;

describe.skipIf(skip)('sandbox sprite limits', () => {
  let factory: SandboxMachineFactory;
  let alpha: SandboxMachine;
  let beta: SandboxMachine;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ limits: { pids: 120, memoryBytes: 192 * MiB }, pidsTotal: 200, inotify: { instances: 8, watches: 100 }, totalsGroup: `test-${randomUUID()}` });
    [alpha, beta] = await Promise.all([factory.create({ name: 'alpha', id: 'lim-alpha' }), factory.create({ name: 'beta', id: 'lim-beta' })]);
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('OOM-kills a memory hog inside its own sprite; the sprite’s agent and the other sprite go on', async () => {
    const hog = await exec(alpha, 'python3 -c "a = bytearray(600 * 1024 * 1024); print(len(a))"; echo "exit $?"');
    expect(hog.out).toBe('exit 137\n');
    expect((await exec(alpha, 'echo ok')).out).toBe('ok\n');
    expect((await exec(beta, 'python3 -c "a = bytearray(64 * 1024 * 1024); print(len(a))"')).out).toBe(`${64 * MiB}\n`);
  });

  it('sizes /dev/shm inside the memory limit: a write past it fails with ENOSPC', async () => {
    const r = await exec(alpha, 'df -B1 --output=size /dev/shm | tail -1; dd if=/dev/zero of=/dev/shm/fill bs=1M count=400 2>&1 | grep -o "No space left on device" | head -1; rm -f /dev/shm/fill');
    const [size, error] = r.out.trim().split('\n');
    expect(Number(size)).toBe(96 * MiB);
    expect(error).toBe('No space left on device');
  });

  it('stops a fork bomb with EAGAIN inside its own sprite while the other sprite execs', async () => {
    const bomb = exec(alpha, forkBomb(1000, 3));
    const r = await bomb;
    const [n, err] = r.out.trim().split(' ');
    expect(err).toBe('EAGAIN');
    expect(Number(n)).toBeLessThan(120);
    expect((await exec(beta, 'echo ok')).out).toBe('ok\n');
    await alpha.stop();
  });

  it('refuses a terminal exec at the sprite\'s task limit with EAGAIN; the sprite and its processes go on', async () => {
    // A bomb in the background takes every task the sprite may have and holds them for 20 s (its parent too). A
    // terminal exec then must not take the agent down (node-pty's thread cannot be created at the limit), which
    // would end every process of the sprite: it fails as a fork there does.
    await exec(alpha, HOLD_EVERY_TASK);
    await expect.poll(async () => (await alpha.processes()).pids.length, { timeout: 15_000 }).toBeGreaterThan(100);
    // The bomb's parent ends (its children live on, reaped by the sprite's init): one task is free, enough for the
    // process of an exec but not for its waiter too.
    const parent = (await bombParent((await alpha.processes()).pids))!;
    process.kill(parent, 'SIGKILL');
    await expect.poll(async () => (await alpha.processes()).pids.includes(parent)).toBe(false);
    const held = (await alpha.processes()).pids.length;
    const tty = await exec(alpha, 'echo hi', { tty: true });
    expect(tty.code).toBe(126);
    expect(tty.out + tty.err).toContain('resource temporarily unavailable');
    expect((await alpha.processes()).pids.length).toBeGreaterThanOrEqual(held - 1);
    await alpha.stop();
    expect((await exec(alpha, 'echo hi', { tty: true })).out).toBe('hi\r\n');
  });

  it('stops all sprites together at the total pids limit', async () => {
    // alpha holds about 100 processes (under its own 120); beta, alone under its own 120 too, then stops at the total.
    const held = exec(alpha, forkBomb(95, 20));
    await expect.poll(async () => (await alpha.processes()).pids.length, { timeout: 15_000 }).toBeGreaterThan(90);
    const r = await exec(beta, forkBomb(110, 1));
    const [n, err] = r.out.trim().split(' ');
    expect(err).toBe('EAGAIN');
    expect(Number(n)).toBeLessThan(110);
    await Promise.all([alpha.stop(), beta.stop()]);
    await held;
    // Below the total again, the same sprite forks freely.
    await expect.poll(async () => (await exec(beta, forkBomb(50, 0))).out, { timeout: 10_000 }).toBe('50 ok\n');
  });

  it('bounds inotify instances and watches per user inside the sprite', async () => {
    const r = await exec(alpha, `python3 -c '
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
fds = []
while len(fds) < 50:
    fd = libc.inotify_init1(0)
    if fd < 0: print(len(fds), errno.errorcode[ctypes.get_errno()]); break
    fds.append(fd)
os.makedirs("/tmp/w", exist_ok=True)
for i in range(200): os.makedirs("/tmp/w/%d" % i, exist_ok=True)
n = 0
for i in range(200):
    if libc.inotify_add_watch(fds[0], b"/tmp/w/%d" % i, 0x100) < 0: print(n, errno.errorcode[ctypes.get_errno()]); break
    n += 1
'`);
    expect(r.out).toBe('8 EMFILE\n100 ENOSPC\n');
  });

  it('has defaults sized to the host', () => {
    const d = defaultSpriteResources({ memoryBytes: 24 * 1024 ** 3, pidMax: 32768 });
    expect(d).toEqual({ memoryBytes: 6 * 1024 ** 3, pids: 2048, pidsTotal: 16384, memoryTotalBytes: 18 * 1024 ** 3, inotifyInstances: 128, inotifyWatches: 65536, cpuYieldAfterMs: 3000 });
    expect(defaultSpriteResources({ memoryBytes: 512 * MiB, pidMax: 4194304 })).toMatchObject({ memoryBytes: 256 * MiB, pids: 4096, memoryTotalBytes: 384 * MiB });
  });
});

describe.skipIf(skip)('totals shared by all sprites', () => {
  let first: SandboxMachineFactory;
  let second: SandboxMachineFactory;

  beforeAll(async () => {
    await agentBundle();
    // Two servers in the same cgroup, as two spritzers started side by side; each sprite may use 192 MiB alone.
    // Their own totals group, so that these small totals bound no other test's sprites.
    const opts = { limits: { pids: 120, memoryBytes: 192 * MiB }, pidsTotal: 200, memoryTotalBytes: 256 * MiB, totalsGroup: `test-${randomUUID()}` };
    first = await SandboxMachineFactory.open(opts);
    second = await SandboxMachineFactory.open(opts);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('a sprite under its own memory limit is OOM-killed when all sprites together pass the total; the other goes on', async () => {
    const [holder, grower] = await Promise.all([first.create({ name: 'holder', id: 'tot-holder' }), first.create({ name: 'grower', id: 'tot-grower' })]);
    // bytearray(n) zero-fills: its pages are in use once it returns, and then it says so in /tmp/ready.
    const held = exec(holder, 'python3 -c "import time; a = bytearray(100 * 1024 * 1024); print(len(a), flush=True); open(\'/tmp/ready\', \'w\').close(); time.sleep(20)"');
    await expect.poll(async () => (await exec(holder, 'test -e /tmp/ready && echo ready')).out, { timeout: 15_000 }).toBe('ready\n');
    // 170 MiB is under the grower's own 192 MiB, but with the holder's 100 MiB over the 256 MiB total.
    const grow = await exec(grower, 'python3 -c "a = bytearray(170 * 1024 * 1024); print(len(a))"; echo "exit $?"');
    expect(grow.out).toBe('exit 137\n');
    await holder.stop();
    expect((await held).out).toBe(`${100 * MiB}\n`);
    // Alone below the total, the same allocation succeeds.
    expect((await exec(grower, 'python3 -c "a = bytearray(170 * 1024 * 1024); print(len(a))"')).out).toBe(`${170 * MiB}\n`);
    await grower.stop();
  });

  it('the pids total is shared by the sprites of two servers', async () => {
    const [a, b] = await Promise.all([first.create({ name: 'pa', id: 'tot-pa' }), second.create({ name: 'pb', id: 'tot-pb' })]);
    const held = exec(a, forkBomb(95, 20));
    await expect.poll(async () => (await a.processes()).pids.length, { timeout: 15_000 }).toBeGreaterThan(90);
    const r = await exec(b, forkBomb(110, 1));
    const [n, err] = r.out.trim().split(' ');
    expect(err).toBe('EAGAIN');
    expect(Number(n)).toBeLessThan(110);
    await Promise.all([a.stop(), b.stop()]);
    await held;
  });
});
