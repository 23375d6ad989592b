/**
 * The soak's pass rule (bench/soak.ts, issue 13 item 4): 0 errors, and RSS and live handles at the end within
 * 10% of their warm-up values; a failure names what grew.
 */
import { describe, expect, it } from 'vitest';
import { countKinds, judgeSoak, type ProbeReading } from './soak.ts';

const reading = (rssMiB: number, resources: string[]): ProbeReading => ({ rss: rssMiB * 1024 * 1024, heapUsed: 0, external: 0, arrayBuffers: 0, resources });

describe('judgeSoak', () => {
  const warm = reading(100, ['TCPServerWrap', 'PipeWrap', 'Timeout', 'Timeout']);

  it('passes with no errors and RSS and handles within 10%', () => {
    expect(judgeSoak(0, warm, reading(110, ['TCPServerWrap', 'PipeWrap', 'Timeout', 'Timeout']))).toEqual([]);
  });

  it('fails on any error', () => {
    expect(judgeSoak(1, warm, warm)).toEqual(['1 errors']);
  });

  it('fails when RSS grew more than 10%, with both figures', () => {
    expect(judgeSoak(0, warm, reading(111, warm.resources))).toEqual(['RSS grew from 100.0 MiB to 111.0 MiB (more than 10%)']);
  });

  it('fails when handles grew more than 10%, naming the kinds that grew', () => {
    const end = reading(100, [...warm.resources, 'TCPSocketWrap', 'Timeout']);
    expect(judgeSoak(0, warm, end)).toEqual(['live handles grew from 4 to 6 (Timeout 2 → 3, TCPSocketWrap 0 → 1)']);
  });

  it('counts resources by kind', () => {
    expect(countKinds(['A', 'B', 'A'])).toEqual({ A: 2, B: 1 });
  });
});
