/**
 * The container Machine on its own (no HTTP): boot through the exec bridge, a container that dies is started again
 * with its disk and the reboot listeners called, checkpoint images and their release, restore refusals that change
 * nothing, usage of the writable layer, and removal of containers an earlier run of the namespace left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerMachineFactory, type ContainerMachine } from '../../src/server/machines/container/container-machine.ts';
import type { Machine } from '../../src/server/machines/port.ts';
import { announceSkip, TEST_IMAGE, TEST_RUNTIME, testDocker } from './support.ts';

const NAMESPACE = 'ctest-machine';
const skip = await announceSkip('container machine', {
  kubernetes: `checkpoint images, usage of the writable layer and stale-container removal are Docker Engine API calls; the Kubernetes Machine is test/k8s/kubernetes.test.ts`,
});
let factory: ContainerMachineFactory;
let m: ContainerMachine;

/** Runs argv as the sprite user; resolves with its output and exit code. */
function run(machine: Machine, argv: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const p = machine.spawn(
    { argv, env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: (d) => (err += Buffer.from(d).toString()) },
    { stdin: false },
  );
  return p.exit.then((code) => ({ out, err, code }));
}

beforeAll(async () => {
  if (skip) return;
  factory = await ContainerMachineFactory.open({ api: undefined, runtime: TEST_RUNTIME, image: TEST_IMAGE, namespace: NAMESPACE, logger: process.env.DEBUG_CTR ? (console as never) : undefined });
  m = await factory.create({ name: 'box', id: 'sprite-m1' });
});
afterAll(async () => {
  await factory?.close();
});

describe.skipIf(skip)('container machine', () => {
  it('runs as the sprite user in a container named after the namespace and the sprite, with no network but loopback', async () => {
    expect((await run(m, ['id', '-u'])).out).toBe('1001\n');
    expect((await run(m, ['id'])).out).toBe('uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)\n');
    const info = await testDocker().getContainer(`${NAMESPACE}-box`).inspect();
    expect(info.Config.Labels).toMatchObject({ 'dev.spritzer.sprite': 'box', 'dev.spritzer.id': 'sprite-m1', 'dev.spritzer.namespace': NAMESPACE });
    expect(info.HostConfig.NetworkMode).toBe('none');
    expect((await run(m, ['sh', '-c', 'ls /sys/class/net'])).out).toBe('lo\n');
  });

  it('usage counts what the sprite wrote, not the image', async () => {
    const before = await m.usage();
    await run(m, ['sh', '-c', 'head -c 3000000 /dev/zero > /home/sprite/big; touch /home/sprite/a /home/sprite/b']);
    const after = await m.usage();
    expect(after.bytes - before.bytes).toBeGreaterThanOrEqual(3_000_000);
    expect(after.bytes).toBeLessThan(50_000_000);
    expect(after.files).toBeGreaterThanOrEqual(before.files + 3);
  });

  it('a released checkpoint image is gone and cannot be restored; the disk is untouched', async () => {
    await run(m, ['sh', '-c', 'echo one > /home/sprite/v']);
    const snap = await m.snapshot();
    const image = (snap as unknown as { image: string }).image;
    expect((await testDocker().getImage(image).inspect()).Id).toBeTruthy();
    await run(m, ['sh', '-c', 'echo two > /home/sprite/v']);
    await m.releaseSnapshot(snap);
    await m.releaseSnapshot(snap);
    await expect(testDocker().getImage(image).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(m.restore(snap)).rejects.toThrow(/released/);
    expect((await run(m, ['cat', '/home/sprite/v'])).out).toBe('two\n');
  });

  it("refuses another sprite's checkpoint", async () => {
    await expect(m.restore({ kind: 'container', spriteId: 'other', image: 'x:y' } as never)).rejects.toThrow(/not a snapshot/);
    await expect(m.restore({ kind: 'sandbox' } as never)).rejects.toThrow(/not a snapshot/);
  });

  it('a restore from a checkpoint the sprite then keeps using survives the release of that checkpoint', async () => {
    await run(m, ['sh', '-c', 'echo three > /home/sprite/v']);
    const snap = await m.snapshot();
    await run(m, ['sh', '-c', 'echo four > /home/sprite/v']);
    await m.restore(snap);
    await m.releaseSnapshot(snap);
    expect((await run(m, ['cat', '/home/sprite/v'])).out).toBe('three\n');
  });

  it('a new factory of the same namespace removes containers an earlier run left', async () => {
    const docker = testDocker();
    const other = await ContainerMachineFactory.open({ runtime: TEST_RUNTIME, image: TEST_IMAGE, namespace: `${NAMESPACE}-stale` });
    await other.create({ name: 'left', id: 'sprite-left' });
    // No close(): as if that spritzer died.
    const again = await ContainerMachineFactory.open({ runtime: TEST_RUNTIME, image: TEST_IMAGE, namespace: `${NAMESPACE}-stale`, leftovers: 'remove' });
    await expect(docker.getContainer(`${NAMESPACE}-stale-left`).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await again.close();
    await other.close();
  });

  it('a container of the sprite\'s name that spritzer did not make: the create fails and that container is left alone', async () => {
    const docker = testDocker();
    const theirs = await docker.createContainer({ name: `${NAMESPACE}-theirs`, Image: TEST_IMAGE, Cmd: ['sleep', '60'], Labels: { owner: 'someone' } });
    try {
      await expect(factory.create({ name: 'theirs', id: 'sprite-m7' })).rejects.toMatchObject({ kind: 'sprite_unavailable' });
      expect((await theirs.inspect()).Config.Labels).toMatchObject({ owner: 'someone' });
    } finally {
      await theirs.remove({ force: true });
    }
  });

  it('an image that is not there and cannot be pulled is a clear start-up error', async () => {
    await expect(ContainerMachineFactory.open({ runtime: TEST_RUNTIME, image: 'spritzer-no-such-image:0', namespace: `${NAMESPACE}-x` })).rejects.toThrow(
      /sprite image spritzer-no-such-image:0 is not on the daemon and could not be pulled/,
    );
  });
  // The lost connection is seen while the container is still stopping: the restart retries (restartAndConnect).
  it('a container killed from outside is started again with its disk, and the reboot listeners run', async () => {
    const m = await factory.create({ name: 'crashy', id: 'sprite-m2' });
    await run(m, ['sh', '-c', 'echo kept > /home/sprite/kept']);
    let reboots = 0;
    const off = m.onReboot(() => reboots++);
    await testDocker().getContainer(`${NAMESPACE}-crashy`).kill();
    for (let i = 0; i < 600 && reboots === 0; i++) await new Promise((r) => setTimeout(r, 100));
    off();
    expect(reboots).toBe(1);
    expect((await run(m, ['cat', '/home/sprite/kept'])).out).toBe('kept\n');
  });

});
