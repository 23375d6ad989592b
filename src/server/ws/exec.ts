/**
 * Exec over WebSocket (docs/wire-reference.md §4.2–4.7), a new command or an attach: session output as frames
 * (`[1]`/`[2]`/`[3,code]`, or raw bytes and a text `exit` in TTY mode) paced to the socket (exec/paced-output.ts),
 * `session_info` first, client frames as stdin/EOF and `resize`/`signal` messages to the process. The checks and the
 * attach-or-start are exec/start.ts's; the session model decides what happens when the socket drops.
 */
import type { WebSocket, RawData } from 'ws';
import { StreamId, decodeFrame, encodeFrame, encodeExitFrame } from '../../protocol/frames.ts';
import { parseExecClientMessage } from '../../protocol/messages.ts';
import { normalizeSignalName } from '../../protocol/signals.ts';
import { CloseCode, CloseReason, ttyExitCloseCode } from '../../protocol/close-codes.ts';
import { DEFAULT_EXEC_STREAM_LIMITS, type ExecStreamLimits } from '../config/exec-limits.ts';
import { PacedOutput } from '../exec/paced-output.ts';
import type { ExecSession, SessionListener } from '../model/sessions.ts';
import type { PendingExec } from '../exec/start.ts';
import type { Machine } from '../machines/port.ts';
import { reportTtyPorts } from './tty-ports.ts';
import { SMALL_TEXT_BYTES, type OversizeError } from './frame-limits.ts';
import type { Logger } from 'pino';
import type { Duplex } from 'node:stream';

const NO_BYTES = new Uint8Array(0);

function toBytes(data: RawData): Uint8Array {
  if (Buffer.isBuffer(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return new Uint8Array(data as ArrayBuffer);
}

/**
 * The listener that turns session output into WebSocket messages. Output goes through a {@link PacedOutput}:
 * frames of at most `limits.outputChunkBytes`, sent only while the socket has less than
 * `limits.outputHighWaterBytes` unflushed, and the exit frame after all of it. A client that falls more than
 * `limits.maxQueuedOutputBytes` behind is closed with 1013 and `onOverflow` runs (the caller detaches it).
 * @see docs/wire-reference.md §4.4, §4.5; docs/limits.md
 */
export function socketListener(
  ws: WebSocket,
  tty: boolean,
  limits: ExecStreamLimits = DEFAULT_EXEC_STREAM_LIMITS,
  onOverflow: () => void = () => {},
  end: (code: number) => void = (code) => {
    sendExit(ws, tty, code);
    closeAfterExit(ws, tty, code);
  },
): SessionListener & { close(): void } {
  const out = new PacedOutput(
    {
      write(stream, chunk, done) {
        if (ws.readyState !== ws.OPEN) return done();
        const data = tty ? chunk : encodeFrame(stream === 'stdout' ? StreamId.Stdout : StreamId.Stderr, chunk);
        ws.send(data, { binary: true }, () => done());
      },
    },
    limits,
    () => {
      if (ws.readyState === ws.OPEN) ws.close(CloseCode.TryAgainLater, CloseReason.ClientTooSlow);
      onOverflow();
    },
  );
  let closed = false;
  const onClose = () => out.close();
  ws.once('close', onClose);
  return {
    output(stream, data) {
      if (closed || ws.readyState !== ws.OPEN) return;
      out.push(stream, data);
    },
    /** Drops what is queued; nothing more (output, exit, `end`) reaches the socket. */
    close() {
      closed = true;
      ws.off('close', onClose);
      out.close();
    },
    exit(code) {
      out.then(() => {
        ws.off('close', onClose);
        if (closed || ws.readyState !== ws.OPEN) return;
        end(code);
      });
    },
  };
}

/** The end of a command's output: `[3, code]` in non-TTY mode, the text `{"type":"exit","exit_code":N}` in TTY mode (§4.4, §4.5). */
export function sendExit(ws: WebSocket, tty: boolean, code: number): void {
  if (tty) ws.send(JSON.stringify({ type: 'exit', exit_code: code }));
  else ws.send(encodeExitFrame(code), { binary: true });
}

/** How `/exec` ends a socket after the exit: 1000, or in TTY mode the close code of {@link ttyExitCloseCode}. */
function closeAfterExit(ws: WebSocket, tty: boolean, code: number): void {
  if (tty) ws.close(ttyExitCloseCode(code), code === 0 ? '' : `exit ${code}`);
  else ws.close(CloseCode.Normal);
}

/** What a WebSocket exec needs besides its socket and the checked exec. */
export interface ExecSocketOptions {
  /** The sprite's machine, whose listening ports a TTY session reports. */
  machine: Pick<Machine, 'listeningPorts'>;
  /** Output pacing and stdin limits. */
  limits: ExecStreamLimits;
  logger: Logger;
  /** The upgraded TCP socket, for stdin activity ({@link watchStdinActivity}). */
  socket?: Duplex;
}

/**
 * Runs the exec of an upgraded `/exec` socket: attaches to the session or starts the command (`exec.open`), with
 * `session_info` first (§4.6), `port_opened`/`port_closed` in TTY mode (ws/tty-ports.ts), output as frames and
 * client messages as stdin, resize and signals ({@link wireClient}); the socket closes after the exit.
 * @see docs/wire-reference.md §4.2–4.7
 */
export function runExecSocket(ws: WebSocket, exec: PendingExec, opts: ExecSocketOptions): void {
  let detach = () => {};
  const listener = socketListener(ws, exec.tty, opts.limits, () => detach());
  const opened = exec.open(listener, (session, isOwner) => {
    sendSessionInfo(ws, session, isOwner);
    if (session.tty) reportTtyPorts(ws, opts.machine);
  });
  detach = opened.detach;
  wireClient(ws, opened.session, detach, { stdin: exec.stdin, logger: opts.logger, socket: opts.socket });
}

/** `session_info`, the first message on create and on every attach (§4.6). */
export function sendSessionInfo(ws: WebSocket, session: ExecSession, isOwner: boolean): void {
  ws.send(
    JSON.stringify({
      type: 'session_info',
      session_id: session.id,
      command: session.command,
      created: Math.floor(session.createdAt / 1000),
      cols: session.tty ? session.init.cols : 0,
      rows: session.tty ? session.init.rows : 0,
      is_owner: isOwner,
      tty: session.tty,
    }),
  );
}

/**
 * Wires client messages to a session: binary stdin (`[0]…`, `[4]` EOF in non-TTY mode; raw bytes in TTY
 * mode), text `resize` and `signal`. Stdin frames are dropped when the client asked for `stdin=false`.
 * Malformed messages are logged at debug and ignored, never a close (docs/wire.md "Malformed client messages", as
 * the in-VM server's reader does, docs/fidelity.md): text that is not a valid `resize`/`signal`, and non-TTY binary
 * frames that are empty or carry a stream id other than stdin `0` / EOF `4`. On close the listener detaches.
 * With `socket` (the upgraded TCP socket), bytes arriving on it count as stdin activity before their frame is
 * complete (an empty `writeStdin`), so an engine that waits for stdin does not start the command while a large
 * stdin frame is still arriving (a 64 MiB frame would otherwise reach `wc -c` as nothing). A frame over
 * the channel's binary limit (close 1009, ws/frame-limits.ts) kills the command: part of its stdin is lost.
 */
export function wireClient(
  ws: WebSocket,
  session: ExecSession,
  detach: () => void,
  opts: { stdin: boolean; logger: Logger; socket?: Duplex },
): void {
  if (opts.socket && opts.stdin) watchStdinActivity(ws, opts.socket, session, opts.logger);
  const input = execInput(session, { stdin: opts.stdin, logger: opts.logger });
  ws.on('message', (data, isBinary) => {
    if (isBinary) input.binary(toBytes(data));
    else input.text(data.toString());
  });
  ws.on('close', detach);
  ws.on('error', (err: Partial<OversizeError>) => {
    // A binary frame over its limit (close 1009) lost stdin the command was waiting for: it must not run on without
    // it. A text message over its limit lost only a resize or a signal: the session keeps its disconnect rule.
    if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' && err.messageKind !== 'text' && !session.exited) session.process.signal('KILL');
    detach();
  });
}

/**
 * Counts bytes arriving on the upgraded TCP `socket` as stdin activity of `session` (an empty `writeStdin`) until
 * the returned function is called or `ws` closes (see {@link wireClient}). A throw is logged and closes `ws` 1011.
 */
export function watchStdinActivity(ws: WebSocket, socket: Duplex, session: ExecSession, logger: Logger): () => void {
  // A raw socket listener is outside ws' contained handlers: a throw here is caught, logged, and ends this
  // client with 1011, like a throw in a message handler (containment).
  const activity = () => {
    try {
      if (!session.exited) session.process.writeStdin(NO_BYTES);
    } catch (err) {
      logger.error({ err }, 'exec stdin activity failed');
      off();
      ws.close(CloseCode.InternalError, 'internal error');
    }
  };
  const off = () => {
    socket.off('data', activity);
    ws.off('close', off);
  };
  socket.on('data', activity);
  ws.once('close', off);
  return off;
}

/** Stdin framing on a socket: `/exec` takes `[0]…`/`[4]` only; `/control` also takes the sprites-go raw form. */
export type StdinDialect = 'exec' | 'control';

/** What a client sends to a running command, already split into text and binary messages. */
export interface ExecInput {
  /** A text message: `resize` or `signal` (anything else is logged at debug and ignored). */
  text(text: string): void;
  /** A binary message: stdin (framed in non-TTY mode, raw in TTY mode). */
  binary(bytes: Uint8Array): void;
}

/**
 * Maps a client's messages to `session`: text `resize` and `signal` (docs/wire-reference.md §4.6), binary stdin
 * (§4.4 non-TTY `[0]…` and a lone `[4]` as EOF; §4.5 TTY raw bytes). Stdin is dropped when the client asked for
 * `stdin=false` or once the command exited. Malformed messages are logged at debug and ignored, never a close.
 * With `dialect: 'control'` (the control socket, §5.2 DISAGREEMENT on stdin framing): a non-TTY frame whose first
 * byte is not a stream id is raw stdin (sprites-go), and a binary frame that holds exactly a JSON `resize` or
 * `signal` message is that message (the JS SDK's OpConn sends them as binary frames) in either mode.
 * `onSignal` runs after a signal was delivered.
 */
export function execInput(
  session: ExecSession,
  opts: { stdin: boolean; logger: Logger; dialect?: StdinDialect; onSignal?: () => void },
): ExecInput {
  const control = opts.dialect === 'control';
  const text = (t: string): boolean => {
    try {
      const msg = parseExecClientMessage(t);
      if (msg.type === 'resize') session.process.resize(msg.cols, msg.rows);
      else {
        const name = normalizeSignalName(msg.signal);
        if (name) {
          session.process.signal(name);
          opts.onSignal?.();
        }
      }
      return true;
    } catch (err) {
      opts.logger.debug({ err }, 'ignored malformed exec text message');
      return false;
    }
  };
  return {
    text: (t) => void text(t),
    binary(bytes) {
      // Only a message as small as a text one can be a resize or signal: a large stdin frame that starts with `{` is
      // never handed to the JSON parser.
      if (control && bytes[0] === OPEN_BRACE && bytes.length <= SMALL_TEXT_BYTES && isClientMessage(bytes)) {
        text(Buffer.from(bytes).toString());
        return;
      }
      if (!opts.stdin || session.exited) return;
      if (session.tty) session.process.writeStdin(bytes);
      else if (control) controlStdin(session, bytes);
      else {
        try {
          const frame = decodeFrame(bytes);
          if (frame.streamId === StreamId.Stdin) session.process.writeStdin(frame.payload);
          else if (frame.streamId === StreamId.StdinEof) session.process.endStdin();
        } catch (err) {
          opts.logger.debug({ err }, 'ignored malformed exec frame');
        }
      }
    },
  };
}

/**
 * Non-TTY stdin on the control socket (§5.2 DISAGREEMENT): `[0]…` is stdin without its prefix (JS, PY, GO
 * v0.1.0), a lone `[4]` is EOF, an empty frame is nothing, any other frame is raw stdin (older sprites-go).
 */
function controlStdin(session: ExecSession, bytes: Uint8Array): void {
  if (bytes.length === 0) return;
  if (bytes[0] === StreamId.Stdin) session.process.writeStdin(bytes.subarray(1));
  else if (bytes.length === 1 && bytes[0] === StreamId.StdinEof) session.process.endStdin();
  else session.process.writeStdin(bytes);
}

const OPEN_BRACE = 0x7b;

/** Whether `bytes` are exactly a JSON `resize` or `signal` message (§4.6). */
function isClientMessage(bytes: Uint8Array): boolean {
  try {
    parseExecClientMessage(Buffer.from(bytes).toString());
    return true;
  } catch {
    return false;
  }
}
