/**
 * The SQLite driver under the state database (db.ts): Node's own `node:sqlite` on Node 24 and later (nothing to
 * install or compile), else the optional package better-sqlite3. better-sqlite3 up to 12 must not be used on Node 24:
 * its statements' destructors call a cleanup-hook removal that Node 24 checks, so a statement collected by the GC, or
 * one still alive at exit, aborts the process (`Assertion failed: (env) != nullptr` in
 * `node::RemoveEnvironmentCleanupHook`, SIGABRT; better-sqlite3 13, which fixes it, does not load on Node 20).
 * It owns the choice of driver and the small surface db.ts uses; nothing else.
 * @see docs/limits.md "Optional packages"
 */
import { createRequire } from 'node:module';
import { lazyRequireOptional } from '../runtime/lazy-require.ts';

/** A value bound to a statement's `?` or read from a column. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A prepared statement: `run` for writes, `get` for the first row (undefined when none), `all` for every row. */
export interface SqlStatement {
  run(...params: SqlValue[]): unknown;
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

/** An open database, as db.ts and store.ts use it. */
export interface SqlDatabase {
  /** The file it was opened on. */
  readonly name: string;
  /** False once closed. */
  readonly open: boolean;
  /** Runs one or more statements that return nothing. */
  exec(sql: string): void;
  /** Runs `PRAGMA <setting>` (e.g. `journal_mode = WAL`). */
  pragma(setting: string): void;
  prepare(sql: string): SqlStatement;
  /**
   * `fn` wrapped so that each call runs in one transaction: committed when it returns, rolled back when it throws
   * (the error passes through). A call inside another transaction is a savepoint of it.
   */
  transaction<T>(fn: () => T): () => T;
  close(): void;
}

/** The driver for this runtime: `node:sqlite` from Node 24 on, better-sqlite3 below. */
export const SQLITE_DRIVER: 'node:sqlite' | 'better-sqlite3' = Number(process.versions.node.split('.')[0]) >= 24 ? 'node:sqlite' : 'better-sqlite3';

/**
 * Opens (creating when missing) the SQLite database `file` with the runtime's driver ({@link SQLITE_DRIVER}). Throws
 * what the driver throws (an unreadable or foreign file), and, on Node before 24 without better-sqlite3 installed,
 * the missing-package error naming `feature` (lazy-require.ts).
 */
export function openSqlite(file: string, feature: string): SqlDatabase {
  return SQLITE_DRIVER === 'node:sqlite' ? nodeSqlite(file) : betterSqlite3(file, feature);
}

/** The part of better-sqlite3's Database used here (its own type lives in @types/better-sqlite3). */
interface BetterSqlite3 {
  readonly name: string;
  readonly open: boolean;
  exec(sql: string): unknown;
  pragma(setting: string): unknown;
  prepare(sql: string): SqlStatement;
  transaction<T>(fn: () => T): () => T;
  close(): unknown;
}

let loadBetterSqlite3: (() => new (file: string) => BetterSqlite3) | undefined;

/** better-sqlite3 as it is: its API is the one {@link SqlDatabase} describes. */
function betterSqlite3(file: string, feature: string): SqlDatabase {
  loadBetterSqlite3 ??= lazyRequireOptional<new (file: string) => BetterSqlite3>('better-sqlite3', feature);
  const db = new (loadBetterSqlite3())(file);
  return {
    name: db.name,
    get open() {
      return db.open;
    },
    exec: (sql) => void db.exec(sql),
    pragma: (setting) => void db.pragma(setting),
    prepare: (sql) => db.prepare(sql),
    transaction: (fn) => db.transaction(fn),
    close: () => void db.close(),
  };
}

/** The part of `node:sqlite`'s DatabaseSync used here (@types/node 20 has no types for it). */
interface DatabaseSync {
  readonly isOpen: boolean;
  /** Whether a transaction is open. */
  readonly isTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

/** `node:sqlite`, with better-sqlite3's pragma and transaction helpers (BEGIN/COMMIT, savepoints when nested). */
function nodeSqlite(file: string): SqlDatabase {
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as { DatabaseSync: new (file: string) => DatabaseSync };
  const db = new DatabaseSync(file);
  let depth = 0;
  return {
    name: file,
    get open() {
      return db.isOpen;
    },
    exec: (sql) => db.exec(sql),
    pragma: (setting) => void db.prepare(`PRAGMA ${setting}`).all(),
    prepare: (sql) => db.prepare(sql),
    transaction:
      <T>(fn: () => T) =>
      (): T => {
        const savepoint = depth > 0 ? `spritzer_${depth}` : undefined;
        db.exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
        depth++;
        try {
          const result = fn();
          depth--;
          db.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
          return result;
        } catch (err) {
          depth--;
          // SQLite may already have rolled the whole transaction back (a full disk, an interrupt): the caller gets the
          // original error, not "no transaction is active".
          if (db.isTransaction) db.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
          throw err;
        }
      },
    close: () => db.close(),
  };
}
