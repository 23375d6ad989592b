import { describe, it, expect, beforeEach } from 'vitest';
import { FakeClock } from '../../core/clock.ts';
import { Vfs } from './vfs.ts';
import { VfsError, type VfsErrorCode } from '../port.ts';

// POSIX details of the VFS that mutation testing found unpinned: symlinked directories on the way,
// what replaces what, who owns what, and which directory mtimes move. Each test is a behaviour a caller sees.

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** The `{code, path, syscall, message}` of the VfsError `fn` throws (fails if it throws nothing or anything else). */
function vfsError(fn: () => unknown): { code: VfsErrorCode; path: string; syscall: string; message: string; name: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(VfsError);
    const { code, path, syscall, message, name } = err as VfsError;
    return { code, path, syscall, message, name };
  }
  return expect.unreachable('no VfsError thrown');
}

let clock: FakeClock;
let fs: Vfs;
beforeEach(() => {
  clock = new FakeClock();
  fs = Vfs.skeleton(() => clock.now());
  fs.mkdir('/tmp/real');
  fs.symlink('/tmp/real', '/home/sprite/link');
});

describe('VfsError', () => {
  it('reads like Node: name, code, the normalised path and the syscall', () => {
    expect(vfsError(() => fs.readFile('/tmp//nope/'))).toStrictEqual({
      name: 'VfsError',
      code: 'ENOENT',
      path: '/tmp/nope',
      syscall: 'open',
      message: "ENOENT: no such file or directory, open '/tmp/nope'",
    });
    fs.writeFile('/tmp/f', 'x');
    expect(vfsError(() => fs.mkdir('/tmp/f'))).toMatchObject({ code: 'EEXIST', syscall: 'mkdir', message: "EEXIST: file already exists, mkdir '/tmp/f'" });
    expect(vfsError(() => fs.readdir('/tmp/f'))).toMatchObject({ message: "ENOTDIR: not a directory, scandir '/tmp/f'" });
    expect(vfsError(() => fs.readFile('/tmp'))).toMatchObject({ message: "EISDIR: illegal operation on a directory, read '/tmp'" });
    expect(vfsError(() => fs.rm('/tmp'))).toMatchObject({ message: "ENOTEMPTY: directory not empty, rm '/tmp'" });
    expect(vfsError(() => fs.rm('/'))).toMatchObject({ message: "EINVAL: invalid argument, rm '/'" });
    fs.symlink('loop', '/tmp/loop');
    expect(vfsError(() => fs.stat('/tmp/loop'))).toMatchObject({ message: "ELOOP: too many symbolic links encountered, stat '/tmp/loop'" });
    expect(vfsError(() => fs.lstat('/tmp/nope'))).toMatchObject({ syscall: 'lstat' });
    expect(vfsError(() => fs.realpath('/tmp/nope'))).toMatchObject({ syscall: 'realpath' });
    expect(vfsError(() => fs.readlink('/tmp/f'))).toMatchObject({ code: 'EINVAL', syscall: 'readlink' });
    expect(vfsError(() => fs.utimes('/tmp/nope', 1))).toMatchObject({ code: 'ENOENT', syscall: 'utime' });
    expect(vfsError(() => fs.chmod('/tmp/nope', 0o644))).toMatchObject({ syscall: 'chmod' });
    expect(vfsError(() => fs.chown('/tmp/nope', 0, 0))).toMatchObject({ syscall: 'chown' });
    expect(vfsError(() => fs.rename('/tmp/nope', '/tmp/x'))).toMatchObject({ code: 'ENOENT', path: '/tmp/nope', syscall: 'rename' });
    expect(vfsError(() => fs.copy('/tmp/nope', '/tmp/x'))).toMatchObject({ code: 'ENOENT', path: '/tmp/nope', syscall: 'copyfile' });
    expect(vfsError(() => fs.symlink('', '/tmp/s'))).toMatchObject({ code: 'ENOENT', path: '/tmp/s', syscall: 'symlink' });
  });
});

describe('symlinked directories on the way', () => {
  it('mkdir -p creates the chain through a symlinked directory, and accepts the link itself', () => {
    fs.mkdir('/home/sprite/link/a/b', { recursive: true });
    expect(fs.lstat('/tmp/real/a/b').type).toBe('directory');
    expect(() => fs.mkdir('/home/sprite/link', { recursive: true })).not.toThrow();
    expect(fs.lstat('/home/sprite/link').type).toBe('symlink');
  });

  it('mkdirParents creates missing parents through a symlinked directory', () => {
    fs.writeFile('/home/sprite/link/x/y.txt', 'y', { mkdirParents: true });
    expect(text(fs.readFile('/tmp/real/x/y.txt'))).toBe('y');
    expect(fs.lstat('/home/sprite/link').type).toBe('symlink');
  });

  it('mkdir -p over a symlink to a file is ENOTDIR on the way, EEXIST at the end', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.symlink('/tmp/f', '/tmp/fl');
    expect(vfsError(() => fs.mkdir('/tmp/fl', { recursive: true }))).toMatchObject({ code: 'EEXIST', path: '/tmp/fl' });
    expect(vfsError(() => fs.mkdir('/tmp/fl/sub', { recursive: true }))).toMatchObject({ code: 'ENOTDIR', path: '/tmp/fl/sub', syscall: 'mkdir' });
    expect(vfsError(() => fs.writeFile('/tmp/fl/sub/x', 'x', { mkdirParents: true }))).toMatchObject({ code: 'ENOTDIR', syscall: 'open' });
  });
});

describe('replacing and creating', () => {
  it('rename onto an existing symlink replaces the link, not its target', () => {
    fs.writeFile('/tmp/target', 'target');
    fs.symlink('/tmp/target', '/tmp/l');
    fs.writeFile('/tmp/new', 'new');
    fs.rename('/tmp/new', '/tmp/l');
    expect(fs.lstat('/tmp/l').type).toBe('file');
    expect(text(fs.readFile('/tmp/l'))).toBe('new');
    expect(text(fs.readFile('/tmp/target'))).toBe('target');
    expect(fs.exists('/tmp/new')).toBe(false);
  });

  it('mkdir over a dangling symlink is EEXIST, and leaves the link', () => {
    fs.symlink('/tmp/nowhere', '/tmp/dangling');
    expect(vfsError(() => fs.mkdir('/tmp/dangling'))).toMatchObject({ code: 'EEXIST', path: '/tmp/dangling' });
    expect(fs.readlink('/tmp/dangling')).toBe('/tmp/nowhere');
    expect(fs.exists('/tmp/nowhere')).toBe(false);
  });

  it('a recursive copy into an existing directory keeps that directory’s mode, uid and gid', () => {
    fs.writeFile('/tmp/src/a', 'a', { mkdirParents: true });
    fs.chmod('/tmp/src', 0o755);
    fs.mkdir('/tmp/dst', { mode: 0o700 });
    fs.chown('/tmp/dst', 0, 7);
    clock.advance(1000);
    fs.copy('/tmp/src', '/tmp/dst', { recursive: true });
    expect(fs.stat('/tmp/dst')).toMatchObject({ type: 'directory', mode: 0o700, uid: 0, gid: 7, mtimeMs: clock.now() });
    expect(fs.stat('/tmp/dst/a')).toMatchObject({ uid: 1001, gid: 1001 });
  });

  it('a recursive copy to a new path gives the directories the source modes and the sprite user', () => {
    fs.mkdir('/tmp/src/sub', { recursive: true, mode: 0o711 });
    fs.chown('/tmp/src', 0, 0, { recursive: true });
    fs.copy('/tmp/src', '/tmp/dst', { recursive: true });
    expect(fs.stat('/tmp/dst/sub')).toMatchObject({ mode: 0o711, uid: 1001, gid: 1001 });
  });

  it('chown with -1 keeps that id, for uid and for gid', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.chown('/tmp/f', 5, 6);
    expect(fs.chown('/tmp/f', -1, 9)).toStrictEqual([{ path: '/tmp/f', uid: 5, gid: 9 }]);
    expect(fs.chown('/tmp/f', 4, -1)).toStrictEqual([{ path: '/tmp/f', uid: 4, gid: 9 }]);
    expect(fs.stat('/tmp/f')).toMatchObject({ uid: 4, gid: 9 });
  });

  it('chmod, chown and utimes work on /', () => {
    expect(fs.chmod('/', 0o700)).toStrictEqual([{ path: '/', mode: 0o700 }]);
    expect(fs.chown('/', 3, 4)).toStrictEqual([{ path: '/', uid: 3, gid: 4 }]);
    fs.utimes('/', 123_000);
    expect(fs.stat('/')).toMatchObject({ mode: 0o700, uid: 3, gid: 4, mtimeMs: 123_000 });
    expect(fs.readdir('/').map((e) => e.name)).toEqual(['home', 'tmp']);
  });

  it('chmod -R and chown -R on / reach the whole tree', () => {
    fs.chmod('/', 0o750, { recursive: true });
    expect(fs.stat('/tmp/real').mode).toBe(0o750);
    expect(fs.chown('/', 1, 2, { recursive: true }).map((c) => c.path)).toEqual(['/', '/home', '/home/sprite', '/tmp', '/tmp/real']);
  });
});

describe('rm -f', () => {
  it('swallows only ENOENT', () => {
    fs.writeFile('/tmp/f', 'x');
    expect(fs.rm('/tmp/nope', { force: true, recursive: true })).toStrictEqual([]);
    expect(fs.rm('/nope/deeper', { force: true })).toStrictEqual([]);
    expect(vfsError(() => fs.rm('/tmp/f/x', { force: true }))).toMatchObject({ code: 'ENOTDIR', syscall: 'rm' });
    expect(vfsError(() => fs.rm('/tmp/f/x/y', { force: true }))).toMatchObject({ code: 'ENOTDIR', syscall: 'rm' });
    fs.symlink('loop', '/tmp/loop');
    expect(vfsError(() => fs.rm('/tmp/loop/x', { force: true }))).toMatchObject({ code: 'ELOOP', syscall: 'rm' });
    fs.writeFile('/tmp/d/f', 'x', { mkdirParents: true });
    expect(vfsError(() => fs.rm('/tmp/d', { force: true }))).toMatchObject({ code: 'ENOTEMPTY', path: '/tmp/d' });
    expect(fs.exists('/tmp/d/f')).toBe(true);
  });
});

describe("the parent directory's mtime", () => {
  const mtime = (p: string) => fs.stat(p).mtimeMs;

  it('moves after rm', () => {
    fs.writeFile('/tmp/real/f', 'x');
    clock.advance(1000);
    fs.rm('/tmp/real/f');
    expect(mtime('/tmp/real')).toBe(clock.now());
  });

  it('moves in both parents after rename, and the moved node keeps its own', () => {
    fs.mkdir('/tmp/a');
    fs.writeFile('/tmp/a/f', 'x');
    const own = mtime('/tmp/a/f');
    clock.advance(1000);
    fs.rename('/tmp/a/f', '/tmp/real/g');
    expect(mtime('/tmp/a')).toBe(clock.now());
    expect(mtime('/tmp/real')).toBe(clock.now());
    expect(mtime('/tmp/real/g')).toBe(own);
  });

  it('moves after a copy that creates the destination, not after one that overwrites it', () => {
    fs.writeFile('/tmp/f', 'x');
    clock.advance(1000);
    fs.copy('/tmp/f', '/tmp/real/f');
    const created = clock.now();
    expect(mtime('/tmp/real')).toBe(created);
    clock.advance(1000);
    fs.copy('/tmp/f', '/tmp/real/f');
    expect(mtime('/tmp/real')).toBe(created);
    expect(mtime('/tmp/real/f')).toBe(clock.now());
  });

  it('moves after symlink', () => {
    clock.advance(1000);
    fs.symlink('x', '/tmp/real/l');
    expect(mtime('/tmp/real')).toBe(clock.now());
    expect(fs.lstat('/tmp/real/l')).toStrictEqual({ type: 'symlink', mode: 0o777, size: 1, mtimeMs: clock.now(), atimeMs: clock.now(), uid: 1001, gid: 1001, target: 'x', ino: expect.any(Number), nlink: 1 });
  });

  it('moves after mkdir -p, at every level it creates, and stays when nothing is created', () => {
    clock.advance(1000);
    const t1 = clock.now();
    fs.mkdir('/tmp/real/a/b', { recursive: true });
    expect(mtime('/tmp/real')).toBe(t1);
    expect(mtime('/tmp/real/a')).toBe(t1);
    expect(fs.stat('/tmp/real/a/b')).toMatchObject({ mode: 0o755, uid: 1001, gid: 1001, mtimeMs: t1 });
    clock.advance(1000);
    fs.mkdir('/tmp/real/a/b', { recursive: true });
    expect(mtime('/tmp/real')).toBe(t1);
    expect(mtime('/tmp/real/a/b')).toBe(t1);
  });

  it('stays after chmod, chown and utimes of an entry, and after a failed call', () => {
    fs.writeFile('/tmp/real/f', 'x');
    const t0 = mtime('/tmp/real');
    clock.advance(1000);
    fs.chmod('/tmp/real/f', 0o600);
    fs.chown('/tmp/real/f', 1, 1);
    fs.utimes('/tmp/real/f', 5);
    expect(vfsError(() => fs.rm('/tmp/real/nope'))).toMatchObject({ code: 'ENOENT' });
    expect(mtime('/tmp/real')).toBe(t0);
    expect(mtime('/tmp/real/f')).toBe(5);
  });
});

describe('which call failed: path and syscall of every error', () => {
  beforeEach(() => {
    fs.writeFile('/tmp/f', 'x');
    fs.writeFile('/tmp/full/y', 'y', { mkdirParents: true });
    fs.mkdir('/tmp/empty');
  });

  it.each<[string, () => unknown, VfsErrorCode, string, string]>([
    ['new VfsError without a syscall', () => { throw new VfsError('EACCES', '/x'); }, 'EACCES', '/x', 'open'],
    ['realpath through a file', () => fs.realpath('/tmp/f/x/y'), 'ENOTDIR', '/tmp/f/x/y', 'realpath'],
    ['writeFile onto a directory', () => fs.writeFile('/tmp/empty', 'x'), 'EISDIR', '/tmp/empty', 'open'],
    ['writeFile with mkdirParents through a file', () => fs.writeFile('/tmp/f/a/b', 'x', { mkdirParents: true }), 'ENOTDIR', '/tmp/f/a', 'open'],
    ['mkdir with a missing parent', () => fs.mkdir('/tmp/no/d'), 'ENOENT', '/tmp/no/d', 'mkdir'],
    ['mkdir through a file', () => fs.mkdir('/tmp/f/d/e'), 'ENOTDIR', '/tmp/f/d/e', 'mkdir'],
    ['readdir of a missing path', () => fs.readdir('/tmp/nope'), 'ENOENT', '/tmp/nope', 'scandir'],
    ['rm of a missing file', () => fs.rm('/tmp/nope'), 'ENOENT', '/tmp/nope', 'rm'],
    ['rm through a file', () => fs.rm('/tmp/f/x/y'), 'ENOTDIR', '/tmp/f/x/y', 'rm'],
    ['rename of /', () => fs.rename('/', '/tmp/x'), 'EINVAL', '/', 'rename'],
    ['rename onto /', () => fs.rename('/tmp/f', '/'), 'EINVAL', '/', 'rename'],
    ['rename of a path through a file', () => fs.rename('/tmp/f/x/y', '/tmp/g'), 'ENOTDIR', '/tmp/f/x/y', 'rename'],
    ['rename onto a path through a file', () => fs.rename('/tmp/empty', '/tmp/f/x/y'), 'ENOTDIR', '/tmp/f/x/y', 'rename'],
    ['rename of a directory into itself', () => fs.rename('/tmp/full', '/tmp/full/sub'), 'EINVAL', '/tmp/full/sub', 'rename'],
    ['rename of a directory onto a file', () => fs.rename('/tmp/empty', '/tmp/f'), 'ENOTDIR', '/tmp/f', 'rename'],
    ['rename of a file onto a directory', () => fs.rename('/tmp/f', '/tmp/empty'), 'EISDIR', '/tmp/empty', 'rename'],
    ['rename onto a full directory', () => fs.rename('/tmp/empty', '/tmp/full'), 'ENOTEMPTY', '/tmp/full', 'rename'],
    ['copy of a path through a file', () => fs.copy('/tmp/f/x/y', '/tmp/g'), 'ENOTDIR', '/tmp/f/x/y', 'copyfile'],
    ['copy of a directory without recursive', () => fs.copy('/tmp/full', '/tmp/g'), 'EISDIR', '/tmp/full', 'copyfile'],
    ['copy onto a path through a file', () => fs.copy('/tmp/f', '/tmp/f/x/y'), 'ENOTDIR', '/tmp/f/x/y', 'copyfile'],
    ['copy into itself', () => fs.copy('/tmp/full', '/tmp/full/in', { recursive: true }), 'EINVAL', '/tmp/full/in', 'copyfile'],
    ['copy of a file onto a directory', () => fs.copy('/tmp/f', '/tmp/empty'), 'EISDIR', '/tmp/empty', 'copyfile'],
    ['copy of a directory onto a file', () => fs.copy('/tmp/full', '/tmp/f', { recursive: true }), 'ENOTDIR', '/tmp/f', 'copyfile'],
    ['symlink through a file', () => fs.symlink('t', '/tmp/f/x/y'), 'ENOTDIR', '/tmp/f/x/y', 'symlink'],
    ['symlink over a file', () => fs.symlink('t', '/tmp/f'), 'EEXIST', '/tmp/f', 'symlink'],
    ['readlink of a missing path', () => fs.readlink('/tmp/nope'), 'ENOENT', '/tmp/nope', 'readlink'],
    ['utimes through a file', () => fs.utimes('/tmp/f/x/y', 1), 'ENOTDIR', '/tmp/f/x/y', 'utime'],
  ])('%s', (_name, fn, code, path, syscall) => {
    const before = fs.snapshot();
    expect(vfsError(fn)).toMatchObject({ code, path, syscall });
    expect(fs.snapshot()).toBe(before);
  });

  it('names EACCES as Node does', () => {
    expect(new VfsError('EACCES', '/x', 'open').message).toBe("EACCES: permission denied, open '/x'");
  });
});

describe('lookups', () => {
  it('lists entries in byte order, whatever the order they were made in', () => {
    for (const name of ['b', 'B', 'a', '_', 'A', 'c']) fs.writeFile(`/tmp/real/${name}`, name);
    expect(fs.readdir('/tmp/real').map((e) => e.name)).toStrictEqual(['A', 'B', '_', 'a', 'b', 'c']);
    expect(fs.allPaths().filter((p) => p.startsWith('/tmp/real/'))).toStrictEqual(
      ['A', 'B', '_', 'a', 'b', 'c'].map((n) => `/tmp/real/${n}`),
    );
  });

  it('follows symlink targets holding . and .., and never climbs above /', () => {
    fs.writeFile('/tmp/real/f', 'F');
    fs.symlink('./real/./f', '/tmp/dot');
    fs.symlink('../../../../tmp/real/f', '/tmp/up');
    fs.symlink('/../tmp/real/f', '/tmp/absup');
    expect(text(fs.readFile('/tmp/dot'))).toBe('F');
    expect(text(fs.readFile('/tmp/up'))).toBe('F');
    expect(text(fs.readFile('/tmp/absup'))).toBe('F');
    expect(fs.realpath('/tmp/up')).toBe('/tmp/real/f');
  });

  it('copy writes through a symlink at the destination, as cp does', () => {
    fs.writeFile('/tmp/target', 'old');
    fs.symlink('/tmp/target', '/tmp/l');
    fs.writeFile('/tmp/src', 'new');
    fs.copy('/tmp/src', '/tmp/l');
    expect(fs.lstat('/tmp/l').type).toBe('symlink');
    expect(text(fs.readFile('/tmp/target'))).toBe('new');
  });

  it('copies a tree into /, merging with what is there', () => {
    fs.writeFile('/tmp/src/etc/motd', 'hi', { mkdirParents: true });
    fs.copy('/tmp/src', '/', { recursive: true });
    expect(text(fs.readFile('/etc/motd'))).toBe('hi');
    expect(fs.stat('/')).toMatchObject({ type: 'directory', uid: 0, gid: 0 });
    expect(fs.exists('/home/sprite')).toBe(true);
  });

  it('chown to uid and gid 1 sets them (only -1 means keep)', () => {
    fs.writeFile('/tmp/f', 'x');
    expect(fs.chown('/tmp/f', 1, 1)).toStrictEqual([{ path: '/tmp/f', uid: 1, gid: 1 }]);
  });
});

describe('snapshots', () => {
  it('restoring the current tree notifies no one; restoring another one does', () => {
    let calls = 0;
    fs.onChange(() => calls++);
    const snap = fs.snapshot();
    fs.restore(snap);
    expect(calls).toBe(0);
    fs.writeFile('/tmp/x', 'x');
    fs.restore(snap);
    expect(calls).toBe(2);
  });

  it.each([null, undefined, 'root', { kind: 'directory' }, { kind: 'file', children: new Map() }])('rejects %j as a snapshot', (value) => {
    expect(() => fs.restore(value as never)).toThrow(new TypeError('not a VfsSnapshot'));
    if (value) expect(() => new Vfs({ root: value as never })).toThrow(TypeError);
  });
});
