/**
 * What the shell engine's character devices read as, and the owner facts `BashFs` adds to just-bash's `FsStat`
 * (which has no uid/gid) so `ls -l` can show the real owner and a device's type. It does not decide which paths
 * are devices (`BashFs` does) and holds no state.
 * @see docs/fidelity.md "shell engine"
 */
import { randomBytes } from 'node:crypto';
import type { FsStat } from 'just-bash';
import { SPRITE_GID, SPRITE_UID } from '../../../../protocol/sprite-tree.ts';

/**
 * Bytes one whole read of an endless device gives (1 MiB): what `cat /dev/zero | head -c N` or
 * `tr -dc a-z < /dev/urandom | head -c N` can take, the shell engine's pipelines not streaming. A reader that
 * knows how many bytes it wants (`head -c N`, `dd count=`) asks {@link endlessBytes} for exactly those instead.
 * @deviation Linux's `/dev/zero` and `/dev/urandom` never end; here one read returns this many bytes, then EOF.
 */
export const ENDLESS_DEVICE_BYTES = 1024 * 1024;

/** The most bytes a bounded read of an endless device may ask for (256 MiB: the engine keeps files in memory). */
export const ENDLESS_DEVICE_MAX = 256 * 1024 * 1024;

/** Whether the normalised path `p` is a device that never ends (`/dev/zero`, `/dev/urandom`, `/dev/random`). */
export const isEndlessDevice = (p: string): boolean => p === '/dev/zero' || p === '/dev/urandom' || p === '/dev/random';

/**
 * The first `n` bytes a read of the endless device `p` gives (zeros, or fresh random bytes), for a reader that
 * stops after `n` as GNU's `head -c N` does. Throws RangeError past {@link ENDLESS_DEVICE_MAX}.
 */
export function endlessBytes(p: string, n: number): Uint8Array {
  if (n > ENDLESS_DEVICE_MAX) throw new RangeError(`reading ${n} bytes of ${p} is more than the shell engine keeps in memory`);
  return p === '/dev/zero' ? new Uint8Array(n) : new Uint8Array(randomBytes(n));
}

/**
 * The bytes a read of the device at the normalised path `p` returns: zeros for `/dev/zero`, fresh random bytes
 * for `/dev/urandom` and `/dev/random` ({@link ENDLESS_DEVICE_BYTES} of them), nothing for the others
 * (`/dev/null`, `/dev/tty`, `/dev/std*`: the commands that read stdin map `/dev/stdin` to their stdin).
 */
export function deviceBytes(p: string): Uint8Array {
  if (isEndlessDevice(p)) return endlessBytes(p, ENDLESS_DEVICE_BYTES);
  return new Uint8Array(0);
}

/** The major and minor numbers of the character devices under /dev, by name, as Linux numbers them (devices.txt). */
export const DEVICE_NUMBERS: Readonly<Record<string, readonly [number, number]>> = { null: [1, 3], zero: [1, 5], full: [1, 7], random: [1, 8], urandom: [1, 9], tty: [5, 0] };

/** The device number of the sprite's disk (major 254, minor 0: `stat -c %d`), which every VFS entry is on. */
export const DISK_DEVICE = 254 * 256;

/** Owner facts of an entry: numeric uid/gid, whether it is a character device, and its link count. */
export interface OwnerFacts {
  uid: number;
  gid: number;
  device?: boolean;
  /** How many names the file has (a directory: 2 + its subdirectories); absent for synthetic entries. */
  nlink?: number;
}

/** An `FsStat` that also carries {@link OwnerFacts} (what `BashFs.stat`/`lstat` return). */
export type OwnedFsStat = FsStat & OwnerFacts;

/** `stat` with the owner facts added (a new object). */
export function withOwner(stat: FsStat, owner: OwnerFacts): OwnedFsStat {
  return { ...stat, ...owner };
}

/**
 * The link count of a stat that `BashFs` made, or, for another filesystem's or a synthetic entry, what `count`
 * gives (commands count a directory's subdirectories themselves there).
 */
export async function linkCount(stat: FsStat, count: () => Promise<number>): Promise<number> {
  const n = (stat as Partial<OwnerFacts>).nlink;
  return n ?? count();
}

/** The owner facts of a stat that `BashFs` made, or the sprite user's when another filesystem made it. */
export function ownerOf(stat: FsStat): OwnerFacts {
  const s = stat as Partial<OwnerFacts>;
  return { uid: s.uid ?? SPRITE_UID, gid: s.gid ?? SPRITE_GID, device: s.device ?? false };
}

/**
 * The inode number of `st` (the sprite's files have their own), or for a synthetic entry (`/dev`, `/proc`, a
 * command's stub under `/usr/bin`) a stable number made from `path` (FNV-1a, in the range ext4 hands out).
 */
export function inodeNumber(st: FsStat, path: string): number {
  if (typeof st.ino === 'number') return st.ino;
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return path === '/' ? 2 : 1000 + (h % 50_000_000);
}

/** Whether two stats are of one file: the same device and inode number (two names of a hard-linked file are). */
export function sameFile(a: FsStat, b: FsStat): boolean {
  if (a.ino === undefined || b.ino === undefined) return a === b;
  return a.ino === b.ino && a.dev === b.dev;
}
