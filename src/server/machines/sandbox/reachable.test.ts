import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertReachable, unreachable } from './reachable.ts';

let top: string;
beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'spritzer-reachable-'));
  await chmod(top, 0o755);
});
afterEach(async () => {
  await chmod(top, 0o755);
  await rm(top, { recursive: true, force: true });
});

describe('paths a sprite user must reach', () => {
  it('names the private ancestor of a data dir and the chmod that fixes it', async () => {
    await mkdir(join(top, 'home/data'), { recursive: true, mode: 0o755 });
    await chmod(join(top, 'home'), 0o700);
    const why = await unreachable({ path: join(top, 'home/data'), what: 'the data dir', need: 'dir' });
    expect(why).toBe(`${join(top, 'home')} is not searchable by others (mode 0700): run chmod o+x ${join(top, 'home')}`);
    await chmod(join(top, 'home'), 0o711);
    expect(await unreachable({ path: join(top, 'home/data'), what: 'the data dir', need: 'dir' })).toBeUndefined();
  });

  it('a directory itself need not be searchable, only what leads to it (the engine opens it up)', async () => {
    await mkdir(join(top, 'data'), { mode: 0o700 });
    expect(await unreachable({ path: join(top, 'data'), what: 'the data dir', need: 'dir' })).toBeUndefined();
  });

  it('wants files readable, and binaries readable and executable, by others', async () => {
    await writeFile(join(top, 'agent.mjs'), 'x', { mode: 0o600 });
    await writeFile(join(top, 'node'), 'x', { mode: 0o754 });
    expect(await unreachable({ path: join(top, 'agent.mjs'), what: 'the bundle', need: 'file' })).toMatch(/agent\.mjs is not readable by others \(mode 0600\): run chmod o\+r /);
    expect(await unreachable({ path: join(top, 'node'), what: 'node', need: 'exec' })).toMatch(/node is not readable and executable by others \(mode 0754\): run chmod o\+rx /);
    await chmod(join(top, 'agent.mjs'), 0o644);
    await chmod(join(top, 'node'), 0o755);
    expect(await unreachable({ path: join(top, 'agent.mjs'), what: 'the bundle', need: 'file' })).toBeUndefined();
    expect(await unreachable({ path: join(top, 'node'), what: 'node', need: 'exec' })).toBeUndefined();
  });

  it('follows a symlink to where the file really is (a node under a private home, linked from /usr/local/bin)', async () => {
    await mkdir(join(top, 'private/bin'), { recursive: true });
    await writeFile(join(top, 'private/bin/node'), 'x', { mode: 0o755 });
    await chmod(join(top, 'private'), 0o700);
    await symlink(join(top, 'private/bin/node'), join(top, 'node'));
    expect(await unreachable({ path: join(top, 'node'), what: 'node', need: 'exec' })).toContain(`${join(top, 'private')} is not searchable`);
  });

  it('leaves a missing path to its user, and lists every problem in one refusal', async () => {
    expect(await unreachable({ path: join(top, 'absent'), what: 'x', need: 'file' })).toBeUndefined();
    await writeFile(join(top, 'a'), 'x', { mode: 0o600 });
    await writeFile(join(top, 'b'), 'x', { mode: 0o600 });
    await expect(assertReachable([{ path: join(top, 'a'), what: 'the bundle', need: 'file' }, { path: join(top, 'b'), what: 'node-pty', need: 'file' }]))
      .rejects.toThrow(/unprivileged host user.*the bundle .*\/a: .*; node-pty .*\/b: .*--data-dir/);
    await chmod(join(top, 'a'), 0o644);
    await chmod(join(top, 'b'), 0o644);
    await expect(assertReachable([{ path: join(top, 'a'), what: 'the bundle', need: 'file' }])).resolves.toBeUndefined();
  });
});
