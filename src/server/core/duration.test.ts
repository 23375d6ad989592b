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
    ['1.25s', 1250],
    ['1m1.25s', 61_250],
    ['.5s', 500],
    ['.25s', 250],
    ['1m.25s', 60_250],
    ['1.25', 1250],
    ['.5', 500],
    ['.25', 250],
    ['+5s', 5000],
    [' +30 ', 30_000],
    [10, 10_000],
    [0.25, 250],
    [0, 0],
  ] as const)('%j → %d ms', (input, ms) => {
    expect(parseDuration(input)).toBeCloseTo(ms, 9);
  });

  it.each(['', 'abc', '5x', '5d', '-5s', 's', '5 s', '1.2.3s', '5s5', 'NaN', '1e3s', '5+s', '++5s', '.s', '.xs', '1m.xs', '1.x', '.x'])(
    'rejects %j',
    (input) => {
      expect(() => parseDuration(input)).toThrow(new ModelError('invalid', `invalid duration: ${JSON.stringify(input)}`));
      try {
        parseDuration(input);
      } catch (e) {
        expect((e as ModelError).kind).toBe('invalid');
      }
    },
  );

  it.each([null, {}, [], true])('rejects %j with a typed error, not a TypeError', (input) => {
    try {
      parseDuration(input as unknown as string);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ModelError);
      expect((e as ModelError).kind).toBe('invalid');
      expect((e as ModelError).message).toBe(`invalid duration: ${JSON.stringify(input)}`);
    }
  });

  it.each([-1, Number.NaN, Infinity])('rejects the number %d', (n) => {
    expect(() => parseDuration(n)).toThrow(/invalid duration/);
  });
});
