/**
 * The soak's pass rule (bench/soak.ts): 0 errors, and retained memory (heap after GC + external)
 * and live handles at the end within 10% of their warm-up values; a failure names what grew. RSS is not judged.
 */
import { describe, expect, it } from 'vitest';
import { countKinds, judgeSoak, type ProbeReading } from './soak.ts';

const MiB = 1024 * 1024;
/** A probe reading with `heapMiB` of heap after GC, 10 MiB of external memory and 3× the heap as RSS. */
const reading = (heapMiB: number, resources: string[]): ProbeReading => ({ rss: 3 * heapMiB * MiB, heapUsed: heapMiB * MiB, code: 5 * MiB, external: 10 * MiB, arrayBuffers: 0, resources });

describe('judgeSoak', () => {
  const warm = reading(90, ['TCPServerWrap', 'PipeWrap', 'Timeout', 'Timeout']);

  it('passes with no errors and retained memory and handles within 10%', () => {
    expect(judgeSoak(0, warm, reading(99, ['TCPServerWrap', 'PipeWrap', 'Timeout', 'Timeout']))).toEqual([]);
  });

  it('does not judge RSS, which keeps the allocator high-water mark', () => {
    expect(judgeSoak(0, warm, { ...warm, rss: warm.rss * 2 })).toEqual([]);
  });

  it('fails on any error', () => {
    expect(judgeSoak(1, warm, warm)).toEqual(['1 errors']);
  });

  it('fails when the heap after GC plus external memory grew more than 10%, with both figures', () => {
    expect(judgeSoak(0, warm, reading(101, warm.resources))).toEqual([
      'retained memory (heap after GC + external) grew from 100.0 MiB to 111.0 MiB (more than 10%)',
    ]);
    expect(judgeSoak(0, warm, { ...warm, external: 21 * MiB })).toEqual([
      'retained memory (heap after GC + external) grew from 100.0 MiB to 111.0 MiB (more than 10%)',
    ]);
  });

  it('fails when handles grew more than 10%, naming the kinds that grew', () => {
    const end = reading(90, [...warm.resources, 'TCPSocketWrap', 'Timeout']);
    expect(judgeSoak(0, warm, end)).toEqual(['live handles grew from 4 to 6 (Timeout 2 → 3, TCPSocketWrap 0 → 1)']);
  });

  it('counts resources by kind', () => {
    expect(countKinds(['A', 'B', 'A'])).toEqual({ A: 2, B: 1 });
  });
});
