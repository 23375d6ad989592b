/**
 * How an in-memory sprite's disk (`Vfs`) survives a restart (`--data-dir`): the journal that writes every change of
 * the live tree into the data dir's rows synchronously (before the mutation returns, hence before any response), the
 * rows of each checkpoint's tree, and the rebuild of a `Vfs` from rows at start. It owns the meaning of the rows for
 * this engine; keeping them is the store's (`DiskRows`), and the sprite's fields above the disk are the model's.
 */
import { UnreadableDiskError, type DiskRows, type Machine, type MachinePersistence, type MachineSnapshot, type MachineSpec, type SavedDisk, type SavedEntry } from '../port.ts';
import { Vfs, type VfsSnapshot } from './vfs.ts';

/** The live tree's name among a sprite's trees. */
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
export function writeDiff(rows: DiskRows, sprite: string, tree: string, before: VfsSnapshot | undefined, after: VfsSnapshot): void {
  const view = new Vfs({ root: after });
  const touched = new Set<string>();
  if (before === undefined) {
    rows.clearTree(sprite, tree);
    upsert(rows, view, sprite, tree, '/');
    for (const path of view.allPaths()) upsert(rows, view, sprite, tree, path);
    return;
  }
  for (const change of Vfs.diff(before, after, '/')) {
    if (change.event === 'remove') rows.remove(sprite, tree, change.path);
    else upsert(rows, view, sprite, tree, change.path);
    if (change.event === 'create' || change.event === 'remove') touched.add(parentOf(change.path));
  }
  for (const dir of touched) if (exists(view, dir)) upsert(rows, view, sprite, tree, dir);
}

function exists(view: Vfs, path: string): boolean {
  try {
    view.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function upsert(rows: DiskRows, view: Vfs, sprite: string, tree: string, path: string): void {
  const st = view.lstat(path);
  const blob = st.type === 'file' ? rows.putBlob(view.readFileShared(path)) : null;
  rows.upsert(sprite, tree, { path, type: st.type, mode: st.mode, uid: st.uid, gid: st.gid, mtime: st.mtimeMs, blob, target: st.type === 'symlink' ? (st.target ?? '') : null, ino: st.ino });
}

/**
 * Keeps the live tree of one sprite in the data dir: every change of `vfs` is written (in its own transaction)
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
    private readonly rows: DiskRows,
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
    this.rows.transaction(() => writeDiff(this.rows, this.sprite, LIVE_TREE, this.last, next));
    this.last = next;
  }

  /**
   * Saves the tree of a checkpoint as `tree`: the live rows copied, then the difference between the live tree and
   * the checkpoint's snapshot applied (usually none: a checkpoint is the live tree of a moment ago).
   */
  saveTree(tree: string, snapshot: VfsSnapshot): void {
    this.sync();
    this.rows.clearTree(this.sprite, tree);
    this.rows.copyTree(this.sprite, LIVE_TREE, tree);
    writeDiff(this.rows, this.sprite, tree, this.last, snapshot);
  }

  stop(): void {
    this.unsubscribe();
  }
}

/**
 * Rebuilds a tree from its rows (ordered by path, so a parent comes before its children): modes, owners, mtimes
 * and inode numbers as stored; rows of one inode number become hard links of one file (rows without a number get
 * new ones, past every stored number). `now` is the clock of the rebuilt tree afterwards. Equal contents share one
 * buffer through `cache`. Throws when a blob is missing (a damaged data dir).
 * @deviation symlinks come back owned by the sprite user (1001), whatever their stored owner.
 */
export function buildVfs(entries: SavedEntry[], rows: Pick<DiskRows, 'getBlob'>, now: () => number, cache = new Map<string, Uint8Array>()): Vfs {
  let at: number | undefined;
  const nextIno = entries.reduce((max, row) => Math.max(max, (row.ino ?? 0) + 1), 0);
  const vfs = new Vfs({ now: () => at ?? now(), nextIno });
  const metaLater: SavedEntry[] = [];
  /** The first path of each inode number, which later rows of that number link to. */
  const named = new Map<number, string>();
  for (const row of entries) {
    at = row.mtime;
    if (row.path === '/') {
      metaLater.push(row);
      continue;
    }
    const ino = row.ino ?? undefined;
    const first = ino === undefined || row.type === 'directory' ? undefined : named.get(ino);
    if (first !== undefined) {
      vfs.link(first, row.path);
    } else if (row.type === 'directory') {
      vfs.mkdir(row.path, { mode: row.mode, ino });
      metaLater.push(row);
    } else if (row.type === 'file') {
      const hash = row.blob!;
      let data = cache.get(hash);
      if (!data) cache.set(hash, (data = rows.getBlob(hash)));
      vfs.writeFile(row.path, data, { mode: row.mode, ino });
      vfs.chown(row.path, row.uid, row.gid);
    } else {
      vfs.symlink(row.target ?? '', row.path, { ino });
    }
    if (ino !== undefined && row.type !== 'directory' && first === undefined) named.set(ino, row.path);
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

/** A memory machine's snapshot whose tree is rebuilt from the data dir on first use (a restore). */
function lazySnapshot(build: () => VfsSnapshot): MachineSnapshot {
  let root: VfsSnapshot | undefined;
  return {
    kind: 'memory',
    get root() {
      return (root ??= build());
    },
  } as MachineSnapshot;
}

/**
 * The in-memory engines' `MachinePersistence`: a sprite's disk is its journaled rows (nothing else is kept with the
 * sprite, so `save` and `saveSnapshot` return undefined); booting again rebuilds the tree, with the spec's quotas, and
 * hands it to `boot`, which makes the machine (the factory's `create` with that disk).
 */
export class MemoryPersistence implements MachinePersistence {
  private readonly journals = new Map<string, TreeJournal>();

  constructor(
    private readonly boot: (spec: MachineSpec, vfs: Vfs) => Promise<Machine>,
    private readonly now: () => number,
  ) {}

  /** `machine` must be one of this engine's (its disk is its `vfs`). */
  save(machine: Machine, at: SavedDisk): undefined {
    if (!this.journals.has(at.spriteId)) this.journals.set(at.spriteId, new TreeJournal(at.rows, at.spriteId, (machine as Machine & { vfs: Vfs }).vfs, false));
    return undefined;
  }

  saveSnapshot(snapshot: MachineSnapshot, at: SavedDisk & { checkpointId: string }): undefined {
    const root = (snapshot as MachineSnapshot & { root?: VfsSnapshot }).root;
    const journal = this.journals.get(at.spriteId);
    if (journal && root) journal.saveTree(at.checkpointId, root);
    return undefined;
  }

  async reattach(spec: MachineSpec, _saved: unknown, at: SavedDisk): Promise<Machine> {
    let vfs: Vfs;
    try {
      vfs = buildVfs(at.rows.rows(at.spriteId, LIVE_TREE), at.rows, this.now);
    } catch (e) {
      throw new UnreadableDiskError(`the disk of sprite ${spec.name} cannot be read back: ${(e as Error).message}`);
    }
    vfs.quotaBytes = spec.diskQuotaBytes ?? Infinity;
    vfs.quotaFiles = spec.maxFiles ?? Infinity;
    const machine = await this.boot(spec, vfs);
    this.journals.get(at.spriteId)?.stop();
    this.journals.set(at.spriteId, new TreeJournal(at.rows, at.spriteId, vfs, true));
    return machine;
  }

  reviveSnapshot(_saved: unknown, at: SavedDisk & { checkpointId: string }): MachineSnapshot {
    return lazySnapshot(() => buildVfs(at.rows.rows(at.spriteId, at.checkpointId), at.rows, this.now).snapshot());
  }

  release(spriteId: string): void {
    this.journals.get(spriteId)?.stop();
    this.journals.delete(spriteId);
  }

  /** Nothing: the store deletes the rows of sprites it no longer keeps. */
  async prune(): Promise<void> {}
}
