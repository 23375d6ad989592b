import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { link, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirBeneath } from './beneath.ts';
import { AgentFs } from './fs-ops.ts';

describe('writes on the sprite’s behalf follow no link (noFollow)', () => {
  let root: string;
  let outside: string;
  let fs: AgentFs;
  const bytes = (s: string) => new TextEncoder().encode(s);

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'spritzer-beneath-'));
    outside = join(root, '..', `${root.split('/').pop()}-outside`);
    await writeFile(outside, 'CANARY');
    await mkdir(join(root, 'logs'));
    fs = new AgentFs(root, null);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { force: true });
  });

  it('a symlink at the path is replaced by the file, its target untouched', async () => {
    await symlink(outside, join(root, 'logs/a.log'));
    await fs.writeFile('/logs/a.log', bytes('line\n'), { append: true, noFollow: true });
    expect(await readFile(outside, 'utf8')).toBe('CANARY');
    expect((await lstat(join(root, 'logs/a.log'))).isFile()).toBe(true);
    expect(await readFile(join(root, 'logs/a.log'), 'utf8')).toBe('line\n');
  });

  it('a hard link at the path is replaced, so the other name keeps its bytes', async () => {
    await link(outside, join(root, 'logs/h.log'));
    await fs.writeFile('/logs/h.log', bytes('x'), { noFollow: true });
    expect(await readFile(outside, 'utf8')).toBe('CANARY');
    expect(await readFile(join(root, 'logs/h.log'), 'utf8')).toBe('x');
  });

  it('a symlinked ancestor is ELOOP and nothing is written', async () => {
    await symlink(join(root, '..'), join(root, 'up'));
    await expect(fs.writeFile(`/up/${outside.split('/').pop()}`, bytes('x'), { noFollow: true })).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(fs.writeFile('/up/new/f', bytes('x'), { noFollow: true, mkdirParents: true })).rejects.toMatchObject({ code: 'ELOOP' });
    expect(await readFile(outside, 'utf8')).toBe('CANARY');
  });

  it('an append to a regular file appends, with the mode kept', async () => {
    await fs.writeFile('/logs/b.log', bytes('1\n'), { noFollow: true, mode: 0o640 });
    const st = await fs.writeFile('/logs/b.log', bytes('2\n'), { append: true, noFollow: true });
    expect(st).toMatchObject({ size: 4, mode: 0o640 });
  });

  it('mkdirBeneath turns a planted symlink into a real directory', async () => {
    await symlink(root, join(root, 'logs/services'));
    await mkdirBeneath(root, join(root, 'logs/services'), null);
    expect((await lstat(join(root, 'logs/services'))).isDirectory()).toBe(true);
  });
});

describe('the fs API writes no kernel file', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'spritzer-kernel-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a link into /proc is EACCES, before any byte is written', async () => {
    // /proc/self/comm of this test process: harmless even if the write went through.
    const before = await readFile('/proc/self/comm', 'utf8');
    await symlink('/proc/self/comm', join(root, 'comm'));
    const fs = new AgentFs(root, null);
    await expect(fs.writeFile('/comm', new TextEncoder().encode('owned'))).rejects.toMatchObject({ code: 'EACCES', path: '/comm' });
    await expect(fs.writeFile('/comm', new TextEncoder().encode('owned'), { append: true })).rejects.toMatchObject({ code: 'EACCES' });
    expect(await readFile('/proc/self/comm', 'utf8')).toBe(before);
  });

  it('paths under the root’s own /proc and /sys are EACCES for every mutation', async () => {
    await mkdir(join(root, 'proc'));
    await mkdir(join(root, 'sys'));
    const fs = new AgentFs(root, null);
    await expect(fs.writeFile('/sys/x', new TextEncoder().encode('x'))).rejects.toMatchObject({ code: 'EACCES' });
    await expect(fs.mkdir('/proc/d')).rejects.toMatchObject({ code: 'EACCES' });
    await expect(fs.chmod('/sys', 0o777)).rejects.toMatchObject({ code: 'EACCES' });
    await expect(fs.rename('/sys', '/elsewhere')).rejects.toMatchObject({ code: 'EACCES' });
    await expect(fs.rm('/proc', { recursive: true })).rejects.toMatchObject({ code: 'EACCES' });
  });
});

describe('noFollow and kernel links', () => {
  it('a planted link into /proc at a noFollow path is replaced by a file, the kernel file untouched', async () => {
    const root = await mkdtemp(join(tmpdir(), 'spritzer-kernel-nf-'));
    try {
      const before = await readFile('/proc/self/comm', 'utf8');
      await symlink('/proc/self/comm', join(root, 'd.log'));
      await new AgentFs(root, null).writeFile('/d.log', new TextEncoder().encode('line\n'), { append: true, noFollow: true });
      expect((await lstat(join(root, 'd.log'))).isFile()).toBe(true);
      expect(await readFile('/proc/self/comm', 'utf8')).toBe(before);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('the agent’s own directory', () => {
  it('fs writes into /.sprite/run (a host directory outside the quota) are EACCES', async () => {
    const root = await mkdtemp(join(tmpdir(), 'spritzer-run-'));
    try {
      await mkdir(join(root, '.sprite/run'), { recursive: true });
      const fs = new AgentFs(root, null);
      await expect(fs.writeFile('/.sprite/run/big', new TextEncoder().encode('x'))).rejects.toMatchObject({ code: 'EACCES' });
      await expect(fs.mkdir('/.sprite/run/d')).rejects.toMatchObject({ code: 'EACCES' });
      await symlink(join(root, '.sprite/run'), join(root, 'r'));
      await expect(fs.writeFile('/r/big', new TextEncoder().encode('x'))).rejects.toMatchObject({ code: 'EACCES' });
      await expect(lstat(join(root, '.sprite/run/big'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
