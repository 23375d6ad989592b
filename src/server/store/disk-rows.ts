/**
 * The data dir's `DiskRows` (the Machine port's view of it): tree entries in the metadata database's `entries` table,
 * file contents in the content-addressed blob store. It owns the mapping onto those two; what the trees mean is the
 * engine's (machines/memory/persistence.ts), and which blobs are garbage is store.ts's.
 */
import type { DiskRows, SavedEntry } from '../machines/port.ts';
import type { BlobStore } from './blobs.ts';
import type { EntryRow, MetaDb } from './db.ts';

/** `DiskRows` over `db` and `blobs`; every call is synchronous and throws what the database or the disk throws. */
export class DataDirRows implements DiskRows {
  constructor(
    private readonly db: MetaDb,
    private readonly blobs: BlobStore,
  ) {}

  rows(sprite: string, tree: string): SavedEntry[] {
    return this.db.treeRows.all(sprite, tree) as EntryRow[];
  }

  upsert(sprite: string, tree: string, e: SavedEntry): void {
    this.db.upsertEntry.run(sprite, tree, e.path, e.type, e.mode, e.uid, e.gid, e.mtime, e.blob, e.target, e.ino ?? null);
  }

  remove(sprite: string, tree: string, path: string): void {
    this.db.deleteEntry.run(sprite, tree, path);
  }

  clearTree(sprite: string, tree: string): void {
    this.db.deleteTree.run(sprite, tree);
  }

  copyTree(sprite: string, from: string, to: string): void {
    this.db.copyTree.run(to, sprite, from);
  }

  putBlob(data: Uint8Array): string {
    return this.blobs.put(data);
  }

  getBlob(hash: string): Uint8Array {
    return this.blobs.get(hash);
  }

  transaction(fn: () => void): void {
    this.db.db.transaction(fn)();
  }
}
