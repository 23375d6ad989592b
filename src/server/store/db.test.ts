import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirError, DB_FILE, MetaDb, SCHEMA_VERSION } from './db.ts';

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
    expect(() => new MetaDb(dir)).toThrow(/schema version 99; this spritzer reads version 1/);
    const raw = new Database(join(dir, DB_FILE));
    expect(raw.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: '99' });
    raw.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION));
    raw.close();
    db = new MetaDb(dir);
  });
});
