/**
 * The exec binary frame codec: every non-TTY binary frame is one stream-id byte followed by the payload,
 * and the exit frame is exactly two bytes `[3, code]`. Shared by the server and the SDK.
 * It does not decide which frames a side may send (the ws layer does) and knows nothing of TTY raw frames.
 * @see docs/wire-reference.md §4.4; spec/asyncapi.yaml messages `stdin`, `stdout`, `stderr`, `exit_frame`, `stdin_eof`
 */

/** Stream ids of the non-TTY framing (the first byte of a frame). @see docs/wire-reference.md §4.4 */
export const StreamId = {
  /** client → server: raw stdin bytes. */
  Stdin: 0,
  /** server → client: raw stdout bytes. */
  Stdout: 1,
  /** server → client: raw stderr bytes. */
  Stderr: 2,
  /** server → client: exactly one byte, the exit code. */
  Exit: 3,
  /** client → server: empty payload; stdin reached EOF. */
  StdinEof: 4,
} as const;

/** One of the stream ids 0–4. */
export type StreamId = (typeof StreamId)[keyof typeof StreamId];

/** A decoded frame. `payload` is a view into the frame's bytes (no copy). */
export interface Frame {
  streamId: StreamId;
  payload: Uint8Array;
}

/** What went wrong with a frame. */
export type FrameErrorCode = 'empty_frame' | 'unknown_stream' | 'bad_exit_frame' | 'bad_eof_frame';

/** A frame that cannot be encoded or decoded. `code` says why. */
export class FrameError extends Error {
  constructor(
    readonly code: FrameErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FrameError';
  }
}

const encoder = new TextEncoder();

/** True when `id` is one of the five stream ids. */
export function isStreamId(id: number): id is StreamId {
  return Number.isInteger(id) && id >= StreamId.Stdin && id <= StreamId.StdinEof;
}

/**
 * Encodes `[id] + payload`. A string payload is encoded as UTF-8.
 * Throws `FrameError` for an unknown id, an exit frame whose payload is not exactly one byte (use
 * {@link encodeExitFrame}), or a stdin EOF frame with a payload.
 * @see docs/wire-reference.md §4.4
 */
export function encodeFrame(id: StreamId, payload: Uint8Array | string = new Uint8Array(0)): Uint8Array {
  if (!isStreamId(id)) throw new FrameError('unknown_stream', `unknown stream id ${String(id)}`);
  const bytes = typeof payload === 'string' ? encoder.encode(payload) : payload;
  if (id === StreamId.Exit && bytes.length !== 1) {
    throw new FrameError('bad_exit_frame', `exit frame payload must be 1 byte, got ${bytes.length}`);
  }
  if (id === StreamId.StdinEof && bytes.length !== 0) {
    throw new FrameError('bad_eof_frame', `stdin EOF frame carries no payload, got ${bytes.length} bytes`);
  }
  const frame = new Uint8Array(bytes.length + 1);
  frame[0] = id;
  frame.set(bytes, 1);
  return frame;
}

/**
 * The exit code as it travels in the exit frame: an integer 0–255; anything below 0, above 255 or not a
 * finite number becomes 255; fractions are truncated.
 * @see docs/wire-reference.md §4.4 (the in-VM server clamps to 255)
 */
export function clampExitCode(code: number): number {
  if (!Number.isFinite(code)) return 255;
  const n = Math.trunc(code);
  // Stryker disable next-line EqualityOperator: `n >= 255 ? 255 : n` gives the same byte for every n.
  return n < 0 || n > 255 ? 255 : n;
}

/** Encodes the two-byte exit frame `[3, code]`, code clamped by {@link clampExitCode}. @see docs/wire-reference.md §4.4 */
export function encodeExitFrame(code: number): Uint8Array {
  return Uint8Array.of(StreamId.Exit, clampExitCode(code));
}

/**
 * Decodes one binary frame into `{streamId, payload}`.
 * Throws `FrameError`: `empty_frame` for zero bytes, `unknown_stream` for a first byte above 4,
 * `bad_exit_frame` for an exit frame that is not exactly 2 bytes. A stdin EOF frame with trailing bytes is
 * accepted and its payload ignored by callers (the SDKs only ever send the single byte).
 * @see docs/wire-reference.md §4.4
 */
export function decodeFrame(bytes: Uint8Array): Frame {
  if (bytes.length === 0) throw new FrameError('empty_frame', 'empty frame');
  const id = bytes[0]!;
  if (!isStreamId(id)) throw new FrameError('unknown_stream', `unknown stream id ${id}`);
  if (id === StreamId.Exit && bytes.length !== 2) {
    throw new FrameError('bad_exit_frame', `exit frame must be exactly 2 bytes, got ${bytes.length}`);
  }
  return { streamId: id, payload: bytes.subarray(1) };
}

/**
 * The frame as the spec's schemas describe binary payloads: one character per byte (Latin-1), so a frame
 * can be validated with a JSON-schema validator against spec/asyncapi.yaml.
 * @see spec/asyncapi.yaml info.description "Binary frames as strings"
 */
export function frameAsSchemaString(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** The inverse of {@link frameAsSchemaString}: Latin-1 characters back to bytes (throws above U+00FF). */
export function frameFromSchemaString(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  // Stryker disable next-line EqualityOperator: one more turn reads NaN and writes past the end of a typed array, a no-op.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) throw new RangeError(`character U+${c.toString(16)} at ${i} is not a byte`);
    out[i] = c;
  }
  return out;
}
