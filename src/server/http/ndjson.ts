/**
 * Writes `application/x-ndjson` responses: one JSON line per event, flushed per line, always ending in a
 * terminal line (docs/wire-reference.md §7.1, §9.3, §4.9). A failure after the headers is a terminal `error` line,
 * never a JSON body. It does not decide what the events are.
 */
import type { Response } from 'express';
import { encodeNdjsonLine } from '../../protocol/ndjson.ts';

/** An open NDJSON response. */
export interface NdjsonWriter {
  /** Writes one line (no-op once the client went away or the stream ended). */
  line(event: object): void;
  /** Ends the response. */
  end(): void;
  /** Whether the client disconnected. */
  readonly closed: boolean;
  /** Resolves when the client disconnects (or the response ends). */
  readonly gone: Promise<void>;
}

/** Starts an NDJSON response with status 200 and the headers the in-VM server sends. */
export function startNdjson(res: Response): NdjsonWriter {
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.flushHeaders();
  let closed = false;
  let ended = false;
  let resolveGone!: () => void;
  const gone = new Promise<void>((r) => (resolveGone = r));
  res.on('close', () => {
    closed = true;
    resolveGone();
  });
  return {
    line(event) {
      if (closed || ended) return;
      res.write(encodeNdjsonLine(event));
    },
    end() {
      if (ended) return;
      ended = true;
      res.end();
      resolveGone();
    },
    get closed() {
      return closed;
    },
    gone,
  };
}
