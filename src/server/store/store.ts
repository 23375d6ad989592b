/**
 * Persistence of the whole emulated account under `--data-dir` (README.md "Using it"): at start it rebuilds sprites
 * (metadata, disks, checkpoints, services, tasks, policies) and minted tokens from the data dir; while running it
 * saves them, so every request that got its response survives a `kill -9`. Disks are saved through the engine's
 * `MachinePersistence` (the in-memory engines journal their trees into the rows this store keeps as they change; the
 * sandbox engine names its host disks); everything else is saved by `flush`, which runs before any byte of a mutating
 * response (`middleware`), on a timer and at shutdown. It owns the data dir's `spritzer.db` and `blobs/`, not the
 * lock (claimed by the caller, machines/sandbox/data-dir.ts), and knows no engine. Without `--data-dir` nothing here
 * runs.
 * @see docs/fidelity.md "Persistence", docs/limits.md (`--data-dir`)
 */
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Limits } from '../core/limits.ts';
import type { MachineFactory } from '../machines/port.ts';
import type { SpritesModel } from '../model/sprites.ts';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { Sprite, type Checkpoint, type UrlSettings } from '../model/sprites.ts';
import { CheckpointHistory } from '../model/checkpoint-history.ts';
import type { ServiceDefinition } from '../model/services.ts';
import type { Task } from '../model/tasks.ts';
import type { NetworkPolicy } from '../core/network-policy.ts';
import { UnreadableDiskError, type Machine, type MachinePersistence, type MachineSnapshot, type SavedDisk } from '../machines/port.ts';
import { BlobStore } from './blobs.ts';
import { MetaDb } from './db.ts';
import { DataDirRows } from './disk-rows.ts';

/** How often the metadata is saved without a request (service exits, task expiry), in ms. */
export const FLUSH_EVERY_MS = 1_000;
/** How often the journal (SQLite's WAL) is folded into the database and unreferenced blobs are deleted, in ms. */
export const COMPACT_EVERY_MS = 60_000;

/** What a sprite's row holds besides its trees. Times are epoch ms. */
interface SpriteDoc {
  id: string;
  name: string;
  organization: string;
  createdAt: number;
  url: string;
  updatedAt: number;
  labels: string[];
  urlSettings: UrlSettings;
  config?: Record<string, unknown>;
  environment?: Record<string, string>;
  currentCheckpointId: string | null;
  nextCheckpoint: number;
  /** What names the machine's disk (`MachinePersistence.save`); absent for in-memory sprites (their trees are rows). */
  machine?: unknown;
  /** `snapshot`: what names a checkpoint's disk (`MachinePersistence.saveSnapshot`); absent for in-memory sprites. */
  checkpoints: Array<{ id: string; createTime: number; comment: string; sourceId: string | null; history: string[]; isAuto: boolean; snapshot?: unknown }>;
  services: Array<{ def: ServiceDefinition; wanted: boolean; restartCount: number }>;
  tasks: Task[];
  policies: { network: NetworkPolicy; networkSet: boolean; other: Array<['privileges' | 'resources', Record<string, unknown>]> };
}

/** Per-sprite bookkeeping: what was last written. */
interface Saved {
  name: string;
  doc: string;
  /** The checkpoints whose disks are saved (their trees deleted with them). */
  trees: Set<string>;
}

/** Options of {@link DataDirStore.open}. */
export interface DataDirStoreOptions {
  /** The data dir, already claimed (lock file) by the caller. */
  dir: string;
  clock: Clock;
  logger: Logger;
}

/**
 * What the store loads saved state into and saves from: the model, the account's minted tokens, and the server's
 * clock, limits and machine factory. The server passes its own; the store holds it from `load` on.
 */
export interface StoreTarget {
  model: SpritesModel;
  credentials: { restoreDigest(digestHex: string, org: string): void; mintedDigests(): Array<[string, string]> };
  deps: { clock: Clock; limits: Limits; machines: MachineFactory };
}

/** The store of one data dir. One per server. */
export class DataDirStore {
  private ctx: StoreTarget | undefined;
  private persistence: MachinePersistence | undefined;
  /** The rows the engines keep their in-memory disks in. */
  private readonly rows: DataDirRows;
  private readonly saved = new Map<string, Saved>();
  private tokens = new Set<string>();
  private flushTimer: TimerHandle | undefined;
  private compactTimer: TimerHandle | undefined;
  private closed = false;

  private constructor(
    readonly db: MetaDb,
    readonly blobs: BlobStore,
    private readonly opts: DataDirStoreOptions,
  ) {
    this.rows = new DataDirRows(db, blobs);
  }

  /**
   * Opens the data dir's database (creating it) and blob store. Throws `DataDirError` for a database of another
   * schema version or a foreign file, and the fs error (naming the path) when the dir cannot be written.
   */
  static open(opts: DataDirStoreOptions): DataDirStore {
    const db = new MetaDb(opts.dir);
    try {
      return new DataDirStore(db, new BlobStore(join(opts.dir, 'blobs')), opts);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * Rebuilds the saved state into `ctx` (its model must be empty; its engine must have a `persistence`, else this
   * rejects naming the engine): tokens, then each sprite with its disk booted again by the engine, checkpoints (read
   * on first restore), policies and tasks; then the services that were meant to run start again. A sprite whose disk
   * is gone is dropped with a warning; one whose disk is there but unreadable rejects with `UnreadableDiskError` (its
   * saved rows stay, for the operator to repair); disks no sprite names are pruned. From then on changes are saved. Resolves with the
   * counts.
   */
  async load(ctx: StoreTarget): Promise<{ sprites: number; tokens: number }> {
    // The model's factory hands what it boots to the in-sprite API (url/in-sprite-api.ts); booted here, a sprite
    // brought back must be served as one created now.
    const persistence = ctx.model.deps.machines.persistence;
    if (!persistence) throw new Error(`--data-dir persistence is not available on the ${ctx.deps.machines.engine} engine`);
    this.ctx = ctx;
    this.persistence = persistence;
    const { db } = this;
    db.db.prepare('DELETE FROM entries WHERE sprite NOT IN (SELECT id FROM sprites)').run();
    for (const { digest, org } of db.allTokens.all() as Array<{ digest: string; org: string }>) {
      ctx.credentials.restoreDigest(digest, org);
      this.tokens.add(digest);
    }
    const { clock } = ctx.deps;
    const quota = ctx.deps.limits.diskQuotaBytes;
    const toStart: Array<() => void> = [];
    const keptDisks: unknown[] = [];
    for (const row of db.allSprites.all() as Array<{ id: string; name: string; doc: string }>) {
      const doc = JSON.parse(row.doc) as SpriteDoc;
      const spec = { name: doc.name, id: doc.id, diskQuotaBytes: quota, maxFiles: ctx.deps.limits.filesMax };
      const at = this.diskOf(doc.id);
      let machine: Machine;
      try {
        machine = await persistence.reattach(spec, doc.machine, at);
      } catch (e) {
        if (e instanceof UnreadableDiskError) throw e;
        this.opts.logger.warn({ sprite: doc.name, err: (e as Error).message }, 'a saved sprite could not boot again; it is dropped');
        db.deleteSprite.run(doc.id);
        continue;
      }
      keptDisks.push(doc.machine);
      const sprite = new Sprite(
        doc.id,
        doc.name,
        doc.organization,
        doc.createdAt,
        // Recomputed: the URL follows this run's --public-url and listening address, not the saved run's.
        () => ctx.model.urlFor(doc.name),
        { name: doc.name, labels: doc.labels, urlSettings: doc.urlSettings, config: doc.config, environment: doc.environment },
        machine,
        clock,
        ctx.deps.limits,
      );
      let history = CheckpointHistory.EMPTY;
      const checkpoints: Checkpoint[] = doc.checkpoints.map(({ snapshot: saved, ...c }) => {
        history = c.history.reduce((h, id) => h.append(id), CheckpointHistory.EMPTY);
        const snapshot = persistence.reviveSnapshot(saved, { ...at, checkpointId: c.id });
        savedSnapshots.set(snapshot, saved);
        return { ...c, history, snapshot };
      });
      sprite.restorePersisted({ checkpoints, currentCheckpointId: doc.currentCheckpointId, nextCheckpoint: doc.nextCheckpoint, updatedAt: doc.updatedAt });
      sprite.policies.restore(doc.policies.network, doc.policies.networkSet, doc.policies.other);
      for (const t of doc.tasks) sprite.tasks.restore(t);
      for (const s of doc.services) sprite.services.restoreDefinition(s.def, s.restartCount);
      ctx.model.adopt(sprite);
      this.saved.set(doc.id, { name: doc.name, doc: row.doc, trees: new Set(doc.checkpoints.map((c) => c.id)) });
      const wanted = doc.services.filter((s) => s.wanted).map((s) => s.def.name);
      toStart.push(() => {
        for (const name of wanted) {
          try {
            if (sprite.services.get(name).state.status === 'stopped') sprite.services.start(name);
          } catch (e) {
            this.opts.logger.warn({ sprite: doc.name, service: name, err: (e as Error).message }, 'service did not restart');
          }
        }
      });
    }
    await persistence.prune(keptDisks);
    for (const start of toStart) start();
    this.flush();
    this.schedule();
    return { sprites: this.saved.size, tokens: this.tokens.size };
  }

  /**
   * Saves what changed: the sprite named `spriteName` (or every sprite), deleted sprites, new and deleted
   * checkpoints' trees, and minted tokens, in one transaction. Synchronous: when it returns, the state is in the
   * WAL (durable against a killed process). Throws when the database fails.
   */
  flush(spriteName?: string): void {
    const ctx = this.ctx;
    if (!ctx || this.closed) return;
    this.db.db.transaction(() => {
      const live = spriteName === undefined ? ctx.model.all() : ctx.model.all().filter((s) => s.name === spriteName);
      const liveIds = new Set(live.map((s) => s.id));
      for (const [id, saved] of this.saved) {
        const gone = spriteName === undefined ? !liveIds.has(id) : saved.name === spriteName && !liveIds.has(id);
        if (gone) this.forget(id);
      }
      for (const sprite of live) this.saveSprite(sprite);
      for (const [digest, org] of ctx.credentials.mintedDigests()) {
        if (this.tokens.has(digest)) continue;
        this.db.upsertToken.run(digest, org);
        this.tokens.add(digest);
      }
    })();
  }

  /**
   * Express middleware: for a mutating request (not GET/HEAD/OPTIONS), `flush` runs before each write of the
   * response (and its end), so a client never sees an answer whose effect is not saved. Only the sprite named
   * in the path is saved (all of them for other paths).
   */
  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    return (req, res, next) => {
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
      const name = /^\/v1\/sprites\/([^/]+)(?:\/|$)/.exec(req.path)?.[1];
      const flush = () => this.flush(name === undefined ? undefined : safeDecode(name));
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      (res as { write: unknown }).write = (...args: unknown[]) => {
        flush();
        return write(...args);
      };
      (res as { end: unknown }).end = (...args: unknown[]) => {
        flush();
        return end(...args);
      };
      next();
    };
  }

  /**
   * Compaction: folds the WAL into the database and deletes blobs nothing references any more (overwritten or
   * deleted files, deleted checkpoints). Synchronous, so no blob can be written between the query and the sweep.
   * Returns how many blobs were deleted.
   */
  compact(): number {
    if (this.closed) return 0;
    const keep = new Set((this.db.allBlobs.all() as Array<{ blob: string }>).map((r) => r.blob));
    const deleted = this.blobs.collect(keep);
    this.db.checkpoint();
    return deleted;
  }

  /** Final save (shutdown), then stops journaling and closes the database. Idempotent. */
  close(): void {
    if (this.closed) return;
    try {
      this.flush();
      this.compact();
    } finally {
      this.closed = true;
      if (this.flushTimer) this.opts.clock.clearTimeout(this.flushTimer);
      if (this.compactTimer) this.opts.clock.clearTimeout(this.compactTimer);
      for (const id of this.saved.keys()) this.persistence?.release(id);
      this.db.close();
    }
  }

  private schedule(): void {
    const { clock, logger } = this.opts;
    const flushLoop = () => {
      try {
        this.flush();
      } catch (e) {
        logger.error({ err: (e as Error).message }, 'saving to the data dir failed');
      }
      if (!this.closed) this.flushTimer = clock.setTimeout(flushLoop, FLUSH_EVERY_MS);
    };
    const compactLoop = () => {
      try {
        this.compact();
      } catch (e) {
        logger.error({ err: (e as Error).message }, 'compacting the data dir failed');
      }
      if (!this.closed) this.compactTimer = clock.setTimeout(compactLoop, COMPACT_EVERY_MS);
    };
    this.flushTimer = clock.setTimeout(flushLoop, FLUSH_EVERY_MS);
    this.compactTimer = clock.setTimeout(compactLoop, COMPACT_EVERY_MS);
  }

  private saveSprite(sprite: Sprite): void {
    const persistence = this.persistence!;
    let saved = this.saved.get(sprite.id);
    if (!saved) {
      saved = { name: sprite.name, doc: '', trees: new Set() };
      this.saved.set(sprite.id, saved);
    }
    const at = this.diskOf(sprite.id);
    const machine = persistence.save(sprite.machine, at);
    const ids = new Set(sprite.checkpoints.map((c) => c.id));
    for (const cp of sprite.checkpoints) {
      if (saved.trees.has(cp.id)) continue;
      savedSnapshots.set(cp.snapshot, persistence.saveSnapshot(cp.snapshot, { ...at, checkpointId: cp.id }));
      saved.trees.add(cp.id);
    }
    for (const tree of saved.trees) {
      if (ids.has(tree)) continue;
      this.db.deleteTree.run(sprite.id, tree);
      saved.trees.delete(tree);
    }
    const doc = JSON.stringify(docOf(sprite, machine));
    if (doc !== saved.doc) {
      this.db.upsertSprite.run(sprite.id, sprite.name, doc);
      saved.doc = doc;
    }
  }

  /** Where sprite `spriteId`'s disk is saved. */
  private diskOf(spriteId: string): SavedDisk {
    return { spriteId, rows: this.rows };
  }

  private forget(id: string): void {
    this.persistence?.release(id);
    this.saved.delete(id);
    this.db.deleteSprite.run(id);
    this.db.deleteSpriteEntries.run(id);
  }
}

/**
 * What is saved of a sprite, `machine` being what names its disk (`MachinePersistence.save`). Services count as meant
 * to run unless stopped by the user.
 */
function docOf(s: Sprite, machine: unknown): SpriteDoc {
  return {
    id: s.id,
    name: s.name,
    organization: s.organization,
    createdAt: s.createdAt,
    url: s.url,
    updatedAt: s.updatedAt,
    labels: s.labels,
    urlSettings: s.urlSettings,
    config: s.config,
    environment: s.environment,
    currentCheckpointId: s.currentCheckpointId,
    nextCheckpoint: s.nextCheckpointNumber,
    machine,
    checkpoints: s.checkpoints.map(checkpointDoc),
    services: s.services.list().map(({ state, ...def }) => ({
      def,
      wanted: state.status === 'running' || state.status === 'starting' || state.status === 'failed',
      restartCount: state.restartCount,
    })),
    tasks: s.tasks.list(),
    policies: { network: s.policies.network, networkSet: s.policies.networkSet, other: [...s.policies.other] },
  };
}

/** What names each checkpoint's disk (`MachinePersistence.saveSnapshot`, or what a load read), by its snapshot. */
const savedSnapshots = new WeakMap<MachineSnapshot, unknown>();

/** Checkpoints never change once taken: each one's saved form is computed once (a flush stays O(checkpoints)). */
const checkpointDocs = new WeakMap<Checkpoint, SpriteDoc['checkpoints'][number]>();
function checkpointDoc(c: Checkpoint): SpriteDoc['checkpoints'][number] {
  let doc = checkpointDocs.get(c);
  if (!doc) {
    const snapshot = savedSnapshots.get(c.snapshot);
    doc = { id: c.id, createTime: c.createTime, comment: c.comment, sourceId: c.sourceId, history: c.history.toArray(), isAuto: c.isAuto, snapshot };
    checkpointDocs.set(c, doc);
  }
  return doc;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
