import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirError, DB_FILE, MetaDb, SCHEMA_VERSION } from './db.ts';
import { openSqlite } from './sqlite.ts';

let dir: string;
let db: MetaDb;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spritzer-db-'));
  db = new MetaDb(dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the metadata database', () => {
  it('refuses a data dir written by another schema version and leaves it unchanged', () => {
    db.db.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    db.close();
    expect(() => new MetaDb(dir)).toThrow(DataDirError);
    expect(() => new MetaDb(dir)).toThrow(/schema version 99; this spritzer reads version 3/);
    const raw = openSqlite(join(dir, DB_FILE), 'test');
    expect(raw.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: '99' });
    raw.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION));
    raw.close();
    db = new MetaDb(dir);
  });

  it('upgrades a version-1 data dir in place: its entries are kept, without inode numbers, the sprite user\'s 1000 as 1001', () => {
    db.close();
    const raw = openSqlite(join(dir, DB_FILE), 'test');
    raw.exec('DROP TABLE entries');
    raw.exec(`CREATE TABLE entries (sprite TEXT NOT NULL, tree TEXT NOT NULL, path TEXT NOT NULL, type TEXT NOT NULL,
      mode INTEGER NOT NULL, uid INTEGER NOT NULL, gid INTEGER NOT NULL, mtime REAL NOT NULL, blob TEXT, target TEXT,
      PRIMARY KEY (sprite, tree, path)) WITHOUT ROWID`);
    raw.prepare("INSERT INTO entries VALUES ('s', '', '/f', 'file', 420, 1000, 1000, 5, 'h', NULL)").run();
    raw.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    raw.close();
    db = new MetaDb(dir);
    expect(db.treeRows.all('s', '')).toEqual([{ path: '/f', type: 'file', mode: 420, uid: 1001, gid: 1001, mtime: 5, blob: 'h', target: null, ino: null }]);
    expect(db.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
  });

  it('upgrades a version-2 data dir in place: the sprite user\'s old uid and gid 1000 become its 1001, other owners stay', () => {
    const row = (path: string, uid: number, gid: number) => db.upsertEntry.run('s', '', path, 'file', 420, uid, gid, 5, null, null, 7);
    row('/mine', 1000, 1000);
    row('/root', 0, 0);
    row('/mixed', 0, 1000);
    row('/other', 4242, 100);
    db.db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema_version'").run();
    db.close();
    db = new MetaDb(dir);
    expect(db.treeRows.all('s', '').map((r) => [(r as { path: string }).path, (r as { uid: number }).uid, (r as { gid: number }).gid])).toEqual([
      ['/mine', 1001, 1001], ['/mixed', 0, 1001], ['/other', 4242, 100], ['/root', 0, 0],
    ]);
    db.close();
    db = new MetaDb(dir);
    expect(db.treeRows.all('s', '').map((r) => (r as { uid: number }).uid)).toEqual([1001, 0, 4242, 0]);
  });
});
