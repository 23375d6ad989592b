/**
 * The VFS under hostile sizes, so that no client can stall the server with a deep tree or fill its memory:
 * operations are linear in the path's depth (proved by the injected meter, not by time), nothing recurses over depth
 * (a tree deeper than the JS stack works), and the disk quota refuses growth with ENOSPC without changing anything.
 */
import { codeOf } from '../../../../test/support/model.ts';
import { describe, expect, it } from 'vitest';
import { Vfs, type VfsMeter } from './vfs.ts';

const deep = (n: number, name = 'a') => `/${name}`.repeat(n);

describe('Vfs: linear in depth', () => {
  it('mkdir -p and a write with mkdirParents do work linear in the depth (10x deeper: about 10x the steps, not 100x)', () => {
    const cost = (depth: number, op: (vfs: Vfs, path: string) => void) => {
      const meter: VfsMeter = { steps: 0 };
      const vfs = new Vfs({ now: () => 0, meter });
      op(vfs, deep(depth));
      return meter.steps;
    };
    const mkdirP = (vfs: Vfs, p: string) => vfs.mkdir(p, { recursive: true });
    const write = (vfs: Vfs, p: string) => vfs.writeFile(`${p}/f`, 'x', { mkdirParents: true });
    for (const op of [mkdirP, write]) {
      const small = cost(500, op);
      const big = cost(5000, op);
      expect(big / small).toBeLessThan(12);
      expect(big).toBeLessThan(20 * 5000);
    }
  });

  it('a lookup through a deep path is linear too, also with symlinks on the way', () => {
    const meter: VfsMeter = { steps: 0 };
    const vfs = new Vfs({ now: () => 0, meter });
    vfs.mkdir(deep(4000), { recursive: true });
    vfs.symlink(deep(2000), '/link');
    meter.steps = 0;
    expect(vfs.stat(`/link${deep(2000)}`).type).toBe('directory');
    expect(meter.steps).toBeLessThan(3 * 4000);
  });

  it('works on a tree deeper than any recursion could go: write, stat, diff, chmod -R, copy, allPaths, rm -r', () => {
    const depth = 20_000;
    const vfs = new Vfs({ now: () => 1 });
    const before = vfs.snapshot();
    vfs.writeFile(`${deep(depth)}/leaf.txt`, 'deep', { mkdirParents: true });
    expect(new TextDecoder().decode(vfs.readFile(`${deep(depth)}/leaf.txt`))).toBe('deep');
    const created = Vfs.diff(before, vfs.snapshot());
    expect(created).toHaveLength(depth + 1);
    expect(created[0]).toMatchObject({ path: '/a', event: 'create', isDir: true });
    expect(created.at(-1)).toMatchObject({ path: `${deep(depth)}/leaf.txt`, event: 'create', size: 4 });
    expect(vfs.chmod('/a', 0o700, { recursive: true })).toHaveLength(depth + 1);
    expect(vfs.stat(deep(depth)).mode).toBe(0o700);
    expect(vfs.copy('/a', '/b', { recursive: true })).toHaveLength(depth + 1);
    expect(vfs.readFile(`/b${deep(depth - 1)}/leaf.txt`)).toHaveLength(4);
    expect(vfs.allPaths()).toHaveLength(2 * (depth + 1));
    const listed = vfs.readdir('/a', { recursive: true });
    expect(listed).toHaveLength(depth);
    expect(listed.at(-1)).toMatchObject({ name: 'leaf.txt', stat: { type: 'file', size: 4 } });
    const removed = vfs.rm('/a', { recursive: true });
    expect(removed).toHaveLength(depth + 1);
    expect(removed[0]).toBe('/a');
    expect(vfs.exists('/a')).toBe(false);
    expect(vfs.totalBytes()).toBe(4);
  }, 30_000);
});

describe('Vfs: recursive readdir', () => {
  it('lists every descendant depth-first, a directory right before its entries, without following symlinks', () => {
    const vfs = new Vfs({ now: () => 0 });
    vfs.writeFile('/r/b/x', '1', { mkdirParents: true });
    vfs.writeFile('/r/a', '22');
    vfs.writeFile('/r/c/d/y', '3', { mkdirParents: true });
    vfs.symlink('/r/c', '/r/link');
    expect(vfs.readdir('/r', { recursive: true }).map((e) => [e.path, e.stat.type])).toEqual([
      ['/r/a', 'file'],
      ['/r/b', 'directory'],
      ['/r/b/x', 'file'],
      ['/r/c', 'directory'],
      ['/r/c/d', 'directory'],
      ['/r/c/d/y', 'file'],
      ['/r/link', 'symlink'],
    ]);
    expect(vfs.readdir('/r').map((e) => e.name)).toEqual(['a', 'b', 'c', 'link']);
  });

  it('does work linear in the size of the tree', () => {
    const steps = (depth: number) => {
      const meter: VfsMeter = { steps: 0 };
      const vfs = new Vfs({ now: () => 0, meter });
      vfs.mkdir(deep(depth), { recursive: true });
      meter.steps = 0;
      vfs.readdir('/', { recursive: true });
      return meter.steps;
    };
    expect(steps(5000) / steps(500)).toBeLessThan(12);
  });
});

describe('Vfs: disk quota', () => {
  const make = () => {
    const vfs = Vfs.skeleton(() => 0, { quotaBytes: 100 });
    vfs.writeFile('/home/sprite/a', 'x'.repeat(60));
    return vfs;
  };

  it('refuses a write that grows the stored bytes past the quota with ENOSPC, and changes nothing', () => {
    const vfs = make();
    const before = vfs.snapshot();
    expect(codeOf(() => vfs.writeFile('/home/sprite/b', 'y'.repeat(41)))).toBe('ENOSPC');
    expect(codeOf(() => vfs.writeFile('/home/sprite/a', 'z'.repeat(50), { append: true }))).toBe('ENOSPC');
    expect(codeOf(() => vfs.writeFile('/home/sprite/new/dir/b', 'y'.repeat(41), { mkdirParents: true }))).toBe('ENOSPC');
    expect(codeOf(() => vfs.copy('/home/sprite/a', '/home/sprite/c'))).toBe('ENOSPC');
    expect(vfs.snapshot()).toBe(before);
    expect(vfs.exists('/home/sprite/new')).toBe(false);
    expect(vfs.totalBytes()).toBe(60);
  });

  it('allows writes up to the quota, overwrites that do not grow, and shrinking', () => {
    const vfs = make();
    vfs.writeFile('/home/sprite/b', 'y'.repeat(40));
    expect(vfs.totalBytes()).toBe(100);
    vfs.writeFile('/home/sprite/b', 'w'.repeat(40));
    vfs.writeFile('/home/sprite/a', 'small');
    expect(vfs.totalBytes()).toBe(45);
    vfs.quotaBytes = 10; // lowered below what is stored: deleting and shrinking still work, growing does not
    expect(codeOf(() => vfs.writeFile('/home/sprite/c', 'q'))).toBe('ENOSPC');
    vfs.rm('/home/sprite/b');
    vfs.writeFile('/home/sprite/a', 'tiny');
    expect(vfs.totalBytes()).toBe(4);
  });

  it('does not limit a restore (a checkpoint is not a write)', () => {
    const vfs = Vfs.skeleton(() => 0);
    vfs.writeFile('/big', 'x'.repeat(500));
    const snap = vfs.snapshot();
    const limited = new Vfs({ root: snap, quotaBytes: 10 });
    limited.restore(snap);
    expect(limited.totalBytes()).toBe(500);
  });
});
