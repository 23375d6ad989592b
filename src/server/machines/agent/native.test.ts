/**
 * The native helpers' build: the run-as helper compiled once per source (a second call answers the cached binary),
 * static when the host has libc.a, and the ELF check that keeps a dynamic binary out of a container's image.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStaticElf, runAsHelper } from './native.ts';

const CC = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('cc', ['--version']).status === 0;
let cache: string;
beforeAll(async () => {
  cache = await mkdtemp(join(tmpdir(), 'native-cache-'));
});
afterAll(() => rm(cache, { recursive: true, force: true }));

describe.runIf(CC)('the run-as helper build', () => {
  it('compiles once into a root-only cache and answers the same binary after', async () => {
    const first = await runAsHelper(cache);
    const again = await runAsHelper(cache);
    expect(again).toBe(first);
    expect(((await stat(cache)).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(first)).mode & 0o777).toString(8)).toBe('755');
    expect(spawnSync(first, []).status).toBe(126); // usage
  }, 120_000);
});

describe.runIf(process.platform === 'linux')('isStaticElf', () => {
  it('says no for a dynamically linked program and for a non-ELF file', async () => {
    expect(await isStaticElf(process.execPath)).toBe(false);
    expect(await isStaticElf('/etc/hostname')).toBe(false);
  });

  it.runIf(CC && spawnSync('sh', ['-c', 'test -e /usr/lib/x86_64-linux-gnu/libc.a || test -e /usr/lib/aarch64-linux-gnu/libc.a']).status === 0)('says yes for the helper linked with libc.a', async () => {
    expect(await isStaticElf(await runAsHelper(cache))).toBe(true);
  }, 120_000);
});
