import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, parseSize } from './limits.ts';

describe('parseSize', () => {
  it('reads bytes and binary units, case-insensitively', () => {
    expect(parseSize('1048576')).toBe(1024 * 1024);
    expect(parseSize('512mb')).toBe(512 * 1024 * 1024);
    expect(parseSize('1GB')).toBe(DEFAULT_LIMITS.diskQuotaBytes);
    expect(parseSize(' 1.5kb ')).toBe(1536);
  });

  it('refuses anything else, zero and negative sizes', () => {
    for (const bad of ['', 'abc', '-1', '0', '1 gigabyte', '1e9', '10pb', 'mb']) expect(() => parseSize(bad), bad).toThrow(RangeError);
  });
});
