import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { limitOptions, limitsFromOptions, parseMaxAge, type LimitCliOptions } from './limit-options.ts';

/** The `Limits` fields the flags give for `argv` (and `env`), or the message commander refuses them with. */
function parse(argv: string[], env: Record<string, string> = {}) {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  for (const option of limitOptions()) program.addOption(option);
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    program.parse(argv, { from: 'user' });
    return limitsFromOptions(program.opts<LimitCliOptions>());
  } catch (e) {
    return (e as Error).message;
  } finally {
    for (const k of Object.keys(env)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

describe('--auto-checkpoints and --auto-checkpoint-max-age', () => {
  it('default to 5 automatic checkpoints per sprite, none older than 7 days', () => {
    expect(parse([])).toMatchObject({ autoCheckpointsMax: 5, autoCheckpointMaxAgeMs: 7 * 24 * 3_600_000 });
  });

  it('take a count (0: restores take none) and a Go duration or seconds (0: no age limit), also from the environment', () => {
    expect(parse(['--auto-checkpoints', '0', '--auto-checkpoint-max-age', '0'])).toMatchObject({ autoCheckpointsMax: 0, autoCheckpointMaxAgeMs: 0 });
    expect(parse(['--auto-checkpoints', '20', '--auto-checkpoint-max-age', '1h30m'])).toMatchObject({ autoCheckpointsMax: 20, autoCheckpointMaxAgeMs: 5_400_000 });
    expect(parse([], { SPRITZER_AUTO_CHECKPOINTS: '2', SPRITZER_AUTO_CHECKPOINT_MAX_AGE: '90' })).toMatchObject({ autoCheckpointsMax: 2, autoCheckpointMaxAgeMs: 90_000 });
  });

  it('refuse other values, naming the flag', () => {
    expect(parse(['--auto-checkpoints', '-1'])).toMatch(/--auto-checkpoints.*must be a whole number from 0 to 1000/);
    expect(parse(['--auto-checkpoints', '1001'])).toMatch(/from 0 to 1000/);
    expect(parse(['--auto-checkpoint-max-age', '7d'])).toMatch(/--auto-checkpoint-max-age.*must be a duration/);
    expect(() => parseMaxAge('-5s')).toThrow(/must be a duration/);
    expect(parseMaxAge('500ms')).toBe(500);
    expect(parseMaxAge('1ns')).toBe(1);
  });
});
