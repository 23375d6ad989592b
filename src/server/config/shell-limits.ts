/**
 * The shell engine's per-exec limits and their defaults, in a module of their own so the CLI can show the defaults
 * without loading just-bash (the engine loads on the first sprite, machines/memory/load.ts). It owns the shape and the
 * defaults; machines/memory/shell/world.ts turns them into just-bash's execution limits.
 * @see docs/limits.md
 */

/** The limits of one exec in the `shell` engine (`--shell-max-commands`, `--shell-timeout`). */
export interface ShellLimits {
  /**
   * Most commands (and loop iterations, and `seq`/`awk`/`sed`/`jq` iterations) one exec may run; beyond it the
   * script ends with exit 126 and a message naming the flag.
   */
  maxCommands: number;
  /** Most wall-clock milliseconds one exec may run (0 = no limit); beyond it exit 124 and a message naming the flag. */
  timeoutMs: number;
}

/**
 * Defaults: 10 million commands (a `while read` over a million lines runs about 5 million) and one hour, just-bash's
 * own time limit. Real sprites have neither; these only end runaway loops. @see docs/limits.md
 */
export const DEFAULT_SHELL_LIMITS: Readonly<ShellLimits> = Object.freeze({ maxCommands: 10_000_000, timeoutMs: 60 * 60 * 1000 });
