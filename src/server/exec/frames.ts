/**
 * Bridges an exec session to a byte sink using the exec framing (docs/wire-reference.md §4.4): `[1]…` stdout,
 * `[2]…` stderr and a final `[3, code]`. Used by HTTP exec; the WebSocket layer has its own sink because TTY
 * mode and text messages differ. Output is paced by {@link PacedOutput}: frames of at most `outputChunkBytes`,
 * written only while the response has less than `outputHighWaterBytes` unflushed.
 *
 * Frames are also kept apart in time ({@link FrameSeparator}): the official JS SDK's `execFileHTTP` reads each
 * chunk its fetch reader returns as exactly one frame, and undici hands over as one chunk whatever arrived
 * before the reader asked, so two frames written back to back reach it merged ("did not include an exit frame").
 * For those clients only ({@link frameGapFor}: the User-Agent of a JavaScript client reading through fetch), each frame
 * is written only once the previous one was flushed and {@link HTTP_EXEC_FRAME_GAP_MS} have passed;
 * output of one stream that comes in meanwhile joins the waiting frame (up to `outputChunkBytes`). The bytes of
 * the body are the same as without the gap; only where frames are cut and when they are written changes.
 */
import { StreamId, encodeFrame, encodeExitFrame } from '../../protocol/frames.ts';
import type { SessionListener } from '../model/sessions.ts';
import { DEFAULT_EXEC_STREAM_LIMITS, type ExecStreamLimits } from '../config/exec-limits.ts';
import { PacedOutput, type OutputStream } from './paced-output.ts';

/**
 * Default ms between the flush of one HTTP exec frame and the write of the next (`--http-exec-frame-gap`).
 * Measured on loopback with the JS SDK 0.1.0 `execFileHTTP` running `echo hi; echo err >&2; exit 3` on a
 * 2-core machine at load 12: 10 ms merged 3 calls in 100, 25 ms 4 in 200, 50 ms none in 200. A command that prints
 * slower than this pays nothing; bulk output is cut to `outputChunkBytes` per gap (1.3 MB/s with the 64 KiB
 * default); other clients get no gap (`--http-exec-frame-gap-clients all` gives it to every client). docs/limits.md.
 */
export const HTTP_EXEC_FRAME_GAP_MS = 50;

/** Which HTTP exec clients get the frame gap (`--http-exec-frame-gap-clients`). */
export type FrameGapClients = 'fetch' | 'all';

/**
 * True when `userAgent` is one a JavaScript client reading through fetch sends, the readers that merge chunks: the
 * default of a fetch-based runtime (Node's built-in fetch, undici 6 in Node 20 and 7 in Node 24, sends `node`, the
 * undici npm package `undici`, Deno `Deno/<version>`, Bun `Bun/<version>`), or the official JS SDK's own
 * (`@fly/sprites` 0.1.0 sets none, so its fetch's default; later versions send `sprites-js/<version>`, then its
 * client signals in parentheses, on every request).
 * @see https://github.com/nodejs/undici lib/web/fetch/index.js (`defaultUserAgent`); superfly/sprites-js
 *   `signalHeaders` (`User-Agent: sprites-js/${version} (interactive=…; parent=…)`)
 */
export function isJavaScriptFetchUserAgent(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return false;
  const ua = userAgent.trim();
  return /^(node|undici)$/i.test(ua) || /^(deno|bun|sprites-js)\//i.test(ua);
}

/**
 * The gap (ms) an HTTP exec request with `userAgent` gets: `gapMs` for a JavaScript client reading through fetch (see
 * {@link isJavaScriptFetchUserAgent}) or for everyone with `clients` `all`, else 0: a Go, Python or curl client
 * parses the stream and would pay the pause per frame for nothing. docs/limits.md, docs/fidelity.md.
 */
export function frameGapFor(userAgent: string | undefined, gapMs: number, clients: FrameGapClients = 'fetch'): number {
  return clients === 'all' || isJavaScriptFetchUserAgent(userAgent) ? gapMs : 0;
}

/** Where framed output goes (an HTTP response). */
export interface FramedSink {
  /** Writes one frame; `done` runs once it was flushed or failed (`res.write`'s callback). */
  write(frame: Uint8Array, done: () => void): void;
  /** Ends the stream; called right after the exit frame was written. */
  end(code: number): void;
  /** The reader fell more than `maxQueuedOutputBytes` behind: drop the connection (no exit frame follows). */
  abort(): void;
}

/** A timer source (tests inject their own). */
export interface GapTimer {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimer: GapTimer = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

type Pending = { stream: OutputStream | 'exit'; parts: Uint8Array[]; bytes: number; dones: Array<() => void>; code?: number };

/**
 * Writes frames to a {@link FramedSink} one at a time, each after the previous one's flush plus `gapMs`, joining
 * output of one stream that waits into one frame of at most `maxFrameBytes` payload. `exit(code)` queues the exit
 * frame after everything queued before and ends the sink once it is flushed.
 */
export class FrameSeparator {
  private readonly queue: Pending[] = [];
  private busy = false;
  private timer: unknown;
  private closed = false;

  constructor(
    private readonly sink: FramedSink,
    private readonly maxFrameBytes: number,
    private readonly gapMs: number = HTTP_EXEC_FRAME_GAP_MS,
    private readonly timers: GapTimer = realTimer,
  ) {}

  /** Queues output of `stream`; `done` runs when the frame that carries it was flushed. */
  write(stream: OutputStream, chunk: Uint8Array, done: () => void): void {
    if (this.closed) return done();
    const last = this.queue.at(-1);
    if (last && last.stream === stream && last.bytes + chunk.length <= this.maxFrameBytes) {
      last.parts.push(chunk);
      last.bytes += chunk.length;
      last.dones.push(done);
    } else this.queue.push({ stream, parts: [chunk], bytes: chunk.length, dones: [done] });
    this.pump();
  }

  /** Queues the exit frame `[3, code]`; the sink ends after it. */
  exit(code: number): void {
    if (this.closed) return;
    this.queue.push({ stream: 'exit', parts: [], bytes: 0, dones: [], code });
    this.pump();
  }

  /** Drops what waits (the client went away). */
  close(): void {
    this.closed = true;
    this.timers.clearTimeout(this.timer);
    for (const p of this.queue.splice(0)) for (const d of p.dones) d();
  }

  private pump(): void {
    if (this.busy || this.closed) return;
    const next = this.queue.shift();
    if (!next) return;
    this.busy = true;
    const frame =
      next.stream === 'exit'
        ? encodeExitFrame(next.code!)
        : encodeFrame(next.stream === 'stdout' ? StreamId.Stdout : StreamId.Stderr, next.parts.length === 1 ? next.parts[0]! : Buffer.concat(next.parts));
    this.sink.write(frame, () => {
      for (const d of next.dones) d();
      if (next.stream === 'exit') {
        this.closed = true;
        return this.sink.end(next.code!);
      }
      if (this.closed) return;
      if (this.gapMs === 0) {
        this.busy = false;
        return this.pump();
      }
      this.timer = this.timers.setTimeout(() => {
        this.busy = false;
        this.pump();
      }, this.gapMs);
    });
  }
}

/**
 * A listener that writes output as frames and the exit frame last, paced to the sink and kept apart in time
 * (module comment). `close()` drops what is still queued (call it when the client went away).
 */
export function framedListener(
  sink: FramedSink,
  limits: ExecStreamLimits = DEFAULT_EXEC_STREAM_LIMITS,
  gapMs: number = HTTP_EXEC_FRAME_GAP_MS,
  timers: GapTimer = realTimer,
): SessionListener & { close(): void } {
  const frames = new FrameSeparator(sink, limits.outputChunkBytes, gapMs, timers);
  const out = new PacedOutput({ write: (stream, chunk, done) => frames.write(stream, chunk, done) }, limits, () => sink.abort());
  return {
    output(stream, data) {
      out.push(stream, data);
    },
    exit(code) {
      out.then(() => frames.exit(code));
    },
    close() {
      out.close();
      frames.close();
    },
  };
}
