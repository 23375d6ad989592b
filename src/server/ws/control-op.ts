/**
 * What the control socket's state machine (control.ts) and its op handlers (control-exec.ts, control-proxy.ts,
 * control-fs.ts) share: the `op.error` codes, the socket's options, the shape of a running op and what an op may
 * ask of its socket. It holds no behaviour and imports none of them, so no handler imports the machine back.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { Sprite } from '../model/sprites.ts';
import type { ExecStreamLimits } from '../config/exec-limits.ts';

/** The `args.code` of an `op.error`, and when each is sent (docs/wire.md "The control socket"). */
export const ControlErrorCode = {
  /** An operation is running; the new one was not started and the running one goes on. */
  Busy: 'op.busy',
  /** A data frame (or `resize`/`signal`) arrived with no operation running. */
  NotActive: 'op.not_active',
  /** A malformed envelope, or an envelope type a client does not send. */
  Invalid: 'op.invalid',
  /** An `op` spritzer does not know. */
  NotFound: 'op.not_found',
  /** The operation could not start: bad args, no such session, the session cap, a dial that failed. */
  Failed: 'op.failed',
} as const;

/** Options of one control socket. */
export interface ControlOptions {
  /** Exec output and stdin limits (the same as `/exec`). */
  limits: ExecStreamLimits;
  /** The upgrade's query when it names `op` (the docs' auto-start form `?op=exec&cmd=…`). */
  autoStart?: URLSearchParams;
  /** The upgraded TCP socket, for stdin activity (see ws/exec.ts `watchStdinActivity`). */
  socket?: Duplex;
}

/**
 * One operation holding the socket from its start to its end; the socket is idle before and after. The socket
 * routes the client's messages to it while it runs, unless it holds them (see {@link ControlHost.begin}).
 */
export interface ControlOp {
  /** A text message that is not an envelope: `resize`/`signal` for an exec; a proxy ignores it. */
  text(text: string): void;
  /** A binary frame: stdin for an exec, bytes for a proxy's upstream. */
  binary(bytes: Buffer): void;
  /** `{"type":"release"}`: the client is done with the op (detach, or end the relay); the socket is idle next. */
  release(): void;
  /** The socket closed while the op held it. */
  closed(): void;
  /** A binary frame while the socket holds messages: true when the op took it (an `fs.write`'s content). */
  takeHeld?(bytes: Buffer): boolean;
  /** An `op.start` arrived: true when this op gives way to it and has let go of its session (a signalled exec). */
  yieldTo?(): boolean;
}

/** What an op may ask of the socket it runs on (control.ts implements it). */
export interface ControlHost {
  readonly ws: WebSocket;
  readonly sprite: Sprite;
  readonly logger: Logger;
  readonly options: ControlOptions;
  /** The sprite's cap on running exec sessions (`--max-sessions`). */
  readonly sessionsMax: number;
  /** The command-line bound of an exec op (exec/start.ts `commandLineMaxBytes`). */
  readonly commandLineMaxBytes: number;
  /** Sends one frame, or closes the socket 1013 when its unsent replies passed `controlReplyBacklogBytes`. */
  reply(frame: string | Uint8Array): void;
  /**
   * Sends `chunks` as one binary message, a fragment each and an empty final one, each once the previous one was
   * written to the socket (so one chunk at a time is held). Rejects when the socket closes first.
   */
  replyMessage(chunks: AsyncIterable<Uint8Array>): Promise<void>;
  /** Sends `control:{"type":"op.error",…,"args":{"error":message,"code":code}}`. */
  error(code: string, message: string, op?: string): void;
  /**
   * `op` holds the socket from now on and the idle timer stops. With `hold`, client messages wait (up to
   * `MAX_MESSAGES_WHILE_STARTING`, more close the socket 1008) until {@link deliver} or {@link end}.
   */
  begin(op: ControlOp, hold: boolean): void;
  /** Whether `op` still holds the socket (a release, an abandon or the socket's close ends it otherwise). */
  holds(op: ControlOp): boolean;
  /** `op` started: the messages held since {@link begin} reach it, in order. */
  deliver(op: ControlOp): void;
  /** `op` ended: the socket is idle again; the messages held meanwhile are replayed, or dropped with `dropHeld`. */
  end(op: ControlOp, dropHeld?: boolean): void;
  /** The op waits on the client (an `fs.write`'s content): the idle timer runs until {@link stopIdle}. */
  armIdle(): void;
  stopIdle(): void;
}
