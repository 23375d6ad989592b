/**
 * Sends a JSON array response without building one giant string: a short array goes through `res.json` (so the
 * spec's response validation sees it), a long one is written in chunks of about `chunkBytes`, waiting for the
 * socket to drain between chunks. The body is byte-for-byte what `res.json` would send. It does not decide what
 * the items are.
 */
import type { Response } from 'express';

/** Arrays longer than this many items are streamed. */
export const STREAM_ARRAY_AFTER_ITEMS = 500;
/** Approximate size of each streamed chunk, in bytes (UTF-16 units of JSON text). */
export const ARRAY_CHUNK_BYTES = 64 * 1024;

/**
 * Writes `items` as a JSON array with status 200: through `res.json` when there are at most `streamAfter` items,
 * otherwise as `[`, the items separated by `,` in chunks of about `chunkBytes`, then `]`, so memory stays at one
 * chunk whatever the length. Resolves when the last byte is handed to the socket (or the client went away).
 * @see docs/wire-reference.md §7.3 (the checkpoint list is a bare JSON array; every SDK parses the whole body)
 */
export async function sendJsonArray(
  res: Response,
  items: readonly unknown[],
  opts: { streamAfter?: number; chunkBytes?: number } = {},
): Promise<void> {
  const streamAfter = opts.streamAfter ?? STREAM_ARRAY_AFTER_ITEMS;
  const chunkBytes = opts.chunkBytes ?? ARRAY_CHUNK_BYTES;
  if (items.length <= streamAfter) {
    res.json(items);
    return;
  }
  res.status(200).type('application/json; charset=utf-8');
  let chunk = '[';
  for (let i = 0; i < items.length; i++) {
    chunk += (i === 0 ? '' : ',') + JSON.stringify(items[i]);
    if (chunk.length < chunkBytes) continue;
    if (res.destroyed) return;
    const ok = res.write(chunk);
    chunk = '';
    if (!ok) await drained(res);
  }
  res.end(chunk + ']');
}

/** Resolves when `res` can take more data, or is closed; leaves no listener behind. */
export function drained(res: Response): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
