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
