import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { Vfs } from '../machines/memory/vfs.ts';
import { BlobStore } from './blobs.ts';
import { listenErrorMessage, openDataDir, StartupError } from './open-data-dir.ts';
import { DataDirStore } from './store.ts';
import { TreeJournal } from '../machines/memory/persistence.ts';
import { DataDirRows } from './disk-rows.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spritzer-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const logger = pino({ level: 'silent' });
const blobCount = (blobs: BlobStore) => readdirSync(blobs.dir).flatMap((fan) => readdirSync(join(blobs.dir, fan))).length;

describe('compaction', () => {
  it('deletes the blobs of overwritten files and keeps those a tree still names', () => {
    const store = DataDirStore.open({ dir, clock: new FakeClock(), logger });
    const vfs = Vfs.skeleton(() => 1);
    const journal = new TreeJournal(new DataDirRows(store.db, store.blobs), 's1', vfs, false);
    vfs.writeFile('/kept', 'kept');
    vfs.writeFile('/f', 'old');
    journal.saveTree('v1', vfs.snapshot());
    vfs.writeFile('/f', 'newer');
    vfs.writeFile('/f', 'newest');
    expect(blobCount(store.blobs)).toBe(4);
    expect(store.compact()).toBe(1); // 'newer': in no tree; 'old' is still in checkpoint v1
    expect(blobCount(store.blobs)).toBe(3);
    store.db.deleteTree.run('s1', 'v1');
    expect(store.compact()).toBe(1);
    expect(store.blobs.get(BlobStore.hash(new TextEncoder().encode('newest')))).toEqual(new TextEncoder().encode('newest'));
    journal.stop();
    store.close();
  });
});

describe('openDataDir', () => {
  it('claims the dir (a pid file) and releases it', async () => {
    const opened = await openDataDir(join(dir, 'data'), { clock: new FakeClock(), logger });
    expect(existsSync(join(dir, 'data', 'spritzer.pid'))).toBe(true);
    expect(existsSync(join(dir, 'data', 'spritzer.db'))).toBe(true);
    opened.store.close();
    await opened.claim.release();
    expect(existsSync(join(dir, 'data', 'spritzer.pid'))).toBe(false);
  });

  it('refuses a database of another schema version with a one-line message, and releases the lock', async () => {
    const first = await openDataDir(dir, { clock: new FakeClock(), logger });
    first.store.db.db.prepare("UPDATE meta SET value = '7' WHERE key = 'schema_version'").run();
    first.store.close();
    await first.claim.release();
    const err = await openDataDir(dir, { clock: new FakeClock(), logger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    expect((err as Error).message).toMatch(/spritzer\.db has schema version 7; this spritzer reads version 3\. Refusing to start/);
    expect(existsSync(join(dir, 'spritzer.pid'))).toBe(false);
  });
});

describe('listenErrorMessage', () => {
  const err = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
  it('says what to do for the usual failures', () => {
    expect(listenErrorMessage(err('EADDRINUSE'), '127.0.0.1', 4290)).toBe('127.0.0.1:4290 is already in use; pass --addr');
    expect(listenErrorMessage(err('EADDRINUSE'), '::1', 80)).toBe('[::1]:80 is already in use; pass --addr');
    expect(listenErrorMessage(err('EADDRNOTAVAIL'), '10.9.9.9', 1)).toBe('10.9.9.9:1: no such address on this machine; pass --addr');
    expect(listenErrorMessage(err('EOTHER'), 'h', 2)).toBe('cannot listen on h:2: listen EOTHER');
  });
});
