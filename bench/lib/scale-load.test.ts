import { describe, expect, it } from 'vitest';
import { growthExponent } from './scale-load.ts';

describe('scale curve growth exponent', () => {
  it('is 0 for a flat figure, 1 for a linear one and 2 for a quadratic one, fitted through the ends', () => {
    expect(growthExponent([[10, 5], [100, 5], [10_000, 5]])).toBeCloseTo(0);
    expect(growthExponent([[10, 1], [1000, 100]])).toBeCloseTo(1);
    expect(growthExponent([[10, 1], [100, 50], [1000, 10_000]])).toBeCloseTo(2);
  });

  it('is undefined with one step, a figure that is not positive, or sizes that do not grow', () => {
    expect(growthExponent([[10, 1]])).toBeUndefined();
    expect(growthExponent([[10, 0], [100, 1]])).toBeUndefined();
    expect(growthExponent([[100, 1], [100, 2]])).toBeUndefined();
  });
});
