import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Vfs } from '../machines/memory/vfs.ts';
import { BlobStore } from './blobs.ts';
import Database from 'better-sqlite3';
import { DataDirError, DB_FILE, MetaDb, SCHEMA_VERSION, type EntryRow } from './db.ts';
import { buildVfs, LIVE_TREE, TreeJournal } from './tree.ts';

let dir: string;
let db: MetaDb;
let blobs: BlobStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spritzer-tree-'));
  db = new MetaDb(dir);
  blobs = new BlobStore(join(dir, 'blobs'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything a user can observe of a tree: each entry's lstat and the bytes of each file. */
function observe(vfs: Vfs) {
  return [{ path: '/', stat: vfs.lstat('/') }, ...vfs.readdir('/', { recursive: true })].map((e) => ({
    path: e.path,
    stat: e.stat,
    data: e.stat.type === 'file' ? Buffer.from(vfs.readFile(e.path)).toString('hex') : undefined,
  }));
}

const rows = (tree = LIVE_TREE) => db.treeRows.all('s1', tree) as EntryRow[];

describe('the disk journal', () => {
  it('rebuilds a tree with the same entries, bytes, modes, owners and mtimes after every kind of change', () => {
    let t = 1_700_000_000_000;
    const vfs = Vfs.skeleton(() => (t += 1000));
    const journal = new TreeJournal(db, blobs, 's1', vfs, false);
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
    const rebuilt = buildVfs(rows(), blobs, () => 0);
    expect(observe(rebuilt)).toEqual(observe(vfs));
    expect(rebuilt.readFile('/home/sprite/d/link').toString()).toBe(new TextEncoder().encode('alpha-more').toString());
    journal.stop();
  });

  it('stores each distinct content once, shared by the live tree and a checkpoint', () => {
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(db, blobs, 's1', vfs, false);
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
    const journal = new TreeJournal(db, blobs, 's1', vfs, false);
    vfs.writeFile('/home/sprite/f', 'one');
    const snap = vfs.snapshot();
    vfs.writeFile('/home/sprite/f', 'two');
    vfs.writeFile('/home/sprite/g', 'new');
    journal.saveTree('v1', snap);
    const cp = buildVfs(rows('v1'), blobs, () => 0);
    expect(new TextDecoder().decode(cp.readFile('/home/sprite/f'))).toBe('one');
    expect(cp.exists('/home/sprite/g')).toBe(false);
    journal.stop();
  });

  it('stops writing once stopped', () => {
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(db, blobs, 's1', vfs, false);
    journal.stop();
    vfs.writeFile('/after', 'x');
    expect(rows().map((r) => r.path)).not.toContain('/after');
  });
});

describe('the metadata database', () => {
  it('refuses a data dir written by another schema version and leaves it unchanged', () => {
    db.db.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    expect(() => new MetaDb(dir)).toThrow(DataDirError);
    expect(() => new MetaDb(dir)).toThrow(/schema version 99; this spritzer reads version 1/);
    const raw = new Database(join(dir, DB_FILE));
    expect(raw.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: '99' });
    raw.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION));
    raw.close();
    db = new MetaDb(dir);
  });
});
