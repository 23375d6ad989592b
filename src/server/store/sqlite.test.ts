import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, SQLITE_DRIVER, type SqlDatabase } from './sqlite.ts';

let dir: string;
let db: SqlDatabase;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spritzer-sqlite-'));
  db = openSqlite(join(dir, 'x.db'), 'test');
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
const rows = () => db.prepare('SELECT k, v FROM t ORDER BY k').all().map((r) => ({ ...(r as { k: string; v: number }) }));

describe(`the state database's SQLite driver (${SQLITE_DRIVER} on Node ${process.versions.node})`, () => {
  it('is Node’s own node:sqlite from Node 24 on, better-sqlite3 below', () => {
    expect(SQLITE_DRIVER).toBe(Number(process.versions.node.split('.')[0]) >= 24 ? 'node:sqlite' : 'better-sqlite3');
  });

  it('binds parameters, reads rows back, and sets pragmas', () => {
    const put = db.prepare('INSERT INTO t VALUES (?, ?)');
    put.run('a', 1);
    put.run('b', 2 ** 40);
    expect(rows()).toEqual([{ k: 'a', v: 1 }, { k: 'b', v: 2 ** 40 }]);
    expect({ ...(db.prepare('SELECT v FROM t WHERE k = ?').get('b') as object) }).toEqual({ v: 2 ** 40 });
    expect(db.prepare('SELECT v FROM t WHERE k = ?').get('none')).toBeUndefined();
    db.pragma('journal_mode = WAL');
    expect({ ...(db.prepare('PRAGMA journal_mode').get() as object) }).toEqual({ journal_mode: 'wal' });
  });

  it('commits a transaction that returns, rolls back one that throws, and nests as a savepoint', () => {
    const put = db.prepare('INSERT INTO t VALUES (?, ?)');
    expect(db.transaction(() => (put.run('a', 1), 'done'))()).toBe('done');
    expect(() => db.transaction(() => {
      put.run('b', 2);
      throw new Error('boom');
    })()).toThrow('boom');
    expect(rows()).toEqual([{ k: 'a', v: 1 }]);
    db.transaction(() => {
      put.run('c', 3);
      expect(() => db.transaction(() => {
        put.run('d', 4);
        throw new Error('inner');
      })()).toThrow('inner');
      put.run('e', 5);
    })();
    expect(rows().map((r) => r.k)).toEqual(['a', 'c', 'e']);
  });

  it('says when it is closed', () => {
    expect(db.open).toBe(true);
    db.close();
    expect(db.open).toBe(false);
    db = openSqlite(join(dir, 'x.db'), 'test');
  });
});
