/**
 * Giving the event loop a turn in the middle of a large in-process job (the `shell` engine runs just-bash in the
 * server's own event loop), so that other requests are served between its steps. It does not split a step: a
 * single synchronous pass over a large buffer still runs to its end.
 * @see issue 16 item 4
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
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
