/**
 * The command-line flags of the per-sprite count limits, so that one sprite cannot fill the server's memory with
 * files or sessions: `--max-files` and `--max-sessions` (`SPRITZER_MAX_FILES`, `SPRITZER_MAX_SESSIONS`). It owns
 * their parsing and how they fill `Limits`; main.ts adds them to its program, and the model and routes enforce them
 * (machines/memory/vfs.ts, exec/session-limit.ts).
 * @see docs/limits.md
 */
import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';

/** The parsed values, as commander names them. */
export interface LimitCliOptions {
  maxFiles: number;
  maxSessions: number;
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
  ];
}

/** The `Limits` fields these flags set. */
export function limitsFromOptions(opts: LimitCliOptions): Pick<Limits, 'filesMax' | 'sessionsMax'> {
  return { filesMax: opts.maxFiles, sessionsMax: opts.maxSessions };
}
