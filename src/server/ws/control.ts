/**
 * The control socket `GET /v1/sprites/{name}/control` (docs/wire-reference.md §5, docs/wire.md "The control
 * socket"): one WebSocket that runs one operation at a time and is reused for the next, as the SDKs' pools do.
 * It owns the socket's state machine only (idle → starting → running → idle), the `op.*` replies, and the
 * limits of an idle or flooded socket. The operations are the ones the other channels run: exec and attach
 * through ws/exec.ts and the session model, proxy through ws/proxy.ts, the sprites-go `fs.*` ops through
 * ws/control-fs.ts. Envelopes are parsed and built by protocol/control.ts.
 *
 * Replies: `op.ack` when an operation starts; `op.complete {exitCode}` when it ends (after the exec `[3, code]`
 * or TTY `exit`); `op.error {error, code}` when it cannot start (`op.busy`, `op.not_active`, `op.invalid`,
 * `op.not_found`, `op.failed`). A malformed envelope is answered with `op.error` and the socket stays open; the
 * sprites-go bare proxy start with a bad port closes 1003 as `/proxy` does.
 */
import type { WebSocket, RawData } from 'ws';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import type { ExecStreamLimits } from '../config/exec-limits.ts';
import { ModelError } from '../core/errors.ts';
import { parseExecQuery } from '../exec/params.ts';
import { checkSessionLimit } from '../exec/session-limit.ts';
import { execInput, sendExit, sendSessionInfo, socketListener, watchStdinActivity, type ExecInput } from './exec.ts';
import { reportTtyPorts } from './tty-ports.ts';
import { dialProxyTarget, failedToConnectReason, relay, type ProxyRelay } from './proxy.ts';
import { runControlFsOp, type ControlFsIo } from './control-fs.ts';
import {
  CONTROL_PREFIX,
  classifyControlText,
  encodeOpAck,
  encodeOpComplete,
  encodeControl,
  type ControlArgs,
  type ControlClientText,
} from '../../protocol/control.ts';
import { CloseCode, CloseReason, ProtocolError } from '../../protocol/close-codes.ts';

/** The operations an `op.start` (or `?op=` on the upgrade) may name. */
export const CONTROL_OPS = ['exec', 'proxy'] as const;

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

/** Messages kept while an operation starts (its working directory is checked); more close the socket 1008. */
export const MAX_MESSAGES_WHILE_STARTING = 1024;

/**
 * Ms after an operation ended during which its late frames (stdin, the EOF the SDKs send right after `op.start`,
 * a `resize` or `signal`) are dropped without an answer: an `op.not_active` sent then would reach a pooled
 * client after its next `op.start`, and the Python SDK ends that op on any `op.error`.
 */
export const LATE_FRAME_GRACE_MS = 1000;

/**
 * Ms the end of an exec op the client signalled (`[3, code]` or `exit`, then `op.complete`) is held back: an
 * `op.start` within it means the client gave the op up (see `abandon`), and the held frames are dropped instead
 * of reaching the next op (the Python SDK ends its current op on any `op.complete`).
 */
export const SIGNALLED_END_HOLD_MS = 200;

/** The close reason of a control socket closed for being idle. */
export const IDLE_TIMEOUT_REASON = 'idle timeout';
/** The close reason of a control socket whose unsent replies passed `controlReplyBacklogBytes`. */
export const REPLY_BACKLOG_REASON = 'control reply backlog exceeded';

/** What the socket is doing. */
type State =
  | { kind: 'idle' }
  | { kind: 'starting'; queue: Array<[RawData, boolean]> }
  | { kind: 'exec'; input: ExecInput; detach: () => void; stop: () => void; mute: () => void; signalled: boolean; tty: boolean; held?: ReturnType<typeof setTimeout> }
  | { kind: 'proxy'; relay: ProxyRelay | null; upstream: Duplex | null; early: Buffer[] }
  | { kind: 'fs'; queue: Array<[RawData, boolean]>; body?: { resolve: (bytes: Uint8Array) => void; reject: (err: Error) => void } };

/** Options of one control socket. */
export interface ControlOptions {
  /** Exec output and stdin limits (the same as `/exec`). */
  limits: ExecStreamLimits;
  /** The upgrade's query when it names `op` (the docs' auto-start form `?op=exec&cmd=…`). */
  autoStart?: URLSearchParams;
  /** The upgraded TCP socket, for stdin activity (see ws/exec.ts `watchStdinActivity`). */
  socket?: Duplex;
}

/** `op.start` args as the URL query values they stand for (§5.2: SRV converts them like `url.Values`). */
export function argsToQuery(args: ControlArgs): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    for (const v of Array.isArray(value) ? value : [value]) q.append(key, v);
  }
  return q;
}

/**
 * Runs one control socket for `sprite` until it closes. Never throws after the upgrade: every failure is an
 * `op.error` or a close with a documented code.
 * @see docs/wire-reference.md §5; spec/asyncapi.yaml channel `control`
 */
export function handleControl(ws: WebSocket, sprite: Sprite, ctx: AppContext, opts: ControlOptions): void {
  const { logger } = ctx.deps;
  const { controlIdleMs, controlReplyBacklogBytes } = ctx.deps.limits;
  let state: State = { kind: 'idle' };
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last operation ended (performance.now ms), for {@link LATE_FRAME_GRACE_MS}. */
  let endedAt = -Infinity;

  const reply = (text: string | Uint8Array) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > controlReplyBacklogBytes) return void ws.close(CloseCode.TryAgainLater, REPLY_BACKLOG_REASON);
    ws.send(text);
  };
  const error = (code: string, message: string, op?: string) =>
    reply(encodeControl({ type: 'op.error', ...(op ? { op } : {}), args: { error: message, code } }));

  const armIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => ws.close(CloseCode.Normal, IDLE_TIMEOUT_REASON), controlIdleMs);
    idleTimer.unref();
  };
  const toIdle = () => {
    state = { kind: 'idle' };
    endedAt = performance.now();
    armIdle();
  };
  /** A data frame with nothing running: dropped right after an op (a late frame of it), else `op.not_active`. */
  const notActive = () => {
    if (performance.now() - endedAt < LATE_FRAME_GRACE_MS) return logger.debug('dropped a late frame of a finished control op');
    error(ControlErrorCode.NotActive, 'no operation is running on this socket');
  };
  ws.on('close', () => {
    clearTimeout(idleTimer);
    if (state.kind === 'exec') clearTimeout(state.held);
    if (state.kind === 'exec') state.detach();
    if (state.kind === 'proxy') state.relay?.stop();
    if (state.kind === 'fs') state.body?.reject(new Error('the control socket closed before the fs.write content arrived'));
    state = { kind: 'idle' };
  });

  ws.on('message', (data, isBinary) => {
    if (state.kind === 'fs' && isBinary && state.body) {
      const { resolve } = state.body;
      state.body = undefined;
      clearTimeout(idleTimer);
      return resolve(toBuffer(data));
    }
    if (state.kind === 'starting' || state.kind === 'fs') {
      if (state.queue.length >= MAX_MESSAGES_WHILE_STARTING) return void ws.close(CloseCode.PolicyViolation, 'too many messages before the operation started');
      state.queue.push([data, isBinary]);
      return;
    }
    if (isBinary) onBinary(toBuffer(data));
    else onText(data.toString());
  });

  function onText(text: string): void {
    let msg: ControlClientText;
    try {
      msg = classifyControlText(text);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      if (text.startsWith(CONTROL_PREFIX)) return error(ControlErrorCode.Invalid, err.reason);
      return void ws.close(err.closeCode, err.reason); // the bare proxy start answers as /proxy does (§5.3, §6.1)
    }
    switch (msg.kind) {
      case 'envelope': {
        const env = msg.envelope;
        if (env.type !== 'op.start') return error(ControlErrorCode.Invalid, `a client does not send ${env.type}`);
        if (state.kind === 'exec' && state.signalled) abandon();
        if (state.kind !== 'idle') return error(ControlErrorCode.Busy, 'an operation is already running on this socket', env.op);
        return startOp(env.op, argsToQuery(env.args ?? {}));
      }
      case 'release':
        return release();
      case 'proxy_start':
        if (state.kind !== 'idle') return error(ControlErrorCode.Busy, 'an operation is already running on this socket', 'proxy');
        return void startProxy({ host: msg.host, port: msg.port }, 'bare');
      case 'fs_op':
        if (state.kind !== 'idle') {
          const busy = 'an operation is already running on this socket';
          return reply(JSON.stringify({ type: 'op.error', op: msg.op, error: busy, code: 'EBUSY', path: '', args: { error: busy, code: ControlErrorCode.Busy } }));
        }
        return void runFs(msg.op, msg.args);
      case 'op_text':
        if (state.kind === 'exec') return state.input.text(msg.text);
        if (state.kind === 'proxy') return; // the relay carries binary frames only (§6.1)
        return notActive();
    }
  }

  function onBinary(bytes: Buffer): void {
    if (state.kind === 'exec') return state.input.binary(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (state.kind === 'proxy') {
      if (state.upstream) state.upstream.write(bytes);
      else state.early.push(bytes);
      return;
    }
    notActive();
  }

  /** `{"type":"release"}`: the client is done with the running operation (detach, or end the proxy); idle: nothing. */
  function release(): void {
    if (state.kind === 'exec') {
      const { detach, stop } = state;
      stop();
      detach();
    } else if (state.kind === 'proxy') state.relay?.stop();
    else if (state.kind === 'starting') return;
    toIdle();
  }

  /**
   * A new `op.start` after the client signalled the running exec: the client gave that op up (the OpenAI Agents
   * provider sends `signal KILL` on a timeout and reuses the socket at once). Nothing more of the old op is sent
   * (its frames would be read as the new op's), the socket detaches from it (its disconnect rule applies), and
   * the new op starts.
   */
  function abandon(): void {
    if (state.kind !== 'exec') return;
    const { mute, detach, stop, held } = state;
    clearTimeout(held);
    mute();
    stop();
    detach();
    logger.debug('control op.start after a signal: the signalled op is abandoned');
    state = { kind: 'idle' };
  }

  function startOp(op: string, q: URLSearchParams): void {
    if (op === 'exec') return void startExec(q);
    if (op === 'proxy') {
      const port = Number(q.get('port'));
      if (!Number.isInteger(port) || port < 1 || port > 65535) return error(ControlErrorCode.Failed, CloseReason.InvalidPort, 'proxy');
      return void startProxy({ host: q.get('host') || 'localhost', port }, 'envelope');
    }
    error(ControlErrorCode.NotFound, `unknown operation ${JSON.stringify(op)} (supported: ${CONTROL_OPS.join(', ')}; fs.* in the sprites-go form)`, op);
  }

  /** Exec or attach (§5.2, `args.id`), with everything `/exec` has (§4.2–4.7). */
  async function startExec(q: URLSearchParams): Promise<void> {
    const starting: State = { kind: 'starting', queue: [] };
    state = starting;
    clearTimeout(idleTimer);
    let run: () => void;
    try {
      run = await prepareExec(q);
    } catch (err) {
      if (state !== starting) return;
      toIdle();
      return failed(err, 'exec');
    }
    if (state !== starting || ws.readyState !== ws.OPEN) return;
    reply(encodeOpAck('exec'));
    run();
    for (const [data, isBinary] of starting.queue) ws.emit('message', data, isBinary);
  }

  /** Checks an exec op and returns what starts it (after the ack). Throws ModelError for a refusal. */
  async function prepareExec(q: URLSearchParams): Promise<() => void> {
    const { init, id, hasCommand } = parseExecQuery(q, sprite.environment);
    if (id !== undefined) {
      const session = sprite.sessions.get(id);
      return () => {
        sendSessionInfo(ws, session, !session.isActive);
        const stopPorts = session.tty ? reportTtyPorts(ws, sprite.machine) : noop;
        let detach = noop;
        const listener = socketListener(ws, session.tty, opts.limits, () => detach(), (code) => complete(code));
        const exec: State = { kind: 'exec', input: noInput, detach: () => detach(), stop: stopPorts, mute: () => listener.close(), signalled: false, tty: session.tty };
        exec.input = execInput(session, { stdin: q.get('stdin') !== 'false', logger, dialect: 'control', onSignal: () => (exec.signalled = true) });
        state = exec;
        // The state is in place first: attaching to a session that just exited completes the op at once.
        detach = session.attach(listener, { replay: true });
        sprite.touch();
      };
    }
    if (!hasCommand) throw new ModelError('invalid_request', 'No command specified');
    checkSessionLimit(sprite.sessions, ctx.deps.limits.sessionsMax);
    await sprite.sessions.validate(init);
    return () => {
      const listener = socketListener(ws, init.tty, opts.limits, () => session.detachListener(listener), (code) => complete(code));
      const session = sprite.sessions.start(init, listener);
      sendSessionInfo(ws, session, true);
      const stopPorts = init.tty ? reportTtyPorts(ws, sprite.machine) : noop;
      const stopActivity = opts.socket && init.stdin ? watchStdinActivity(ws, opts.socket, session, logger) : noop;
      if (state.kind !== 'starting') return;
      const exec: State = {
        kind: 'exec',
        input: noInput,
        detach: () => session.detachListener(listener),
        stop: () => {
          stopPorts();
          stopActivity();
        },
        mute: () => listener.close(),
        signalled: false,
        tty: init.tty,
      };
      exec.input = execInput(session, { stdin: init.stdin, logger, dialect: 'control', onSignal: () => (exec.signalled = true) });
      state = exec;
    };
  }

  /**
   * The running exec ended: the exit frame (`[3, code]`, or `exit` in TTY mode), `op.complete`, and the socket is
   * free again; held {@link SIGNALLED_END_HOLD_MS} when the client had signalled the op.
   */
  function complete(code: number): void {
    if (state.kind !== 'exec') return;
    const exec = state;
    const finish = () => {
      if (state !== exec) return;
      exec.stop();
      if (ws.readyState === ws.OPEN) sendExit(ws, exec.tty, code);
      reply(encodeOpComplete(code, 'exec'));
      toIdle();
    };
    if (exec.signalled) exec.held = setTimeout(finish, SIGNALLED_END_HOLD_MS);
    else finish();
  }

  /** Proxy (§5.3): the same `{status:"connected", target}` and relay as `/proxy`, then `release` and reuse. */
  async function startProxy(target: { host: string; port: number }, dialect: 'bare' | 'envelope'): Promise<void> {
    const proxy: State = { kind: 'proxy', relay: null, upstream: null, early: [] };
    state = proxy;
    clearTimeout(idleTimer);
    let upstream: Duplex | null;
    try {
      upstream = await dialProxyTarget(ws, sprite, target);
    } catch (err) {
      if (dialect === 'bare') return void ws.close(CloseCode.InternalError, failedToConnectReason(err));
      toIdle();
      return error(ControlErrorCode.Failed, failedToConnectReason(err), 'proxy');
    }
    if (!upstream || state !== proxy) return void upstream?.destroy();
    if (dialect === 'envelope') reply(encodeOpAck('proxy'));
    sprite.touch();
    const onEnd =
      dialect === 'bare'
        ? undefined // sprites-go reads the relay until the socket closes: end it as /proxy does (1001)
        : () => {
            if (state !== proxy) return;
            reply(encodeOpComplete(0, 'proxy'));
            toIdle();
          };
    proxy.relay = relay(ws, upstream, `${target.host}:${target.port}`, logger, onEnd);
    proxy.upstream = upstream;
    for (const chunk of proxy.early.splice(0)) upstream.write(chunk);
  }

  /**
   * A sprites-go `fs.*` op (§5.3, ws/control-fs.ts): its frames, then the socket is free again. Other messages
   * meanwhile wait (as while an exec starts); an `fs.write` waiting for its content re-arms the idle timer, so a
   * client that never sends it is closed as an idle socket.
   */
  async function runFs(op: string, args: URLSearchParams): Promise<void> {
    const fs: State = { kind: 'fs', queue: [] };
    state = fs;
    clearTimeout(idleTimer);
    const io: ControlFsIo = {
      send: reply,
      body: () =>
        new Promise<Uint8Array>((resolve, reject) => {
          fs.body = { resolve, reject };
          armIdle();
        }),
    };
    try {
      sprite.touch();
      await runControlFsOp(io, sprite.machine.fs, op, args);
    } catch (err) {
      if (state !== fs) return; // the socket closed
      logger.error({ err, op }, 'control fs op failed');
      reply(JSON.stringify({ type: 'op.error', op, error: 'internal error', code: 'EIO', path: '', args: { error: 'internal error', code: ControlErrorCode.Failed } }));
    }
    if (state !== fs) return;
    const queued = fs.queue.splice(0);
    toIdle();
    for (const [data, isBinary] of queued) ws.emit('message', data, isBinary);
  }

  /** Answers a refused start with `op.error` (the message the HTTP API would give). */
  function failed(err: unknown, op: string): void {
    if (err instanceof ModelError) return error(err.kind === 'session_not_found' ? ControlErrorCode.NotFound : ControlErrorCode.Failed, err.message, op);
    logger.error({ err }, 'control op failed to start');
    error(ControlErrorCode.Failed, 'internal error', op);
  }

  if (opts.autoStart) {
    const q = new URLSearchParams(opts.autoStart);
    const op = q.get('op')!;
    q.delete('op');
    startOp(op, q);
  } else armIdle();
}

const noop = () => {};
const noInput: ExecInput = { text: noop, binary: noop };

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data as ArrayBuffer);
}

/** Logger type re-export for the fs module's signature. */
export type { Logger };
