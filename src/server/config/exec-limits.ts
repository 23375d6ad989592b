/**
 * The limits that keep exec's stdin and output streams bounded, so that one command's stdin or output never takes
 * spritzer down or stalls other clients: how much stdin the shell engine collects, how big an output frame is, how
 * much output may sit unflushed on one socket, and how far a slow reader may fall behind. It owns the numbers and
 * their defaults only; the engine, the WebSocket layer and HTTP exec enforce them. Every limit is listed in
 * docs/limits.md.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** Limits of exec's byte streams, in bytes. */
export interface ExecStreamLimits {
  /**
   * Most stdin one command may receive (WebSocket frames or the HTTP exec body). The shell engine collects stdin
   * before the command starts; past this it fails the command loudly (exit 126, message on stderr), HTTP exec
   * answers 413, and a single WebSocket frame larger than this (plus its stream-id byte) is closed with 1009.
   * Default 64 MiB, which is also just-bash's own stdin limit.
   */
  maxStdinBytes: number;
  /** Largest output payload spritzer puts into one frame (WebSocket message or HTTP exec frame). Default 64 KiB. */
  outputChunkBytes: number;
  /**
   * Output handed to one socket and not yet flushed to the kernel, above which spritzer waits for the socket to
   * drain before it sends more. Default 1 MiB.
   */
  outputHighWaterBytes: number;
  /**
   * Output queued for one client behind earlier output it has not read yet. Past this the client is dropped:
   * WebSocket close 1013, HTTP exec connection reset. One piece of output that arrives while nothing is queued is
   * always accepted whole (the engine already holds it), so only a reader that stays behind a producer hits this.
   * Default 64 MiB.
   */
  maxQueuedOutputBytes: number;
}

/** The defaults (docs/limits.md). */
export const DEFAULT_EXEC_STREAM_LIMITS: Readonly<ExecStreamLimits> = Object.freeze({
  maxStdinBytes: 64 * MiB,
  outputChunkBytes: 64 * KiB,
  outputHighWaterBytes: 1 * MiB,
  maxQueuedOutputBytes: 64 * MiB,
});

/**
 * The limits in force: the defaults with `overrides` on top. Throws a `RangeError` for a value that is not a
 * positive safe integer.
 */
export function execStreamLimits(overrides: Partial<ExecStreamLimits> = {}): ExecStreamLimits {
  const limits = { ...DEFAULT_EXEC_STREAM_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${key} must be a positive whole number of bytes, got ${value}`);
  }
  return limits;
}
