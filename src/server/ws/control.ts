/**
 * The control socket `GET /v1/sprites/{name}/control` (docs/wire-reference.md §5, docs/wire.md "The control
 * socket"): one WebSocket that runs one operation at a time and is reused for the next, as the SDKs' pools do.
 * It owns the socket's state machine (idle → op running → idle), the routing of client messages, `op.error`
 * for what cannot start, and the limits of an idle or flooded socket; the ops are control-exec/-proxy/-fs.ts.
 */
import type { WebSocket, RawData } from 'ws';
import type { AppContext } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import { startExecOp } from './control-exec.ts';
import { startBareProxyOp, startProxyOp } from './control-proxy.ts';
import { fsOpError, startFsOp } from './control-fs.ts';
import { ControlErrorCode, type ControlHost, type ControlOp, type ControlOptions } from './control-op.ts';
import { CONTROL_PREFIX, classifyControlText, encodeControl, type ControlArgs, type ControlClientText } from '../../protocol/control.ts';
import { CloseCode, ProtocolError } from '../../protocol/close-codes.ts';
import { maxHeadBytes } from '../http/oversize.ts';

/** The operations an `op.start` (or `?op=` on the upgrade) may name. */
export const CONTROL_OPS = ['exec', 'proxy'] as const;

/** Messages kept while an operation starts (its working directory is checked); more close the socket 1008. */
export const MAX_MESSAGES_WHILE_STARTING = 1024;

/**
 * Ms after an operation ended during which its late frames (stdin, the EOF the SDKs send right after `op.start`,
 * a `resize` or `signal`) are dropped without an answer: an `op.not_active` sent then would reach a pooled
 * client after its next `op.start`, and the Python SDK ends that op on any `op.error`.
 */
export const LATE_FRAME_GRACE_MS = 1000;

/** The close reason of a control socket closed for being idle. */
export const IDLE_TIMEOUT_REASON = 'idle timeout';
/** The close reason of a control socket whose unsent replies passed `controlReplyBacklogBytes`. */
export const REPLY_BACKLOG_REASON = 'control reply backlog exceeded';

const BUSY = 'an operation is already running on this socket';

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
 * `op.error` or a close with a documented code. Replies: `op.ack` when an operation starts; `op.complete
 * {exitCode}` when it ends; `op.error {error, code}` when it cannot start ({@link ControlErrorCode}). A malformed
 * envelope is answered with `op.error` and the socket stays open; the sprites-go bare proxy start with a bad port
 * closes 1003 as `/proxy` does.
 * @see docs/wire-reference.md §5; spec/asyncapi.yaml channel `control`
 */
export function handleControl(ws: WebSocket, sprite: Sprite, ctx: AppContext, opts: ControlOptions): void {
  const socket = new ControlSocket(ws, sprite, ctx, opts);
  if (!opts.autoStart) return socket.armIdle();
  const q = new URLSearchParams(opts.autoStart);
  const op = q.get('op')!;
  q.delete('op');
  socket.startOp(op, q);
}

/** What the socket is doing: nothing, or one op, with the client's messages held while `held` is set. */
type State = { kind: 'idle' } | { kind: 'busy'; op: ControlOp; held: Array<[RawData, boolean]> | null };

const IDLE: State = { kind: 'idle' };

/** The state machine of one control socket; the ops see it as their {@link ControlHost}. */
class ControlSocket implements ControlHost {
  readonly logger: AppContext['deps']['logger'];
  readonly sessionsMax: number;
  readonly commandLineMaxBytes: number;
  private state: State = IDLE;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last operation ended (performance.now ms), for {@link LATE_FRAME_GRACE_MS}. */
  private endedAt = -Infinity;

  constructor(
    readonly ws: WebSocket,
    readonly sprite: Sprite,
    private readonly ctx: AppContext,
    readonly options: ControlOptions,
  ) {
    this.logger = ctx.deps.logger;
    this.sessionsMax = ctx.deps.limits.sessionsMax;
    this.commandLineMaxBytes = maxHeadBytes(ctx.deps);
    ws.on('close', () => this.closed());
    ws.on('message', (data, isBinary) => this.message(data, isBinary));
  }

  reply(frame: string | Uint8Array): void {
    const { ws } = this;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.ctx.deps.limits.controlReplyBacklogBytes) return void ws.close(CloseCode.TryAgainLater, REPLY_BACKLOG_REASON);
    ws.send(frame);
  }

  async replyMessage(chunks: AsyncIterable<Uint8Array>): Promise<void> {
    const { ws } = this;
    const send = (data: Uint8Array, fin: boolean) =>
      new Promise<void>((resolve, reject) => {
        if (ws.readyState !== ws.OPEN) return reject(new Error('the control socket closed'));
        ws.send(data, { binary: true, fin }, (err) => (err ? reject(err) : resolve()));
      });
    try {
      for await (const chunk of chunks) await send(chunk, false);
    } catch (err) {
      // A message begun cannot be ended with anything else: the socket is cut, as an HTTP read cut short is.
      if (ws.readyState === ws.OPEN) ws.close(CloseCode.InternalError, 'read failed');
      throw err;
    }
    await send(new Uint8Array(0), true);
  }

  error(code: string, message: string, op?: string): void {
    this.reply(encodeControl({ type: 'op.error', ...(op ? { op } : {}), args: { error: message, code } }));
  }

  armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.ws.close(CloseCode.Normal, IDLE_TIMEOUT_REASON), this.ctx.deps.limits.controlIdleMs);
    this.idleTimer.unref();
  }

  stopIdle(): void {
    clearTimeout(this.idleTimer);
  }

  begin(op: ControlOp, hold: boolean): void {
    this.state = { kind: 'busy', op, held: hold ? [] : null };
    this.stopIdle();
  }

  holds(op: ControlOp): boolean {
    return this.state.kind === 'busy' && this.state.op === op;
  }

  deliver(op: ControlOp): void {
    if (this.state.kind !== 'busy' || this.state.op !== op) return;
    const held = this.state.held ?? [];
    this.state.held = null;
    this.replay(held);
  }

  end(op: ControlOp, dropHeld = false): void {
    if (this.state.kind !== 'busy' || this.state.op !== op) return;
    const held = this.state.held ?? [];
    this.toIdle();
    if (!dropHeld) this.replay(held);
  }

  /** Starts `op` (`exec` or `proxy`) with its args as a query; `op.not_found` for any other. */
  startOp(op: string, q: URLSearchParams): void {
    if (op === 'exec') return startExecOp(this, q);
    if (op === 'proxy') return startProxyOp(this, q);
    this.error(ControlErrorCode.NotFound, `unknown operation ${JSON.stringify(op)} (supported: ${CONTROL_OPS.join(', ')}; fs.* in the sprites-go form)`, op);
  }

  private toIdle(): void {
    this.state = IDLE;
    this.endedAt = performance.now();
    this.armIdle();
  }

  private replay(held: Array<[RawData, boolean]>): void {
    for (const [data, isBinary] of held) this.ws.emit('message', data, isBinary);
  }

  private closed(): void {
    this.stopIdle();
    if (this.state.kind === 'busy') this.state.op.closed();
    this.state = IDLE;
  }

  private message(data: RawData, isBinary: boolean): void {
    const { state } = this;
    if (state.kind === 'busy' && state.held) {
      if (isBinary && state.op.takeHeld?.(toBuffer(data))) return;
      if (state.held.length >= MAX_MESSAGES_WHILE_STARTING) return void this.ws.close(CloseCode.PolicyViolation, 'too many messages before the operation started');
      state.held.push([data, isBinary]);
      return;
    }
    if (!isBinary) return this.text(data.toString());
    if (state.kind === 'busy') state.op.binary(toBuffer(data));
    else this.notActive();
  }

  private text(text: string): void {
    let msg: ControlClientText;
    try {
      msg = classifyControlText(text);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      if (text.startsWith(CONTROL_PREFIX)) return this.error(ControlErrorCode.Invalid, err.reason);
      return void this.ws.close(err.closeCode, err.reason); // the bare proxy start answers as /proxy does (§5.3, §6.1)
    }
    const busy = this.state.kind === 'busy' ? this.state.op : undefined;
    switch (msg.kind) {
      case 'envelope':
        return this.opStart(msg.envelope);
      case 'release':
        // The client is done with the running op; with none running the socket re-arms its idle timer.
        busy?.release();
        return this.toIdle();
      case 'proxy_start':
        if (busy) return this.error(ControlErrorCode.Busy, BUSY, 'proxy');
        return startBareProxyOp(this, { host: msg.host, port: msg.port });
      case 'fs_op':
        if (busy) return this.reply(fsOpError(msg.op, BUSY, 'EBUSY', '', ControlErrorCode.Busy));
        return startFsOp(this, msg.op, msg.args);
      case 'op_text':
        return busy ? busy.text(msg.text) : this.notActive();
    }
  }

  /** An envelope: `op.start` starts an op when the socket is free (or its op gives way); nothing else is a client's. */
  private opStart(env: Extract<ControlClientText, { kind: 'envelope' }>['envelope']): void {
    if (env.type !== 'op.start') return this.error(ControlErrorCode.Invalid, `a client does not send ${env.type}`);
    if (this.state.kind === 'busy' && this.state.op.yieldTo?.()) this.state = IDLE;
    if (this.state.kind !== 'idle') return this.error(ControlErrorCode.Busy, BUSY, env.op);
    this.startOp(env.op, argsToQuery(env.args ?? {}));
  }

  /** A data frame with nothing running: dropped right after an op (a late frame of it), else `op.not_active`. */
  private notActive(): void {
    if (performance.now() - this.endedAt < LATE_FRAME_GRACE_MS) return this.logger.debug('dropped a late frame of a finished control op');
    this.error(ControlErrorCode.NotActive, 'no operation is running on this socket');
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data as ArrayBuffer);
}
