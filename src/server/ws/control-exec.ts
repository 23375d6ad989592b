/**
 * The exec op of the control socket (docs/wire-reference.md §5.2): a new command, or an attach (`args.id`),
 * started by exec/start.ts as `/exec` starts one and answered with `/exec`'s frames (§4.2–4.7) between `op.ack`
 * and `op.complete`. It owns the op's life (start, signals, release, abandon, end); the socket's state machine is
 * control.ts's, the frames are ws/exec.ts's.
 */
import { ModelError } from '../core/errors.ts';
import { startExec, type PendingExec } from '../exec/start.ts';
import { encodeOpAck, encodeOpComplete } from '../../protocol/control.ts';
import { execInput, sendExit, sendSessionInfo, socketListener, watchStdinActivity, type ExecInput } from './exec.ts';
import { reportTtyPorts } from './tty-ports.ts';
import { ControlErrorCode, type ControlHost, type ControlOp } from './control-op.ts';

/**
 * Ms the end of an exec op the client signalled (`[3, code]` or `exit`, then `op.complete`) is held back: an
 * `op.start` within it means the client gave the op up (see `yieldTo`), and the held frames are dropped instead
 * of reaching the next op (the Python SDK ends its current op on any `op.complete`).
 */
export const SIGNALLED_END_HOLD_MS = 200;

/**
 * Starts an exec op on `host` with the op's args as a query (`cmd`, `tty`, `id`, …, §5.2): the socket holds the
 * client's messages while the start is checked, then answers `op.ack` and the op's frames, or `op.error` (the
 * message HTTP would give; `op.not_found` for an unknown session).
 */
export function startExecOp(host: ControlHost, query: URLSearchParams): void {
  const op = new ExecOp(host);
  host.begin(op, true);
  void op.start(query);
}

/** What a started exec op holds of its session. */
interface Running {
  input: ExecInput;
  tty: boolean;
  /** Detaches the op's listener from the session (its disconnect rule applies). */
  detach: () => void;
  /** Stops the op's side reports (TTY ports, stdin activity). */
  stop: () => void;
  /** Drops the listener's queued output: nothing more of the session reaches the socket. */
  mute: () => void;
}

class ExecOp implements ControlOp {
  private running: Running | undefined;
  /** The client signalled the command (`signal`): a new `op.start` then abandons this op. */
  private signalled = false;
  private heldEnd: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ControlHost) {}

  async start(query: URLSearchParams): Promise<void> {
    const { host } = this;
    let pending: PendingExec;
    try {
      pending = await startExec({ sprite: host.sprite, query, sessionsMax: host.sessionsMax, commandLineMaxBytes: host.commandLineMaxBytes });
    } catch (err) {
      if (!host.holds(this)) return;
      host.end(this, true);
      return refused(host, err);
    }
    if (!host.holds(this) || host.ws.readyState !== host.ws.OPEN) return pending.release();
    host.reply(encodeOpAck('exec'));
    this.open(pending);
    host.deliver(this);
  }

  /** Attaches or starts; the op's state is in place before an attach, so a session that just exited completes it at once. */
  private open(pending: PendingExec): void {
    const { ws, sprite, logger, options } = this.host;
    let detach = noop;
    const listener = socketListener(ws, pending.tty, options.limits, () => detach(), (code) => this.complete(code));
    const opened = pending.open(listener, (session, isOwner) => {
      sendSessionInfo(ws, session, isOwner);
      const stopPorts = session.tty ? reportTtyPorts(ws, sprite.machine) : noop;
      // A new command counts bytes on the TCP socket as stdin activity (ws/exec.ts); an attach's command runs already.
      const tcp = pending.attaching ? undefined : options.socket;
      const stopActivity = tcp && pending.stdin ? watchStdinActivity(ws, tcp, session, logger) : noop;
      const input = execInput(session, { stdin: pending.stdin, logger, dialect: 'control', onSignal: () => (this.signalled = true) });
      const stop = () => {
        stopPorts();
        stopActivity();
      };
      this.running = { input, tty: session.tty, detach: () => detach(), stop, mute: () => listener.close() };
    });
    detach = opened.detach;
  }

  /**
   * The command ended: the exit frame (`[3, code]`, or `exit` in TTY mode), `op.complete`, and the socket is
   * free again; held {@link SIGNALLED_END_HOLD_MS} when the client had signalled the op.
   */
  private complete(code: number): void {
    const { host, running } = this;
    if (!running || !host.holds(this)) return;
    const finish = () => {
      if (!host.holds(this)) return;
      running.stop();
      if (host.ws.readyState === host.ws.OPEN) sendExit(host.ws, running.tty, code);
      host.reply(encodeOpComplete(code, 'exec'));
      host.end(this);
    };
    if (this.signalled) this.heldEnd = setTimeout(finish, SIGNALLED_END_HOLD_MS);
    else finish();
  }

  text(text: string): void {
    this.running?.input.text(text);
  }

  binary(bytes: Buffer): void {
    this.running?.input.binary(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  release(): void {
    this.running?.stop();
    this.running?.detach();
  }

  closed(): void {
    clearTimeout(this.heldEnd);
    this.running?.detach();
  }

  /**
   * A new `op.start` after the client signalled the command: the client gave this op up (the OpenAI Agents
   * provider sends `signal KILL` on a timeout and reuses the socket at once). Nothing more of it is sent (its
   * frames would be read as the new op's) and the socket detaches from it (its disconnect rule applies).
   */
  yieldTo(): boolean {
    if (!this.signalled || !this.running) return false;
    clearTimeout(this.heldEnd);
    this.running.mute();
    this.running.stop();
    this.running.detach();
    this.host.logger.debug('control op.start after a signal: the signalled op is abandoned');
    return true;
  }
}

/** Answers a refused start with `op.error` (the message the HTTP API would give). */
function refused(host: ControlHost, err: unknown): void {
  if (err instanceof ModelError) {
    return host.error(err.kind === 'session_not_found' ? ControlErrorCode.NotFound : ControlErrorCode.Failed, err.message, 'exec');
  }
  host.logger.error({ err }, 'control op failed to start');
  host.error(ControlErrorCode.Failed, 'internal error', 'exec');
}

const noop = () => {};
