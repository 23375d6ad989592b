import { describe, it, expect, beforeEach } from 'vitest';
import { FakeClock } from '../../core/clock.ts';
import { Vfs } from './vfs.ts';
import { VfsError, type VfsErrorCode } from '../port.ts';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Runs `fn` and returns the VfsError it throws (fails the test if it throws nothing else). */
function vfsError(fn: () => unknown): VfsError {
  try {
    fn();
  } catch (err) {
    if (err instanceof VfsError) return err;
    throw err;
  }
  throw new Error('expected a VfsError, nothing was thrown');
}
function expectCode(fn: () => unknown, code: VfsErrorCode): VfsError {
  const err = vfsError(fn);
  expect(err.code).toBe(code);
  return err;
}

let clock: FakeClock;
let fs: Vfs;
beforeEach(() => {
  clock = new FakeClock();
  fs = Vfs.skeleton(() => clock.now());
});

describe('Vfs.normalize', () => {
  it.each([
    ['/a/../../b', '/', '/b'],
    ['//a///b/', '/', '/a/b'],
    ['/./a/./b/.', '/', '/a/b'],
    ['/..', '/', '/'],
    ['/', '/', '/'],
    ['', '/home/sprite', '/home/sprite'],
    ['x//y/', '/home/sprite', '/home/sprite/x/y'],
    ['../../../../etc', '/home/sprite', '/etc'],
    ['a', 'tmp', '/tmp/a'],
  ])('normalize(%j, %j) is %j', (path, cwd, want) => {
    expect(Vfs.normalize(path, cwd)).toBe(want);
  });

  it('treats relative paths given to methods as relative to /', () => {
    fs.writeFile('home/sprite/../sprite/./f.txt', 'x');
    expect(text(fs.readFile('/home/sprite/f.txt'))).toBe('x');
  });
});

describe('Vfs.skeleton', () => {
  it('holds /home/sprite and /tmp and nothing else', () => {
    expect(fs.allPaths()).toEqual(['/home', '/home/sprite', '/tmp']);
    expect(fs.totalBytes()).toBe(0);
    expect(fs.fileCount()).toBe(0);
  });

  it('gives /home/sprite to the sprite user and the rest to root', () => {
    expect(fs.stat('/home/sprite')).toMatchObject({ type: 'directory', mode: 0o755, uid: 1001, gid: 1001, size: 4096 });
    expect(fs.stat('/home')).toMatchObject({ type: 'directory', mode: 0o755, uid: 0, gid: 0 });
    expect(fs.stat('/tmp')).toMatchObject({ type: 'directory', mode: 0o1777, uid: 0, gid: 0 });
    expect(fs.stat('/')).toMatchObject({ type: 'directory', uid: 0, gid: 0 });
  });

  it('an empty Vfs holds only /', () => {
    expect(new Vfs().readdir('/')).toEqual([]);
  });
});

describe('writeFile / readFile', () => {
  it('stores strings as UTF-8 and bytes as given, with size, default mode, owner and mtime', () => {
    fs.writeFile('/home/sprite/a.txt', 'héllo');
    fs.writeFile('/home/sprite/b.bin', new Uint8Array([0, 255, 7]));
    expect(text(fs.readFile('/home/sprite/a.txt'))).toBe('héllo');
    expect([...fs.readFile('/home/sprite/b.bin')]).toEqual([0, 255, 7]);
    expect(fs.stat('/home/sprite/a.txt')).toEqual({ type: 'file', mode: 0o644, size: 6, mtimeMs: clock.now(), atimeMs: clock.now(), uid: 1001, gid: 1001, ino: expect.any(Number), nlink: 1 });
  });

  it('applies mode on create, keeps it on overwrite unless a new mode is given', () => {
    fs.writeFile('/tmp/x', 'a', { mode: 0o600 });
    expect(fs.stat('/tmp/x').mode).toBe(0o600);
    fs.writeFile('/tmp/x', 'b');
    expect(fs.stat('/tmp/x').mode).toBe(0o600);
    fs.writeFile('/tmp/x', 'c', { mode: 0o100755 });
    expect(fs.stat('/tmp/x').mode).toBe(0o755);
  });

  it('overwrites and appends, updating mtime', () => {
    fs.writeFile('/tmp/x', 'one');
    clock.advance(1000);
    fs.writeFile('/tmp/x', 'two');
    fs.writeFile('/tmp/x', '+three', { append: true });
    expect(text(fs.readFile('/tmp/x'))).toBe('two+three');
    expect(fs.stat('/tmp/x').mtimeMs).toBe(clock.now());
    fs.writeFile('/tmp/new', 'fresh', { append: true });
    expect(text(fs.readFile('/tmp/new'))).toBe('fresh');
  });

  it("touches the parent's mtime when a file is created, not when it is overwritten", () => {
    const t0 = clock.now();
    clock.advance(5000);
    fs.writeFile('/tmp/x', 'a');
    expect(fs.stat('/tmp').mtimeMs).toBe(t0 + 5000);
    clock.advance(5000);
    fs.writeFile('/tmp/x', 'b');
    expect(fs.stat('/tmp').mtimeMs).toBe(t0 + 5000);
  });

  it('is ENOENT when the parent is missing, unless mkdirParents creates it (0755, sprite-owned)', () => {
    const err = expectCode(() => fs.writeFile('/home/sprite/a/b/c.txt', 'x'), 'ENOENT');
    expect(err.path).toBe('/home/sprite/a/b/c.txt');
    expect(err.message).toBe("ENOENT: no such file or directory, open '/home/sprite/a/b/c.txt'");
    fs.writeFile('/home/sprite/a/b/c.txt', 'x', { mkdirParents: true });
    expect(text(fs.readFile('/home/sprite/a/b/c.txt'))).toBe('x');
    expect(fs.stat('/home/sprite/a')).toMatchObject({ type: 'directory', mode: 0o755, uid: 1001 });
  });

  it('is ENOTDIR through a file, with or without mkdirParents, and changes nothing', () => {
    fs.writeFile('/tmp/f', 'x');
    expectCode(() => fs.writeFile('/tmp/f/g', 'y'), 'ENOTDIR');
    expectCode(() => fs.writeFile('/tmp/f/g/h', 'y', { mkdirParents: true }), 'ENOTDIR');
    expect(fs.allPaths()).toEqual(['/home', '/home/sprite', '/tmp', '/tmp/f']);
  });

  it('is EISDIR on a directory (write and read), ENOENT on a missing file', () => {
    expectCode(() => fs.writeFile('/tmp', 'x'), 'EISDIR');
    expectCode(() => fs.writeFile('/', 'x'), 'EISDIR');
    expectCode(() => fs.readFile('/tmp'), 'EISDIR');
    expectCode(() => fs.readFile('/tmp/nope'), 'ENOENT');
  });

  it('never lets a caller mutate stored contents through its own buffers', () => {
    const buf = new Uint8Array([1, 2, 3]);
    fs.writeFile('/tmp/x', buf);
    buf[0] = 9;
    const read = fs.readFile('/tmp/x');
    read[1] = 9;
    expect([...fs.readFile('/tmp/x')]).toEqual([1, 2, 3]);
  });
});

describe('mkdir', () => {
  it('creates a sprite-owned directory with the given mode and touches the parent', () => {
    clock.advance(1000);
    fs.mkdir('/home/sprite/app', { mode: 0o700 });
    expect(fs.stat('/home/sprite/app')).toMatchObject({ type: 'directory', mode: 0o700, uid: 1001, mtimeMs: clock.now() });
    expect(fs.stat('/home/sprite').mtimeMs).toBe(clock.now());
  });

  it('is EEXIST for anything already there, unless recursive and a directory', () => {
    fs.writeFile('/tmp/f', 'x');
    expectCode(() => fs.mkdir('/tmp'), 'EEXIST');
    expectCode(() => fs.mkdir('/'), 'EEXIST');
    expectCode(() => fs.mkdir('/tmp/f'), 'EEXIST');
    expect(() => fs.mkdir('/tmp', { recursive: true })).not.toThrow();
    expectCode(() => fs.mkdir('/tmp/f', { recursive: true }), 'EEXIST');
  });

  it('is ENOENT for a missing parent; recursive creates the chain', () => {
    expectCode(() => fs.mkdir('/a/b/c'), 'ENOENT');
    fs.mkdir('/a/b/c', { recursive: true });
    expect(fs.allPaths()).toContain('/a/b/c');
    expect(fs.stat('/a/b').type).toBe('directory');
  });

  it('is ENOTDIR through a file', () => {
    fs.writeFile('/tmp/f', 'x');
    expectCode(() => fs.mkdir('/tmp/f/d'), 'ENOTDIR');
    expectCode(() => fs.mkdir('/tmp/f/d/e', { recursive: true }), 'ENOTDIR');
  });
});

describe('readdir', () => {
  it('lists children sorted by name with absolute paths and lstat-style stats', () => {
    fs.writeFile('/tmp/b', 'bb');
    fs.mkdir('/tmp/a');
    fs.symlink('/tmp/b', '/tmp/C');
    const entries = fs.readdir('/tmp');
    expect(entries.map((e) => e.name)).toEqual(['C', 'a', 'b']);
    expect(entries.map((e) => e.path)).toEqual(['/tmp/C', '/tmp/a', '/tmp/b']);
    expect(entries.map((e) => e.stat.type)).toEqual(['symlink', 'directory', 'file']);
    expect(entries[0]!.stat).toMatchObject({ target: '/tmp/b', size: 6 });
    expect(entries[2]!.stat.size).toBe(2);
  });

  it('follows a symlinked directory and names entries under the given path', () => {
    fs.writeFile('/tmp/d/x', '1', { mkdirParents: true });
    fs.symlink('/tmp/d', '/home/sprite/link');
    expect(fs.readdir('/home/sprite/link').map((e) => e.path)).toEqual(['/home/sprite/link/x']);
  });

  it('is ENOTDIR on a file and ENOENT on a missing path', () => {
    fs.writeFile('/tmp/f', 'x');
    expect(expectCode(() => fs.readdir('/tmp/f'), 'ENOTDIR').syscall).toBe('scandir');
    expectCode(() => fs.readdir('/nope'), 'ENOENT');
  });
});

describe('rm', () => {
  beforeEach(() => {
    fs.writeFile('/tmp/d/b.txt', 'bbb', { mkdirParents: true });
    fs.writeFile('/tmp/d/a/z.txt', 'zz', { mkdirParents: true });
    fs.mkdir('/tmp/empty');
  });

  it('removes a file and returns its path', () => {
    expect(fs.rm('/tmp/d/b.txt')).toEqual(['/tmp/d/b.txt']);
    expect(fs.exists('/tmp/d/b.txt')).toBe(false);
    expect(fs.totalBytes()).toBe(2);
  });

  it('removes a tree with recursive, top path first then descendants in name order', () => {
    expect(fs.rm('/tmp/d', { recursive: true })).toEqual(['/tmp/d', '/tmp/d/a', '/tmp/d/a/z.txt', '/tmp/d/b.txt']);
    expect(fs.readdir('/tmp').map((e) => e.name)).toEqual(['empty']);
    expect(fs.totalBytes()).toBe(0);
  });

  it('is ENOTEMPTY for a non-empty directory without recursive; removes an empty one', () => {
    expectCode(() => fs.rm('/tmp/d'), 'ENOTEMPTY');
    expect(fs.exists('/tmp/d/a/z.txt')).toBe(true);
    expect(fs.rm('/tmp/empty')).toEqual(['/tmp/empty']);
  });

  it('is ENOENT for a missing path unless force, which returns nothing', () => {
    expectCode(() => fs.rm('/tmp/nope'), 'ENOENT');
    expectCode(() => fs.rm('/nope/deeper'), 'ENOENT');
    expect(fs.rm('/tmp/nope', { force: true })).toEqual([]);
    expect(fs.rm('/nope/deeper', { force: true })).toEqual([]);
  });

  it('refuses / with EINVAL, even recursive and forced', () => {
    expectCode(() => fs.rm('/', { recursive: true, force: true }), 'EINVAL');
    expectCode(() => fs.rm('/tmp/..', { recursive: true }), 'EINVAL');
  });

  it('removes a symlink, not what it points to', () => {
    fs.symlink('/tmp/d', '/tmp/link');
    expect(fs.rm('/tmp/link')).toEqual(['/tmp/link']);
    expect(fs.exists('/tmp/d/b.txt')).toBe(true);
  });
});

describe('rename', () => {
  it('moves a file, keeping contents, mode and mtime', () => {
    fs.writeFile('/tmp/a', 'A', { mode: 0o600 });
    const before = fs.stat('/tmp/a');
    clock.advance(1000);
    fs.rename('/tmp/a', '/home/sprite/b');
    expect(fs.exists('/tmp/a')).toBe(false);
    expect(fs.stat('/home/sprite/b')).toEqual(before);
    expect(text(fs.readFile('/home/sprite/b'))).toBe('A');
  });

  it('replaces an existing destination file', () => {
    fs.writeFile('/tmp/a', 'new');
    fs.writeFile('/tmp/b', 'old');
    fs.rename('/tmp/a', '/tmp/b');
    expect(text(fs.readFile('/tmp/b'))).toBe('new');
    expect(fs.readdir('/tmp').map((e) => e.name)).toEqual(['b']);
    expect(fs.totalBytes()).toBe(3);
  });

  it('moves a whole directory tree, and onto an empty directory', () => {
    fs.writeFile('/tmp/d/sub/f', 'x', { mkdirParents: true });
    fs.mkdir('/tmp/empty');
    fs.rename('/tmp/d', '/tmp/empty');
    expect(text(fs.readFile('/tmp/empty/sub/f'))).toBe('x');
    expect(fs.exists('/tmp/d')).toBe(false);
  });

  it('refuses to move a directory into itself (EINVAL) and / (EINVAL)', () => {
    fs.mkdir('/tmp/d/sub', { recursive: true });
    expectCode(() => fs.rename('/tmp/d', '/tmp/d/sub/d'), 'EINVAL');
    expectCode(() => fs.rename('/', '/x'), 'EINVAL');
    expect(fs.exists('/tmp/d/sub')).toBe(true);
  });

  it('is EISDIR for a file onto a directory, ENOTDIR for a directory onto a file, ENOTEMPTY onto a full directory', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.writeFile('/tmp/full/y', 'y', { mkdirParents: true });
    fs.mkdir('/tmp/d');
    expectCode(() => fs.rename('/tmp/f', '/tmp/d'), 'EISDIR');
    expectCode(() => fs.rename('/tmp/d', '/tmp/f'), 'ENOTDIR');
    expectCode(() => fs.rename('/tmp/d', '/tmp/full'), 'ENOTEMPTY');
  });

  it('is ENOENT for a missing source or a missing destination parent', () => {
    fs.writeFile('/tmp/f', 'x');
    expectCode(() => fs.rename('/tmp/nope', '/tmp/g'), 'ENOENT');
    expectCode(() => fs.rename('/tmp/f', '/tmp/no/g'), 'ENOENT');
    expect(fs.exists('/tmp/f')).toBe(true);
  });

  it('does nothing when source and destination are the same', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.mkdir('/tmp/d');
    fs.symlink('/tmp', '/home/sprite/t');
    const before = fs.snapshot();
    clock.advance(1000);
    fs.rename('/tmp/f', '/tmp/./f');
    fs.rename('/tmp/d', '/home/sprite/t/d');
    expect(fs.snapshot()).toBe(before);
    expect(text(fs.readFile('/tmp/f'))).toBe('x');
  });

  it('moves a symlink itself, not its target', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.symlink('f', '/tmp/l');
    fs.rename('/tmp/l', '/tmp/l2');
    expect(fs.readlink('/tmp/l2')).toBe('f');
    expect(fs.lstat('/tmp/f').type).toBe('file');
  });
});

describe('copy', () => {
  beforeEach(() => {
    fs.writeFile('/tmp/src/a.txt', 'aaa', { mkdirParents: true, mode: 0o600 });
    fs.writeFile('/tmp/src/sub/b.txt', 'bb', { mkdirParents: true });
    fs.symlink('a.txt', '/tmp/src/link');
  });

  it('copies a file to an exact path with the source mode and a fresh mtime', () => {
    clock.advance(1000);
    expect(fs.copy('/tmp/src/a.txt', '/tmp/c.txt')).toEqual([{ source: '/tmp/src/a.txt', dest: '/tmp/c.txt' }]);
    expect(text(fs.readFile('/tmp/c.txt'))).toBe('aaa');
    expect(fs.stat('/tmp/c.txt')).toMatchObject({ mode: 0o600, mtimeMs: clock.now() });
    expect(fs.totalBytes()).toBe(8);
  });

  it('keeps mtime and owner with preserveAttrs', () => {
    fs.chown('/tmp/src/a.txt', 0, 0);
    const before = fs.stat('/tmp/src/a.txt');
    clock.advance(1000);
    fs.copy('/tmp/src/a.txt', '/tmp/c.txt', { preserveAttrs: true });
    // Another file all the same: its own inode number.
    expect({ ...fs.stat('/tmp/c.txt'), ino: 0 }).toEqual({ ...before, ino: 0 });
    expect(fs.stat('/tmp/c.txt').ino).not.toBe(before.ino);
  });

  it('is EISDIR for a directory without recursive', () => {
    expectCode(() => fs.copy('/tmp/src', '/tmp/dst'), 'EISDIR');
    expect(fs.exists('/tmp/dst')).toBe(false);
  });

  it('copies a tree with recursive, listing every pair top first; nested symlinks stay symlinks', () => {
    expect(fs.copy('/tmp/src', '/tmp/dst', { recursive: true })).toEqual([
      { source: '/tmp/src', dest: '/tmp/dst' },
      { source: '/tmp/src/a.txt', dest: '/tmp/dst/a.txt' },
      { source: '/tmp/src/link', dest: '/tmp/dst/link' },
      { source: '/tmp/src/sub', dest: '/tmp/dst/sub' },
      { source: '/tmp/src/sub/b.txt', dest: '/tmp/dst/sub/b.txt' },
    ]);
    expect(fs.readlink('/tmp/dst/link')).toBe('a.txt');
    expect(text(fs.readFile('/tmp/dst/link'))).toBe('aaa');
    expect(fs.fileCount()).toBe(4);
  });

  it('gives an independent copy: writing to it leaves the source alone', () => {
    fs.copy('/tmp/src', '/tmp/dst', { recursive: true });
    fs.writeFile('/tmp/dst/a.txt', 'changed');
    fs.rm('/tmp/dst/sub', { recursive: true });
    expect(text(fs.readFile('/tmp/src/a.txt'))).toBe('aaa');
    expect(fs.exists('/tmp/src/sub/b.txt')).toBe(true);
  });

  it('follows a symlink given as the source', () => {
    fs.copy('/tmp/src/link', '/tmp/c');
    expect(fs.lstat('/tmp/c').type).toBe('file');
    expect(text(fs.readFile('/tmp/c'))).toBe('aaa');
  });

  it('merges into an existing directory, overwriting files and keeping others', () => {
    fs.writeFile('/tmp/dst/a.txt', 'old', { mkdirParents: true });
    fs.writeFile('/tmp/dst/keep', 'k');
    fs.copy('/tmp/src', '/tmp/dst', { recursive: true });
    expect(text(fs.readFile('/tmp/dst/a.txt'))).toBe('aaa');
    expect(text(fs.readFile('/tmp/dst/keep'))).toBe('k');
    expect(text(fs.readFile('/tmp/dst/sub/b.txt'))).toBe('bb');
  });

  it('is EINVAL into itself, EISDIR file onto a directory, ENOTDIR directory onto a file, ENOENT for a missing source', () => {
    expectCode(() => fs.copy('/tmp/src', '/tmp/src/sub/inner', { recursive: true }), 'EINVAL');
    expectCode(() => fs.copy('/tmp/src/a.txt', '/tmp/src/a.txt'), 'EINVAL');
    expectCode(() => fs.copy('/tmp/src/a.txt', '/tmp/src/sub'), 'EISDIR');
    expectCode(() => fs.copy('/tmp/src/sub', '/tmp/src/a.txt', { recursive: true }), 'ENOTDIR');
    expectCode(() => fs.copy('/tmp/nope', '/tmp/x'), 'ENOENT');
    expectCode(() => fs.copy('/tmp/src/a.txt', '/tmp/no/x'), 'ENOENT');
  });

  it('changes nothing when a merge fails half-way', () => {
    fs.writeFile('/tmp/dst/a.txt', 'old', { mkdirParents: true });
    fs.writeFile('/tmp/dst/sub', 'a file where the source has a directory');
    const before = fs.snapshot();
    expectCode(() => fs.copy('/tmp/src', '/tmp/dst', { recursive: true }), 'ENOTDIR');
    expect(fs.snapshot()).toBe(before);
    expect(text(fs.readFile('/tmp/dst/a.txt'))).toBe('old');
  });
});

describe('chmod / chown', () => {
  beforeEach(() => {
    fs.writeFile('/tmp/d/f', 'x', { mkdirParents: true });
    fs.writeFile('/tmp/d/sub/g', 'y', { mkdirParents: true });
    fs.symlink('/tmp/d/f', '/tmp/d/link');
  });

  it('chmod sets permission bits only and leaves mtime', () => {
    const mtime = fs.stat('/tmp/d/f').mtimeMs;
    clock.advance(1000);
    expect(fs.chmod('/tmp/d/f', 0o100700)).toEqual([{ path: '/tmp/d/f', mode: 0o700 }]);
    expect(fs.stat('/tmp/d/f')).toMatchObject({ mode: 0o700, mtimeMs: mtime });
  });

  it('chmod recursive changes the whole tree but skips symlinks inside', () => {
    expect(fs.chmod('/tmp/d', 0o750, { recursive: true }).map((a) => a.path)).toEqual(['/tmp/d', '/tmp/d/f', '/tmp/d/sub', '/tmp/d/sub/g']);
    expect(fs.stat('/tmp/d/sub/g').mode).toBe(0o750);
    expect(fs.lstat('/tmp/d/link').mode).toBe(0o777);
  });

  it('chmod follows a symlink given as the path', () => {
    fs.chmod('/tmp/d/link', 0o400);
    expect(fs.stat('/tmp/d/f').mode).toBe(0o400);
    expect(fs.lstat('/tmp/d/link').mode).toBe(0o777);
  });

  it('chown sets uid and gid, -1 keeps one, recursive reaches the tree', () => {
    expect(fs.chown('/tmp/d/f', 0, -1)).toEqual([{ path: '/tmp/d/f', uid: 0, gid: 1001 }]);
    expect(fs.stat('/tmp/d/f')).toMatchObject({ uid: 0, gid: 1001 });
    const affected = fs.chown('/tmp/d', 5, 6, { recursive: true });
    expect(affected).toHaveLength(4);
    expect(fs.stat('/tmp/d/sub/g')).toMatchObject({ uid: 5, gid: 6 });
  });

  it('are ENOENT on a missing path', () => {
    expectCode(() => fs.chmod('/tmp/nope', 0o644), 'ENOENT');
    expectCode(() => fs.chown('/tmp/nope', 0, 0), 'ENOENT');
  });
});

describe('symlinks', () => {
  it('stat follows, lstat does not; size is the target length', () => {
    fs.writeFile('/tmp/f', 'hello');
    fs.symlink('/tmp/f', '/tmp/l');
    expect(fs.stat('/tmp/l')).toMatchObject({ type: 'file', size: 5 });
    expect(fs.lstat('/tmp/l')).toMatchObject({ type: 'symlink', size: 6, target: '/tmp/f', mode: 0o777 });
    expect(fs.readlink('/tmp/l')).toBe('/tmp/f');
  });

  it('resolves relative targets against the link directory, including ..', () => {
    fs.writeFile('/home/sprite/data/v.txt', 'v', { mkdirParents: true });
    fs.mkdir('/home/sprite/bin');
    fs.symlink('../data/v.txt', '/home/sprite/bin/v');
    expect(text(fs.readFile('/home/sprite/bin/v'))).toBe('v');
    expect(fs.realpath('/home/sprite/bin/v')).toBe('/home/sprite/data/v.txt');
  });

  it('resolves symlinked directories in the middle of a path, for reads and writes', () => {
    fs.mkdir('/tmp/real');
    fs.symlink('/tmp/real', '/home/sprite/work');
    fs.writeFile('/home/sprite/work/x', 'through the link');
    expect(text(fs.readFile('/tmp/real/x'))).toBe('through the link');
    expect(fs.realpath('/home/sprite/work/x')).toBe('/tmp/real/x');
  });

  it('follows chains and a symlink to /', () => {
    fs.writeFile('/tmp/f', 'end');
    fs.symlink('/tmp/f', '/tmp/l1');
    fs.symlink('l1', '/tmp/l2');
    fs.symlink('/', '/tmp/root');
    expect(text(fs.readFile('/tmp/l2'))).toBe('end');
    expect(fs.readdir('/tmp/root').map((e) => e.name)).toEqual(['home', 'tmp']);
  });

  it('is ELOOP for a cycle and for more than 40 hops; 40 hops are fine', () => {
    fs.symlink('/tmp/b', '/tmp/a');
    fs.symlink('/tmp/a', '/tmp/b');
    fs.symlink('self', '/tmp/self');
    expectCode(() => fs.stat('/tmp/a'), 'ELOOP');
    expectCode(() => fs.readFile('/tmp/self'), 'ELOOP');
    expectCode(() => fs.writeFile('/tmp/a/x', 'x'), 'ELOOP');
    expect(fs.lstat('/tmp/a').type).toBe('symlink');

    fs.writeFile('/tmp/end', 'ok');
    fs.symlink('/tmp/end', '/tmp/h0');
    for (let i = 1; i <= 40; i++) fs.symlink(`/tmp/h${i - 1}`, `/tmp/h${i}`);
    expect(text(fs.readFile('/tmp/h39'))).toBe('ok'); // 40 hops
    expectCode(() => fs.readFile('/tmp/h40'), 'ELOOP'); // 41 hops
  });

  it('a dangling symlink does not exist, can be lstat-ed, and writing through it creates the target', () => {
    fs.symlink('/tmp/later', '/tmp/dangling');
    expect(fs.exists('/tmp/dangling')).toBe(false);
    expectCode(() => fs.stat('/tmp/dangling'), 'ENOENT');
    expect(fs.lstat('/tmp/dangling').type).toBe('symlink');
    fs.writeFile('/tmp/dangling', 'now');
    expect(text(fs.readFile('/tmp/later'))).toBe('now');
  });

  it('is EEXIST over anything, ENOENT for an empty target, EINVAL for readlink of a non-link', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.symlink('/nowhere', '/tmp/l');
    expectCode(() => fs.symlink('/x', '/tmp/f'), 'EEXIST');
    expectCode(() => fs.symlink('/x', '/tmp/l'), 'EEXIST');
    expectCode(() => fs.symlink('', '/tmp/e'), 'ENOENT');
    expectCode(() => fs.symlink('/x', '/tmp/no/l'), 'ENOENT');
    expectCode(() => fs.readlink('/tmp/f'), 'EINVAL');
    expectCode(() => fs.readlink('/tmp/nope'), 'ENOENT');
  });

  it('is ENOTDIR through a file on the way', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.symlink('/tmp/f', '/tmp/l');
    expectCode(() => fs.stat('/tmp/f/x'), 'ENOTDIR');
    expectCode(() => fs.stat('/tmp/l/x'), 'ENOTDIR');
  });
});

describe('utimes / exists / realpath', () => {
  it('utimes sets mtime, following symlinks', () => {
    fs.writeFile('/tmp/f', 'x');
    fs.symlink('/tmp/f', '/tmp/l');
    fs.utimes('/tmp/l', 12345);
    expect(fs.stat('/tmp/f').mtimeMs).toBe(12345);
    expectCode(() => fs.utimes('/tmp/nope', 1), 'ENOENT');
  });

  it('exists is false for missing paths and paths through files', () => {
    fs.writeFile('/tmp/f', 'x');
    expect(fs.exists('/tmp/f')).toBe(true);
    expect(fs.exists('/tmp/g')).toBe(false);
    expect(fs.exists('/tmp/f/g')).toBe(false);
  });

  it('realpath is ENOENT for a missing path', () => {
    expectCode(() => fs.realpath('/tmp/nope'), 'ENOENT');
    expect(fs.realpath('/home/../tmp')).toBe('/tmp');
  });
});

describe('totalBytes / fileCount', () => {
  it('track writes, appends, copies, renames and deletes', () => {
    fs.writeFile('/tmp/a', '12345');
    fs.writeFile('/tmp/d/b', '123', { mkdirParents: true });
    expect([fs.totalBytes(), fs.fileCount()]).toEqual([8, 2]);
    fs.writeFile('/tmp/a', '67', { append: true });
    fs.copy('/tmp/d', '/tmp/e', { recursive: true });
    expect([fs.totalBytes(), fs.fileCount()]).toEqual([13, 3]);
    fs.rename('/tmp/a', '/tmp/e/b');
    expect([fs.totalBytes(), fs.fileCount()]).toEqual([10, 2]);
    fs.rm('/tmp', { recursive: true });
    expect([fs.totalBytes(), fs.fileCount()]).toEqual([0, 0]);
  });
});

describe('snapshot / restore (checkpoints)', () => {
  beforeEach(() => {
    fs.writeFile('/home/sprite/key', 'v1');
    fs.writeFile('/home/sprite/app/main.py', 'print(1)', { mkdirParents: true });
  });

  it('a snapshot keeps the old tree after writes, deletes, renames, chmods and copies', () => {
    const snap = fs.snapshot();
    fs.writeFile('/home/sprite/key', 'v2');
    fs.writeFile('/home/sprite/key', '+', { append: true });
    fs.rm('/home/sprite/app', { recursive: true });
    fs.writeFile('/tmp/new', 'n');
    fs.chmod('/home/sprite/key', 0o600);
    fs.rename('/home/sprite/key', '/home/sprite/moved');
    fs.copy('/home/sprite/moved', '/home/sprite/key');

    const old = new Vfs({ root: snap });
    expect(text(old.readFile('/home/sprite/key'))).toBe('v1');
    expect(old.stat('/home/sprite/key').mode).toBe(0o644);
    expect(text(old.readFile('/home/sprite/app/main.py'))).toBe('print(1)');
    expect(old.exists('/tmp/new')).toBe(false);
    expect(old.exists('/home/sprite/moved')).toBe(false);
    expect(old.totalBytes()).toBe(10);
  });

  it('restore brings the snapshot back', () => {
    const snap = fs.snapshot();
    fs.writeFile('/home/sprite/key', 'v2');
    fs.rm('/home/sprite/app', { recursive: true });
    fs.restore(snap);
    expect(text(fs.readFile('/home/sprite/key'))).toBe('v1');
    expect(fs.readdir('/home/sprite').map((e) => e.name)).toEqual(['app', 'key']);
    expect(fs.totalBytes()).toBe(10);
  });

  it('writing after a restore does not alter the snapshot, so it can be restored again', () => {
    const snap = fs.snapshot();
    fs.restore(snap);
    fs.writeFile('/home/sprite/key', 'after');
    fs.writeFile('/home/sprite/app/main.py', 'x', { append: true });
    fs.restore(snap);
    expect(text(fs.readFile('/home/sprite/key'))).toBe('v1');
    expect(text(fs.readFile('/home/sprite/app/main.py'))).toBe('print(1)');
  });

  it('keeps several snapshots independent and can move between them in any order', () => {
    const s1 = fs.snapshot();
    fs.writeFile('/home/sprite/key', 'v2');
    const s2 = fs.snapshot();
    fs.writeFile('/home/sprite/key', 'v3');
    fs.restore(s1);
    expect(text(fs.readFile('/home/sprite/key'))).toBe('v1');
    fs.restore(s2);
    expect(text(fs.readFile('/home/sprite/key'))).toBe('v2');
  });

  it('a snapshot is the same value until something changes, and a failed call changes nothing', () => {
    const snap = fs.snapshot();
    expect(fs.snapshot()).toBe(snap);
    expectCode(() => fs.writeFile('/nope/x', 'x'), 'ENOENT');
    expectCode(() => fs.rm('/home/sprite/app'), 'ENOTEMPTY');
    expect(fs.snapshot()).toBe(snap);
    fs.writeFile('/tmp/x', 'x');
    expect(fs.snapshot()).not.toBe(snap);
  });

  it('rejects a value that is not a snapshot', () => {
    expect(() => fs.restore({} as never)).toThrow(TypeError);
  });
});

describe('VfsError and stack traces', () => {
  it('is cheap (no stack frames) and leaves every other error its full stack', () => {
    const before = Error.stackTraceLimit;
    const err = new VfsError('ENOENT', '/missing', 'stat');
    expect(err.message).toBe("ENOENT: no such file or directory, stat '/missing'");
    expect(err.stack?.split('\n').filter((l) => l.trim().startsWith('at '))).toEqual([]);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('other').stack?.split('\n').some((l) => l.trim().startsWith('at '))).toBe(true);
  });

  it('exists() is false for a missing file, a missing parent, a file used as a directory and a dangling symlink', () => {
    const vfs = new Vfs();
    vfs.writeFile('/f', 'x');
    vfs.symlink('/nowhere', '/dangling');
    expect(vfs.exists('/f')).toBe(true);
    expect(vfs.exists('/g')).toBe(false);
    expect(vfs.exists('/a/b/c')).toBe(false);
    expect(vfs.exists('/f/x')).toBe(false);
    expect(vfs.exists('/dangling')).toBe(false);
  });
});
