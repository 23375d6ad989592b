/**
 * The one start of an exec, which HTTP exec (routes/exec.ts), WebSocket exec (ws/exec.ts) and the control
 * socket's exec op (ws/control-exec.ts) all call: read the exec query, refuse what cannot start before the
 * transport commits to anything, then attach to the running session or start the command. It knows no
 * transport: the bytes a client sees (frames, `session_info`, `op.ack`) stay in each entry.
 */
import { ModelError } from '../core/errors.ts';
import type { Sprite } from '../model/sprites.ts';
import type { AfterDisconnect, ExecSession, ExecSessionInit, SessionListener } from '../model/sessions.ts';
import { commandLineBytes, parseExecQuery } from './params.ts';
import { checkSessionLimit } from './session-limit.ts';

/** What an entry asks for. */
export interface ExecStartRequest {
  /** The sprite the command runs in (its environment, sessions and activity clock). */
  sprite: Pick<Sprite, 'environment' | 'sessions' | 'touch'>;
  /** The exec query (docs/wire-reference.md §4.2, §4.10), or the control op's args as a query (§5.2). */
  query: URLSearchParams;
  /** The sprite's cap on running sessions (`--max-sessions`); an attach is never counted. */
  sessionsMax: number;
  /**
   * Most bytes a new command's command line may hold ({@link commandLineBytes}): the request-head limit
   * (`--max-header-size`), which bounds HTTP exec's and a WebSocket handshake's query already, so that the control
   * socket's `op.start` (whose args arrive in a frame) can carry no more than they can.
   */
  commandLineMaxBytes: number;
  /** The session id of the path form `/exec/{session_id}`; it wins over the query's `id`. */
  sessionId?: string;
  /**
   * Overrides the new session's `max_run_after_disconnect` rule. HTTP exec passes `'at-once'`: its command ends
   * with the response, whatever the query says.
   */
  afterDisconnect?: AfterDisconnect;
}

/** The session an entry attaches to or starts, and how its client detaches from it. */
export interface OpenExec {
  session: ExecSession;
  /** Detaches the entry's listener; the last client leaving starts the session's `max_run_after_disconnect` rule. */
  detach(): void;
}

/** An exec that passed every check: nothing has started yet and nothing was attached. */
export interface PendingExec {
  /** Whether the command runs in a terminal (an attach: the session's mode). */
  readonly tty: boolean;
  /** Whether the client's stdin reaches the command (`stdin`; an attach takes it unless `stdin=false`). */
  readonly stdin: boolean;
  /** The running session an attach names; undefined for a new command. */
  readonly attaching: ExecSession | undefined;
  /**
   * Gives the exec up without opening it: a new command's place under the session cap is freed. Idempotent, and a
   * no-op once `open` ran; every caller that may not open calls it (a handshake that fails, a socket that closes).
   */
  release(): void;
  /**
   * Attaches `listener` to the session (its scrollback replayed first) or starts the command with `listener`
   * attached before the engine starts, so a fast command never loses output. `announce` runs once the session
   * is known, with whether this client owns it (no other client was attached): for an attach before the
   * scrollback reaches `listener`, for a new command right after it started. Call it once.
   */
  open(listener: SessionListener, announce?: (session: ExecSession, isOwner: boolean) => void): OpenExec;
}

/**
 * Checks an exec request and returns what opens it. An attach (`sessionId`, or the query's `id`) needs a live
 * session; a new command needs a `cmd`, room under `sessionsMax` and an existing working directory. Rejects with
 * ModelError: `invalid_request` (a bad query, no command, a command line over `commandLineMaxBytes`, a missing `dir`), `session_not_found`, `rate_limited`
 * (the session cap), `sprite_unavailable` (a machine that could not boot); the entry answers it in its own way
 * (a refused handshake, an `op.error`, a REST error).
 * @see docs/wire-reference.md §4.2, §4.7, §4.10, §5.2; docs/limits.md
 */
export async function startExec(req: ExecStartRequest): Promise<PendingExec> {
  const { sprite, query } = req;
  const { init, id, hasCommand } = parseExecQuery(query, sprite.environment);
  const attachId = req.sessionId ?? id;
  if (attachId !== undefined) return attach(sprite, sprite.sessions.get(attachId), query.get('stdin') !== 'false');
  if (!hasCommand) throw new ModelError('invalid_request', 'No command specified');
  const size = commandLineBytes(init);
  if (size > req.commandLineMaxBytes) {
    throw new ModelError('invalid_request', `command line too long: its cmd and env items take ${size} bytes, at most ${req.commandLineMaxBytes} (--max-header-size)`);
  }
  checkSessionLimit(sprite.sessions, req.sessionsMax);
  const release = sprite.sessions.reserve();
  try {
    await sprite.sessions.validate(init);
  } catch (err) {
    release();
    throw err;
  }
  const rule = req.afterDisconnect;
  return start(sprite, rule === undefined ? init : { ...init, afterDisconnect: rule }, release);
}

function attach(sprite: ExecStartRequest['sprite'], session: ExecSession, stdin: boolean): PendingExec {
  return {
    tty: session.tty,
    stdin,
    attaching: session,
    release: () => undefined,
    open(listener, announce) {
      announce?.(session, !session.isActive);
      const detach = session.attach(listener, { replay: true });
      sprite.touch();
      return { session, detach };
    },
  };
}

function start(sprite: ExecStartRequest['sprite'], init: ExecSessionInit, release: () => void): PendingExec {
  return {
    tty: init.tty,
    stdin: init.stdin,
    attaching: undefined,
    release,
    open(listener, announce) {
      release();
      const session = sprite.sessions.start(init, listener);
      announce?.(session, true);
      return { session, detach: () => session.detachListener(listener) };
    },
  };
}
