/**
 * The metadata database of a data directory (`spritzer.db`, SQLite in WAL mode, through sqlite.ts): the
 * schema, its version check, and the prepared statements the store uses. It owns no policy about what is saved
 * when (store.ts does) and never touches blobs (blobs.ts).
 */
import { openSqlite, type SqlDatabase, type SqlStatement } from './sqlite.ts';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { SavedEntry } from '../machines/port.ts';
import { SPRITE_GID, SPRITE_UID } from '../../protocol/sprite-tree.ts';

/**
 * The schema this build reads and writes. A data dir of version 1 (before inode numbers were kept) is upgraded in
 * place (its entries get an empty `ino`), and so is one of version 1 or 2 (whose sprite user was uid/gid 1000: its
 * entries of that owner become the sprite user's 1001); any other version is refused, never reset.
 */
export const SCHEMA_VERSION = 3;
/** The sprite user's uid and gid in data dirs of schema 1 and 2, before it became production's 1001. */
const OLD_SPRITE_ID = 1000;
/** The database file inside the data dir. */
export const DB_FILE = 'spritzer.db';

/** One filesystem entry of a tree (`tree` = '' for the live disk, else a checkpoint id). */
export type EntryRow = SavedEntry;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sprites (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  sprite TEXT NOT NULL, tree TEXT NOT NULL, path TEXT NOT NULL, type TEXT NOT NULL,
  mode INTEGER NOT NULL, uid INTEGER NOT NULL, gid INTEGER NOT NULL, mtime REAL NOT NULL,
  blob TEXT, target TEXT, ino INTEGER,
  PRIMARY KEY (sprite, tree, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, org TEXT NOT NULL);
`;

/** Makes `path` mode 0600, creating it empty when `create` and it is missing (else a missing file is left so). */
function privateFile(path: string, create: boolean): void {
  if (!create && !existsSync(path)) return;
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/** An error that stops the start with a message for the user (the data dir cannot be used). */
export class DataDirError extends Error {}

/** The opened database with its statements. */
export class MetaDb {
  readonly db: SqlDatabase;
  readonly upsertEntry: SqlStatement;
  readonly deleteEntry: SqlStatement;
  readonly deleteTree: SqlStatement;
  readonly copyTree: SqlStatement;
  readonly treeRows: SqlStatement;
  readonly upsertSprite: SqlStatement;
  readonly deleteSprite: SqlStatement;
  readonly deleteSpriteEntries: SqlStatement;
  readonly allSprites: SqlStatement;
  readonly upsertToken: SqlStatement;
  readonly allTokens: SqlStatement;
  readonly allBlobs: SqlStatement;

  /**
   * Opens (creating if new) `<dir>/spritzer.db`, mode 0600, as its WAL and shared-memory files (SQLite gives them the
   * database's mode): they hold services' environment, secrets included. Throws `DataDirError` when the file is not
   * a spritzer database or was written by another schema version.
   */
  constructor(dir: string) {
    const file = join(dir, DB_FILE);
    try {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) privateFile(f, f === file);
      this.db = openSqlite(file, '--data-dir (the state database)');
      this.db.pragma('journal_mode = WAL');
      // NORMAL: a commit is in the WAL file before it returns, so it survives a killed process (not an OS crash).
      this.db.pragma('synchronous = NORMAL');
      // The WAL is folded into the database by `checkpoint()` in the background (store.ts), not on a commit.
      this.db.pragma('wal_autocheckpoint = 0');
      this.db.pragma('busy_timeout = 2000');
    } catch (e) {
      throw new DataDirError(`cannot open ${file}: ${(e as Error).message}`);
    }
    const version = this.version();
    if (version === undefined) {
      this.db.exec(SCHEMA);
      this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
    } else if (version === 1 || version === 2) {
      this.db.transaction(() => {
        // Version 1 kept no inode numbers: its files come back as separate files with new numbers.
        if (version === 1) this.db.exec('ALTER TABLE entries ADD COLUMN ino INTEGER');
        // What the sprite user made stays its own under its new ids.
        this.db.prepare('UPDATE entries SET uid = ? WHERE uid = ?').run(SPRITE_UID, OLD_SPRITE_ID);
        this.db.prepare('UPDATE entries SET gid = ? WHERE gid = ?').run(SPRITE_GID, OLD_SPRITE_ID);
        this.db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION));
      })();
    } else if (version !== SCHEMA_VERSION) {
      this.db.close();
      throw new DataDirError(
        `${file} has schema version ${version}; this spritzer reads version ${SCHEMA_VERSION}. Refusing to start (nothing was changed): use another --data-dir or the matching spritzer`,
      );
    }
    this.upsertEntry = this.db.prepare(
      'INSERT OR REPLACE INTO entries (sprite, tree, path, type, mode, uid, gid, mtime, blob, target, ino) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.deleteEntry = this.db.prepare('DELETE FROM entries WHERE sprite = ? AND tree = ? AND path = ?');
    this.deleteTree = this.db.prepare('DELETE FROM entries WHERE sprite = ? AND tree = ?');
    this.copyTree = this.db.prepare(
      `INSERT OR REPLACE INTO entries (sprite, tree, path, type, mode, uid, gid, mtime, blob, target, ino)
       SELECT sprite, ?, path, type, mode, uid, gid, mtime, blob, target, ino FROM entries WHERE sprite = ? AND tree = ?`,
    );
    this.treeRows = this.db.prepare('SELECT path, type, mode, uid, gid, mtime, blob, target, ino FROM entries WHERE sprite = ? AND tree = ? ORDER BY path');
    this.upsertSprite = this.db.prepare('INSERT OR REPLACE INTO sprites (id, name, doc) VALUES (?, ?, ?)');
    this.deleteSprite = this.db.prepare('DELETE FROM sprites WHERE id = ?');
    this.deleteSpriteEntries = this.db.prepare('DELETE FROM entries WHERE sprite = ?');
    this.allSprites = this.db.prepare('SELECT id, name, doc FROM sprites ORDER BY name');
    this.upsertToken = this.db.prepare('INSERT OR REPLACE INTO tokens (digest, org) VALUES (?, ?)');
    this.allTokens = this.db.prepare('SELECT digest, org FROM tokens');
    this.allBlobs = this.db.prepare('SELECT DISTINCT blob FROM entries WHERE blob IS NOT NULL');
  }

  /** The stored schema version; undefined for a new (empty) database. Throws `DataDirError` for a foreign file. */
  private version(): number | undefined {
    try {
      const hasMeta = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
      if (!hasMeta) {
        const any = this.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
        if (any.n > 0) throw new DataDirError(`${this.db.name} is not a spritzer database (no meta table); refusing to start`);
        return undefined;
      }
      const row = this.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
      return row ? Number(row.value) : 0;
    } catch (e) {
      if (e instanceof DataDirError) throw e;
      throw new DataDirError(`cannot read ${this.db.name}: ${(e as Error).message}`);
    }
  }

  /** Folds the WAL into the database file (the journal's compaction). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
