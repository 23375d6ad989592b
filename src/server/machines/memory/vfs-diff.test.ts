import { describe, expect, it } from 'vitest';
import { Vfs } from './vfs.ts';

describe('Vfs.diff and onChange', () => {
  it('reports creates, writes, chmods and removes under a path, and nothing for unchanged subtrees', () => {
    let t = 1000;
    const vfs = Vfs.skeleton(() => t);
    vfs.writeFile('/home/sprite/keep.txt', 'k');
    vfs.writeFile('/tmp/other.txt', 'o');
    const before = vfs.snapshot();
    t += 1;
    vfs.writeFile('/home/sprite/a/b.txt', 'hello', { mkdirParents: true });
    vfs.writeFile('/home/sprite/keep.txt', 'changed');
    vfs.chmod('/tmp/other.txt', 0o600);
    const after = vfs.snapshot();
    expect(Vfs.diff(before, after, '/home/sprite')).toStrictEqual([
      { path: '/home/sprite/keep.txt', event: 'write', isDir: false, size: 7 },
      { path: '/home/sprite/a', event: 'create', isDir: true, size: 0 },
      { path: '/home/sprite/a/b.txt', event: 'create', isDir: false, size: 5 },
    ]);
    expect(Vfs.diff(before, after, '/tmp')).toStrictEqual([{ path: '/tmp/other.txt', event: 'chmod', isDir: false, size: 1 }]);
    vfs.rm('/home/sprite/a', { recursive: true });
    expect(Vfs.diff(after, vfs.snapshot(), '/home/sprite')).toStrictEqual([
      { path: '/home/sprite/a', event: 'remove', isDir: true, size: 0 },
      { path: '/home/sprite/a/b.txt', event: 'remove', isDir: false, size: 0 },
    ]);
  });

  it('non-recursive diffs stop at direct children', () => {
    const vfs = Vfs.skeleton();
    const before = vfs.snapshot();
    vfs.writeFile('/home/sprite/d/e/f', 'x', { mkdirParents: true });
    expect(Vfs.diff(before, vfs.snapshot(), '/home/sprite', { recursive: false }).map((c) => c.path)).toStrictEqual(['/home/sprite/d']);
  });

  it('notifies listeners after each successful change and restore, never after a failed one', () => {
    const vfs = Vfs.skeleton();
    let calls = 0;
    const off = vfs.onChange(() => calls++);
    const snap = vfs.snapshot();
    vfs.writeFile('/tmp/x', '1');
    expect(() => vfs.writeFile('/missing/dir/x', '1')).toThrow();
    vfs.restore(snap);
    expect(calls).toBe(2);
    off();
    vfs.writeFile('/tmp/y', '1');
    expect(calls).toBe(2);
  });

  it('reports a content-only change made in the same millisecond as a write', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/f', 'one');
    const before = vfs.snapshot();
    vfs.writeFile('/tmp/f', 'two!');
    expect(vfs.stat('/tmp/f').mtimeMs).toBe(1000);
    expect(Vfs.diff(before, vfs.snapshot())).toStrictEqual([{ path: '/tmp/f', event: 'write', isDir: false, size: 4 }]);
  });

  it('reports an mtime-only change as a write', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/f', 'same');
    const before = vfs.snapshot();
    vfs.utimes('/tmp/f', 5000);
    expect(Vfs.diff(before, vfs.snapshot())).toStrictEqual([{ path: '/tmp/f', event: 'write', isDir: false, size: 4 }]);
  });

  it('reports nothing for a directory whose mtime alone changed', () => {
    const vfs = Vfs.skeleton(() => 1000);
    const before = vfs.snapshot();
    vfs.utimes('/tmp', 5000);
    expect(Vfs.diff(before, vfs.snapshot())).toStrictEqual([]);
  });

  it('names paths under / as /x, not //x', () => {
    const vfs = Vfs.skeleton(() => 1000);
    const before = vfs.snapshot();
    vfs.writeFile('/x', 'x');
    vfs.mkdir('/d');
    vfs.writeFile('/d/y', 'yy');
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(Vfs.diff(before, vfs.snapshot(), '/').sort(byPath)).toStrictEqual([
      { path: '/d', event: 'create', isDir: true, size: 0 },
      { path: '/d/y', event: 'create', isDir: false, size: 2 },
      { path: '/x', event: 'create', isDir: false, size: 1 },
    ]);
    const after = vfs.snapshot();
    vfs.rm('/x');
    vfs.rm('/d', { recursive: true });
    expect(Vfs.diff(after, vfs.snapshot(), '/').sort(byPath).map((c) => `${c.event} ${c.path}`)).toStrictEqual(['remove /d', 'remove /d/y', 'remove /x']);
  });

  it('sees a symlink retarget as a write of the link', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.symlink('/tmp/a', '/tmp/l');
    const before = vfs.snapshot();
    vfs.rm('/tmp/l');
    vfs.symlink('/tmp/bb', '/tmp/l');
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp')).toStrictEqual([{ path: '/tmp/l', event: 'write', isDir: false, size: 0 }]);
    const same = vfs.snapshot();
    vfs.rm('/tmp/l');
    vfs.symlink('/tmp/bb', '/tmp/l');
    expect(Vfs.diff(same, vfs.snapshot(), '/tmp')).toStrictEqual([]);
  });

  it('sees chown of uid or gid alone, and chmod, as chmod', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/u', 'u');
    vfs.writeFile('/tmp/g', 'g');
    vfs.mkdir('/tmp/m');
    const before = vfs.snapshot();
    vfs.chown('/tmp/u', 7, -1);
    vfs.chown('/tmp/g', -1, 7);
    vfs.chmod('/tmp/m', 0o700);
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp')).toStrictEqual([
      { path: '/tmp/u', event: 'chmod', isDir: false, size: 1 },
      { path: '/tmp/g', event: 'chmod', isDir: false, size: 1 },
      { path: '/tmp/m', event: 'chmod', isDir: true, size: 0 },
    ]);
  });

  it('sees a file turned into a directory, and back, as remove then create', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/x', 'abc');
    const before = vfs.snapshot();
    vfs.rm('/tmp/x');
    vfs.writeFile('/tmp/x/inner', 'i', { mkdirParents: true });
    const after = vfs.snapshot();
    expect(Vfs.diff(before, after, '/tmp')).toStrictEqual([
      { path: '/tmp/x', event: 'remove', isDir: false, size: 0 },
      { path: '/tmp/x', event: 'create', isDir: true, size: 0 },
      { path: '/tmp/x/inner', event: 'create', isDir: false, size: 1 },
    ]);
    expect(Vfs.diff(after, before, '/tmp')).toStrictEqual([
      { path: '/tmp/x', event: 'remove', isDir: true, size: 0 },
      { path: '/tmp/x/inner', event: 'remove', isDir: false, size: 0 },
      { path: '/tmp/x', event: 'create', isDir: false, size: 3 },
    ]);
  });

  it('sees a symlink replaced by a file as remove then create', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.symlink('/tmp', '/tmp/l');
    const before = vfs.snapshot();
    vfs.rm('/tmp/l');
    vfs.writeFile('/tmp/l', 'f');
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp')).toStrictEqual([
      { path: '/tmp/l', event: 'remove', isDir: false, size: 0 },
      { path: '/tmp/l', event: 'create', isDir: false, size: 1 },
    ]);
  });

  it('non-recursive diffs list removed direct children but not their contents', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/d/e/f', 'x', { mkdirParents: true });
    vfs.writeFile('/tmp/d/g', 'x');
    const before = vfs.snapshot();
    vfs.rm('/tmp/d', { recursive: true });
    vfs.writeFile('/tmp/n/m', 'x', { mkdirParents: true });
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp', { recursive: false }).map((c) => `${c.event} ${c.path}`)).toStrictEqual([
      'create /tmp/n',
      'remove /tmp/d',
    ]);
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp', { recursive: true }).length).toBe(6);
  });

  it('is empty for a path missing on both sides, and for the same snapshot', () => {
    const vfs = Vfs.skeleton(() => 1000);
    const snap = vfs.snapshot();
    expect(Vfs.diff(snap, snap)).toStrictEqual([]);
    vfs.writeFile('/tmp/x', 'x');
    expect(Vfs.diff(snap, vfs.snapshot(), '/nope/deeper')).toStrictEqual([]);
    expect(Vfs.diff(snap, vfs.snapshot(), '/tmp/x/inside')).toStrictEqual([]);
  });

  it('non-recursive diffs of a created or removed path list it and its direct children only', () => {
    const vfs = Vfs.skeleton(() => 1000);
    const before = vfs.snapshot();
    vfs.writeFile('/tmp/n/m/k', 'x', { mkdirParents: true });
    const after = vfs.snapshot();
    expect(Vfs.diff(before, after, '/tmp/n', { recursive: false }).map((c) => `${c.event} ${c.path}`)).toStrictEqual([
      'create /tmp/n',
      'create /tmp/n/m',
    ]);
    expect(Vfs.diff(after, before, '/tmp/n', { recursive: false }).map((c) => `${c.event} ${c.path}`)).toStrictEqual([
      'remove /tmp/n',
      'remove /tmp/n/m',
    ]);
    expect(Vfs.diff(after, before, '/tmp/n').map((c) => `${c.event} ${c.path}`)).toStrictEqual([
      'remove /tmp/n',
      'remove /tmp/n/m',
      'remove /tmp/n/m/k',
    ]);
  });

  it('non-recursive diffs ignore changes below the direct children', () => {
    const vfs = Vfs.skeleton(() => 1000);
    vfs.writeFile('/tmp/d/f', 'x', { mkdirParents: true });
    const before = vfs.snapshot();
    vfs.writeFile('/tmp/d/f', 'changed');
    vfs.writeFile('/tmp/d/new', 'n');
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp', { recursive: false })).toStrictEqual([]);
    expect(Vfs.diff(before, vfs.snapshot(), '/tmp').map((c) => `${c.event} ${c.path}`)).toStrictEqual(['write /tmp/d/f', 'create /tmp/d/new']);
  });
});
