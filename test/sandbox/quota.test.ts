/**
 * The disk quota (`--disk-quota`) on sandbox sprites, a btrfs qgroup limit on the sprite's disk group (its layer and
 * its snapshots): inside, `dd` past it fails; through the fs API a write past it is ENOSPC (the memory engines' error,
 * 507 on the wire) and changes nothing; freeing space makes room again; what a checkpoint keeps counts until the
 * checkpoint is deleted; the limit survives a restore and holds on an adopted spare too. Needs btrfs storage (skips,
 * saying so, in copy mode), as the other sandbox tests need Linux, root and bubblewrap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBundle } from '../support/agent.ts';
import { VfsError } from '../../src/server/machines/port.ts';
import { FS_CODE_STATUS } from '../../src/server/http/errors.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec } from './support.ts';

const skip = announceSkip('sandbox quota tests');
const MiB = 1024 * 1024;

describe.skipIf(skip)('sandbox disk quota', () => {
  let factory: SandboxMachineFactory;
  let m: SandboxMachine;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ spares: 1, limits: { pids: 512 } });
    if (factory.snapshotMode !== 'btrfs') console.warn('sandbox quota tests skipped: storage is in copy mode (no btrfs qgroups)');
    m = await factory.create({ name: 'quota', id: 'sprite-quota', diskQuotaBytes: 16 * MiB });
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('inside, dd past the quota fails, and deleting the file makes room again', async (ctx) => {
    if (factory.snapshotMode !== 'btrfs') ctx.skip();
    const r = await exec(m, 'dd if=/dev/zero of=big bs=1M count=32 2>&1; echo "exit $?"; sync');
    expect(r.out).toMatch(/Disk quota exceeded/);
    expect(r.out).toMatch(/exit 1\n$/);
    const again = await exec(m, 'rm big; sync; dd if=/dev/zero of=small bs=1M count=4 2>/dev/null && echo ok; rm small');
    expect(again.out).toBe('ok\n');
  });

  it('through the fs API a write past the quota is ENOSPC (507) and leaves nothing behind', async (ctx) => {
    if (factory.snapshotMode !== 'btrfs') ctx.skip();
    const err = await m.fs.writeFile('/home/sprite/too-big.bin', new Uint8Array(32 * MiB)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VfsError);
    expect(err).toMatchObject({ code: 'ENOSPC', path: '/home/sprite/too-big.bin' });
    expect(FS_CODE_STATUS[(err as VfsError).code]).toBe(507);
    expect((err as VfsError).message).toBe("ENOSPC: no space left on device, open '/home/sprite/too-big.bin'");
    await expect(m.fs.stat('/home/sprite/too-big.bin')).rejects.toMatchObject({ code: 'ENOENT' });
    await m.fs.writeFile('/home/sprite/log', new TextEncoder().encode('kept\n'));
    await expect(m.fs.writeFile('/home/sprite/log', new Uint8Array(32 * MiB), { append: true })).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(Buffer.from(await m.fs.readFile('/home/sprite/log')).toString()).toBe('kept\n');
  });

  it('what a checkpoint keeps counts against the quota until the checkpoint is deleted', async (ctx) => {
    if (factory.snapshotMode !== 'btrfs') ctx.skip();
    await exec(m, 'dd if=/dev/urandom of=kept bs=1M count=10 2>/dev/null; sync');
    const snap = await m.snapshot();
    // The live disk drops the file; the checkpoint still holds its 10 MiB of the 16 MiB quota.
    const full = await exec(m, 'rm kept; sync; dd if=/dev/urandom of=next bs=1M count=10 2>&1; echo "exit $?"; rm -f next; sync');
    expect(full.out).toMatch(/Disk quota exceeded[\s\S]*exit 1\n$/);
    await m.releaseSnapshot(snap);
    // The delete is committed at once; the kernel's cleaner frees the checkpoint's extents a moment later.
    const room = () => exec(m, 'dd if=/dev/urandom of=next bs=1M count=10 2>&1 >/dev/null | grep -c quota; rm -f next; sync').then((r) => r.out);
    await expect.poll(room, { timeout: 15_000, interval: 500 }).toBe('0\n');
  });

  it('a full sprite restores writable, the limit holds after the restore, and on a sprite adopted from a spare', async (ctx) => {
    if (factory.snapshotMode !== 'btrfs') ctx.skip();
    await exec(m, 'dd if=/dev/zero of=full bs=1M count=32 2>/dev/null; sync');
    const snap = await m.snapshot();
    await m.restore(snap);
    // The checkpoint holds the full disk too: deleting it and the file makes room.
    await m.releaseSnapshot(snap);
    expect((await exec(m, 'rm full && echo writable > note && cat note')).out).toBe('writable\n');
    expect((await exec(m, 'dd if=/dev/zero of=big bs=1M count=32 2>&1; rm -f big')).out).toMatch(/Disk quota exceeded/);
    await factory.spares.settled();
    const adopted = await factory.create({ name: 'quota2', id: 'sprite-quota2', diskQuotaBytes: 8 * MiB });
    expect(adopted.key).not.toBe('sprite-quota2');
    expect((await exec(adopted, 'dd if=/dev/zero of=big bs=1M count=12 2>&1; rm -f big')).out).toMatch(/Disk quota exceeded/);
  });
});
