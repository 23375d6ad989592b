/**
 * Hard links and inode numbers in the VFS: two names of one file share content, mode, owner and mtime; the link
 * count counts names (a directory's is 2 + its subdirectories, as ext4 gives); removing one name keeps the file;
 * quotas count a file once; snapshots, restores and diffs keep the names linked; inode numbers are stable per file.
 */
import { describe, expect, it } from 'vitest';
import { Vfs, type VfsMeter } from './vfs.ts';
import { codeOf } from '../../../../test/support/model.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

function make(meter?: VfsMeter) {
  let t = 1_700_000_000_000;
  const vfs = Vfs.skeleton(() => (t += 1000), { meter });
  vfs.writeFile('/home/sprite/a', 'one');
  return vfs;
}

describe('Vfs: hard links', () => {
  it('gives two names one file: content, mode, owner, mtime and inode number shared, link count 2', () => {
    const vfs = make();
    vfs.link('/home/sprite/a', '/home/sprite/b');
    expect(vfs.stat('/home/sprite/a')).toEqual(vfs.stat('/home/sprite/b'));
    expect(vfs.stat('/home/sprite/a').nlink).toBe(2);
    vfs.writeFile('/home/sprite/b', 'two');
    expect(text(vfs.readFile('/home/sprite/a'))).toBe('two');
    vfs.writeFile('/home/sprite/a', '+', { append: true });
    expect(text(vfs.readFile('/home/sprite/b'))).toBe('two+');
    vfs.chmod('/home/sprite/b', 0o600);
    vfs.chown('/home/sprite/a', 0, 0);
    vfs.utimes('/home/sprite/b', 5000);
    expect(vfs.stat('/home/sprite/a')).toMatchObject({ mode: 0o600, uid: 0, gid: 0, mtimeMs: 5000, size: 4 });
    vfs.writeFile('/home/sprite/a', '');
    expect(vfs.stat('/home/sprite/b').size).toBe(0);
  });

  it('counts every name, and keeps the file when one name goes', () => {
    const vfs = make();
    vfs.link('/home/sprite/a', '/home/sprite/b');
    vfs.mkdir('/tmp/d');
    vfs.link('/home/sprite/b', '/tmp/d/c');
    expect(vfs.stat('/home/sprite/a').nlink).toBe(3);
    vfs.rm('/home/sprite/a');
    expect(vfs.stat('/tmp/d/c')).toMatchObject({ nlink: 2 });
    vfs.rm('/tmp/d', { recursive: true });
    expect(vfs.stat('/home/sprite/b').nlink).toBe(1);
    expect(text(vfs.readFile('/home/sprite/b'))).toBe('one');
    vfs.writeFile('/home/sprite/b', 'still mine');
    expect(text(vfs.readFile('/home/sprite/b'))).toBe('still mine');
  });

  it('keeps the link through a rename (of the name or of a directory above it)', () => {
    const vfs = make();
    vfs.mkdir('/tmp/d');
    vfs.link('/home/sprite/a', '/tmp/d/b');
    vfs.rename('/tmp/d', '/tmp/e');
    vfs.rename('/home/sprite/a', '/home/sprite/z');
    vfs.writeFile('/tmp/e/b', 'moved');
    expect(text(vfs.readFile('/home/sprite/z'))).toBe('moved');
    expect(vfs.stat('/home/sprite/z').nlink).toBe(2);
  });

  it('renaming one name onto another of the same file does nothing; onto another file, drops that name', () => {
    const vfs = make();
    vfs.link('/home/sprite/a', '/home/sprite/b');
    vfs.rename('/home/sprite/a', '/home/sprite/b');
    expect(vfs.stat('/home/sprite/a').nlink).toBe(2);
    vfs.writeFile('/home/sprite/c', 'c');
    vfs.link('/home/sprite/c', '/home/sprite/c2');
    vfs.rename('/home/sprite/a', '/home/sprite/c');
    expect(text(vfs.readFile('/home/sprite/c'))).toBe('one');
    expect(vfs.stat('/home/sprite/c').nlink).toBe(2);
    expect(vfs.stat('/home/sprite/c2').nlink).toBe(1);
  });

  it('a copy is a new file; a copy onto a name of a linked file writes that file for all its names', () => {
    const vfs = make();
    vfs.copy('/home/sprite/a', '/home/sprite/copy');
    expect(vfs.stat('/home/sprite/copy')).toMatchObject({ nlink: 1 });
    expect(vfs.stat('/home/sprite/copy').ino).not.toBe(vfs.stat('/home/sprite/a').ino);
    vfs.link('/home/sprite/a', '/home/sprite/b');
    vfs.mkdir('/tmp/t');
    vfs.copy('/home/sprite', '/tmp/t', { recursive: true });
    expect(vfs.stat('/tmp/t/a').nlink).toBe(1);
    vfs.writeFile('/tmp/src', 'new');
    vfs.copy('/tmp/src', '/home/sprite/b');
    expect(text(vfs.readFile('/home/sprite/a'))).toBe('new');
    expect(vfs.stat('/home/sprite/a').nlink).toBe(2);
  });

  it('links a symlink itself (not its target), and refuses directories and existing names', () => {
    const vfs = make();
    vfs.symlink('a', '/home/sprite/s');
    vfs.link('/home/sprite/s', '/home/sprite/s2');
    expect(vfs.lstat('/home/sprite/s2')).toMatchObject({ type: 'symlink', target: 'a', nlink: 2 });
    expect(text(vfs.readFile('/home/sprite/s2'))).toBe('one');
    expect(vfs.stat('/home/sprite/a').nlink).toBe(1);
    expect(codeOf(() => vfs.link('/tmp', '/home/sprite/t'))).toBe('EPERM');
    expect(codeOf(() => vfs.link('/home/sprite/a', '/home/sprite/s'))).toBe('EEXIST');
    expect(codeOf(() => vfs.link('/home/sprite/missing', '/home/sprite/x'))).toBe('ENOENT');
    expect(codeOf(() => vfs.link('/home/sprite/a', '/nope/x'))).toBe('ENOENT');
  });

  it("gives a directory the link count 2 + its subdirectories, as ext4 does", () => {
    const vfs = make();
    vfs.mkdir('/tmp/d/x/y', { recursive: true });
    vfs.mkdir('/tmp/d/z');
    vfs.writeFile('/tmp/d/f', '');
    expect(vfs.stat('/tmp/d').nlink).toBe(4);
    expect(vfs.stat('/tmp/d/x').nlink).toBe(3);
    vfs.rm('/tmp/d/z');
    expect(vfs.readdir('/tmp').find((e) => e.name === 'd')!.stat).toMatchObject({ nlink: 3 });
  });

  it('counts a linked file once in the byte and file quotas: a link adds nothing', () => {
    const vfs = make();
    vfs.quotaFiles = vfs.fileCount();
    vfs.quotaBytes = vfs.totalBytes();
    vfs.link('/home/sprite/a', '/home/sprite/b');
    vfs.link('/home/sprite/a', '/home/sprite/c');
    expect({ files: vfs.fileCount(), bytes: vfs.totalBytes() }).toEqual({ files: 1, bytes: 3 });
    expect(codeOf(() => vfs.writeFile('/home/sprite/b', 'more'))).toBe('ENOSPC');
    expect(codeOf(() => vfs.writeFile('/home/sprite/new', ''))).toBe('ENOSPC');
    vfs.rm('/home/sprite/a');
    vfs.rm('/home/sprite/b');
    expect({ files: vfs.fileCount(), bytes: vfs.totalBytes() }).toEqual({ files: 1, bytes: 3 });
    vfs.rm('/home/sprite/c');
    expect({ files: vfs.fileCount(), bytes: vfs.totalBytes() }).toEqual({ files: 0, bytes: 0 });
  });

  it('keeps links linked across a snapshot and restore, and leaves the snapshot unchanged by later writes', () => {
    const vfs = make();
    vfs.link('/home/sprite/a', '/home/sprite/b');
    const snap = vfs.snapshot();
    vfs.writeFile('/home/sprite/a', 'after');
    vfs.rm('/home/sprite/b');
    vfs.restore(snap);
    expect(text(vfs.readFile('/home/sprite/b'))).toBe('one');
    vfs.writeFile('/home/sprite/b', 'linked');
    expect(text(vfs.readFile('/home/sprite/a'))).toBe('linked');
    expect(text(new Vfs({ root: snap }).readFile('/home/sprite/a'))).toBe('one');
  });

  it('numbers inodes stably: a rename keeps the number, new files never reuse one, not even after a restore', () => {
    const vfs = make();
    const ino = vfs.stat('/home/sprite/a').ino;
    vfs.rename('/home/sprite/a', '/tmp/a');
    expect(vfs.stat('/tmp/a').ino).toBe(ino);
    expect(vfs.stat('/').ino).toBe(2);
    const snap = vfs.snapshot();
    vfs.writeFile('/tmp/later', '');
    const later = vfs.stat('/tmp/later').ino;
    vfs.restore(snap);
    vfs.writeFile('/tmp/again', '');
    expect(vfs.stat('/tmp/again').ino).not.toBe(later);
    const seen = new Set([vfs.lstat('/').ino, ...vfs.readdir('/', { recursive: true }).map((e) => e.stat.ino)]);
    expect(seen.size).toBe(vfs.readdir('/', { recursive: true }).length + 1);
  });
});

describe('Vfs.diff with hard links', () => {
  it('reports a write through one name at every name, and a new link as its create only', () => {
    const vfs = make();
    vfs.mkdir('/tmp/d');
    const s0 = vfs.snapshot();
    vfs.link('/home/sprite/a', '/tmp/d/b');
    expect(Vfs.diff(s0, vfs.snapshot()).filter((c) => c.path !== '/tmp/d')).toEqual([{ path: '/tmp/d/b', event: 'create', isDir: false, size: 3 }]);
    const s1 = vfs.snapshot();
    vfs.writeFile('/tmp/d/b', 'abcd');
    const changes = Vfs.diff(s1, vfs.snapshot());
    expect(changes.map((c) => `${c.event} ${c.path} ${c.size}`).sort()).toEqual(['write /home/sprite/a 4', 'write /tmp/d/b 4']);
    const s2 = vfs.snapshot();
    vfs.chmod('/home/sprite/a', 0o600);
    expect(Vfs.diff(s2, vfs.snapshot()).map((c) => `${c.event} ${c.path}`).sort()).toEqual(['chmod /home/sprite/a', 'chmod /tmp/d/b']);
    expect(Vfs.diff(s2, vfs.snapshot(), '/tmp').map((c) => c.path)).toEqual(['/tmp/d/b']);
  });

  it('walks only the paths to the names of a changed linked file, not the whole tree', () => {
    const meter: VfsMeter = { steps: 0 };
    const vfs = make();
    for (let i = 0; i < 300; i++) vfs.writeFile(`/tmp/dir${i}/f`, 'x', { mkdirParents: true });
    vfs.link('/home/sprite/a', '/home/sprite/b');
    const before = vfs.snapshot();
    vfs.writeFile('/home/sprite/a', 'changed');
    Vfs.diff(before, vfs.snapshot(), '/', { meter });
    expect(meter.steps).toBeLessThan(30);
  });

  it('costs a write to an unlinked file what it did before links existed: the path, whatever else is linked', () => {
    const steps = (linked: boolean) => {
      const meter: VfsMeter = { steps: 0 };
      const vfs = make(meter);
      for (let i = 0; i < 50; i++) vfs.writeFile(`/tmp/f${i}`, 'x');
      if (linked) for (let i = 0; i < 50; i++) vfs.link(`/tmp/f${i}`, `/tmp/g${i}`);
      meter.steps = 0;
      vfs.writeFile('/home/sprite/deep/er/file', 'y', { mkdirParents: true });
      vfs.stat('/home/sprite/deep/er/file');
      vfs.rm('/home/sprite/deep', { recursive: true });
      return meter.steps;
    };
    expect(steps(true)).toBe(steps(false));
  });
});

describe('Vfs: removing a tree that holds names of linked files', () => {
  /** A tree `/home/sprite/d` of ten plain files, with `extra` names in it linked to `/home/sprite/a`. */
  const tree = (extra: string[], meter?: VfsMeter) => {
    const vfs = make(meter);
    vfs.mkdir('/home/sprite/d');
    for (let i = 0; i < 10; i++) vfs.writeFile(`/home/sprite/d/f${i}`, 'x');
    for (const name of extra) vfs.link('/home/sprite/a', `/home/sprite/d/${name}`);
    return vfs;
  };
  const rmCost = (extra: string[], prepare?: (vfs: Vfs) => void) => {
    const meter: VfsMeter = { steps: 0 };
    const vfs = tree(extra, meter);
    prepare?.(vfs);
    const before = meter.steps;
    vfs.rm('/home/sprite/d', { recursive: true });
    return { steps: meter.steps - before, vfs };
  };

  it('drops one name per linked name inside it, wherever the tree was built from', () => {
    const { vfs } = rmCost(['l1', 'l2']);
    expect(vfs.stat('/home/sprite/a').nlink).toBe(1);
    const copy = tree(['l1']);
    copy.mkdir('/home/sprite/e');
    copy.link('/home/sprite/a', '/home/sprite/e/l');
    copy.rename('/home/sprite/d', '/home/sprite/e/d');
    const restored = new Vfs({ root: copy.snapshot() });
    expect(restored.stat('/home/sprite/a').nlink).toBe(3);
    restored.rm('/home/sprite/e', { recursive: true });
    expect(restored.stat('/home/sprite/a').nlink).toBe(1);
  });

  it('walks only the names that are links: one step per linked name, none per plain file', () => {
    const plain = rmCost([]).steps;
    const one = rmCost(['l1']).steps;
    const two = rmCost(['l1', 'l2']).steps;
    // Each further linked name costs the same few steps; the ten plain files beside them cost none.
    expect(rmCost(['l1', 'l2', 'l3']).steps - two).toBe(two - one);
    expect(two - one).toBeGreaterThan(0);
    expect(one - plain).toBeLessThan(10);
    // A linked name removed before the tree leaves nothing to walk.
    expect(rmCost(['l1'], (vfs) => vfs.rm('/home/sprite/d/l1')).steps).toBeLessThanOrEqual(plain);
  });
});

describe('Vfs: link refusals', () => {
  it('names the call and the path: a missing file, a directory, a name already taken, a missing directory on the way', () => {
    const vfs = make();
    vfs.mkdir('/home/sprite/dir');
    const message = (f: () => void) => {
      try {
        f();
      } catch (err) {
        return `${(err as { code?: string }).code} ${(err as Error).message}`;
      }
      return 'no error';
    };
    expect(message(() => vfs.link('/home/sprite/nope', '/home/sprite/x'))).toBe("ENOENT ENOENT: no such file or directory, link '/home/sprite/nope'");
    expect(message(() => vfs.link('/home/sprite/dir', '/home/sprite/x'))).toBe("EPERM EPERM: operation not permitted, link '/home/sprite/dir'");
    expect(message(() => vfs.link('/home/sprite/a', '/home/sprite/dir'))).toBe("EEXIST EEXIST: file already exists, link '/home/sprite/dir'");
    expect(message(() => vfs.link('/home/sprite/a', '/home/sprite/no/x'))).toMatch(/^ENOENT ENOENT: no such file or directory, link '\/home\/sprite\/no/);
  });
});

describe('Vfs: inode numbers given back by a rebuild', () => {
  it('are kept, and a file made afterwards takes the number after the highest one given', () => {
    const vfs = make();
    vfs.symlink('a', '/home/sprite/s', { ino: 5000 });
    vfs.writeFile('/home/sprite/n', '1');
    expect([vfs.lstat('/home/sprite/s').ino, vfs.lstat('/home/sprite/n').ino]).toEqual([5000, 5001]);
    vfs.symlink('a', '/home/sprite/low', { ino: 7 });
    vfs.writeFile('/home/sprite/m', '2');
    expect([vfs.lstat('/home/sprite/low').ino, vfs.lstat('/home/sprite/m').ino]).toEqual([7, 5002]);
  });
});
