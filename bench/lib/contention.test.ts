import { describe, expect, it } from 'vitest';
import { contentionTable, measureContention } from './contention.ts';

describe.skipIf(process.platform !== 'linux')('host contention counters', () => {
  it('charge CPU this process burns to spritzer, and report every rate as a finite, non-negative number', () => {
    const m = measureContention();
    const cpuStart = process.cpuUsage();
    // Burn 200 ms of this process's own CPU (measured as CPU, not wall time).
    while (process.cpuUsage(cpuStart).user < 200_000) Math.sqrt(Math.random());
    const c = m.stop();
    expect(c.cores.spritzer * c.seconds).toBeGreaterThanOrEqual(0.19);
    const rates = [c.cores.kthreads, c.cores.other, ...Object.values(c.perSecond), ...Object.values(c.stalled)];
    for (const r of rates) expect(Number.isFinite(r) && r >= 0).toBe(true);
  });

  it('prints one column per phase and leaves out kernel-thread kinds that used nothing', () => {
    const c = measureContention().stop();
    const busy = { ...c, cores: { ...c.cores, byKthread: { loop: 0.42 } } };
    const idle = { ...c, cores: { ...c.cores, byKthread: {} } };
    const table = contentionTable({ idle, busy }).split('\n');
    expect(table[0]).toMatch(/host counters\s+idle\s+busy$/);
    expect(table.find((l) => l.startsWith('  loop'))).toMatch(/0\.00\s+0\.42$/);
    expect(table.some((l) => l.startsWith('  kswapd'))).toBe(false);
  });
});
