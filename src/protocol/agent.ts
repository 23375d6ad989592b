/**
 * The agent protocol: the framing and message shapes spoken over the one unix socket between spritzer (the
 * `AgentClient`) and the in-sprite agent. It owns the byte layout, the frame types and the JSON shapes of calls and
 * replies; it does not open sockets, run processes or touch files (the agent's other modules and the client do).
 * Imported by both sides, so it depends on nothing but `node:buffer`.
 * @see docs/agent-protocol.md
 */
import { Buffer } from 'node:buffer';

/**
 * Frame types. Every frame is `[u32 BE length][u8 type][u32 BE channel][payload]`, where `length` counts the type,
 * channel and payload bytes. The channel's meaning depends on the type: a request id (CALL/REPLY), the caller's
 * pid (process frames), a relay id (relay frames) or a watch id (EVENT). @see docs/agent-protocol.md
 */
export const FrameType = {
  /** host → agent: a request; payload = envelope (JSON `{op, ...args}` + binary tail). Answered by one REPLY. */
  Call: 1,
  /** agent → host: the answer to CALL `channel`; payload = envelope (JSON `{ok, value}` or `{ok:false, error}` + tail). */
  Reply: 2,
  /** host → agent: start process `channel`; payload = JSON {@link SpawnMessage}. No reply: output and EXIT follow. */
  Spawn: 3,
  /** host → agent: stdin bytes for process `channel`. */
  Stdin: 4,
  /** host → agent: stdin EOF for process `channel` (empty payload). */
  StdinEof: 5,
  /** agent → host: stdout bytes (everything, in TTY mode) of process `channel`. */
  Stdout: 6,
  /** agent → host: stderr bytes of process `channel`. */
  Stderr: 7,
  /** agent → host: process `channel` ended; payload = JSON `{code}` (0–255; 128+n when killed by signal n). Last frame of the pid. */
  Exit: 8,
  /** host → agent: deliver the signal named in the payload (UTF-8, no `SIG` prefix) to process `channel`'s group. */
  Signal: 9,
  /** host → agent: TTY resize of process `channel`; payload = u16 BE cols, u16 BE rows. */
  Resize: 10,
  /** both ways: relay `channel` bytes. */
  Data: 11,
  /** both ways: the sender will send no more DATA on relay `channel` (TCP half-close). */
  End: 12,
  /** both ways: relay `channel` is torn down (payload: optional UTF-8 reason); no frame of it follows. */
  Reset: 13,
  /** both ways: the receiver of relay `channel` is congested: stop sending DATA until RESUME. */
  Pause: 14,
  /** both ways: the receiver of relay `channel` can take DATA again. */
  Resume: 15,
  /** agent → host: a batch of file changes for watch `channel`; payload = JSON `VfsChange[]`. */
  Event: 16,
  /**
   * agent → host: a process inside connected to the in-sprite API socket (`/.sprite/api.sock`); `channel` is a new
   * relay id chosen by the agent (≥ 0x80000000, so it never meets the host's own). Payload: JSON `{listener}`, where
   * `listener` is `api`, or `egress-proxy` / `egress-dns` for the egress gate's listeners (src/agent/egress.ts).
   * Its bytes then travel as DATA/END/RESET/PAUSE/RESUME like any relay.
   */
  Accept: 17,
  /**
   * host → agent: whether the output of process `channel`, started with a `log`, also comes to the host as STDOUT/
   * STDERR frames (payload: one byte, 1 yes, 0 no); it always goes to the log. Ignored for other processes.
   */
  Tap: 18,
  /**
   * agent → host: process `channel` started; payload = JSON `{pid}`, its process id inside the sprite (what `ps`
   * there shows; a service's `state.pid`). Not sent for a process that could not start (EXIT follows alone).
   */
  Started: 19,
} as const;

/** One of {@link FrameType}. */
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

/** The first relay id the agent gives an ACCEPT; the host numbers its own relays from 1, below it. */
export const FIRST_ACCEPT_ID = 0x8000_0000;

/** Bytes before the payload: length (4), type (1), channel (4). */
export const HEADER_BYTES = 9;
/** The largest payload accepted (1 GiB): a whole file travels in one REPLY or CALL. A larger frame is a protocol error. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024 * 1024;

/** A decoded frame; `payload` is a Buffer owned by the receiver. */
export interface AgentFrame {
  type: FrameType;
  channel: number;
  payload: Buffer;
}

/** A malformed byte stream (the connection cannot continue). */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** Encodes one frame. `channel` is an unsigned 32-bit integer; throws a ProtocolError for a payload over the limit. */
export function encodeFrame(type: FrameType, channel: number, payload: Uint8Array = EMPTY): Buffer {
  if (payload.byteLength > MAX_PAYLOAD_BYTES) throw new ProtocolError(`payload of ${payload.byteLength} bytes exceeds ${MAX_PAYLOAD_BYTES}`);
  const out = Buffer.allocUnsafe(HEADER_BYTES + payload.byteLength);
  out.writeUInt32BE(5 + payload.byteLength, 0);
  out.writeUInt8(type, 4);
  out.writeUInt32BE(channel >>> 0, 5);
  out.set(payload, HEADER_BYTES);
  return out;
}

const EMPTY = new Uint8Array(0);

/**
 * The largest payload a receiver takes for a frame of `type` on `channel`, decided from the frame's header alone
 * (before its payload is buffered). The host bounds each agent frame this way (machines/agent/bounds.ts).
 */
export type PayloadLimit = (type: FrameType, channel: number) => number;

/**
 * Incremental decoder: feed it socket chunks, get whole frames. Chunks are kept in a list and joined once per
 * frame, so a large frame costs one copy. Throws a ProtocolError for an unknown type or a length over
 * `limit(type, channel)` (default {@link MAX_PAYLOAD_BYTES} for every frame) as soon as the header has arrived, so a
 * frame that is refused never has its payload buffered.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly limit?: PayloadLimit) {}

  /** Appends `chunk` and returns every frame now complete, in order. */
  push(chunk: Buffer): AgentFrame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
    const frames: AgentFrame[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const head = this.peek(4);
      const length = head.readUInt32BE(0);
      if (length < 5 || length - 5 > MAX_PAYLOAD_BYTES) throw new ProtocolError(`bad frame length ${length}`);
      if (this.limit && this.buffered < 4 + length) {
        // The payload is not all here: judge the header now, so a refused frame is never buffered.
        if (this.buffered < HEADER_BYTES) break;
        this.checkHeader(this.peek(HEADER_BYTES), length);
        break;
      }
      if (this.buffered < 4 + length) break;
      const whole = this.take(4 + length);
      const type = this.checkHeader(whole, length);
      frames.push({ type, channel: whole.readUInt32BE(5), payload: whole.subarray(HEADER_BYTES) });
    }
    return frames;
  }

  /** The frame type of a header (`head`: at least its 9 bytes); throws when unknown or `length` is over the limit. */
  private checkHeader(head: Buffer, length: number): FrameType {
    const type = head.readUInt8(4);
    if (type < FrameType.Call || type > FrameType.Started) throw new ProtocolError(`unknown frame type ${type}`);
    const max = this.limit?.(type as FrameType, head.readUInt32BE(5)) ?? MAX_PAYLOAD_BYTES;
    if (length - 5 > max) throw new ProtocolError(`frame of type ${type} on channel ${head.readUInt32BE(5)} declares ${length - 5} bytes, over its limit of ${max}`);
    return type as FrameType;
  }

  /** The first `n` buffered bytes (fewer if fewer are buffered), without consuming them. */
  private peek(n: number): Buffer {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a fast path only; joining the chunks gives the same bytes
    if (this.chunks[0]!.byteLength >= n || this.chunks.length === 1) return this.chunks[0]!;
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }

  /** Removes and returns exactly `n` bytes (n ≤ buffered). */
  private take(n: number): Buffer {
    let out: Buffer;
    const first = this.chunks[0]!;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a fast path only; the loop below gives the same bytes
    if (first.byteLength >= n) {
      out = first.subarray(0, n);
      // Stryker disable next-line ConditionalExpression: keeping an empty first chunk gives the same bytes
      if (first.byteLength === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const parts: Buffer[] = [];
      let need = n;
      while (need > 0) {
        const c = this.chunks[0]!;
        // Stryker disable next-line EqualityOperator: taking a whole chunk as a subarray leaves an empty one, the same bytes
        if (c.byteLength <= need) {
          parts.push(c);
          this.chunks.shift();
          need -= c.byteLength;
        } else {
          parts.push(c.subarray(0, need));
          this.chunks[0] = c.subarray(need);
          need = 0;
        }
      }
      out = Buffer.concat(parts, n);
    }
    this.buffered -= n;
    return out;
  }
}

/**
 * A CALL or REPLY payload: `[u32 BE json length][JSON][binary tail]`. The tail carries file bytes (writeFile's
 * data, readFile's result) so they are never base64-encoded.
 */
export function encodeEnvelope(json: unknown, tail: Uint8Array = EMPTY): Buffer {
  // Stryker disable next-line StringLiteral: Node reads an empty encoding name as UTF-8
  const body = Buffer.from(JSON.stringify(json), 'utf8');
  const out = Buffer.allocUnsafe(4 + body.byteLength + tail.byteLength);
  out.writeUInt32BE(body.byteLength, 0);
  out.set(body, 4);
  out.set(tail, 4 + body.byteLength);
  return out;
}

/** Splits an envelope into its parsed JSON and its tail (a view). Throws a ProtocolError when malformed. */
export function decodeEnvelope(payload: Buffer): { json: unknown; tail: Buffer } {
  if (payload.byteLength < 4) throw new ProtocolError('envelope shorter than its length field');
  const n = payload.readUInt32BE(0);
  if (4 + n > payload.byteLength) throw new ProtocolError('envelope JSON runs past the frame');
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8', 4, 4 + n));
  } catch {
    throw new ProtocolError('envelope JSON does not parse');
  }
  return { json, tail: payload.subarray(4 + n) };
}

/** The largest EVENT payload the agent sends: a bigger batch of changes is split over several frames. */
export const MAX_EVENT_PAYLOAD_BYTES = 256 * 1024;

/**
 * The EVENT payloads of one batch of changes: JSON arrays, in order, each at most `maxBytes` (default
 * {@link MAX_EVENT_PAYLOAD_BYTES}) unless a single change is larger. An empty batch gives no payload.
 */
export function encodeEventBatches(changes: readonly unknown[], maxBytes = MAX_EVENT_PAYLOAD_BYTES): Buffer[] {
  const out: Buffer[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const change of changes) {
    const json = JSON.stringify(change);
    const bytes = Buffer.byteLength(json, 'utf8') + 1;
    if (parts.length > 0 && size + bytes > maxBytes) {
      out.push(Buffer.from(`[${parts.join(',')}]`, 'utf8'));
      parts = [];
      size = 2;
    }
    parts.push(json);
    size += bytes;
  }
  if (parts.length > 0) out.push(Buffer.from(`[${parts.join(',')}]`, 'utf8'));
  return out;
}

/** Encodes a RESIZE payload (u16 cols, u16 rows; values clamp to 1–65535). */
export function encodeResize(cols: number, rows: number): Buffer {
  const out = Buffer.allocUnsafe(4);
  out.writeUInt16BE(clampU16(cols), 0);
  out.writeUInt16BE(clampU16(rows), 2);
  return out;
}

/** Decodes a RESIZE payload; throws a ProtocolError when it is not 4 bytes. */
export function decodeResize(payload: Buffer): { cols: number; rows: number } {
  if (payload.byteLength !== 4) throw new ProtocolError('resize payload must be 4 bytes');
  return { cols: payload.readUInt16BE(0), rows: payload.readUInt16BE(2) };
}

function clampU16(n: number): number {
  return Math.min(65535, Math.max(1, Math.trunc(Number.isFinite(n) ? n : 1)));
}

/** The kind of a node, named as the fs list API names it (docs/wire-reference.md §8.3). */
export type FileNodeType = 'file' | 'directory' | 'symlink';

/**
 * What `stat`/`lstat` report, as the Machine port and the agent both name it. `mode` holds permission bits only
 * (e.g. `0o644`, at most `0o7777`); `size` is bytes (directories report 4096, symlinks the UTF-8 length of their
 * target); `mtimeMs` is epoch milliseconds; `target` is set for symlinks (lstat).
 * @see docs/wire-reference.md §8.3
 */
export interface FileStat {
  type: FileNodeType;
  mode: number;
  size: number;
  mtimeMs: number;
  uid: number;
  gid: number;
  target?: string;
}

/** One directory entry: `name` is the basename, `path` the absolute path, `stat` as `lstat` gives it. */
export interface FileEntry {
  name: string;
  path: string;
  stat: FileStat;
}

/**
 * What to run, as the Machine port and the agent both name it: `argv[0]` is the program, `path` overrides the
 * executable (docs/wire-reference.md §4.2); `env` is the complete environment (already merged or replaced by the
 * caller); `dir` the absolute working directory in the sprite's view; `rows`/`cols` the terminal size (TTY only).
 */
export interface ProcessSpec {
  argv: string[];
  /** Executable to run; defaults to argv[0], which stays what the caller gave. */
  path?: string;
  env: Record<string, string>;
  dir: string;
  tty: boolean;
  rows: number;
  cols: number;
  /**
   * A service's command: its output is appended, as log text (protocol/service-log.ts), to the file `path` inside
   * the sprite by the side that runs it — created with its directories when missing, never through a symbolic link —
   * and reaches the caller's output only while tapped (`tap`, then {@link FrameType.Tap} / `ExecProcess.tap`). A
   * writer that cannot keep up makes the process wait on its pipe; a write that fails drops that output.
   */
  log?: { path: string; tap: boolean };
  /**
   * A service's process: it runs as the plain sprite user. Without it the process is an exec session's (exec or
   * TTY), which runs as the sprite user holding the file capabilities `CAP_CHOWN`, `CAP_DAC_OVERRIDE`, `CAP_FOWNER`
   * and `CAP_FSETID` over the sprite's own user namespace, as production's exec sessions do, so it may write outside
   * the home without sudo (`mkdir -p /workspace`). @see docs/fidelity.md "Root-level writes"
   */
  service?: boolean;
}

/** Most supplementary groups a SPAWN may name (`SpawnMessage.groups`; the run-as helper's MAX_GROUPS). */
export const MAX_SPAWN_GROUPS = 64;

/** What a SPAWN frame carries (the process' id is the frame's channel): the process, its owner and whether stdin comes. */
export interface SpawnMessage extends ProcessSpec {
  uid: number;
  gid: number;
  /**
   * Capabilities the process holds as ambient ones (kept across execve of ordinary programs), over the sprite's
   * user namespace only: an exec session's `CAP_CHOWN`, `CAP_DAC_OVERRIDE`, `CAP_FOWNER`, `CAP_FSETID`; absent or
   * empty for a service (the plain sprite user). Applied by an agent that runs as root with the run-as helper.
   */
  caps?: string[];
  /**
   * Supplementary group ids the process holds (setgroups(2)): the sprite user's `sudo` and `users` (27, 100), so
   * `id` shows production's `groups=1001(sprite),27(sudo),100(users)`. Absent or empty: none. Applied by an agent that runs as root with the run-as helper.
   */
  groups?: number[];
  /** False: stdin is closed at once (the caller will send none). */
  stdin: boolean;
  /**
   * Most stdin bytes that may wait for the process to read them (`--max-stdin-bytes`); past it the process is killed
   * with a line on stderr, so a process that never reads cannot make the agent hold stdin without bound. Absent: none.
   */
  stdinMax?: number;
}

/** An error as the agent reports it in a failed REPLY: a POSIX `code`, the sprite-view `path`, the `syscall`. */
export interface WireError {
  code: string;
  message: string;
  path?: string;
  syscall?: string;
}

/** A REPLY's JSON. */
export type ReplyJson = { ok: true; value?: unknown } | { ok: false; error: WireError };

/**
 * The CALL operations and their JSON arguments (the `op` field names one). Results are in docs/agent-protocol.md;
 * `readFile` answers in the tail, `writeFile` takes its data in the tail.
 */
export type CallJson =
  | { op: 'hello' }
  | { op: 'readFile'; path: string; offset?: number; length?: number }
  | { op: 'writeFile'; path: string; mode?: number; mkdirParents?: boolean; append?: boolean; noFollow?: boolean }
  | { op: 'stat'; path: string }
  | { op: 'lstat'; path: string }
  | { op: 'readdir'; path: string; recursive?: boolean }
  | { op: 'mkdir'; path: string; recursive?: boolean; mode?: number }
  | { op: 'rm'; path: string; recursive?: boolean; force?: boolean }
  | { op: 'rename'; source: string; dest: string }
  | { op: 'copy'; source: string; dest: string; recursive?: boolean }
  | { op: 'chmod'; path: string; mode: number; recursive?: boolean }
  | { op: 'chown'; path: string; uid: number; gid: number; recursive?: boolean }
  | { op: 'connect'; relay: number; host: string; port: number }
  | { op: 'ports' }
  | { op: 'watch'; watch: number; path: string; recursive: boolean }
  | { op: 'unwatch'; watch: number }
  | { op: 'killAll' }
  | { op: 'usage' }
  /** Starts the egress gate's loopback listeners (idempotent; src/agent/egress.ts). */
  | { op: 'egress'; proxyPort: number; dnsPort: number };

/** The protocol version the hello reply carries; a client refuses an agent with another. */
export const PROTOCOL_VERSION = 1;
