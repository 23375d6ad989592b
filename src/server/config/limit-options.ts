/**
 * The command-line flags of the per-sprite count limits, so that one sprite cannot fill the server's memory with
 * files, sessions or checkpoints nobody asked for: `--max-files`, `--max-sessions`, `--auto-checkpoints` and
 * `--auto-checkpoint-max-age` (`SPRITZER_MAX_FILES`, `SPRITZER_MAX_SESSIONS`, `SPRITZER_AUTO_CHECKPOINTS`,
 * `SPRITZER_AUTO_CHECKPOINT_MAX_AGE`). It owns their parsing and how they fill `Limits`; main.ts adds them to its
 * program, and the model and routes enforce them (machines/memory/vfs.ts, exec/session-limit.ts, model/sprites.ts).
 * @see docs/limits.md
 */
import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { parseDuration } from '../core/duration.ts';
import { wholeNumber } from './cli-numbers.ts';

/** The parsed values, as commander names them. */
export interface LimitCliOptions {
  maxFiles: number;
  maxSessions: number;
  autoCheckpoints: number;
  autoCheckpointMaxAge: number;
}

/** Most automatic checkpoints `--auto-checkpoints` lets a sprite keep (each holds a snapshot of its disk). */
export const AUTO_CHECKPOINTS_MAX = 1000;

/**
 * `--auto-checkpoint-max-age`: a Go duration (`168h`, `90m`) or seconds, as whole milliseconds (a positive duration
 * under 1 ms is 1 ms, never the 0 that means no bound); `0` for no age bound. Anything else is commander's
 * InvalidArgumentError (which names the flag).
 */
export function parseMaxAge(v: string): number {
  let ms: number;
  try {
    ms = parseDuration(v);
  } catch {
    throw new InvalidArgumentError('must be a duration such as 168h or 30m, or whole seconds (0: no age limit)');
  }
  return ms > 0 ? Math.max(1, Math.round(ms)) : 0;
}

/** A whole number ≥ 1, or commander's InvalidArgumentError (which names the flag). */
export function parseCount(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number, at least 1');
  return n;
}

/** `--max-files <n>` and `--max-sessions <n>`, with their env variables and defaults (DEFAULT_LIMITS). */
export function limitOptions(): Option[] {
  return [
    new Option('--max-files <n>', 'regular files each sprite may hold; beyond it writes fail with ENOSPC')
      .env('SPRITZER_MAX_FILES')
      .default(DEFAULT_LIMITS.filesMax)
      .argParser(parseCount),
    new Option('--max-sessions <n>', 'exec sessions (running commands) per sprite; one more is refused with 429')
      .env('SPRITZER_MAX_SESSIONS')
      .default(DEFAULT_LIMITS.sessionsMax)
      .argParser(parseCount),
    new Option('--auto-checkpoints <n>', 'automatic checkpoints (the one each restore takes first) each sprite keeps; older ones go; 0: restores take none')
      .env('SPRITZER_AUTO_CHECKPOINTS')
      .default(DEFAULT_LIMITS.autoCheckpointsMax)
      .argParser(wholeNumber({ min: 0, max: AUTO_CHECKPOINTS_MAX })),
    new Option('--auto-checkpoint-max-age <duration>', 'automatic checkpoints older than this go (e.g. 168h, 30m; 0: no age limit)')
      .env('SPRITZER_AUTO_CHECKPOINT_MAX_AGE')
      .default(DEFAULT_LIMITS.autoCheckpointMaxAgeMs, '168h')
      .argParser(parseMaxAge),
  ];
}

/** The `Limits` fields these flags set. */
export function limitsFromOptions(opts: LimitCliOptions): Pick<Limits, 'filesMax' | 'sessionsMax' | 'autoCheckpointsMax' | 'autoCheckpointMaxAgeMs'> {
  return { filesMax: opts.maxFiles, sessionsMax: opts.maxSessions, autoCheckpointsMax: opts.autoCheckpoints, autoCheckpointMaxAgeMs: opts.autoCheckpointMaxAge };
}
