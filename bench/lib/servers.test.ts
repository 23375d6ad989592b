import { describe, expect, it } from 'vitest';
import { cpuMsFromStat, readCpuMs, readRssKiB } from './servers.ts';

describe('bench /proc readings', () => {
  it('adds utime and stime (fields 14, 15, in 1/100 s) even when the command name holds spaces and parentheses', () => {
    const line = '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 11 0 1234 1000000 5000';
    expect(cpuMsFromStat(line)).toBe(2810);
  });

  it('rejects a line it cannot read rather than reporting 0', () => {
    expect(() => cpuMsFromStat('garbage')).toThrow(/unreadable/);
  });

  it('reads this process', () => {
    expect(readRssKiB(process.pid)).toBeGreaterThan(1024);
    expect(readCpuMs(process.pid)).toBeGreaterThan(0);
  });
});
