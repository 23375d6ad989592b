/**
 * The bounds on what a client may send in one WebSocket message, per channel: the size of a text and of a binary
 * message, judged from the frame headers before the payload is buffered (close 1009), and the shape of a text
 * message's JSON, judged by a byte scan before any channel parses it (close 1008). It owns the numbers and their
 * installation on an upgraded socket; the channels never see a message past them. Every bound is in docs/limits.md.
 */
import type { WebSocket, RawData } from 'ws';
import { CloseCode } from '../../protocol/close-codes.ts';
import { jsonShapeProblem } from '../../protocol/json-shape.ts';
import { MAX_JSON_DEPTH } from '../http/json-depth.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** What one client message on a socket may be. Sizes are payload bytes of the whole (possibly fragmented) message. */
export interface FrameLimits {
  /** Largest text message; past it the socket closes 1009 before the payload is read. */
  textBytes: number;
  /** Largest binary message; past it the socket closes 1009 before the payload is read. */
  binaryBytes: number;
  /** Deepest JSON nesting of a text message (the root container is level 1); deeper closes 1008 unparsed. */
  maxDepth: number;
  /** Most array elements plus object members in a text message's JSON; more closes 1008 unparsed. */
  maxItems: number;
}

/**
 * Text messages on exec/attach and proxy: `resize`, `signal` and the proxy's `{host, port}` are under 300 bytes
 * (a host name is at most 253). 4 KiB leaves room for fields a newer SDK may add.
 */
export const SMALL_TEXT_BYTES = 4 * KiB;
/** JSON items of such a message: `resize` has three. */
export const SMALL_TEXT_ITEMS = 256;
/**
 * Binary messages of the proxy's relay. The SDKs forward what one read of their local TCP socket returns (Go 32 KiB,
 * Node at most 64 KiB), so 1 MiB is 16 times what they send and bounds what one message makes spritzer hold.
 */
export const PROXY_BINARY_BYTES = 1 * MiB;
/**
 * The fs/watch `subscribe` message: 1 MiB holds the 1024 distinct paths a subscribe may name at about 1000 bytes each.
 */
export const FS_WATCH_TEXT_BYTES = 1 * MiB;
/** JSON items of a `subscribe`: its fields and its paths, duplicates included (they are dropped after the parse). */
export const FS_WATCH_ITEMS = 64 * KiB;
/**
 * Room in a control `op.start` beyond its command line: the envelope, the other args (`dir`, `tty`, `rows`, …)
 * and the JSON escapes of the command line's quotes, backslashes and newlines.
 */
export const CONTROL_ENVELOPE_SLACK_BYTES = 64 * KiB;
/**
 * JSON items of a control message: an `op.start` may carry a command of that many arguments and environment
 * entries. Parsing them and turning them into a query costs about 10 ms; 4 million cost the event loop 3 s.
 */
export const CONTROL_ITEMS = 128 * KiB;

/** What the limits of a channel are computed from. */
export interface FrameLimitInputs {
  /** `--max-stdin-bytes`: a stdin frame carries up to that much plus its stream-id byte. */
  maxStdinBytes: number;
  /** The command-line bound (`--max-header-size`) a control `op.start` must be able to carry. */
  commandLineMaxBytes: number;
}

/**
 * The limits of `channel` (`exec`, `exec/{id}`, `control`, `proxy`, `ports/watch`, `fs/watch`): exec and control
 * take stdin frames; control's text carries a whole command line; fs/watch a list of paths; the proxy relays
 * bytes; ports/watch reads nothing of meaning.
 */
export function channelFrameLimits(channel: string, inputs: FrameLimitInputs): FrameLimits {
  const stdin = inputs.maxStdinBytes + 1;
  const small = { textBytes: SMALL_TEXT_BYTES, maxDepth: MAX_JSON_DEPTH, maxItems: SMALL_TEXT_ITEMS };
  if (channel === 'control') {
    return { textBytes: inputs.commandLineMaxBytes + CONTROL_ENVELOPE_SLACK_BYTES, binaryBytes: stdin, maxDepth: MAX_JSON_DEPTH, maxItems: CONTROL_ITEMS };
  }
  if (channel === 'exec' || channel.startsWith('exec/')) return { ...small, binaryBytes: stdin };
  if (channel === 'proxy') return { ...small, binaryBytes: PROXY_BINARY_BYTES };
  if (channel === 'fs/watch') return { textBytes: FS_WATCH_TEXT_BYTES, binaryBytes: SMALL_TEXT_BYTES, maxDepth: MAX_JSON_DEPTH, maxItems: FS_WATCH_ITEMS };
  return { ...small, binaryBytes: SMALL_TEXT_BYTES };
}

/** The `error` a socket emits after a message over its size limit; `kind` says which (exec kills on `binary`). */
export type OversizeError = Error & { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'; messageKind?: 'text' | 'binary' };

/**
 * The parts of `ws`' Receiver (ws 8, lib/receiver.js) the size check hooks: `haveLength` runs once a frame's
 * payload length is known and before any of its payload is buffered; `_opcode` is then the message's opcode
 * (1 text, 2 binary, ≥8 control frames; a continuation frame carries its message's), `_totalPayloadLength` the
 * bytes of the message's earlier fragments. ws offers one `maxPayload` for all messages; this makes it per opcode.
 */
interface ReceiverInternals {
  _opcode: number;
  _payloadLength: number;
  _totalPayloadLength: number;
  haveLength(cb: (err: Error) => void): void;
  createError(ctor: ErrorConstructor, message: string, prefix: boolean, statusCode: number, errorCode: string): Error;
}

function receiverOf(ws: WebSocket): ReceiverInternals {
  const receiver = (ws as unknown as { _receiver?: Partial<ReceiverInternals> })._receiver;
  if (!receiver || typeof receiver.haveLength !== 'function' || typeof receiver.createError !== 'function' || typeof receiver._totalPayloadLength !== 'number') {
    // A ws release that moved these would leave every message unbounded: refuse to run the channel instead.
    throw new Error('the ws library no longer has the Receiver internals the frame limits hook (ws/frame-limits.ts)');
  }
  return receiver as ReceiverInternals;
}

function bytesOf(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/**
 * Applies `limits` to the upgraded socket `ws`; call it before the first message can arrive (in the upgrade's
 * callback). A text or binary message announced larger than its limit closes the socket 1009 (reason `text message
 * larger than N bytes`) and emits an {@link OversizeError}, with nothing of it buffered; a text message whose JSON
 * nests deeper or holds more items than allowed closes it 1008 and never reaches the channel's listeners.
 * Throws when the installed `ws` lacks the internals the size check needs.
 */
export function limitFrames(ws: WebSocket, limits: FrameLimits): void {
  const receiver = receiverOf(ws);
  const haveLength = receiver.haveLength;
  receiver.haveLength = function (this: ReceiverInternals, cb) {
    const kind = this._opcode === 1 ? 'text' : this._opcode === 2 ? 'binary' : undefined;
    const limit = kind === 'text' ? limits.textBytes : limits.binaryBytes;
    if (kind && this._totalPayloadLength + this._payloadLength > limit) {
      if (ws.readyState === ws.OPEN) ws.close(CloseCode.MessageTooBig, `${kind} message larger than ${limit} bytes`);
      const err = this.createError(RangeError, 'Max payload size exceeded', false, CloseCode.MessageTooBig, 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH');
      return cb(Object.assign(err, { messageKind: kind }));
    }
    return haveLength.call(this, cb);
  };
  const emit = ws.emit;
  ws.emit = function (this: WebSocket, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && args[1] === false) {
      const problem = jsonShapeProblem(bytesOf(args[0] as RawData), limits);
      if (problem) {
        const reason = problem === 'depth' ? `JSON nested deeper than ${limits.maxDepth} levels` : `JSON with more than ${limits.maxItems} items`;
        if (this.readyState === this.OPEN) this.close(CloseCode.PolicyViolation, reason);
        return false;
      }
    }
    return emit.call(this, event, ...args);
  };
}
