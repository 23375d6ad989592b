/**
 * The btrfs qgroups that make `--disk-quota` cover a sandbox sprite's checkpoints too: the sprite's live layer and
 * every snapshot of it (checkpoints, the copy a restore makes) are members of one level-1 qgroup of their own, and
 * the quota is that group's limit on referenced bytes. btrfs counts an extent shared by the layer and its snapshots
 * once, so the limit bounds exactly what the sprite holds on the host, live files and checkpoints together. It owns
 * the group ids and the markers that say which sprites have one (`<vol>/quota-groups/<id>`); storage.ts calls it.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './run.ts';

/** The level-1 qgroups of sprites on one btrfs volume with quotas enabled. */
export class QuotaGroups {
  constructor(private readonly vol: string) {}

  /**
   * The sprite's group, `1/<n>`: `n` is 44 bits of the id's SHA-256, so it is the same in every run (a kept volume
   * finds its groups again) and fits btrfs's 48-bit qgroup ids.
   */
  id(spriteId: string): string {
    return `1/${parseInt(createHash('sha256').update(spriteId).digest('hex').slice(0, 11), 16)}`;
  }

  /**
   * Makes the sprite's group (or takes the one a sprite of the same id left) with no limit, and marks the sprite as
   * grouped. Resolves with the group id, to pass as `btrfs subvolume create/snapshot -i`.
   */
  async prepare(spriteId: string): Promise<string> {
    const group = this.id(spriteId);
    await run('btrfs', ['qgroup', 'create', group, this.vol]).catch(async (err: Error) => {
      if (!(await this.exists(group))) throw err;
    });
    await run('btrfs', ['qgroup', 'limit', 'none', group, this.vol]);
    await mkdir(join(this.vol, 'quota-groups'), { recursive: true });
    await writeFile(this.marker(spriteId), `${group}\n`);
    return group;
  }

  /**
   * The sprite's group, or undefined for a layer made without one (by a spritzer before groups, on a kept volume):
   * such a layer keeps its own limit and its snapshots are not counted.
   */
  async of(spriteId: string): Promise<string | undefined> {
    return (await lstat(this.marker(spriteId)).catch(() => undefined)) ? this.id(spriteId) : undefined;
  }

  /** Sets (or with undefined lifts) the limit of `group` on referenced bytes: data and metadata, shared extents once. */
  async limit(group: string, bytes: number | undefined): Promise<void> {
    await run('btrfs', ['qgroup', 'limit', bytes === undefined ? 'none' : String(bytes), group, this.vol]);
  }

  /**
   * Forgets the sprite's group once its layer and snapshots are deleted. The kernel keeps a deleted subvolume's
   * qgroup (empty) until it is cleaned, which may keep the group busy: then it stays, empty and without a limit
   * that `prepare` would not reset.
   */
  async forget(spriteId: string): Promise<void> {
    if (!(await this.of(spriteId))) return;
    await run('btrfs', ['qgroup', 'destroy', this.id(spriteId), this.vol]).catch(() => undefined);
    await rm(this.marker(spriteId), { force: true });
  }

  private marker(spriteId: string): string {
    return join(this.vol, 'quota-groups', spriteId);
  }

  private async exists(group: string): Promise<boolean> {
    const shown = await run('btrfs', ['qgroup', 'show', '--raw', this.vol]).catch(() => '');
    return shown.split('\n').some((line) => line.trim().split(/\s+/)[0] === group);
  }
}
