/**
 * Bridges an exec session to a byte sink using the exec framing (docs/wire-reference.md §4.4): `[1]…` stdout,
 * `[2]…` stderr and a final `[3, code]`. Used by HTTP exec; the WebSocket layer has its own sink because TTY
 * mode and text messages differ. Output is paced by {@link PacedOutput}: frames of at most `outputChunkBytes`,
 * written only while the response has less than `outputHighWaterBytes` unflushed.
 */
import { StreamId, encodeFrame, encodeExitFrame } from '../../protocol/frames.ts';
import type { SessionListener } from '../model/sessions.ts';
import { DEFAULT_EXEC_STREAM_LIMITS, type ExecStreamLimits } from '../exec-limits.ts';
import { PacedOutput } from './paced-output.ts';

/** Where framed output goes (an HTTP response). */
export interface FramedSink {
  /** Writes one frame; `done` runs once it was flushed or failed (`res.write`'s callback). */
  write(frame: Uint8Array, done: () => void): void;
  /** Ends the stream; called right after the exit frame was written. */
  end(code: number): void;
  /** The reader fell more than `maxQueuedOutputBytes` behind: drop the connection (no exit frame follows). */
  abort(): void;
}

/**
 * A listener that writes output as frames and the exit frame last, paced to the sink. `close()` drops what is
 * still queued (call it when the client went away).
 */
export function framedListener(
  sink: FramedSink,
  limits: ExecStreamLimits = DEFAULT_EXEC_STREAM_LIMITS,
): SessionListener & { close(): void } {
  const out = new PacedOutput(
    { write: (stream, chunk, done) => sink.write(encodeFrame(stream === 'stdout' ? StreamId.Stdout : StreamId.Stderr, chunk), done) },
    limits,
    () => sink.abort(),
  );
  return {
    output(stream, data) {
      out.push(stream, data);
    },
    exit(code) {
      out.then(() => {
        sink.write(encodeExitFrame(code), () => {});
        sink.end(code);
      });
    },
    close() {
      out.close();
    },
  };
}
