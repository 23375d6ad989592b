/**
 * `--agent-timeout` (`SPRITZER_AGENT_TIMEOUT`): how long spritzer waits for one answer of a sprite's agent
 * (`sandbox`, `container`) before the call fails. It owns the flag's parsing and default; the deadlines per call kind
 * are machines/agent/deadlines.ts's. @see docs/limits.md
 */
import { InvalidArgumentError, Option } from 'commander';
import { parseDuration } from '../core/duration.ts';

/** The default deadline of one call to a sprite's agent (ms). */
export const DEFAULT_AGENT_TIMEOUT_MS = 30_000;

/** A Go duration (`30s`, `2m`) or seconds, as whole milliseconds ≥ 1; anything else is commander's InvalidArgumentError. */
export function parseAgentTimeout(value: string): number {
  let ms: number;
  try {
    ms = parseDuration(value);
  } catch {
    throw new InvalidArgumentError('must be a duration such as 30s, 2m or 45 (seconds)');
  }
  if (!(ms >= 1)) throw new InvalidArgumentError('must be at least 1ms');
  return Math.round(ms);
}

/** The option, ready for `program.addOption` (value in ms). */
export function agentTimeoutOption(): Option {
  return new Option('--agent-timeout <duration>', "sandbox and container engines: how long one call to a sprite's agent may take (file reads, writes and tree walks: 10x); past it the call fails with 504")
    .env('SPRITZER_AGENT_TIMEOUT')
    .default(DEFAULT_AGENT_TIMEOUT_MS, '30s')
    .argParser(parseAgentTimeout);
}
