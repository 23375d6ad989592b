/**
 * The container engine bounds every sprite: past its memory the kernel OOM-kills inside that container, past its
 * pids fork fails with EAGAIN there, and another sprite execs meanwhile. The limits are on the container itself
 * (HostConfig Memory, MemorySwap, PidsLimit), so they hold whatever the sprite runs.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerMachineFactory, type ContainerMachine } from '../../src/server/machines/container/container-machine.ts';
import type { Machine } from '../../src/server/machines/port.ts';
import { announceSkip, TEST_IMAGE, TEST_RUNTIME, testDocker } from './support.ts';
import { bombParent, HOLD_EVERY_TASK } from '../support/task-limit.ts';

const NAMESPACE = 'ctest-limits';
const MiB = 1024 ** 2;
const skip = await announceSkip('container limits', {
  kubernetes: `it reads HostConfig and the storage driver through the Docker Engine API; on Kubernetes memory is the pod's limit, pids the kubelet's podPidsLimit, and the disk is not bounded (docs/fidelity.md)`,
});
let factory: ContainerMachineFactory;
let a: ContainerMachine;
let b: ContainerMachine;

function run(machine: Machine, script: string, tty = false): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const p = machine.spawn(
    { argv: ['sh', '-c', script], env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty, rows: 24, cols: 80 },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: (d) => (err += Buffer.from(d).toString()) },
    { stdin: false },
  );
  return p.exit.then((code) => ({ out, err, code }));
}

beforeAll(async () => {
  if (skip) return;
  factory = await ContainerMachineFactory.open({ runtime: TEST_RUNTIME, image: TEST_IMAGE, namespace: NAMESPACE, leftovers: 'remove', limits: { memoryBytes: 160 * MiB, pids: 64 } });
  [a, b] = await Promise.all([factory.create({ name: 'la', id: 'sprite-la' }), factory.create({ name: 'lb', id: 'sprite-lb' })]);
});
afterAll(async () => {
  await factory?.close();
});

describe.skipIf(skip)('container sprite limits', () => {
  it('sets the memory and pids limits on the container', async () => {
    const info = await testDocker().getContainer(`${NAMESPACE}-la`).inspect();
    expect([info.HostConfig.Memory, info.HostConfig.MemorySwap, info.HostConfig.PidsLimit]).toEqual([160 * MiB, 160 * MiB, 64]);
  });

  it('sizes /dev/shm at half the memory, as the sandbox engine does', async () => {
    expect((await run(a, 'df -B1 --output=size /dev/shm | tail -1')).out.trim()).toBe(String(80 * MiB));
  });

  it('OOM-kills a memory hog inside its own container; the other sprite goes on', async () => {
    expect((await run(a, 'python3 -c "a = bytearray(600 * 1024 * 1024)"; echo "exit $?"')).out).toBe('exit 137\n');
    expect((await run(b, 'echo ok')).out).toBe('ok\n');
  });

  it('stops a fork bomb with EAGAIN inside its own container; the other sprite goes on', async () => {
    const r = await run(a, `python3 -c '
import os, errno, time
n = 0
try:
    while n < 1000:
        if os.fork() == 0:
            time.sleep(3); os._exit(0)
        n += 1
    print(n, "ok")
except OSError as e:
    print(n, errno.errorcode[e.errno])
'`);
    const [n, err] = r.out.trim().split(' ');
    expect(err).toBe('EAGAIN');
    expect(Number(n)).toBeLessThan(64);
    expect((await run(b, 'echo ok')).out).toBe('ok\n');
  });

  it('refuses a terminal exec at the task limit with EAGAIN; the sprite and its processes go on', async () => {
    // A bomb in the background holds every task for 20 s, then its parent ends: room for an exec's process but not
    // for node-pty's thread that waits for it, whose failure would take the agent and the sprite down.
    await run(a, HOLD_EVERY_TASK);
    const { State } = await testDocker().getContainer(`${NAMESPACE}-la`).inspect();
    const line = (await readFile(`/proc/${State.Pid}/cgroup`, 'utf8')).split('\n').find((l) => l.split(':')[1]!.split(',').includes('pids'))!;
    const dir = `/sys/fs/cgroup/pids${line.split(':')[2]}`;
    const pids = async () => (await readFile(join(dir, 'cgroup.procs'), 'utf8')).trim().split('\n').map(Number);
    await expect.poll(async () => (await pids()).length, { timeout: 15_000 }).toBeGreaterThan(40);
    // The bomb's parent ends (its children live on, reaped by the container's init): one task is free.
    const parent = (await bombParent(await pids()))!;
    process.kill(parent, 'SIGKILL');
    await expect.poll(async () => (await pids()).includes(parent)).toBe(false);
    const held = (await pids()).length;
    const tty = await run(a, 'echo hi', true);
    expect(tty.code).toBe(126);
    expect(tty.out + tty.err).toContain('resource temporarily unavailable');
    expect((await pids()).length).toBeGreaterThanOrEqual(held - 1);
  });
});

describe.skipIf(skip)('container sprite disk quota', () => {
  const QUOTA = 64 * MiB;
  let driver = '';
  let q: ContainerMachine;
  beforeAll(async () => {
    driver = ((await testDocker().info()) as { Driver?: string }).Driver ?? '';
    if (driver !== 'btrfs') console.warn(`container disk quota test skipped: the daemon's storage driver is ${driver || 'unknown'}, which has no size option (scripts/test-container.sh uses btrfs)`);
    else q = await factory.create({ name: 'lq', id: 'sprite-lq', diskQuotaBytes: QUOTA });
  });

  it("bounds the container's writable layer: a write past the quota fails inside with EDQUOT, the fs API with ENOSPC; the sprite goes on", async (ctx) => {
    if (driver !== 'btrfs') return ctx.skip();
    // btrfs bounds what the container references: the image's files and the quota.
    const info = await testDocker().getContainer(`${NAMESPACE}-lq`).inspect();
    const image = (await testDocker().getImage(info.Image).inspect()) as { Size: number };
    expect(info.HostConfig.StorageOpt).toEqual({ size: String(QUOTA + image.Size) });
    const r = await run(q, 'dd if=/dev/zero of=/home/sprite/big bs=1M count=200 2>&1 | head -1; stat -c %s /home/sprite/big');
    const [error, size] = r.out.trim().split('\n');
    expect(error).toMatch(/Disk quota exceeded/);
    console.log(`container disk quota: ${QUOTA} bytes, a write stopped at ${size}`);
    // Near the quota: btrfs counts metadata, and the image's files take more on disk than its Size (their metadata and
    // block rounding: 17 MiB for the test image's 344 MB in 11,670 files), which the room inside pays for.
    expect(Math.abs(Number(size) - QUOTA)).toBeLessThan(16 * MiB + image.Size / 16);
    await expect(q.fs.writeFile('/home/sprite/more', new Uint8Array(8 * MiB))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect((await run(q, 'rm /home/sprite/big && echo freed')).out).toBe('freed\n');
    await q.fs.writeFile('/home/sprite/more', new Uint8Array(8 * MiB));
    expect((await run(b, 'echo ok')).out).toBe('ok\n');
  });

  it('counts checkpoints against the quota: a commit that would pass it is refused, a deleted checkpoint gives room back', async (ctx) => {
    if (driver !== 'btrfs') return ctx.skip();
    expect((await run(q, 'rm -f /home/sprite/*; head -c 40M /dev/urandom > /home/sprite/data && echo written')).out).toBe('written\n');
    const first = await q.snapshot();
    // The first checkpoint holds the 40 MiB the sprite wrote; a second copy of them would pass the 64 MiB quota.
    await expect(q.snapshot()).rejects.toMatchObject({ kind: 'checkpoint_no_space', message: expect.stringMatching(/disk quota \(67108864 bytes\)/) });
    await q.releaseSnapshot(first);
    const second = await q.snapshot();
    expect((await run(q, 'cat /home/sprite/data | wc -c')).out.trim()).toBe(String(40 * MiB));
    await q.releaseSnapshot(second);
  });
});

describe.skipIf(skip)('container sprites together', () => {
  // Their own parent cgroup, so that these small totals bound no other test's containers.
  const parent = `spritzer-test-${randomUUID().slice(0, 8)}`;
  let shared: ContainerMachineFactory;
  let holder: ContainerMachine;
  let grower: ContainerMachine;
  beforeAll(async () => {
    shared = await ContainerMachineFactory.open({
      runtime: TEST_RUNTIME, image: TEST_IMAGE, namespace: `${NAMESPACE}-tot`, leftovers: 'remove',
      limits: { memoryBytes: 288 * MiB, pids: 64 }, memoryTotalBytes: 384 * MiB, cpuYieldAfterMs: 1500, cgroupParent: parent,
    });
    [holder, grower] = await Promise.all([shared.create({ name: 'th', id: 'sprite-th' }), shared.create({ name: 'tg', id: 'sprite-tg' })]);
  });
  /** Where the daemon put a container's cgroup in `controller`'s hierarchy (from its first process's /proc/<pid>/cgroup). */
  const cgroupOf = async (name: string, controller: string) => {
    const { State } = await testDocker().getContainer(`${NAMESPACE}-tot-${name}`).inspect();
    const line = (await readFile(`/proc/${State.Pid}/cgroup`, 'utf8')).split('\n').find((l) => l.split(':')[1]!.split(',').includes(controller))!;
    return `/sys/fs/cgroup/${controller}${line.split(':')[2]}`;
  };
  const parentDirs: string[] = [];
  afterAll(async () => {
    await shared?.close();
    for (const d of parentDirs) await rmdir(d).catch(() => undefined);
  });

  it('are placed in one parent cgroup, whose memory limit is the total', async () => {
    const info = await testDocker().getContainer(`${NAMESPACE}-tot-th`).inspect();
    expect(info.HostConfig.CgroupParent).toBe(parent);
    for (const c of ['memory', 'pids', 'cpu', 'cpuacct']) parentDirs.push(dirname(await cgroupOf('th', c)));
    expect(dirname(await cgroupOf('tg', 'memory'))).toBe(parentDirs[0]);
    expect(parentDirs[0]!.endsWith(`/${parent}`)).toBe(true);
    expect(Number(await readFile(join(parentDirs[0]!, 'memory.limit_in_bytes'), 'utf8'))).toBe(384 * MiB);
  });

  it('a sprite under its own memory limit is OOM-killed when all of them pass the total; the other goes on', async () => {
    // b"x" * n writes every byte: its pages are in use once it returns (a zeroed bytearray may not be, yet).
    const held = run(holder, 'python3 -c "import time; a = b\'x\' * (150 * 1024 * 1024); print(len(a), flush=True); open(\'/tmp/ready\', \'w\').close(); time.sleep(20)"');
    await expect.poll(async () => (await run(holder, 'test -e /tmp/ready && echo ready')).out, { timeout: 15_000 }).toBe('ready\n');
    // 200 MiB (and its agent's ~50) is under the grower's own 288 MiB, but with the holder's 150 over the 384 MiB total.
    expect((await run(grower, 'python3 -c "a = b\'x\' * (200 * 1024 * 1024); print(len(a))"; echo "exit $?"')).out).toBe('exit 137\n');
    await run(holder, 'pkill -f time.sleep || true');
    expect((await held).out).toMatch(new RegExp(`^${150 * MiB}\\n`));
    expect((await run(grower, 'python3 -c "a = b\'x\' * (200 * 1024 * 1024); print(len(a))"')).out).toBe(`${200 * MiB}\n`);
  });

  it('a sprite that keeps a core busy yields the CPU (cpu.idle of its cgroup), the other does not; back once quiet', async (ctx) => {
    const idleOf = async (name: string) => (await readFile(join(await cgroupOf(name, 'cpu'), 'cpu.idle'), 'utf8').catch(() => '')).trim();
    if (!existsSync('/sys/fs/cgroup/cpu/cpu.idle')) return ctx.skip('the kernel has no cgroup v1 cpu.idle');
    const spin = run(holder, 'timeout 20 sh -c "while [ ! -e /tmp/stop ]; do :; done"; echo done');
    await expect.poll(() => idleOf('th'), { timeout: 10_000, interval: 200 }).toBe('1');
    for (let i = 0; i < 10; i++) expect((await run(grower, 'echo ok')).out).toBe('ok\n');
    expect(await idleOf('tg')).toBe('0');
    await run(holder, 'touch /tmp/stop');
    expect((await spin).out).toBe('done\n');
    await expect.poll(() => idleOf('th'), { timeout: 10_000, interval: 200 }).toBe('0');
  }, 40_000);
});
