/**
 * The small timing helpers the machine benchmarks share (bench/container.ts, bench/k8s.ts, bench/sandbox.ts,
 * bench/checkpoint.ts): a median and a timed call. Figures only; no benchmark asserts wall-clock time.
 */

/** The median of `xs` (the upper one of an even count); `xs` is not changed. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs `fn`; resolves with its wall time in milliseconds and its value. */
export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}
