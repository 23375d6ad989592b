/**
 * `--agent-timeout` (`SPRITZER_AGENT_TIMEOUT`): how long spritzer waits for one answer of a sprite's agent
 * (`sandbox`, `container`) before the call fails. It owns the flag's parsing and default; the deadlines per call kind
 * are machines/agent/deadlines.ts's. @see docs/limits.md
 */
import { Option } from 'commander';
import { positiveDuration } from './cli-numbers.ts';

/** The default deadline of one call to a sprite's agent (ms). */
export const DEFAULT_AGENT_TIMEOUT_MS = 30_000;

/** A Go duration (`30s`, `2m`) or seconds, as milliseconds ≥ 1; anything else is commander's InvalidArgumentError. */
export const parseAgentTimeout: (value: string) => number = positiveDuration('30s, 2m or 45 (seconds)');

/** The option, ready for `program.addOption` (value in ms). */
export function agentTimeoutOption(): Option {
  return new Option('--agent-timeout <duration>', "sandbox and container engines: how long one call to a sprite's agent may take (file reads, writes and tree walks: 10x); past it the call fails with 504")
    .env('SPRITZER_AGENT_TIMEOUT')
    .default(DEFAULT_AGENT_TIMEOUT_MS, '30s')
    .argParser(parseAgentTimeout);
}
