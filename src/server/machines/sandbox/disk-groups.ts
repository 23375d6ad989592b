/**
 * One btrfs qgroup per sandbox sprite over its whole disk: the live layer and every snapshot of it (its checkpoints,
 * a restore's staged copy) are members of the sprite's level-1 qgroup `1/N`, whose referenced bytes count each extent
 * once, however many of them share it. The disk quota is a limit on that group, so what checkpoints keep after the
 * live disk dropped it counts against the sprite's quota too. Owns the group's numbering, lookup, limit and cleanup;
 * storage.ts decides when.
 * @see btrfs-qgroup(8) (levels, `subvolume create/snapshot -i`), docs/limits.md (`--disk-quota`)
 */
import { run } from './run.ts';

/** A level-1 qgroup id, `1/N`. */
export type DiskGroup = `1/${number}`;

/** Every level-1 qgroup on the volume, with its members (`0/<subvolume id>` each). */
async function levelOneGroups(vol: string): Promise<Map<DiskGroup, string[]>> {
  const out = await run('btrfs', ['qgroup', 'show', '-c', '--raw', vol]);
  const groups = new Map<DiskGroup, string[]>();
  for (const line of out.split('\n')) {
    // `1/7  <referenced>  <exclusive>  0/261,0/262  <path>` (the child column is `-` when it has none).
    const m = /^(1\/\d+)\s+\d+\s+\d+\s+(\S+)/.exec(line);
    if (m) groups.set(m[1] as DiskGroup, m[2] === '-' ? [] : m[2]!.split(',').filter((c) => c.startsWith('0/')));
  }
  return groups;
}

/**
 * The sprites' disk groups on one btrfs volume with qgroups enabled. Numbers never repeat within a run: `open`
 * starts past the highest group on the volume.
 */
export class DiskGroups {
  /** Group of each layer already looked up or made (by sprite key). */
  private readonly known = new Map<string, DiskGroup | null>();

  private constructor(
    private readonly vol: string,
    private last: number,
  ) {}

  /**
   * Reads the volume's groups and numbers new groups past the highest. With `sweep` (the filesystem is this
   * server's alone: its loop-mounted image), destroys the groups no subvolume belongs to any more (those of sprites
   * deleted before, whose snapshots the cleaner has since dropped); on a filesystem other servers may share, an
   * empty group may be one another server has just made, so it stays. Rejects when `btrfs qgroup show` fails.
   */
  static async open(vol: string, opts: { sweep: boolean }): Promise<DiskGroups> {
    const groups = await levelOneGroups(vol);
    let last = 0;
    for (const [group, members] of groups) {
      last = Math.max(last, Number(group.slice(2)));
      if (opts.sweep && members.length === 0) await run('btrfs', ['qgroup', 'destroy', group, vol]).catch(() => undefined);
    }
    return new DiskGroups(vol, last);
  }

  /**
   * Makes a new group for the sprite `key` (whose layer does not exist yet) and resolves with it: create the layer
   * with `btrfs subvolume create -i <group>`, so the group counts it from its first byte (a subvolume assigned later,
   * or a snapshot of a subvolume outside the group, leaves the accounting inconsistent until a full rescan). A number
   * another server on the same filesystem took meanwhile is skipped.
   */
  async create(key: string): Promise<DiskGroup> {
    for (let attempt = 0; ; attempt++) {
      const group: DiskGroup = `1/${++this.last}`;
      try {
        await run('btrfs', ['qgroup', 'create', group, this.vol]);
        this.known.set(key, group);
        return group;
      } catch (err) {
        if (attempt >= 64) throw err;
        // Taken: continue past the highest number on the filesystem now.
        for (const g of (await levelOneGroups(this.vol)).keys()) this.last = Math.max(this.last, Number(g.slice(2)));
      }
    }
  }

  /**
   * The group of the sprite `key`'s live layer at `layerDir`: remembered, else its parent qgroup as btrfs lists it
   * (a layer an earlier run made). undefined for a layer made before disk groups (its own qgroup is limited instead).
   */
  async of(key: string, layerDir: string): Promise<DiskGroup | undefined> {
    if (!this.known.has(key)) {
      const out = await run('btrfs', ['qgroup', 'show', '-pf', '--raw', layerDir]).catch(() => '');
      const parent = /^0\/\d+\s+\d+\s+\d+\s+(1\/\d+)/m.exec(out)?.[1] as DiskGroup | undefined;
      this.known.set(key, parent ?? null);
    }
    return this.known.get(key) ?? undefined;
  }

  /** Limits the referenced bytes of `group` to `bytes` (undefined: no limit). Past it every write inside fails with EDQUOT. */
  async limit(group: DiskGroup, bytes: number | undefined): Promise<void> {
    await run('btrfs', ['qgroup', 'limit', bytes === undefined ? 'none' : String(bytes), group, this.vol]);
  }

  /**
   * Forgets the sprite `key` and destroys its group once its subvolumes are deleted. btrfs refuses while the cleaner
   * still holds a member; such a group is destroyed by the next `open`. Never rejects.
   */
  async remove(key: string): Promise<void> {
    const group = this.known.get(key);
    this.known.delete(key);
    if (group) await run('btrfs', ['qgroup', 'destroy', group, this.vol]).catch(() => undefined);
  }
}
