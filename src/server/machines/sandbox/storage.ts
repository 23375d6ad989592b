/**
 * Where sandbox sprites' writable layers live, and their snapshots. In `btrfs` mode each layer is a btrfs
 * subvolume (on the data dir itself, or on a sparse image loop-mounted under it) and a checkpoint is a
 * read-only snapshot, taken live in O(1); in `copy` mode (no root, no btrfs) layers are plain directories and
 * a checkpoint is `cp -a --reflink=auto`. It owns the data dir's layout; it mounts no overlay, starts no
 * process and knows nothing of what a layer holds (rootfs.ts seeds the template).
 *
 * Layout: `<data>/spritzer.pid`, `<data>/btrfs.img` (image mode, 0600), `<data>/vol/{template,layers/<id>,snaps/<id>/<n>}`
 * (0700), `<data>/sprites/<id>/` (per-sprite host dirs: the overlay mount point, the agent's socket dir).
 */
import { chmod, lstat, mkdir, readdir, rename, rm, rmdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { claimDataDir, unmountUnder, type DataDirClaim } from './data-dir.ts';
import { DiskGroups } from './disk-groups.ts';
import { run, hasCommand } from './run.ts';

/** How layers and snapshots are stored. */
export type StorageMode = 'btrfs' | 'copy';

const BTRFS_MAGIC = 0x9123683e;
const GiB = 1024 ** 3;
/** The subvolume root's inode number on btrfs. */
const SUBVOLUME_INO = 256;

/** Options of `Storage.open`. */
export interface StorageOptions {
  /** The data directory (created if missing). */
  dataDir: string;
  /** `auto` (default): btrfs when possible, else copy. `copy` forces the fallback; `btrfs` fails when impossible. */
  mode?: StorageMode | 'auto';
  /** Size of the sparse btrfs image in bytes (default: 90 % of the free space, at most 64 GiB). */
  imageBytes?: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /**
   * Keep the layers and snapshots an earlier run left (and leave them at `close`): `--data-dir` persistence,
   * where the store names which of them are sprites (`prune` removes the rest). Default: start empty.
   */
  keep?: boolean;
}

/** A read-only snapshot of one sprite's layer. */
export interface LayerSnapshot {
  readonly spriteId: string;
  /** Host path of the snapshot (a read-only subvolume, or a directory in copy mode). */
  readonly path: string;
}

/**
 * The layers of one server's sandbox sprites. Every method but `close` may run concurrently for different
 * sprites; for one sprite the caller serialises `restore` and `destroy` against the rest.
 * @see docs/fidelity.md "Sandbox checkpoints" (live, without stopping the sprite)
 */
export class Storage {
  private closed = false;

  private constructor(
    readonly dataDir: string,
    /** `btrfs` or `copy` (log it at start). */
    readonly mode: StorageMode,
    /** Why `copy` was chosen, when it was (`no root`, `mkfs.btrfs not installed`, …). */
    readonly fallbackReason: string | undefined,
    private readonly vol: string,
    private readonly image: string | undefined,
    private readonly claim: DataDirClaim,
    /** The sprites' disk groups, when btrfs qgroups are enabled on the volume (else `setQuota` enforces nothing). */
    private readonly groups: DiskGroups | undefined,
    /** Whether the layers outlive this server (`StorageOptions.keep`). */
    private readonly keep = false,
    /** The highest snapshot number already on disk (snapshot names never repeat). */
    private seq = 0,
  ) {}

  /**
   * Claims the data dir (data-dir.ts: one server at a time; stale processes and mounts of an earlier run are
   * cleaned up), removes whatever layers that run left, and sets up the storage: btrfs directly when the data
   * dir is on btrfs; else, as root with `mkfs.btrfs` and btrfs in the kernel, a sparse image
   * (`truncate`, `mkfs.btrfs`, `mount -o loop`) at `<data>/vol`; else copy mode.
   * Rejects when `mode: 'btrfs'` is impossible, or when the data dir is in use by another spritzer.
   */
  static async open(opts: StorageOptions): Promise<Storage> {
    const claim = await claimDataDir(opts.dataDir);
    const dir = claim.dir;
    try {
      if (claim.stale.processes || claim.stale.mounts) {
        opts.logger?.warn({ dataDir: dir, ...claim.stale }, 'sandbox: cleaned up what an earlier spritzer left in the data dir');
      }
      const vol = join(dir, 'vol');
      const keep = opts.keep ?? false;
      await rm(join(dir, 'sprites'), { recursive: true, force: true });
      let mode: StorageMode = 'copy';
      let image: string | undefined;
      let reason: string | undefined;
      if (opts.mode !== 'copy') {
        const tried = await setUpBtrfs(dir, vol, opts.imageBytes, keep);
        if (typeof tried === 'string') reason = tried;
        else [mode, image] = ['btrfs', tried.image];
      } else reason = 'copy mode asked for';
      if (opts.mode === 'btrfs' && mode !== 'btrfs') throw new Error(`btrfs storage is not possible here: ${reason}`);
      if (mode === 'copy' && !keep) await removeAll(vol, 'copy');
      for (const d of ['layers', 'snaps']) await mkdir(join(vol, d), { recursive: true });
      // The layers hold the sprites' files with the modes the sprites gave them: no other host user passes here.
      await chmod(vol, 0o700);
      const quotas = mode === 'btrfs' ? await enableQuotas(vol) : 'copy mode (no btrfs qgroups)';
      if (typeof quotas === 'string') opts.logger?.warn({ reason: quotas }, 'sandbox: disk quotas are not enforced inside sprites');
      const groups = quotas === true ? await DiskGroups.open(vol, { sweep: image !== undefined }) : undefined;
      return new Storage(dir, mode, reason, vol, image, claim, groups, keep, await highestSnapshot(vol));
    } catch (err) {
      await claim.release();
      throw err;
    }
  }

  /** The template every new layer starts from (seed it once, e.g. with rootfs.ts `seedLayer`). */
  async createTemplate(seed: (dir: string) => Promise<void>): Promise<void> {
    const dir = join(this.vol, 'template');
    await this.removePath(dir);
    await this.makeEmpty(dir);
    await seed(dir);
  }

  /** Whether `setQuota` enforces anything (btrfs qgroups are enabled on the volume). */
  get quotas(): boolean {
    return this.groups !== undefined;
  }

  /**
   * Limits what the sprite's disk may hold to `bytes` (undefined: no limit): its live layer and its snapshots
   * together, each shared extent once (a btrfs qgroup limit on the sprite's disk group, disk-groups.ts: data and
   * metadata). So what a checkpoint keeps after the live disk deleted it counts, until the checkpoint is deleted.
   * Beyond it every write inside fails with EDQUOT. A no-op when `quotas` is false (copy mode, or qgroups refused).
   * A layer made before disk groups (`keep`) is limited alone, its snapshots not counted.
   * @see docs/limits.md (`--disk-quota`), btrfs-qgroup(8)
   * @deviation inside, a write past the quota fails with EDQUOT ("Disk quota exceeded"), not ENOSPC; btrfs counts
   * metadata too, so the limit is reached a little before `bytes` of file content.
   */
  async setQuota(spriteId: string, bytes: number | undefined): Promise<void> {
    if (!this.groups) return;
    const group = await this.groups.of(spriteId, this.layerDir(spriteId));
    if (group) await this.groups.limit(group, bytes);
    else await run('btrfs', ['qgroup', 'limit', bytes === undefined ? 'none' : String(bytes), this.layerDir(spriteId)]);
  }

  /** Host directory of the sprite's live writable layer. */
  layerDir(spriteId: string): string {
    return join(this.vol, 'layers', safeId(spriteId));
  }

  /** A host directory for the sprite's other files (mount point, agent socket dir), outside every layer. */
  spriteDir(spriteId: string): string {
    return join(this.dataDir, 'sprites', safeId(spriteId));
  }

  /** Creates the sprite's layer as a copy of the template (a writable snapshot in btrfs mode). Resolves with its path. */
  async createLayer(spriteId: string): Promise<string> {
    const dest = this.layerDir(spriteId);
    if (this.groups) {
      // A snapshot of the template would share extents with a subvolume outside the sprite's group: made empty in
      // the group and filled with (reflinked) copies, its accounting stays exact.
      const group = await this.groups.create(spriteId);
      await run('btrfs', ['subvolume', 'create', '-i', group, dest]);
      await run('cp', ['-a', '--reflink=auto', `${join(this.vol, 'template')}/.`, dest]);
    } else await this.clone(join(this.vol, 'template'), dest, false);
    await mkdir(this.spriteDir(spriteId), { recursive: true });
    return dest;
  }

  /** The live layer an earlier run left for `spriteId` (`keep`), with its host dir made again. Resolves with its path. */
  async reuseLayer(spriteId: string): Promise<string> {
    await mkdir(this.spriteDir(spriteId), { recursive: true });
    return this.layerDir(spriteId);
  }

  /**
   * A read-only snapshot of the sprite's live layer, taken while it runs (btrfs: `subvolume snapshot -r`, about
   * 10 ms whatever the size; copy: `cp -a`, proportional to the size and not atomic against concurrent writes).
   * @deviation in copy mode a snapshot of a layer that is being written may mix before and after states.
   */
  async snapshot(spriteId: string): Promise<LayerSnapshot> {
    const dir = join(this.vol, 'snaps', safeId(spriteId));
    await mkdir(dir, { recursive: true });
    const path = join(dir, String(++this.seq));
    await this.clone(this.layerDir(spriteId), path, true, spriteId);
    return { spriteId, path };
  }

  /**
   * Replaces the sprite's live layer with a writable copy of `snap` (the snapshot stays usable): `stageRestore`
   * then `commitRestore`. The sprite must be stopped. A failure leaves the old layer.
   */
  async restore(spriteId: string, snap: LayerSnapshot): Promise<void> {
    await this.stageRestore(spriteId, snap);
    await this.commitRestore(spriteId);
  }

  /**
   * Makes a writable copy of `snap` beside the sprite's live layer, while the sprite may still run (a btrfs
   * snapshot: ~10 ms). Rejects, touching nothing, when `snap` was released or is another sprite's.
   */
  async stageRestore(spriteId: string, snap: LayerSnapshot): Promise<void> {
    await this.check(spriteId, snap);
    const next = `${this.layerDir(spriteId)}.next`;
    await this.removePath(next);
    await this.clone(snap.path, next, false, spriteId);
  }

  /** Swaps the staged copy in as the live layer and deletes the old one. The sprite must be stopped. */
  async commitRestore(spriteId: string): Promise<void> {
    const live = this.layerDir(spriteId);
    await rename(live, `${live}.old`);
    try {
      await rename(`${live}.next`, live);
    } catch (err) {
      await rename(`${live}.old`, live);
      throw err;
    }
    await this.removePath(`${live}.old`);
  }

  /**
   * Bytes and regular files in the sprite's live layer: what the sprite wrote on top of the base (each inode
   * once; whiteouts and directories are not files). A host-side walk, proportional to the layer's size.
   * @deviation the base OS (the host's `/usr`, a prepared root) is not counted: it is shared and read-only.
   */
  async usage(spriteId: string): Promise<{ bytes: number; files: number }> {
    const seen = new Set<string>();
    let bytes = 0;
    let files = 0;
    const stack = [this.layerDir(spriteId)];
    while (stack.length) {
      const dir = stack.pop()!;
      for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const path = join(dir, e.name);
        if (e.isDirectory()) stack.push(path);
        else if (e.isFile()) {
          const st = await lstat(path).catch(() => undefined);
          if (!st || seen.has(`${st.dev}:${st.ino}`)) continue;
          seen.add(`${st.dev}:${st.ino}`);
          bytes += st.size;
          files += 1;
        }
      }
    }
    return { bytes, files };
  }

  /** Rejects unless `snap` is a live (not released) snapshot of `spriteId`. */
  async check(spriteId: string, snap: LayerSnapshot): Promise<void> {
    if (snap.spriteId !== spriteId) throw new Error(`snapshot of ${snap.spriteId} cannot restore ${spriteId}`);
    if (!(await lstat(snap.path).catch(() => undefined))) throw new Error(`snapshot ${snap.path} was released`);
  }

  /** Deletes a snapshot (btrfs: committed at once, so its bytes stop counting against the sprite's quota within about a second). Idempotent. */
  async release(snap: LayerSnapshot): Promise<void> {
    await this.removePath(snap.path);
  }

  /** The ids (keys) of the layers on disk: with `keep`, those an earlier run left too. */
  async layerIds(): Promise<string[]> {
    const names = await readdir(join(this.vol, 'layers')).catch(() => [] as string[]);
    return names.filter((n) => !n.endsWith('.next') && !n.endsWith('.old'));
  }

  /** Whether `spriteId` has a live layer on disk. */
  async hasLayer(spriteId: string): Promise<boolean> {
    return (await lstat(this.layerDir(spriteId)).catch(() => undefined))?.isDirectory() ?? false;
  }

  /**
   * Deletes every layer, snapshot and host dir whose id `keep` refuses: what an earlier run left that no saved sprite
   * names (spares, a sprite created just before a crash). Resolves with how many layers went.
   */
  async prune(keep: (id: string) => boolean): Promise<number> {
    const ids = new Set([...(await this.layerIds()), ...(await readdir(join(this.vol, 'snaps')).catch(() => [] as string[]))]);
    let removed = 0;
    for (const id of ids) {
      if (keep(id)) continue;
      await this.destroy(id);
      removed += 1;
    }
    return removed;
  }

  /** Deletes the sprite's layer, every snapshot of it and its host dir. The sprite must be stopped. Idempotent. */
  async destroy(spriteId: string): Promise<void> {
    await this.groups?.of(spriteId, this.layerDir(spriteId));
    const snaps = join(this.vol, 'snaps', safeId(spriteId));
    for (const name of await readdir(snaps).catch(() => [] as string[])) await this.removePath(join(snaps, name));
    await rmdir(snaps).catch(() => undefined);
    for (const suffix of ['.next', '.old', '']) await this.removePath(`${this.layerDir(spriteId)}${suffix}`);
    await rm(this.spriteDir(spriteId), { recursive: true, force: true });
    await this.groups?.remove(spriteId);
  }

  /**
   * Frees everything: unmounts and deletes the image (image mode), or deletes the layers; removes `sprites/`
   * and the pid file. With `removeDataDir`, the data dir itself too. Every sprite must be stopped. Idempotent.
   */
  async close(opts: { removeDataDir?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keep && !opts.removeDataDir) {
      // Persistence: the layers and snapshots stay for the next run; only this run's mounts and host dirs go.
      if (this.image) await unmountUnder(this.vol);
      await rm(join(this.dataDir, 'sprites'), { recursive: true, force: true });
      await this.claim.release();
      return;
    }
    if (this.image) {
      await unmountUnder(this.vol);
      await rm(this.image, { force: true });
    } else await removeAll(this.vol, this.mode);
    await rm(this.vol, { recursive: true, force: true });
    await rm(join(this.dataDir, 'sprites'), { recursive: true, force: true });
    await this.claim.release();
    if (opts.removeDataDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  /** A snapshot of `src` at `dest` (btrfs), a member of the sprite `spriteId`'s disk group when it has one; else a copy. */
  private async clone(src: string, dest: string, readOnly: boolean, spriteId?: string): Promise<void> {
    if (this.mode === 'btrfs') {
      const group = spriteId === undefined ? undefined : await this.groups?.of(spriteId, this.layerDir(spriteId));
      await run('btrfs', ['subvolume', 'snapshot', ...(readOnly ? ['-r'] : []), ...(group ? ['-i', group] : []), src, dest]);
    } else {
      await run('cp', ['-a', '--reflink=auto', src, dest]);
    }
  }

  private async makeEmpty(dir: string): Promise<void> {
    if (this.mode === 'btrfs') await run('btrfs', ['subvolume', 'create', dir]);
    else await mkdir(dir, { recursive: true });
  }

  private removePath(path: string): Promise<void> {
    return removePath(path, this.mode);
  }
}

/**
 * Tries btrfs: the data dir itself, else a loop-mounted image. With `keep`, an image an earlier run made is mounted
 * again (its layers kept) instead of made anew. Resolves with the image used, or why not.
 */
async function setUpBtrfs(dir: string, vol: string, imageBytes?: number, keep = false): Promise<{ image?: string } | string> {
  if ((await statfs(dir)).type === BTRFS_MAGIC) {
    if (!keep) await removeAll(vol, 'btrfs');
    return {};
  }
  if (process.getuid?.() !== 0) return 'not root (a btrfs image needs a loop mount)';
  if (!(await hasCommand('mkfs.btrfs')) || !(await hasCommand('btrfs'))) return 'btrfs-progs not installed (apt-get install -y btrfs-progs)';
  const image = join(dir, 'btrfs.img');
  if (keep && (await lstat(image).catch(() => undefined))?.isFile()) {
    try {
      await chmod(image, 0o600);
      await mkdir(vol, { recursive: true });
      await mountImage(image, vol);
      return { image };
    } catch (err) {
      return `the btrfs image ${image} of an earlier run does not mount: ${(err as Error).message}`;
    }
  }
  try {
    await rm(image, { force: true });
    await rm(vol, { recursive: true, force: true });
    await mkdir(vol, { recursive: true });
    const free = await statfs(dir).then((s) => s.bavail * s.bsize);
    const size = imageBytes ?? Math.max(GiB, Math.min(64 * GiB, Math.floor((free * 0.9) / GiB) * GiB));
    await run('truncate', ['-s', String(size), image]);
    await chmod(image, 0o600);
    await run('mkfs.btrfs', ['-q', '-f', '-m', 'single', '-d', 'single', image]);
    await mountImage(image, vol);
    return { image };
  } catch (err) {
    await unmountUnder(vol).catch(() => undefined);
    await rm(image, { force: true }).catch(() => undefined);
    return `btrfs image failed: ${(err as Error).message}`;
  }
}

/**
 * Loop-mounts the btrfs image `image` at `vol`, its loop device doing direct I/O on the image where the host's
 * filesystem allows it: otherwise every byte a sprite writes is cached twice (btrfs's pages, then the image file's)
 * and copied again by the loop and writeback workers, kernel threads outside every sprite's cgroup — about 0.6 of a
 * core while one sprite filled its disk, and three times the wall time (bench:noisy's disk filler).
 * @see losetup(8) --direct-io, loop(4) LO_FLAGS_DIRECT_IO
 */
async function mountImage(image: string, vol: string): Promise<void> {
  await run('mount', ['-o', 'loop,noatime,discard=async', image, vol]).catch(() => run('mount', ['-o', 'loop', image, vol]));
  // Turned on once mounted, so the device stays mount's own (freed at unmount); where the host's filesystem has no
  // direct I/O, the device just keeps its page cache.
  const dev = (await run('findmnt', ['--noheadings', '--output', 'SOURCE', '--mountpoint', vol]).catch(() => '')).trim();
  if (dev.startsWith('/dev/loop')) await run('losetup', ['--direct-io=on', dev]).catch(() => undefined);
}

/** Turns btrfs qgroups on for `vol` (at start, on an empty volume: no rescan). Resolves true, or why not. */
async function enableQuotas(vol: string): Promise<true | string> {
  try {
    await run('btrfs', ['quota', 'enable', vol]);
    return true;
  } catch (err) {
    return `btrfs quota enable failed: ${(err as Error).message}`;
  }
}

/** The highest numbered snapshot under `vol/snaps/<id>/` (0 when none), so new snapshot names never repeat. */
async function highestSnapshot(vol: string): Promise<number> {
  let max = 0;
  for (const id of await readdir(join(vol, 'snaps')).catch(() => [] as string[])) {
    for (const n of await readdir(join(vol, 'snaps', id)).catch(() => [] as string[])) max = Math.max(max, Number(n) || 0);
  }
  return max;
}

/** Deletes the template, every layer and every snapshot under `vol`. */
async function removeAll(vol: string, mode: StorageMode): Promise<void> {
  await removePath(join(vol, 'template'), mode);
  for (const name of await readdir(join(vol, 'layers')).catch(() => [] as string[])) await removePath(join(vol, 'layers', name), mode);
  for (const id of await readdir(join(vol, 'snaps')).catch(() => [] as string[])) {
    for (const n of await readdir(join(vol, 'snaps', id)).catch(() => [] as string[])) await removePath(join(vol, 'snaps', id, n), mode);
  }
  await rm(vol, { recursive: true, force: true }).catch(() => undefined);
}

/** Removes a subvolume (btrfs) or a directory tree; a missing path is fine. */
async function removePath(path: string, mode: StorageMode): Promise<void> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return;
  if (mode === 'btrfs' && st.isDirectory() && st.ino === SUBVOLUME_INO) {
    // Committed at once: the cleaner then drops it within a second, and its bytes stop counting against the
    // sprite's quota (without a commit that waits for the next one, up to 30 s).
    await run('btrfs', ['subvolume', 'delete', '--commit-after', path]);
    return;
  }
  await rm(path, { recursive: true, force: true });
}

/** Sprite ids name directories: only `[A-Za-z0-9_.-]`, and not `.`/`..`. */
function safeId(id: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(id) || id === '.' || id === '..' || id.length > 128) throw new Error(`invalid sprite id ${JSON.stringify(id)}`);
  return id;
}

