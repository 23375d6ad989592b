import { describe, it, expect } from 'vitest';
import { parseDuration } from './duration.ts';
import { ModelError } from './errors.ts';

describe('parseDuration', () => {
  it.each([
    ['5s', 5000],
    ['1m0s', 60_000],
    ['1h', 3_600_000],
    ['500ms', 500],
    ['10.0s', 10_000],
    ['1.5s', 1500],
    ['0', 0],
    ['0s', 0],
    ['1h2m3s', 3_723_000],
    ['2m30.5s', 150_500],
    ['1500us', 1.5],
    ['1500µs', 1.5],
    ['30', 30_000],
    [' 5s ', 5000],
    [10, 10_000],
    [0.25, 250],
  ] as const)('%j → %d ms', (input, ms) => {
    expect(parseDuration(input)).toBeCloseTo(ms, 9);
  });

  it.each(['', 'abc', '5x', '5d', '-5s', 's', '5 s', '1.2.3s', '5s5', 'NaN', '1e3s'])('rejects %j', (input) => {
    expect(() => parseDuration(input)).toThrow(ModelError);
    try {
      parseDuration(input);
    } catch (e) {
      expect((e as ModelError).kind).toBe('invalid');
    }
  });

  it.each([-1, Number.NaN, Infinity])('rejects the number %d', (n) => {
    expect(() => parseDuration(n)).toThrow(/invalid duration/);
  });
});
