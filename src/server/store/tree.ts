/**
 * A sprite's in-memory disk (`Vfs`) as rows of the data dir: the journal that writes every change of the live tree
 * to the database synchronously (before the mutation returns, hence before any response), the rows of a
 * checkpoint's tree, and the rebuild of a `Vfs` from rows at start. It owns no sprite metadata (store.ts does)
 * and knows nothing of HTTP.
 */
import { Vfs, type VfsSnapshot } from '../machines/memory/vfs.ts';
import { type VfsStat } from '../machines/port.ts';
import type { BlobStore } from './blobs.ts';
import type { EntryRow, MetaDb } from './db.ts';

/** The live tree's name in the `entries` table. */
export const LIVE_TREE = '';

/** The parent of an absolute canonical path (`/` for `/x`). */
function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/**
 * Writes into `tree` of `sprite` what changed from `before` to `after` (both snapshots of one sprite's disk):
 * changed entries are upserted (file bytes go to the blob store first), removed ones deleted, and the parents of
 * created or removed entries rewritten (their mtime moved). Cost follows the size of the change (`Vfs.diff`).
 * Call inside a transaction.
 */
export function writeDiff(db: MetaDb, blobs: BlobStore, sprite: string, tree: string, before: VfsSnapshot | undefined, after: VfsSnapshot): void {
  const view = new Vfs({ root: after });
  const touched = new Set<string>();
  if (before === undefined) {
    db.deleteTree.run(sprite, tree);
    upsert(db, blobs, view, sprite, tree, '/');
    for (const path of view.allPaths()) upsert(db, blobs, view, sprite, tree, path);
    return;
  }
  for (const change of Vfs.diff(before, after, '/')) {
    if (change.event === 'remove') db.deleteEntry.run(sprite, tree, change.path);
    else upsert(db, blobs, view, sprite, tree, change.path);
    if (change.event === 'create' || change.event === 'remove') touched.add(parentOf(change.path));
  }
  for (const dir of touched) if (exists(view, dir)) upsert(db, blobs, view, sprite, tree, dir);
}

function exists(view: Vfs, path: string): boolean {
  try {
    view.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function upsert(db: MetaDb, blobs: BlobStore, view: Vfs, sprite: string, tree: string, path: string): void {
  const st: VfsStat = view.lstat(path);
  const blob = st.type === 'file' ? blobs.put(view.readFile(path)) : null;
  db.upsertEntry.run(sprite, tree, path, st.type, st.mode, st.uid, st.gid, st.mtimeMs, blob, st.type === 'symlink' ? (st.target ?? '') : null);
}

/**
 * Keeps the live tree of one sprite in the database: every change of `vfs` is written (in its own transaction)
 * before the mutating call returns. `last` is the snapshot the rows describe.
 */
export class TreeJournal {
  private last: VfsSnapshot | undefined;
  private readonly unsubscribe: () => void;

  /**
   * Starts journaling. `synced`: the rows already describe `vfs` as it is now (a tree rebuilt from them at start);
   * otherwise the whole tree is written first.
   */
  constructor(
    private readonly db: MetaDb,
    private readonly blobs: BlobStore,
    private readonly sprite: string,
    private readonly vfs: Vfs,
    synced: boolean,
  ) {
    if (synced) this.last = vfs.snapshot();
    this.sync();
    this.unsubscribe = vfs.onChange(() => this.sync());
  }

  /** The snapshot the live rows describe. */
  get current(): VfsSnapshot {
    return this.last!;
  }

  /** Writes what changed since the last sync. Throws when the database or the blob directory fails. */
  sync(): void {
    const next = this.vfs.snapshot();
    if (next === this.last) return;
    this.db.db.transaction(() => writeDiff(this.db, this.blobs, this.sprite, LIVE_TREE, this.last, next))();
    this.last = next;
  }

  /**
   * Saves the tree of a checkpoint as `tree`: the live rows copied, then the difference between the live tree and
   * the checkpoint's snapshot applied (usually none: a checkpoint is the live tree of a moment ago).
   */
  saveTree(tree: string, snapshot: VfsSnapshot): void {
    this.sync();
    this.db.deleteTree.run(this.sprite, tree);
    this.db.copyTree.run(tree, this.sprite, LIVE_TREE);
    writeDiff(this.db, this.blobs, this.sprite, tree, this.last, snapshot);
  }

  stop(): void {
    this.unsubscribe();
  }
}

/**
 * Rebuilds a tree from its rows (ordered by path, so a parent comes before its children): modes, owners and
 * mtimes as stored. `now` is the clock of the rebuilt tree afterwards. Equal contents share one buffer through
 * `cache`. Throws when a blob is missing (a damaged data dir).
 * @deviation symlinks come back owned by the sprite user (1000), whatever their stored owner.
 */
export function buildVfs(rows: EntryRow[], blobs: BlobStore, now: () => number, cache = new Map<string, Uint8Array>()): Vfs {
  let at: number | undefined;
  const vfs = new Vfs({ now: () => at ?? now() });
  const metaLater: EntryRow[] = [];
  for (const row of rows) {
    at = row.mtime;
    if (row.path === '/') {
      metaLater.push(row);
      continue;
    }
    if (row.type === 'directory') {
      vfs.mkdir(row.path, { mode: row.mode });
      metaLater.push(row);
    } else if (row.type === 'file') {
      const hash = row.blob!;
      let data = cache.get(hash);
      if (!data) cache.set(hash, (data = blobs.get(hash)));
      vfs.writeFile(row.path, data, { mode: row.mode });
      vfs.chown(row.path, row.uid, row.gid);
    } else {
      vfs.symlink(row.target ?? '', row.path);
    }
  }
  // Directories last, deepest first: creating their children moved their mtimes.
  for (let i = metaLater.length - 1; i >= 0; i--) {
    const row = metaLater[i]!;
    vfs.chmod(row.path, row.mode);
    vfs.chown(row.path, row.uid, row.gid);
    vfs.utimes(row.path, row.mtime);
  }
  at = undefined;
  return vfs;
}
