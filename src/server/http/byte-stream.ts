/**
 * Sends a binary body that arrives in chunks (a streamed `fs/read`) with back-pressure: the next chunk is asked for
 * only once the socket has taken the previous one, so a slow client makes spritzer read more slowly instead of
 * buffering the body. It owns the writing and the end of such a response, not where the chunks come from.
 */
import type { Response } from 'express';
import { drained } from './json-array.ts';

/**
 * Answers 200 `application/octet-stream`: `first`, then every chunk of `rest` (chunked transfer, no
 * `Content-Length`: the length is known only at the end). Stops reading when the client goes away. A chunk that
 * fails after the headers are sent cannot become an error answer: the connection is cut, so the client sees a body
 * cut short rather than a shorter file; the error is passed to `onError` (logging).
 */
export async function sendByteStream(
  res: Response,
  first: Uint8Array,
  rest: AsyncIterable<Uint8Array>,
  onError: (err: unknown) => void = () => {},
): Promise<void> {
  res.status(200).type('application/octet-stream');
  const chunks = rest[Symbol.asyncIterator]();
  let ok = res.write(asBuffer(first));
  try {
    for (;;) {
      if (!ok) await drained(res);
      if (res.destroyed) return;
      const next = await chunks.next();
      if (res.destroyed) return;
      if (next.done) break;
      ok = res.write(asBuffer(next.value));
    }
    res.end();
  } catch (err) {
    onError(err);
    res.destroy();
  } finally {
    await chunks.return?.();
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
