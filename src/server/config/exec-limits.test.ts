import { describe, expect, it } from 'vitest';
import { DEFAULT_EXEC_STREAM_LIMITS, execStreamLimits } from './exec-limits.ts';

describe('execStreamLimits', () => {
  it('fills unset limits with the documented defaults (docs/limits.md)', () => {
    expect(execStreamLimits()).toEqual({
      maxStdinBytes: 64 * 1024 * 1024,
      outputChunkBytes: 64 * 1024,
      outputHighWaterBytes: 1024 * 1024,
      maxQueuedOutputBytes: 64 * 1024 * 1024,
    });
    expect(execStreamLimits({ maxStdinBytes: 10 })).toEqual({ ...DEFAULT_EXEC_STREAM_LIMITS, maxStdinBytes: 10 });
  });

  it('refuses a limit that is not a positive whole number of bytes', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => execStreamLimits({ outputChunkBytes: bad }), String(bad)).toThrow(RangeError);
    }
  });
});
