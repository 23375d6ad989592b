/**
 * Writes `application/x-ndjson` responses: one JSON line per event, flushed per line, always ending in a
 * terminal line (docs/wire-reference.md §7.1, §9.3, §4.9). A failure after the headers is a terminal `error` line,
 * never a JSON body. It does not decide what the events are.
 */
import type { Response } from 'express';
import { encodeNdjsonLine } from '../../protocol/ndjson.ts';

/** An open NDJSON response. */
export interface NdjsonWriter {
  /**
   * Writes one line (no-op once the client went away or the stream ended). While more than `maxBufferedBytes` wait
   * for the client, a line is dropped unless `terminal` (the stream's last lines); see `lagging`.
   */
  line(event: object, terminal?: boolean): void;
  /** Whether the client fell behind by more than `maxBufferedBytes` (from then on only terminal lines are written). */
  readonly lagging: boolean;
  /** Ends the response. */
  end(): void;
  /** Whether the client disconnected. */
  readonly closed: boolean;
  /** Resolves when the client disconnects, falls behind (`lagging`), or the response ends. */
  readonly gone: Promise<void>;
}

/**
 * Starts an NDJSON response with status 200 and the headers the in-VM server sends. `maxBufferedBytes` bounds what
 * spritzer holds for a client that reads more slowly than events come (Node buffers every `write`): past it the
 * writer is `lagging` and drops all but terminal lines, so the caller can end the stream.
 */
export function startNdjson(res: Response, opts: { maxBufferedBytes?: number } = {}): NdjsonWriter {
  const maxBuffered = opts.maxBufferedBytes ?? Infinity;
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.flushHeaders();
  let closed = false;
  let ended = false;
  let lagging = false;
  let resolveGone!: () => void;
  const gone = new Promise<void>((r) => (resolveGone = r));
  res.on('close', () => {
    closed = true;
    resolveGone();
  });
  return {
    line(event, terminal = false) {
      if (closed || ended) return;
      if (!lagging && res.writableLength > maxBuffered) {
        lagging = true;
        resolveGone();
      }
      if (lagging && !terminal) return;
      res.write(encodeNdjsonLine(event));
    },
    get lagging() {
      return lagging;
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
