/** `--agent-timeout`: a duration or seconds, as milliseconds; anything else is refused naming the form. */
import { describe, expect, it } from 'vitest';
import { agentTimeoutOption, DEFAULT_AGENT_TIMEOUT_MS, parseAgentTimeout } from './agent-timeout.ts';

describe('--agent-timeout', () => {
  it('takes a Go duration or seconds, defaults to 30 s, and refuses what is not a duration of at least 1 ms', () => {
    expect(parseAgentTimeout('1s')).toBe(1000);
    expect(parseAgentTimeout('2m')).toBe(120_000);
    expect(parseAgentTimeout('45')).toBe(45_000);
    expect(() => parseAgentTimeout('soon')).toThrow(/must be a duration such as 30s/);
    expect(() => parseAgentTimeout('0')).toThrow(/at least 1ms/);
    const option = agentTimeoutOption();
    expect([option.envVar, option.defaultValue]).toStrictEqual(['SPRITZER_AGENT_TIMEOUT', DEFAULT_AGENT_TIMEOUT_MS]);
  });
});
