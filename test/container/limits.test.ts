/**
 * The container engine bounds every sprite: past its memory the kernel OOM-kills inside that container, past its
 * pids fork fails with EAGAIN there, and another sprite execs meanwhile. The limits are on the container itself
 * (HostConfig Memory, MemorySwap, PidsLimit), so they hold whatever the sprite runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerMachineFactory, type ContainerMachine } from '../../src/server/machines/container/container-machine.ts';
import type { Machine } from '../../src/server/machines/port.ts';
import { announceSkip, TEST_IMAGE, TEST_RUNTIME, testDocker } from './support.ts';

const NAMESPACE = 'ctest-limits';
const MiB = 1024 ** 2;
const skip = await announceSkip('container limits');
let factory: ContainerMachineFactory;
let a: ContainerMachine;
let b: ContainerMachine;

function run(machine: Machine, script: string): Promise<{ out: string; code: number }> {
  let out = '';
  const p = machine.spawn(
    { argv: ['sh', '-c', script], env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: () => undefined },
    { stdin: false },
  );
  return p.exit.then((code) => ({ out, code }));
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
    // Within 16 MiB of the quota (btrfs counts metadata, and the image's size on disk is not exactly its Size).
    expect(Math.abs(Number(size) - QUOTA)).toBeLessThan(16 * MiB);
    await expect(q.fs.writeFile('/home/sprite/more', new Uint8Array(8 * MiB))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect((await run(q, 'rm /home/sprite/big && echo freed')).out).toBe('freed\n');
    await q.fs.writeFile('/home/sprite/more', new Uint8Array(8 * MiB));
    expect((await run(b, 'echo ok')).out).toBe('ok\n');
  });
});
