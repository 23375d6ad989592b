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
    expect(Vfs.diff(before, after, '/home/sprite')).toEqual([
      { path: '/home/sprite/keep.txt', event: 'write', isDir: false, size: 7 },
      { path: '/home/sprite/a', event: 'create', isDir: true, size: 0 },
      { path: '/home/sprite/a/b.txt', event: 'create', isDir: false, size: 5 },
    ]);
    expect(Vfs.diff(before, after, '/tmp')).toEqual([{ path: '/tmp/other.txt', event: 'chmod', isDir: false, size: 1 }]);
    vfs.rm('/home/sprite/a', { recursive: true });
    expect(Vfs.diff(after, vfs.snapshot(), '/home/sprite')).toEqual([
      { path: '/home/sprite/a', event: 'remove', isDir: true, size: 0 },
      { path: '/home/sprite/a/b.txt', event: 'remove', isDir: false, size: 0 },
    ]);
  });

  it('non-recursive diffs stop at direct children', () => {
    const vfs = Vfs.skeleton();
    const before = vfs.snapshot();
    vfs.writeFile('/home/sprite/d/e/f', 'x', { mkdirParents: true });
    expect(Vfs.diff(before, vfs.snapshot(), '/home/sprite', { recursive: false }).map((c) => c.path)).toEqual(['/home/sprite/d']);
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
});
