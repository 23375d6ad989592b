/**
 * The bounds spritzer puts on what one client may make it hold or do: path lengths, fs/watch subscriptions and
 * backlogs, sprite labels/config/environment sizes, the disk quota per sprite, fault rules, services and the automatic
 * checkpoints a sprite keeps. It owns the `Limits` type, the defaults and the parsing of the one user-tunable size
 * (the disk quota); it does not enforce anything itself (the model, routes and sockets do, each where its input
 * arrives).
 * @see docs/limits.md (every limit, its default, its flag and the answer when it is exceeded)
 */
import bytes from 'bytes';

/** Every limit, injected through `Deps.limits`. Sizes are bytes unless a name says otherwise. */
export interface Limits {
  /**
   * Linux `PATH_MAX`: a path (UTF-8 bytes, counting the terminating NUL as Linux does) of this many bytes or more
   * is `ENAMETOOLONG`; so the longest accepted path has `pathMaxBytes - 1` bytes.
   * @see https://man7.org/linux/man-pages/man3/errno.3.html, linux/limits.h
   */
  pathMaxBytes: number;
  /** Linux `NAME_MAX`: a path component longer than this many UTF-8 bytes is `ENAMETOOLONG`. */
  nameMaxBytes: number;
  /** Distinct paths one fs/watch subscribe may name (after deduplication); more → close 1008. */
  watchPathsMax: number;
  /** Bytes of events an fs/watch socket may have waiting to be sent; more → close 1013 (the client reads too slowly). */
  watchBufferedBytes: number;
  /**
   * Bytes of a service's NDJSON stream (its start, restart or logs with a `duration`) waiting for a client that reads
   * too slowly; more → the stream ends with an `error` line, then `complete` (the service goes on).
   */
  streamBufferedBytes: number;
  /** Labels per sprite (create and update); more → 400. */
  labelsMax: number;
  /** Characters per label; longer → 400. */
  labelMaxLength: number;
  /** Bytes of a sprite's `config` serialised as JSON; more → 400. */
  configMaxBytes: number;
  /** Bytes of a sprite's `environment` serialised as JSON; more → 400. */
  environmentMaxBytes: number;
  /** Bytes of regular-file content one sprite's disk may hold; a write beyond it → `ENOSPC` (fs API 507, shell error). */
  diskQuotaBytes: number;
  /** Fault rules held at once (`/_spritzer/faults`); one more → 400. */
  faultRulesMax: number;
  /** Services per sprite; one more → 400. */
  servicesMax: number;
  /** Entries in one service's `needs`; more → 400. */
  serviceNeedsMax: number;
  /**
   * Bytes of all of one sprite's service definitions together (each string of `cmd`, `args`, `env`, `dir` and
   * `needs` counted in UTF-8 plus a NUL, as `execve` counts a command line); a put that would pass it → 400.
   */
  serviceDefinitionsMaxBytes: number;
  /** Regular files one sprite's disk may hold; a write or copy that would add one more → `ENOSPC` (fs API 507). */
  filesMax: number;
  /** Exec sessions (running commands) per sprite; one more → 429 `concurrent_session_limit_exceeded` (exec/session-limit.ts). */
  sessionsMax: number;
  /** Ms a control socket may stay open with no operation running; then it closes 1000 `idle timeout` (ws/control.ts). */
  controlIdleMs: number;
  /** Bytes of replies (`op.error` and the like) a control socket may have unsent; more → close 1013 (a flood). */
  controlReplyBacklogBytes: number;
  /**
   * Automatic checkpoints (the one each restore takes first) a sprite keeps: the oldest beyond this many go; 0 makes
   * restores take none (model/auto-checkpoints.ts).
   */
  autoCheckpointsMax: number;
  /** Ms an automatic checkpoint is kept; older ones go; 0 keeps them whatever their age. */
  autoCheckpointMaxAgeMs: number;
}

/** 1 GiB: the default disk quota of a sprite (held in memory by the in-memory machines). */
export const DEFAULT_DISK_QUOTA_BYTES = 1024 ** 3;

/**
 * The defaults (docs/limits.md). Path limits are Linux's; the others are spritzer's choices, generous for real
 * use and small enough that one request cannot make the server hold gigabytes or stall.
 */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  pathMaxBytes: 4096,
  nameMaxBytes: 255,
  watchPathsMax: 1024,
  watchBufferedBytes: 8 * 1024 * 1024,
  streamBufferedBytes: 8 * 1024 * 1024,
  labelsMax: 64,
  labelMaxLength: 128,
  configMaxBytes: 4096,
  environmentMaxBytes: 64 * 1024,
  diskQuotaBytes: DEFAULT_DISK_QUOTA_BYTES,
  faultRulesMax: 1000,
  servicesMax: 256,
  serviceNeedsMax: 64,
  serviceDefinitionsMaxBytes: 4 * 1024 * 1024,
  filesMax: 1_000_000,
  sessionsMax: 1024,
  controlIdleMs: 10 * 60 * 1000,
  controlReplyBacklogBytes: 1024 * 1024,
  autoCheckpointsMax: 5,
  autoCheckpointMaxAgeMs: 7 * 24 * 60 * 60 * 1000,
});

/**
 * Parses a size for `--disk-quota` / `SPRITZER_DISK_QUOTA`: a whole number of bytes (`1073741824`) or a number
 * with a binary unit (`512mb`, `1gb`, `1.5GB`; units b, kb, mb, gb, tb, case-insensitive, 1 kb = 1024 b, the
 * `bytes` package's syntax). Throws a RangeError for anything else, zero or a negative size.
 * @see https://github.com/visionmedia/bytes.js
 */
export function parseSize(text: string): number {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : /^\d+(\.\d+)?\s*[kmgt]?b$/i.test(trimmed) ? bytes.parse(trimmed) : NaN;
  if (value === null || !Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`invalid size ${JSON.stringify(text)} (expected bytes, or a number with kb, mb, gb or tb)`);
  }
  return value;
}
