/**
 * Bridges an exec session to a byte sink using the exec framing (sprites-wire.md §4.4): `[1]…` stdout,
 * `[2]…` stderr and a final `[3, code]`. Used by HTTP exec (one chunk per frame); the WebSocket layer has its
 * own sink because TTY mode and text messages differ.
 */
import { StreamId, encodeFrame, encodeExitFrame } from '../../protocol/frames.ts';
import type { SessionListener } from '../model/sessions.ts';

/** A listener that writes each output chunk as one frame and the exit frame last. */
export function framedListener(write: (frame: Uint8Array) => void, onExit: (code: number) => void): SessionListener {
  return {
    output(stream, data) {
      write(encodeFrame(stream === 'stdout' ? StreamId.Stdout : StreamId.Stderr, data));
    },
    exit(code) {
      write(encodeExitFrame(code));
      onExit(code);
    },
  };
}
