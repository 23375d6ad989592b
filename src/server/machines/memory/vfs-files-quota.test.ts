/**
 * The VFS's regular-file budget (`--max-files`, docs/limits.md): a write or copy that would add a file past
 * `quotaFiles` is ENOSPC and changes nothing; overwrites, directories, symlinks, deletes and restores are not
 * limited; the quota applies to new trees (`skeleton`) and to trees built from a snapshot.
 */
import { codeOf } from '../../../../test/support/model.ts';
import { describe, expect, it } from 'vitest';
import { Vfs } from './vfs.ts';
import { VfsError } from '../port.ts';

describe('Vfs: file-count quota', () => {
  const make = () => {
    const vfs = Vfs.skeleton(() => 0, { quotaFiles: 2 });
    vfs.writeFile('/home/sprite/a', 'x');
    vfs.writeFile('/home/sprite/b', 'y');
    return vfs;
  };

  it('has no limit by default', () => {
    const vfs = Vfs.skeleton(() => 0);
    expect(vfs.quotaFiles).toBe(Infinity);
    for (let i = 0; i < 50; i++) vfs.writeFile(`/f${i}`, '');
    expect(vfs.fileCount()).toBe(50);
  });

  it('refuses one more file with ENOSPC at its path, for writes and copies, and changes nothing', () => {
    const vfs = make();
    const before = vfs.snapshot();
    let err: unknown;
    try {
      vfs.writeFile('/home/sprite/c', '');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VfsError);
    expect(err).toMatchObject({ code: 'ENOSPC', path: '/home/sprite/c' });
    expect(codeOf(() => vfs.writeFile('/home/sprite/new/dir/c', 'z', { mkdirParents: true }))).toBe('ENOSPC');
    expect(codeOf(() => vfs.copy('/home/sprite/a', '/home/sprite/a2'))).toBe('ENOSPC');
    expect(codeOf(() => vfs.copy('/home/sprite', '/home/copy', { recursive: true }))).toBe('ENOSPC');
    expect(vfs.snapshot()).toBe(before);
    expect(vfs.exists('/home/sprite/new')).toBe(false);
    expect(vfs.fileCount()).toBe(2);
  });

  it('at the limit: overwrites, appends, directories, symlinks, renames and deletes work', () => {
    const vfs = make();
    vfs.writeFile('/home/sprite/a', 'longer');
    vfs.writeFile('/home/sprite/b', '+', { append: true });
    vfs.mkdir('/home/sprite/dir');
    vfs.symlink('/home/sprite/a', '/home/sprite/link');
    vfs.rename('/home/sprite/a', '/home/sprite/dir/a');
    expect(vfs.fileCount()).toBe(2);
    vfs.rm('/home/sprite/b');
    vfs.writeFile('/home/sprite/c', 'new');
    expect(vfs.fileCount()).toBe(2);
  });

  it('a lowered quota still lets the tree shrink; a tree from a snapshot and a restore are not limited', () => {
    const vfs = make();
    vfs.quotaFiles = 1;
    expect(codeOf(() => vfs.writeFile('/home/sprite/c', ''))).toBe('ENOSPC');
    vfs.rm('/home/sprite/a');
    expect(codeOf(() => vfs.writeFile('/home/sprite/c', ''))).toBe('ENOSPC');
    vfs.rm('/home/sprite/b');
    vfs.writeFile('/home/sprite/c', '');
    const big = Vfs.skeleton(() => 0);
    for (let i = 0; i < 5; i++) big.writeFile(`/f${i}`, '');
    const limited = new Vfs({ root: big.snapshot(), quotaFiles: 1 });
    expect(limited.fileCount()).toBe(5);
    expect(codeOf(() => limited.writeFile('/f9', ''))).toBe('ENOSPC');
    limited.writeFile('/f0', 'overwrite');
    vfs.restore(big.snapshot());
    expect(vfs.fileCount()).toBe(5);
  });
});
