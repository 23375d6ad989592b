/**
 * Spare sandboxes (`--sandbox-spares`): a create adopts a booted spare, which then is the sprite in every way a
 * user can see (hostname, `/etc/hostname`, `/etc/hosts` root-owned), survives a restore under its name, and is
 * replaced in the pool; close leaves no mount behind. Skips with the reason printed where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBundle } from '../support/agent.ts';
import { SandboxMachineFactory } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec, mountsUnder } from './support.ts';

const skip = announceSkip('sandbox spare tests');

describe.skipIf(skip)('sandbox spares', () => {
  let factory: SandboxMachineFactory;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ spares: 1, limits: { pids: 512 } });
    await factory.spares.settled();
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('a create adopts the booted spare: it is named after the sprite everywhere, and a new spare boots', async () => {
    expect(factory.spares.available).toBe(1);
    const m = await factory.create({ name: 'gamma', id: 'sprite-gamma' });
    expect(m.key).not.toBe('sprite-gamma');
    expect(m.spec).toEqual({ name: 'gamma', id: 'sprite-gamma' });
    const r = await exec(m, 'uname -n; hostname; cat /etc/hostname; grep -c gamma /etc/hosts; stat -c %u:%g /etc/hostname /etc/hosts; id -un');
    expect(r.out).toBe('gamma\ngamma\ngamma\n1\n0:0\n0:0\nsprite\n');
    await factory.spares.settled();
    expect(factory.spares.available).toBe(1);
    const other = await factory.create({ name: 'delta', id: 'sprite-delta' });
    expect((await exec(other, 'uname -n; ls /home/sprite')).out).toBe('delta\n');
  });

  it('an adopted sprite keeps its name across a restore, and the restore rewinds its disk', async () => {
    const m = await factory.create({ name: 'epsilon', id: 'sprite-epsilon' });
    await exec(m, 'echo before > f');
    const snap = await m.snapshot();
    await exec(m, 'echo after > f; echo extra > g');
    await m.restore(snap);
    expect((await exec(m, 'uname -n; cat f; ls')).out).toBe('epsilon\nbefore\nf\n');
    await m.destroy();
  });

  it('close destroys spares and sprites alike and leaves no mount', async () => {
    const dataDir = factory.dataDir;
    await factory.close();
    expect(await mountsUnder(dataDir)).toEqual([]);
    expect(factory.spares.available).toBe(0);
  });
});
