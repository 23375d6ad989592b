/**
 * The host uid/gid ranges of sandbox sprites: each sprite's user namespace maps its ids 0..size-1 to a host range
 * of its own (`base + slot * size`), so no two sprites share a host uid, a kernel keyring or a per-user budget
 * (inotify, keys, processes). It allocates and frees the slots (persisted in `<data>/id-ranges.json`, so a sprite
 * kept with `--data-dir` gets its range back), and shifts the ownership of a layer's files into its range once, as
 * each layer records (`<layer>/ids.json`, layout 3), moving the files of the sprite user's old uid (1000) to its uid
 * (1001) as it goes. It mounts and starts nothing.
 * @see docs/sandbox.md "User namespaces", user_namespaces(7)
 */
import { lchown, lstat, readdir, readFile, rename, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_ID_BASE } from '../../config/sprite-resources.ts';
import { SPRITE_GID, SPRITE_UID } from '../../../protocol/sprite-tree.ts';

/** How sprites' host id ranges are laid out (`--sandbox-uid-base`, docs/limits.md). */
export interface IdRangeSettings {
  /** First host uid/gid of the first range (default DEFAULT_ID_BASE). */
  base: number;
  /** Ids per sprite (default 65536: inside ids 0..65535, `nobody` 65534 included). */
  size: number;
}

/** Ids per sprite: the whole 16-bit id space a Linux distribution uses. */
export const DEFAULT_ID_RANGE_SIZE = 65536;
/** Highest host id a range may reach (2^32 - 2: (uid_t)-1 is "no id"). */
const MAX_HOST_ID = 2 ** 32 - 2;
/**
 * Layout of a layer's ownership: 1 = host ids equal the ids inside (before user namespaces); 2 = shifted, the sprite
 * user uid/gid 1000; 3 = shifted, the sprite user 1001 (production's). Layers of 1 and 2 are moved to 3 once.
 */
export const LAYER_LAYOUT = 3;
/** The sprite user's uid and gid in layers of layout 1 and 2 (before it became production's 1001). */
const OLD_SPRITE_ID = 1000;
/** The file in a layer's directory (beside its trees) that says whose range its files are in. */
export const LAYER_IDS_FILE = 'ids.json';

/** What `<layer>/ids.json` holds. */
export interface LayerIds {
  layout: number;
  /** Host id of the layer's inside id 0. */
  hostBase: number;
  size: number;
}

/**
 * Validates `settings`: whole numbers, `size` at least 65536 (a distribution's `nobody` is 65534) and room for at
 * least one range below 2^32. Throws a RangeError naming the flag otherwise.
 */
export function checkIdRangeSettings(settings: IdRangeSettings): IdRangeSettings {
  const { base, size } = settings;
  if (!Number.isInteger(base) || base < 65536) throw new RangeError(`--sandbox-uid-base must be a whole number of at least 65536 (not ${base}): host ids below it belong to the host's own users`);
  if (!Number.isInteger(size) || size < 65536) throw new RangeError(`sandbox id ranges must hold at least 65536 ids (not ${size})`);
  if (base + size - 1 > MAX_HOST_ID) throw new RangeError(`--sandbox-uid-base ${base} leaves no room for a range of ${size} ids below 2^32`);
  return settings;
}

/** The slots of one data dir: sprite key → slot, persisted as JSON after every change. */
export class IdRanges {
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    readonly settings: IdRangeSettings,
    private readonly slots: Map<string, number>,
  ) {}

  /** How many ranges fit between `base` and 2^32. */
  get capacity(): number {
    return Math.floor((MAX_HOST_ID + 1 - this.settings.base) / this.settings.size);
  }

  /**
   * Loads `<dataDir>/id-ranges.json` (`keep`: an earlier run's slots stay, for `--data-dir` persistence; otherwise it
   * starts empty). Rejects when the file exists but is not valid.
   */
  static async open(dataDir: string, settings: IdRangeSettings, keep: boolean): Promise<IdRanges> {
    checkIdRangeSettings(settings);
    const file = join(dataDir, 'id-ranges.json');
    const slots = new Map<string, number>();
    if (keep) {
      const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
      if (text !== undefined) {
        const parsed = JSON.parse(text) as { slots?: Record<string, unknown> };
        for (const [key, slot] of Object.entries(parsed.slots ?? {})) {
          if (!Number.isInteger(slot) || (slot as number) < 0) throw new Error(`${file}: slot of ${key} is not a whole number`);
          slots.set(key, slot as number);
        }
      }
    }
    const ranges = new IdRanges(file, settings, slots);
    await ranges.save();
    return ranges;
  }

  /**
   * The host id of inside id 0 for sprite `key`: its slot when it has one, else the lowest free slot (saved before
   * this resolves). Rejects when every slot is taken.
   */
  async allocate(key: string): Promise<number> {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const used = new Set(this.slots.values());
      slot = 0;
      while (used.has(slot)) slot++;
      if (slot >= this.capacity) throw new Error(`no free sandbox id range: all ${this.capacity} from --sandbox-uid-base ${this.settings.base} are in use`);
      this.slots.set(key, slot);
      await this.save();
    }
    return this.settings.base + slot * this.settings.size;
  }

  /** Frees `key`'s slot (idempotent). */
  async release(key: string): Promise<void> {
    if (this.slots.delete(key)) await this.save();
  }

  /** Frees every slot whose key `keep` refuses (keeps the persisted sprites, and the machines of this run). */
  async prune(keep: (key: string) => boolean): Promise<void> {
    let changed = false;
    for (const key of [...this.slots.keys()]) if (!keep(key)) changed = this.slots.delete(key) || changed;
    if (changed) await this.save();
  }

  /** Writes the slots as they are now; concurrent changes are written one after the other, the last one last. */
  private save(): Promise<void> {
    const text = `${JSON.stringify({ base: this.settings.base, size: this.settings.size, slots: Object.fromEntries([...this.slots].sort((a, b) => a[1] - b[1])) }, null, 1)}\n`;
    const write = async () => {
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, text, { mode: 0o600 });
      await rename(tmp, this.file);
    };
    const next = this.saving.then(write, write);
    this.saving = next.catch(() => undefined);
    return next;
  }
}

/** Reads `<layerDir>/ids.json`; a layer without one is layout 1 (host ids are the ids inside: base 0). */
export async function readLayerIds(layerDir: string): Promise<LayerIds> {
  const text = await readFile(join(layerDir, LAYER_IDS_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return { layout: 1, hostBase: 0, size: DEFAULT_ID_RANGE_SIZE };
  const ids = JSON.parse(text) as LayerIds;
  if ((ids.layout !== 2 && ids.layout !== LAYER_LAYOUT) || !Number.isInteger(ids.hostBase) || !Number.isInteger(ids.size)) {
    throw new Error(`${join(layerDir, LAYER_IDS_FILE)}: layout ${String(ids.layout)} is not one this spritzer knows (${LAYER_LAYOUT}); use the spritzer that wrote this data dir`);
  }
  return ids;
}

/**
 * Makes every file of `layerDir` owned within the range at `hostBase` (`size` ids): an id `u` of the layer's
 * current range (ids.json, or layout 1) becomes `hostBase + (u - old base)`; an id outside it becomes the range's
 * `nobody` (65534). In a layer of layout 1 or 2 the sprite user's old uid and gid (1000) become its own (1001), so
 * what it made stays its own. Setuid/setgid bits, which chown clears, are set again. Then records the range and
 * layout in ids.json. A no-op when the layer already is in that range and layout. Resolves with the number of
 * entries changed.
 * @deviation file capabilities (`security.capability`) and POSIX ACL entries naming other users are not shifted:
 * chown drops the former, the latter keep naming the old ids. In a layer of layout 1 or 2, files of an account its
 * own user made with id 1001 become indistinguishable from the sprite user's.
 */
export async function shiftLayer(layerDir: string, hostBase: number, size: number): Promise<number> {
  const from = await readLayerIds(layerDir);
  if (from.layout === LAYER_LAYOUT && from.hostBase === hostBase && from.size === size) return 0;
  const inside = (id: number, sprite: number) => {
    if (id < from.hostBase || id - from.hostBase >= Math.min(from.size, size)) return 65534;
    return from.layout < LAYER_LAYOUT && id - from.hostBase === OLD_SPRITE_ID ? sprite : id - from.hostBase;
  };
  const map = (id: number, sprite: number) => hostBase + inside(id, sprite);
  let changed = 0;
  const walk = async (path: string): Promise<void> => {
    const st = await lstat(path);
    await lchown(path, map(st.uid, SPRITE_UID), map(st.gid, SPRITE_GID));
    if (!st.isSymbolicLink() && st.mode & 0o6000) await chmod(path, st.mode & 0o7777);
    changed++;
    if (st.isDirectory()) for (const name of await readdir(path)) if (path !== layerDir || name !== LAYER_IDS_FILE) await walk(join(path, name));
  };
  await walk(layerDir);
  const ids: LayerIds = { layout: LAYER_LAYOUT, hostBase, size };
  await writeFile(join(layerDir, LAYER_IDS_FILE), `${JSON.stringify(ids)}\n`, { mode: 0o644 });
  await lchown(join(layerDir, LAYER_IDS_FILE), 0, 0);
  return changed;
}
