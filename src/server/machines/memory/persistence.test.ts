import { mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Vfs } from './vfs.ts';
import { BlobStore } from '../../store/blobs.ts';
import { MetaDb } from '../../store/db.ts';
import { DataDirRows } from '../../store/disk-rows.ts';
import { buildVfs, LIVE_TREE, MemoryPersistence, TreeJournal } from './persistence.ts';
import { UnreadableDiskError, type Machine, type MachineSpec } from '../port.ts';

let dir: string;
let db: MetaDb;
let blobs: BlobStore;
let disk: DataDirRows;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spritzer-tree-'));
  db = new MetaDb(dir);
  blobs = new BlobStore(join(dir, 'blobs'));
  disk = new DataDirRows(db, blobs);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything a user can observe of a tree: each entry's lstat and the bytes of each file. */
/** What a rebuilt tree must keep: every entry's stat but its access time (the rows keep none), and its bytes. */
function observe(vfs: Vfs) {
  return [{ path: '/', stat: vfs.lstat('/') }, ...vfs.readdir('/', { recursive: true })].map((e) => ({
    path: e.path,
    stat: { ...e.stat, atimeMs: undefined, atimeNs: undefined },
    data: e.stat.type === 'file' ? Buffer.from(vfs.readFile(e.path)).toString('hex') : undefined,
  }));
}

const rows = (tree = LIVE_TREE) => disk.rows('s1', tree);

describe('the disk journal', () => {
  it('rebuilds a tree with the same entries, bytes, modes, owners and mtimes after every kind of change', () => {
    let t = 1_700_000_000_000;
    const vfs = Vfs.skeleton(() => (t += 1000));
    const journal = new TreeJournal(disk, 's1', vfs, false);
    vfs.writeFile('/home/sprite/a.txt', 'alpha', { mode: 0o600 });
    vfs.mkdir('/home/sprite/d/e', { recursive: true, mode: 0o700 });
    vfs.writeFile('/home/sprite/d/e/bin', new Uint8Array([0, 255, 10, 13]));
    vfs.symlink('../a.txt', '/home/sprite/d/link');
    vfs.chown('/home/sprite/a.txt', 0, 0);
    vfs.chmod('/', 0o711);
    vfs.rename('/home/sprite/d/e', '/home/sprite/e2');
    vfs.writeFile('/tmp/gone', 'x');
    vfs.rm('/tmp/gone');
    vfs.writeFile('/home/sprite/a.txt', '-more', { append: true });
    const rebuilt = buildVfs(rows(), disk, () => 0);
    expect(observe(rebuilt)).toEqual(observe(vfs));
    expect(rebuilt.readFile('/home/sprite/d/link').toString()).toBe(new TextEncoder().encode('alpha-more').toString());
    journal.stop();
  });

  it('rebuilds hard links as one file with several names, and every inode number as it was', () => {
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(disk, 's1', vfs, false);
    vfs.writeFile('/home/sprite/a', 'one');
    vfs.mkdir('/tmp/d');
    vfs.link('/home/sprite/a', '/tmp/d/b');
    vfs.link('/home/sprite/a', '/home/sprite/c');
    vfs.writeFile('/tmp/d/b', 'two');
    journal.saveTree('cp1', vfs.snapshot());
    vfs.rm('/home/sprite/c');
    const rebuilt = buildVfs(rows(), disk, () => 0);
    expect(observe(rebuilt)).toEqual(observe(vfs));
    expect(rebuilt.stat('/home/sprite/a').nlink).toBe(2);
    rebuilt.writeFile('/home/sprite/a', 'three');
    expect(new TextDecoder().decode(rebuilt.readFile('/tmp/d/b'))).toBe('three');
    const fresh = rebuilt.stat('/tmp').ino;
    rebuilt.writeFile('/tmp/new', '');
    expect([...observe(vfs).map((e) => e.stat.ino), fresh]).not.toContain(rebuilt.stat('/tmp/new').ino);
    const checkpoint = buildVfs(rows('cp1'), disk, () => 0);
    expect(checkpoint.stat('/home/sprite/c')).toMatchObject({ nlink: 3, ino: vfs.stat('/home/sprite/a').ino });
    journal.stop();
  });

  it('stores each distinct content once, shared by the live tree and a checkpoint', () => {
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(disk, 's1', vfs, false);
    vfs.writeFile('/a', 'same');
    vfs.writeFile('/b', 'same');
    journal.saveTree('v1', vfs.snapshot());
    vfs.writeFile('/c', 'other');
    const blobFiles = readdirSync(blobs.dir).flatMap((fan) => readdirSync(join(blobs.dir, fan)));
    expect(blobFiles).toHaveLength(2);
    expect(rows('v1').map((r) => r.path)).toEqual(['/', '/a', '/b', '/home', '/home/sprite', '/tmp']);
    expect(rows().map((r) => r.path)).toContain('/c');
    journal.stop();
  });

  it('saves a checkpoint as of its snapshot even when the disk changed since', () => {
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(disk, 's1', vfs, false);
    vfs.writeFile('/home/sprite/f', 'one');
    const snap = vfs.snapshot();
    vfs.writeFile('/home/sprite/f', 'two');
    vfs.writeFile('/home/sprite/g', 'new');
    journal.saveTree('v1', snap);
    const cp = buildVfs(rows('v1'), disk, () => 0);
    expect(new TextDecoder().decode(cp.readFile('/home/sprite/f'))).toBe('one');
    expect(cp.exists('/home/sprite/g')).toBe(false);
    journal.stop();
  });

  it('stops writing once stopped', () => {
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(disk, 's1', vfs, false);
    journal.stop();
    vfs.writeFile('/after', 'x');
    expect(rows().map((r) => r.path)).not.toContain('/after');
  });
});

describe('the in-memory engines\' persistence', () => {
  const spec: MachineSpec = { name: 'p', id: 's1', diskQuotaBytes: 1024, maxFiles: 10 };
  /** A persistence whose machines are just their disks. */
  const persistence = () => new MemoryPersistence(async (_spec, vfs) => ({ vfs }) as unknown as Machine, () => 5);

  it('boots a sprite again on the disk it saved, with its checkpoint, under the quotas of its spec', async () => {
    const vfs = Vfs.skeleton(() => 1);
    const first = persistence();
    const at = { spriteId: 's1', rows: disk };
    expect(first.save({ vfs } as unknown as Machine, at)).toBeUndefined();
    vfs.writeFile('/home/sprite/f', 'one');
    const snap = { kind: 'memory', root: vfs.snapshot() };
    first.saveSnapshot(snap, { ...at, checkpointId: 'v1' });
    vfs.writeFile('/home/sprite/f', 'two');
    first.release('s1');
    vfs.writeFile('/home/sprite/after', 'not saved');

    const again = persistence();
    const machine = (await again.reattach(spec, undefined, at)) as unknown as { vfs: Vfs };
    expect(new TextDecoder().decode(machine.vfs.readFile('/home/sprite/f'))).toBe('two');
    expect(machine.vfs.exists('/home/sprite/after')).toBe(false);
    expect(machine.vfs.quotaBytes).toBe(1024);
    const revived = again.reviveSnapshot(undefined, { ...at, checkpointId: 'v1' }) as unknown as { root: ReturnType<Vfs['snapshot']> };
    expect(new TextDecoder().decode(new Vfs({ root: revived.root }).readFile('/home/sprite/f'))).toBe('one');
    machine.vfs.writeFile('/home/sprite/g', 'journaled after the boot');
    expect(rows().map((r) => r.path)).toContain('/home/sprite/g');
    again.release('s1');
  });

  it('refuses, as an unreadable disk, one whose file contents are gone from the data dir', async () => {
    const vfs = Vfs.skeleton(() => 1);
    const p = persistence();
    p.save({ vfs } as unknown as Machine, { spriteId: 's1', rows: disk });
    vfs.writeFile('/home/sprite/f', 'content');
    p.release('s1');
    for (const fan of readdirSync(blobs.dir)) for (const f of readdirSync(join(blobs.dir, fan))) unlinkSync(join(blobs.dir, fan, f));
    await expect(persistence().reattach(spec, undefined, { spriteId: 's1', rows: disk })).rejects.toBeInstanceOf(UnreadableDiskError);
  });
});
