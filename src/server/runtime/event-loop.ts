/**
 * Giving the event loop a turn in the middle of a large in-process job — the `shell` engine's commands (just-bash
 * runs in the server's own event loop), a long JSON answer (http/json-stream.ts), a filtered fs listing
 * (routes/fs.ts) — so that other requests are served between its steps. It does not split a step: a single
 * synchronous pass over a large buffer still runs to its end.
 * @see docs/limits.md (output of a `shell` engine command is turned into bytes in slices)
 */

/** Size above which a step over that many bytes is followed by a turn of the event loop: 1 MiB. */
export const YIELD_ABOVE_BYTES = 1024 * 1024;

/**
 * Resolves after the event loop has polled for I/O once more when `bytes` exceeds {@link YIELD_ABOVE_BYTES}, and
 * at once (a microtask) otherwise, so small commands keep their timing. Two `setImmediate` hops: one scheduled
 * from an I/O callback runs in the same loop iteration's check phase, before any other I/O; the second one runs
 * only after the next poll phase, where other sockets' requests are served.
 */
export function yieldAfter(bytes: number): Promise<void> {
  if (bytes <= YIELD_ABOVE_BYTES) return Promise.resolve();
  return nextTurn();
}

/** Resolves after the event loop has polled for I/O once more (two `setImmediate` hops, see {@link yieldAfter}). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Wall time (ms) a {@link filterInTurns} runs before it gives the event loop a turn. */
export const FILTER_SLICE_MS = 10;

/**
 * The items of `items` that `keep` accepts, in order, like `items.filter(keep)`, but giving the event loop a turn
 * ({@link nextTurn}) whenever `sliceMs` of wall time have passed since the last one (the clock is read every 64
 * items): a filter whose test may be slow (a hostile glob over a large directory) does not hold other requests.
 */
export async function filterInTurns<T>(items: readonly T[], keep: (item: T) => boolean, sliceMs = FILTER_SLICE_MS, now: () => number = () => performance.now()): Promise<T[]> {
  const out: T[] = [];
  let since = now();
  for (let i = 0; i < items.length; i++) {
    if (keep(items[i]!)) out.push(items[i]!);
    if ((i & 63) === 63 && now() - since >= sliceMs) {
      await nextTurn();
      since = now();
    }
  }
  return out;
}
