import { describe, expect, it } from 'vitest';
import { Vfs } from './vfs.ts';

// File times with nanoseconds (`touch -d @S.N`, `touch -r`, `cp -p`) and a symlink's own time (`touch -h`).
describe('Vfs.utimes', () => {
  it('keeps the nanoseconds past the millisecond it is given, cut to 0–999999; a time without them has none', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/f', 'x');
    vfs.utimes('/tmp/f', 5000, { ns: 123_456.9 });
    expect(vfs.stat('/tmp/f')).toMatchObject({ mtimeMs: 5000, mtimeNs: 123_456 });
    vfs.utimes('/tmp/f', 5000, { ns: 5_000_000 });
    expect(vfs.stat('/tmp/f').mtimeNs).toBe(999_999);
    vfs.utimes('/tmp/f', 5000, { ns: -3 });
    expect(vfs.stat('/tmp/f').mtimeNs).toBe(0);
    vfs.utimes('/tmp/f', 6000);
    expect('mtimeNs' in vfs.stat('/tmp/f')).toBe(false);
    vfs.writeFile('/tmp/g', 'y');
    expect('mtimeNs' in vfs.stat('/tmp/g')).toBe(false);
  });

  it('sets a symlink’s own time with noFollow, its target’s without', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/tmp/target', 'x');
    vfs.symlink('/tmp/target', '/tmp/link');
    t = 2000;
    vfs.utimes('/tmp/link', 7000, { noFollow: true, ns: 5 });
    expect(vfs.lstat('/tmp/link')).toMatchObject({ mtimeMs: 7000, mtimeNs: 5 });
    expect(vfs.stat('/tmp/target').mtimeMs).toBe(1000);
    vfs.utimes('/tmp/link', 8000);
    expect(vfs.stat('/tmp/target').mtimeMs).toBe(8000);
    expect(vfs.lstat('/tmp/link').mtimeMs).toBe(7000);
  });

  it('a directory keeps its nanoseconds until a change in it stamps a new time, and a copy with attributes keeps them', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.mkdir('/tmp/d');
    vfs.utimes('/tmp/d', 1000, { ns: 42 });
    // The clock has not moved: the directory's stamp stays the same time, nanoseconds included.
    vfs.writeFile('/tmp/d/a', 'a');
    expect(vfs.stat('/tmp/d')).toMatchObject({ mtimeMs: 1000, mtimeNs: 42 });
    vfs.copy('/tmp/d', '/tmp/e', { recursive: true, preserveAttrs: true });
    expect(vfs.stat('/tmp/e')).toMatchObject({ mtimeMs: 1000, mtimeNs: 42 });
    vfs.copy('/tmp/d', '/tmp/p', { recursive: true });
    expect('mtimeNs' in vfs.stat('/tmp/p')).toBe(false);
    t = 3000;
    vfs.writeFile('/tmp/d/b', 'b');
    expect(vfs.stat('/tmp/d').mtimeMs).toBe(3000);
    expect('mtimeNs' in vfs.stat('/tmp/d')).toBe(false);
  });

  it('a change of the nanoseconds alone is a write to watchers; of a directory, nothing', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/f', 'x');
    vfs.mkdir('/tmp/d');
    const before = vfs.snapshot();
    vfs.utimes('/tmp/f', 1000, { ns: 7 });
    vfs.utimes('/tmp/d', 1000, { ns: 7 });
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp')).toStrictEqual([{ path: '/tmp/f', event: 'write', isDir: false, size: 1 }]);
  });
});

// Access times as Linux keeps them on a `relatime` mount (fs/inode.c relatime_need_update).
describe('access times', () => {
  const DAY = 86_400_000;

  it('start as the creation time; a write moves only the mtime, a read then moves the atime to now', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/tmp/f', 'a');
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 1000, mtimeMs: 1000 });
    t = 5000;
    vfs.writeFile('/tmp/f', 'b', { append: true });
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 1000, mtimeMs: 5000 });
    t = 9000;
    vfs.readFile('/tmp/f');
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 9000, mtimeMs: 5000 });
  });

  it('a read leaves an atime later than the mtime and under a day old, and moves one a day old', () => {
    let t = 10 * DAY;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/tmp/f', 'a');
    vfs.utimes('/tmp/f', 1000, { atime: { ms: 10 * DAY - 5, ns: 7 } });
    t += DAY - 10;
    vfs.readFile('/tmp/f');
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 10 * DAY - 5, atimeNs: 7, mtimeMs: 1000 });
    t += 10;
    vfs.readFile('/tmp/f');
    expect(vfs.stat('/tmp/f').atimeMs).toBe(t);
    expect('atimeNs' in vfs.stat('/tmp/f')).toBe(false);
  });

  it('a future atime stays through reads; utimes without an atime sets both to the mtime', () => {
    const t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/tmp/f', 'a');
    vfs.utimes('/tmp/f', 500, { atime: { ms: 50 * DAY } });
    vfs.readFile('/tmp/f');
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 50 * DAY, mtimeMs: 500 });
    vfs.utimes('/tmp/f', 700, { ns: 3 });
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 700, atimeNs: 3, mtimeMs: 700, mtimeNs: 3 });
  });

  it('listing a directory moves its atime; an entry added moves only its mtime', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.mkdir('/tmp/d');
    t = 2000;
    vfs.writeFile('/tmp/d/f', 'x');
    expect(vfs.stat('/tmp/d')).toMatchObject({ atimeMs: 1000, mtimeMs: 2000 });
    t = 3000;
    vfs.readdir('/tmp/d');
    expect(vfs.stat('/tmp/d')).toMatchObject({ atimeMs: 3000, mtimeMs: 2000 });
  });

  it('every name of a file sees its atime; a copy keeps it only with its attributes', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/tmp/f', 'x');
    vfs.link('/tmp/f', '/tmp/h');
    vfs.utimes('/tmp/h', 100, { atime: { ms: 200 } });
    expect(vfs.stat('/tmp/f')).toMatchObject({ atimeMs: 200, mtimeMs: 100 });
    t = 2000;
    vfs.copy('/tmp/f', '/tmp/kept', { preserveAttrs: true });
    vfs.copy('/tmp/f', '/tmp/new');
    expect(vfs.stat('/tmp/kept')).toMatchObject({ atimeMs: 200, mtimeMs: 100 });
    expect(vfs.stat('/tmp/new')).toMatchObject({ atimeMs: 2000, mtimeMs: 2000 });
  });

  it('a read that moves the atime is no change a watcher or a journal sees', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/tmp/f', 'x');
    const before = vfs.snapshot();
    t = 2000;
    vfs.readFile('/tmp/f');
    expect(vfs.snapshot()).not.toBe(before);
    expect(Vfs.diff(before, vfs.snapshot())).toEqual([]);
  });
});
