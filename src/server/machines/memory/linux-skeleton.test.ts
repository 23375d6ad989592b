/**
 * A new in-memory sprite's disk (`newLinuxTree`): the Linux tree every sprite starts with, whose common part is
 * shared between the sprites of one factory: each still sees its own host files, and nothing one sprite changes
 * (in a shared directory or file) reaches another.
 */
import { describe, expect, it } from 'vitest';
import { Vfs } from './vfs.ts';
import { newLinuxTree, seedLinuxTree } from './linux-skeleton.ts';

const text = (vfs: Vfs, path: string) => new TextDecoder().decode(vfs.readFile(path));

describe('newLinuxTree', () => {
  it('holds the same tree as seeding a fresh skeleton, with its own hostname', () => {
    const owner = {};
    const now = () => 1_700_000_000_000;
    const fresh = seedLinuxTree(Vfs.skeleton(now), 'alpha');
    const shared = newLinuxTree('alpha', now, owner);
    const listing = (vfs: Vfs) => vfs.readdir('/', { recursive: true }).map((e) => [e.path, e.stat.type, e.stat.mode, e.stat.uid, e.stat.gid, e.stat.size, e.stat.mtimeMs]);
    expect(listing(shared)).toEqual(listing(fresh));
    expect(text(shared, '/etc/hostname')).toBe('alpha\n');
    expect(text(newLinuxTree('beta', now, owner), '/etc/hosts')).toContain('127.0.1.1\tbeta\n');
  });

  it('has the top-level directories of an Ubuntu root that scripts write into (with sudo): /srv, /mnt, /run, /var/log', () => {
    const vfs = newLinuxTree('alpha', Date.now, {});
    expect(vfs.readdir('/').map((e) => e.name).filter((n) => !n.startsWith('.'))).toEqual(
      ['bin', 'etc', 'home', 'lib', 'lib64', 'mnt', 'opt', 'root', 'run', 'sbin', 'srv', 'tmp', 'usr', 'var']);
    expect(vfs.readdir('/var').map((e) => e.name)).toEqual(['cache', 'lib', 'log', 'tmp']);
    for (const dir of ['/srv', '/mnt', '/run', '/var/log']) expect([vfs.stat(dir).uid, vfs.stat(dir).mode & 0o7777]).toEqual([0, 0o755]);
  });

  it('never lets one sprite see what another wrote, removed or changed, in shared places too', () => {
    const owner = {};
    const a = newLinuxTree('a', Date.now, owner);
    const b = newLinuxTree('b', Date.now, owner);
    a.writeFile('/etc/secret', 'only a');
    a.writeFile('/etc/passwd', 'changed by a');
    a.rm('/usr/local/bin', { recursive: true });
    a.chmod('/root', 0o777);
    expect(b.exists('/etc/secret')).toBe(false);
    expect(text(b, '/etc/passwd')).toContain('sprite:x:1001:1001');
    expect(b.exists('/usr/local/bin')).toBe(true);
    expect(b.stat('/root').mode & 0o777).toBe(0o700);
    const c = newLinuxTree('c', Date.now, owner);
    expect(c.exists('/etc/secret')).toBe(false);
    expect(text(c, '/etc/passwd')).toContain('sprite:x:1001:1001');
  });

  it('applies the disk quota to each sprite (the tree itself, /.sprite/docs included, takes about 22 KiB of it)', () => {
    const vfs = newLinuxTree('q', Date.now, {}, { quotaBytes: 64 * 1024 });
    expect(vfs.totalBytes()).toBeLessThan(32 * 1024);
    expect(() => vfs.writeFile('/home/sprite/big', new Uint8Array(48 * 1024))).toThrow(/ENOSPC/);
  });
});
