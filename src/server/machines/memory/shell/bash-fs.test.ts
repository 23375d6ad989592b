import { describe, it, expect } from 'vitest';
import { Vfs } from '../vfs.ts';
import { BashFs } from './bash-fs.ts';

const T = Date.UTC(2026, 0, 13, 10, 30, 0);

function setup() {
  const vfs = Vfs.skeleton(() => T);
  const fs = new BashFs(vfs, { commands: new Set(['ls', 'echo']), now: () => T });
  return { vfs, fs };
}

describe('BashFs', () => {
  it('reads and writes the VFS, in the encoding asked for', async () => {
    const { vfs, fs } = setup();
    await fs.writeFile('/home/sprite/a.txt', 'héllo');
    await fs.appendFile('/home/sprite/a.txt', Buffer.from('!'));
    expect(Buffer.from(vfs.readFile('/home/sprite/a.txt')).toString()).toBe('héllo!');
    expect(await fs.readFile('/home/sprite/a.txt')).toBe('héllo!');
    expect(await fs.readFile('/home/sprite/a.txt', 'base64')).toBe(Buffer.from('héllo!').toString('base64'));
    await fs.writeFile('/home/sprite/b.bin', 'aGk=', { encoding: 'base64' });
    expect(Buffer.from(await fs.readFileBuffer('/home/sprite/b.bin')).toString()).toBe('hi');
  });

  it('raises errors whose messages start with the POSIX code, as just-bash expects', async () => {
    const { fs } = setup();
    await expect(fs.readFile('/nope')).rejects.toThrow(/^ENOENT: /);
    await expect(fs.writeFile('/no/such/dir/f', 'x')).rejects.toThrow(/^ENOENT: /);
    await expect(fs.mkdir('/tmp')).rejects.toThrow(/^EEXIST: /);
    await fs.writeFile('/tmp/f', 'x');
    await expect(fs.readdir('/tmp/f')).rejects.toThrow(/^ENOTDIR: /);
    await expect(fs.readFile('/tmp')).rejects.toThrow(/^EISDIR: /);
  });

  it('reports stat as the VFS keeps it', async () => {
    const { vfs, fs } = setup();
    vfs.writeFile('/tmp/f', '12345', { mode: 0o600 });
    vfs.symlink('/tmp/f', '/tmp/l');
    const ino = vfs.stat('/tmp/f').ino;
    expect(await fs.stat('/tmp/l')).toEqual({ isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o600, size: 5, mtime: new Date(T), atime: new Date(T), uid: 1001, gid: 1001, nlink: 1, dev: 254 * 256, ino, identity: `vfs:${ino}` });
    expect((await fs.lstat('/tmp/l')).isSymbolicLink).toBe(true);
    // A symlink and its target are one file to stat, two to lstat.
    expect((await fs.lstat('/tmp/l')).ino).toBe(vfs.lstat('/tmp/l').ino);
    expect((await fs.lstat('/tmp/l')).ino).not.toBe(ino);
    expect(await fs.readdirWithFileTypes('/tmp')).toEqual([
      { name: 'f', isFile: true, isDirectory: false, isSymbolicLink: false },
      { name: 'l', isFile: false, isDirectory: false, isSymbolicLink: true },
    ]);
  });

  it('/dev/null swallows writes and reads empty, without touching the VFS', async () => {
    const { vfs, fs } = setup();
    await fs.writeFile('/dev/null', 'gone');
    await fs.appendFile('/dev/null', 'gone');
    expect(await fs.readFile('/dev/null')).toBe('');
    expect(await fs.exists('/dev/null')).toBe(true);
    expect(vfs.exists('/dev')).toBe(false);
  });

  it('shows simulated commands under /bin and /usr/bin until the sprite has its own', async () => {
    const { vfs, fs } = setup();
    expect(await fs.exists('/bin/ls')).toBe(true);
    expect((await fs.stat('/usr/bin/echo')).mode & 0o111).not.toBe(0);
    expect(await fs.exists('/bin/not-a-command')).toBe(false);
    await expect(fs.stat('/bin/not-a-command')).rejects.toThrow(/^ENOENT: /);
    expect(vfs.exists('/bin')).toBe(false);
    vfs.writeFile('/usr/bin/ls', 'mine', { mkdirParents: true, mode: 0o700 });
    expect((await fs.stat('/usr/bin/ls')).mode).toBe(0o700);
    expect(await fs.readFile('/usr/bin/ls')).toBe('mine');
  });

  it('makes hard links: one file under two names, with its link count; an existing target is refused', async () => {
    const { vfs, fs } = setup();
    vfs.writeFile('/tmp/a', 'one');
    await fs.link('/tmp/a', '/tmp/b');
    vfs.writeFile('/tmp/a', 'two');
    expect(Buffer.from(vfs.readFile('/tmp/b')).toString()).toBe('two');
    expect(await fs.stat('/tmp/b')).toMatchObject({ nlink: 2, ino: vfs.stat('/tmp/a').ino });
    await expect(fs.link('/tmp/a', '/tmp/b')).rejects.toThrow(/^EEXIST: /);
  });

  it('resolves paths as the kernel looks them up: relative to the base, `..` never above /', () => {
    const { vfs, fs } = setup();
    vfs.mkdir('/home/sprite/a');
    expect(fs.resolvePath('/home/sprite', 'a/../b')).toBe('/home/sprite/b');
    expect(fs.resolvePath('/home', '../../..')).toBe('/');
    expect(fs.resolvePath('/home', '/tmp/')).toBe('/tmp');
  });

  it('takes `..` through a symlink, and keeps what must fail: `..` after a missing name, `file/`', async () => {
    const { vfs, fs } = setup();
    vfs.mkdir('/home/sprite/real/sub', { recursive: true });
    vfs.writeFile('/home/sprite/real/top', 'top');
    vfs.writeFile('/home/sprite/f', 'f');
    vfs.symlink('real/sub', '/home/sprite/s');
    expect(fs.resolvePath('/home/sprite', 's/../top')).toBe('/home/sprite/real/top');
    expect(await fs.readFile(fs.resolvePath('/home/sprite', 's/../top'))).toBe('top');
    expect(await fs.readFile('/home/sprite/s/../top')).toBe('top');
    expect(fs.resolvePath('/home/sprite', 'nope/../f')).toBe('/home/sprite/nope/../f');
    await expect(fs.readFile(fs.resolvePath('/home/sprite', 'nope/../f'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(fs.resolvePath('/home/sprite', 'f/')).toBe('/home/sprite/f/');
    // Nothing there: the plain path, for commands that weigh their operand's slash themselves (`cp f new/`).
    expect(fs.resolvePath('/home/sprite', 'new/')).toBe('/home/sprite/new');
    expect(fs.resolvePath('/home/sprite', 'real/')).toBe('/home/sprite/real');
    expect(fs.resolvePath('/home/sprite', 's/')).toBe('/home/sprite/s/');
    await expect(fs.readFile(fs.resolvePath('/home/sprite', 'f/'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(fs.stat('/home/sprite/f/')).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(await fs.exists('/home/sprite/f/')).toBe(false);
    await expect(fs.writeFile('/home/sprite/f/', 'x')).rejects.toMatchObject({ code: 'EISDIR' });
    expect((await fs.lstat('/home/sprite/s/')).isDirectory).toBe(true);
  });

  it('moves, copies, removes, chmods and stamps times in the VFS', async () => {
    const { vfs, fs } = setup();
    await fs.mkdir('/tmp/d/e', { recursive: true });
    await fs.writeFile('/tmp/d/e/f', 'x');
    await fs.cp('/tmp/d', '/tmp/c', { recursive: true });
    await fs.mv('/tmp/d', '/tmp/m');
    await fs.chmod('/tmp/m/e/f', 0o700);
    await fs.utimes('/tmp/m/e/f', new Date(0), new Date(T + 1000));
    expect(vfs.stat('/tmp/m/e/f')).toMatchObject({ mode: 0o700, mtimeMs: T + 1000 });
    expect(vfs.exists('/tmp/c/e/f')).toBe(true);
    await expect(fs.rm('/tmp/m')).rejects.toThrow(/^ENOTEMPTY: /);
    await fs.rm('/tmp/m', { recursive: true });
    expect(fs.getAllPaths().filter((p) => p.startsWith('/tmp'))).toEqual(['/tmp', '/tmp/c', '/tmp/c/e', '/tmp/c/e/f']);
  });
});

describe('BashFs capabilities (an exec session’s CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_FSETID)', () => {
  /** A skeleton with a root-owned 0755 `/srv`, a root-owned 0600 file and a sticky `/tmp` holding root's file. */
  function rooted(capabilities: boolean) {
    const vfs = Vfs.skeleton(() => T);
    vfs.mkdir('/srv', { mode: 0o755 });
    vfs.chown('/srv', 0, 0);
    vfs.writeFile('/srv/secret', 'root only', { mode: 0o600 });
    vfs.chown('/srv/secret', 0, 0);
    vfs.writeFile('/tmp/roots', 'x', { mode: 0o644 });
    vfs.chown('/tmp/roots', 0, 0);
    vfs.writeFile('/srv/script', 'echo', { mode: 0o644 });
    vfs.chown('/srv/script', 0, 0);
    return { vfs, fs: new BashFs(vfs, { now: () => T, capabilities }) };
  }

  it('with them: reads and writes past the modes, makes entries in root’s directories as its own, chmods and chowns root’s files, removes them from /tmp', async () => {
    const { vfs, fs } = rooted(true);
    expect(await fs.readFile('/srv/secret')).toBe('root only');
    await fs.appendFile('/srv/secret', '!');
    await fs.mkdir('/srv/app');
    await fs.writeFile('/srv/app/f', 'mine');
    expect([vfs.stat('/srv/app').uid, vfs.stat('/srv/app/f').uid, vfs.stat('/srv/secret').uid]).toEqual([1001, 1001, 0]);
    await fs.chmod('/srv/secret', 0o644);
    await fs.chown('/srv/secret', 1001, 1001);
    expect(vfs.stat('/srv/secret')).toMatchObject({ mode: 0o644, uid: 1001, gid: 1001 });
    await fs.rm('/tmp/roots');
    expect(vfs.exists('/tmp/roots')).toBe(false);
  });

  it('with them: access (faccessat AT_EACCESS) counts them, but a file needs an x bit to run; accessReal (access(2)) does not', async () => {
    const { fs } = rooted(true);
    expect([await fs.access('/srv/secret', 4), await fs.access('/srv', 2), await fs.access('/srv/script', 1), await fs.access('/srv', 1)]).toEqual([true, true, false, true]);
    expect([await fs.accessReal('/srv/secret', 4), await fs.accessReal('/srv', 2), await fs.accessReal('/srv', 1)]).toEqual([false, false, true]);
  });

  it('without them (a service): EACCES and EPERM as for a plain user', async () => {
    const { fs } = rooted(false);
    await expect(fs.readFile('/srv/secret')).rejects.toMatchObject({ code: 'EACCES' });
    await expect(fs.mkdir('/srv/app')).rejects.toMatchObject({ code: 'EACCES' });
    await expect(fs.chmod('/srv/secret', 0o644)).rejects.toMatchObject({ code: 'EPERM' });
    await expect(fs.chown('/srv/secret', 1001, 1001)).rejects.toMatchObject({ code: 'EPERM' });
    await expect(fs.rm('/tmp/roots')).rejects.toMatchObject({ code: 'EPERM' });
    expect(await fs.access('/srv', 2)).toBe(false);
  });
});
