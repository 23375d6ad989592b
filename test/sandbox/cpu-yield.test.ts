/**
 * A sandbox sprite that keeps a core busy yields the CPU to the others (its cgroup's `cpu.idle`), one that runs short
 * commands never does, and the busy one gets its weight back once it stops. The threshold time is made short here.
 * Skips with the reason printed where the sandbox cannot run, or where the kernel has no cpu.idle.
 */
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBundle } from '../support/agent.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec } from './support.ts';

const noIdle = !existsSync('/sys/fs/cgroup/cpu/cpu.idle');
if (noIdle) console.warn('sandbox cpu yield tests skipped: the kernel has no cgroup v1 cpu.idle');
const skip = announceSkip('sandbox cpu yield tests') || noIdle;

describe.skipIf(skip)('busy sandbox sprites yield the CPU', () => {
  let factory: SandboxMachineFactory;
  let busy: SandboxMachine;
  let quiet: SandboxMachine;

  beforeAll(async () => {
    await agentBundle();
    factory = await SandboxMachineFactory.open({ cpuYieldAfterMs: 1500, totalsGroup: `test-${randomUUID()}` });
    [busy, quiet] = await Promise.all([factory.create({ name: 'busy', id: 'yield-busy' }), factory.create({ name: 'quiet', id: 'yield-quiet' })]);
  });

  afterAll(async () => {
    await factory?.close();
  });

  it('a spinning sprite yields, a sprite running short commands does not; the spinner gets its weight back when it stops', async () => {
    const spin = exec(busy, 'timeout 20 sh -c "while [ ! -e /tmp/stop ]; do :; done"; echo done');
    await expect.poll(() => busy.cpuYielding, { timeout: 10_000, interval: 200 }).toBe(true);
    for (let i = 0; i < 20; i++) expect((await exec(quiet, 'echo ok')).out).toBe('ok\n');
    expect(quiet.cpuYielding).toBe(false);
    await exec(busy, 'touch /tmp/stop');
    expect((await spin).out).toBe('done\n');
    await expect.poll(() => busy.cpuYielding, { timeout: 10_000, interval: 200 }).toBe(false);
  }, 40_000);
});
