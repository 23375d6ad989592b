/**
 * Automatic checkpoints: the checkpoint a restore takes of the state it is about to replace. This module owns what
 * is particular to them and pure: their id form (`auto-<Unix epoch ms>`), their comment, and which of them a sprite
 * drops under its count and age bounds. Taking, listing and releasing them is the sprite's (sprites.ts), through its
 * machine like any checkpoint.
 * @see docs/wire-reference.md §7.2, §7.3, §7.5; docs/fidelity.md "Automatic checkpoints"
 */

/** The prefix of automatic checkpoint ids; manual ones are `v<n>`. */
export const AUTO_ID_PREFIX = 'auto-';

/** How many automatic checkpoints a sprite keeps (`keep`, 0: none are taken) and for how long (`maxAgeMs`, 0: no bound). */
export interface AutoCheckpointBounds {
  keep: number;
  maxAgeMs: number;
}

/**
 * The id of an automatic checkpoint taken at `now` (epoch ms on the sprite's clock): `auto-<ms>`, the form real
 * Sprites show (`auto-1776191193888`). `after` is the millisecond of the last one this sprite handed out (0 for
 * none): ids are never reused, so a second one in the same millisecond, or after the clock stepped back, takes the
 * next millisecond after it. Returns the id and the millisecond it names.
 */
export function nextAutoId(now: number, after: number): { id: string; stamp: number } {
  const stamp = Math.max(Math.floor(now), after + 1);
  return { id: `${AUTO_ID_PREFIX}${stamp}`, stamp };
}

/** The millisecond an automatic id names (`auto-1776191193888` → 1776191193888), or undefined for any other id. */
export function autoIdStamp(id: string): number | undefined {
  const m = /^auto-(\d{1,16})$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/**
 * The comment of the automatic checkpoint a restore to `targetId` takes first: `pre-restore of v3`.
 * @deviation real Sprites' comment on automatic checkpoints is not documented; this one names the restore it
 *   precedes, after the old in-VM server's `pre-restore-v<N>-<time>` backups (docs/fidelity.md "Automatic checkpoints").
 */
export function preRestoreComment(targetId: string): string {
  return `pre-restore of ${targetId}`;
}

/**
 * The automatic checkpoints among `checkpoints` (oldest first, as a sprite holds them) that go at `now` (epoch ms):
 * those beyond the newest `bounds.keep`, and those more than `bounds.maxAgeMs` old (0: no age bound). Never one in
 * `kept`: the one the sprite is on (deleting it is refused to users too, §7.6) and one a restore is under way to.
 * Manual checkpoints never go. Returned oldest first. O(checkpoints).
 */
export function autoCheckpointsToDrop<T extends { id: string; createTime: number; isAuto: boolean }>(
  checkpoints: readonly T[],
  bounds: AutoCheckpointBounds,
  now: number,
  kept: ReadonlySet<string | null>,
): T[] {
  const drop: T[] = [];
  let newer = 0;
  for (let i = checkpoints.length - 1; i >= 0; i--) {
    const c = checkpoints[i];
    if (!c.isAuto) continue;
    const rank = newer++;
    if (kept.has(c.id)) continue;
    const expired = bounds.maxAgeMs > 0 && now - c.createTime > bounds.maxAgeMs;
    if (rank >= bounds.keep || expired) drop.push(c);
  }
  return drop.reverse();
}
