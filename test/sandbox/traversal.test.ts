/**
 * A traversal corpus against a sandbox sprite's fs operations: `..`, absolute and relative symlinks out of the
 * tree, a symlink to `/`, `/proc/self/root`, `/proc/1/root` and hard links. Every case answers from the sprite's
 * own view or with ENOENT, never with host content, and no write lands on the host. Skips with the reason printed
 * where the sandbox cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentBundle } from '../support/agent.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../../src/server/machines/sandbox/sandbox-machine.ts';
import { announceSkip, exec } from './support.ts';

const skip = announceSkip('sandbox traversal tests');

const SECRET = `HOST-SECRET-${randomUUID()}`;
const hostFile = `/tmp/spritzer-traversal-${randomUUID()}`;
const projectFile = join(process.cwd(), 'package.json');

describe.skipIf(skip)('fs operations cannot leave the sprite', () => {
  let factory: SandboxMachineFactory;
  let m: SandboxMachine;
  const text = async (p: string) => Buffer.from(await m.fs.readFile(p)).toString('utf8');

  beforeAll(async () => {
    await writeFile(hostFile, SECRET);
    await agentBundle();
    factory = await SandboxMachineFactory.open();
    m = await factory.create({ name: 'trav', id: 'sprite-trav' });
    const r = await exec(
      m,
      `cd /home/sprite && echo sprite-tmp > /tmp/$(basename ${hostFile}) && ln -s ${hostFile} abs && ln -s ../../../../../../../..${hostFile} rel &&
       ln -s / root && ln -s ${projectFile} proj && ln -s /proc/self/root selfroot && echo mine > mine && ln mine hard &&
       ln -s loop1 loop2 && ln -s loop2 loop1 && mkdir -p d && ln -s .. d/up`,
    );
    expect(r.err).toBe('');
    // The sprite user of an exec session makes root-level directories itself (docs/fidelity.md "Root-level
    // writes"): links planted there escape no more than those in its home.
    const rooted = await exec(
      m,
      `mkdir -p /workspace /var/log/app /run/app /mnt/data && ln -s ${hostFile} /workspace/abs && ln -s ../../../../../..${hostFile} /var/log/app/rel &&
       ln -s /proc/1/root /run/app/root && ln -s ${projectFile} /mnt/data/proj && ln -s /work /workspace/work`,
    );
    expect(rooted.err).toBe('');
  });

  afterAll(async () => {
    await rm(hostFile, { force: true });
    await factory?.close();
  });

  const reads: Array<[string, string, RegExp | string]> = [
    ['an absolute symlink to a host path reads the sprite’s file of that path', '/home/sprite/abs', 'sprite-tmp\n'],
    ['a relative symlink climbing out reads the sprite’s file', '/home/sprite/rel', 'sprite-tmp\n'],
    ['a symlink to / stays in the sprite', `/home/sprite/root${hostFile}`, 'sprite-tmp\n'],
    ['`..` through a symlinked dir stays in the sprite', `/home/sprite/d/up/d/up/root/tmp/${hostFile.split('/').pop()}`, 'sprite-tmp\n'],
    ['/proc/self/root is the sprite’s root', `/proc/self/root${hostFile}`, 'sprite-tmp\n'],
    ['/proc/1/root is the sprite’s root', `/proc/1/root${hostFile}`, 'sprite-tmp\n'],
    ['a symlink through /proc/self/root stays in the sprite', `/home/sprite/selfroot${hostFile}`, 'sprite-tmp\n'],
    ['a hard link reads the sprite’s file', '/home/sprite/hard', 'mine\n'],
    ['a symlink the sprite user planted in /workspace reads the sprite’s file', '/workspace/abs', 'sprite-tmp\n'],
    ['a relative symlink climbing out of /var/log reads the sprite’s file', '/var/log/app/rel', 'sprite-tmp\n'],
    ['a symlink in /run to /proc/1/root stays in the sprite', `/run/app/root${hostFile}`, 'sprite-tmp\n'],
  ];
  it.each(reads)('%s', async (_name, path, want) => {
    expect(await text(path)).toBe(want);
  });

  const missing = [
    ['a symlink to the project', '/home/sprite/proj'],
    ['the project dir', projectFile],
    ['/work', '/work'],
    ['the host’s /etc/shadow', '/etc/shadow'],
    ['/proc/self/root/work', '/proc/self/root/work'],
    ['/proc/1/root/root/.bashrc', '/proc/1/root/root/.bashrc'],
    ['a symlink in /mnt to the project', '/mnt/data/proj'],
    ['a symlink in /workspace to /work', '/workspace/work/.'],
  ];
  it.each(missing)('%s is ENOENT', async (_name, path) => {
    await expect(m.fs.stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(m.fs.readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the data dir holding the sprite’s own layer is ENOENT inside', async () => {
    await expect(m.fs.stat(factory.dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(m.fs.readdir(m.paths.layer)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a symlink loop is ELOOP, not a hang', async () => {
    await expect(m.fs.readFile('/home/sprite/loop1')).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('listing a symlink to / lists the sprite’s root', async () => {
    const names = (await m.fs.readdir('/home/sprite/root')).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['home', 'tmp', 'usr', 'etc']));
    expect(names).not.toContain('work');
    const home = (await m.fs.readdir('/proc/self/root/home')).map((e) => e.name);
    expect(home).toEqual(['sprite']);
  });

  it('writes, copies and renames through escaping links land in the sprite, never on the host', async () => {
    const name = `spritzer-traversal-write-${randomUUID()}`;
    await m.fs.writeFile(`/home/sprite/root/tmp/${name}`, new TextEncoder().encode('w1'));
    await m.fs.writeFile(`/proc/self/root/tmp/${name}-2`, new TextEncoder().encode('w2'));
    await m.fs.copy('/home/sprite/abs', `/home/sprite/root/tmp/${name}-3`);
    await m.fs.rename(`/tmp/${name}-3`, `/home/sprite/d/up/root/tmp/${name}-4`);
    await m.fs.copy('/workspace/abs', `/run/app/root/tmp/${name}-5`);
    await m.fs.writeFile('/home/sprite/abs', new TextEncoder().encode('overwritten'));
    for (const suffix of ['', '-2', '-4', '-5']) await expect(lstat(`/tmp/${name}${suffix}`)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(hostFile, 'utf8')).toBe(SECRET);
    expect((await exec(m, `cat /tmp/${name} /tmp/${name}-2 /tmp/${name}-4 ${hostFile}`)).out).toBe('w1w2sprite-tmp\noverwritten');
  });

  it('no answer anywhere in the corpus carries host content', async () => {
    const paths = [...reads.map((r) => r[1]), ...missing.map((r) => r[1]), hostFile, `/home/sprite/root/proc/1/root${hostFile}`];
    for (const p of paths) {
      const got = await text(p).catch(() => '');
      expect(got).not.toContain(SECRET);
    }
  });
});
