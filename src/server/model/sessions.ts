/**
 * Exec sessions of one sprite: every running command started through exec (WebSocket or HTTP) is a session,
 * listed by `GET …/exec`, attachable by id, killable, and ended by restore or delete (docs/wire-reference.md §4.7–4.9).
 * It owns the fan-out of a process's output to attached clients and the scrollback; it knows no WebSocket.
 */
import { runAfter, type Clock } from '../core/clock.ts';
import type { ExecProcess, ExecRequest } from '../machines/port.ts';
import { VfsError, type Machine } from '../machines/port.ts';
import { ModelError } from '../core/errors.ts';
import { checkExecDir } from './exec-dir.ts';

/** How many bytes of output a session keeps for replay on attach. */
export const SCROLLBACK_BYTES = 64 * 1024;
/** How many exited session ids a sprite remembers for 410 answers. */
const RECENTLY_EXITED_KEPT = 256;
/**
 * What happens to a command once its last client left (`max_run_after_disconnect`, docs/wire-reference.md §4.2):
 * - `'forever'`: it runs on until it exits, is killed, or the sprite ends it (stop, restore, delete); the API's `0`;
 * - `{ afterMs }`: it is killed `afterMs` after the last client left (a client attaching in time saves it); any
 *   length is honoured, 30 days as well as 10 s;
 * - `'at-once'`: it is killed as soon as the last client leaves: HTTP exec's command, which ends with its response,
 *   and the default of a plain non-TTY command ({@link DEFAULT_NON_TTY_AFTER_DISCONNECT}).
 */
export type AfterDisconnect = 'forever' | 'at-once' | { readonly afterMs: number };

/**
 * The rule of a `max_run_after_disconnect` duration in ms: `0` is forever (docs: "TTY default: `0` (forever)"; a
 * non-TTY command started with `0` also runs on, as production keeps a server started that way), anything else that
 * long.
 */
export function afterDisconnectOf(ms: number): AfterDisconnect {
  return ms === 0 ? 'forever' : { afterMs: ms };
}

/**
 * Default `max_run_after_disconnect` for non-TTY, non-detachable commands: killed at once, as HTTP exec's is.
 * @deviation the docs give 10 s (docs/wire-reference.md §4.2); field reports show a dropped exec gone at once (`ps`
 * shows no `sleep 1000` 1 s later), and docs/fidelity.md "Deliberate differences" (Dropped exec client) follows
 * them. An explicit `max_run_after_disconnect` is honoured; TTY and detachable sessions default to forever.
 */
export const DEFAULT_NON_TTY_AFTER_DISCONNECT: AfterDisconnect = 'at-once';

/** What to start: an engine request plus the session's own options. */
export interface ExecSessionInit extends ExecRequest {
  /** Absolute working directory (required here; the request parser fills in `/home/sprite`). */
  dir: string;
  /** The client will send stdin frames (`stdin=true`). */
  stdin: boolean;
  /** `detachable=true`: keeps running after the socket drops, like a TTY session. */
  detachable: boolean;
  /**
   * What happens once no client is attached (`max_run_after_disconnect`). Absent: TTY and detachable sessions run
   * forever, others end at once ({@link DEFAULT_NON_TTY_AFTER_DISCONNECT}).
   */
  afterDisconnect?: AfterDisconnect;
}

/** An attached client. */
export interface SessionListener {
  output(stream: 'stdout' | 'stderr', data: Uint8Array): void;
  exit(code: number): void;
}

type Chunk = { stream: 'stdout' | 'stderr'; data: Uint8Array };

/** One running command. `id` is its pid as a decimal string (docs/wire-reference.md §4.6 DISAGREEMENT 1). */
export class ExecSession {
  readonly id: string;
  readonly createdAt: number;
  lastActivityAt: number;
  bytesOut = 0;
  exitCode: number | null = null;
  private readonly listeners = new Set<SessionListener>();
  private readonly scrollback: Chunk[] = [];
  private scrollbackBytes = 0;
  /** Cancels the pending kill of an `afterMs` rule; set while no client is attached. */
  private cancelLinger: (() => void) | null = null;
  /** Set by the registry once the engine started. */
  process!: ExecProcess;

  constructor(
    readonly init: ExecSessionInit,
    readonly command: string,
    private readonly clock: Clock,
    private readonly onActivity: () => void,
  ) {
    this.createdAt = clock.now();
    this.lastActivityAt = this.createdAt;
    this.id = '';
  }

  get tty(): boolean {
    return this.init.tty;
  }
  get workdir(): string {
    return this.init.dir;
  }
  get exited(): boolean {
    return this.exitCode !== null;
  }
  /** Whether a client is attached right now. */
  get isActive(): boolean {
    return this.listeners.size > 0;
  }
  /** Average output rate since creation, bytes per second. */
  bytesPerSecond(now: number): number {
    const secs = Math.max(1, (now - this.createdAt) / 1000);
    return this.bytesOut / secs;
  }

  /**
   * Attaches a client. With `replay`, the scrollback is delivered first (attach, §4.7). Returns a detach
   * function; detaching the last client of a session that does not outlive its socket schedules its end.
   */
  attach(listener: SessionListener, opts: { replay: boolean }): () => void {
    this.stopLinger();
    if (opts.replay) for (const c of this.scrollback) listener.output(c.stream, c.data);
    this.listeners.add(listener);
    if (this.exitCode !== null) listener.exit(this.exitCode);
    return () => this.detachListener(listener);
  }

  /** Detaches a client; the last one leaving applies the session's {@link AfterDisconnect} rule. */
  detachListener(listener: SessionListener): void {
    if (!this.listeners.delete(listener) || this.listeners.size > 0 || this.exited) return;
    const rule = this.afterDisconnect;
    if (rule === 'forever') return;
    if (rule === 'at-once') this.process.signal('KILL');
    else this.cancelLinger = runAfter(this.clock, rule.afterMs, () => this.process.signal('KILL'));
  }

  /** The rule that applies once no client is attached: the request's, else the default of its mode. */
  get afterDisconnect(): AfterDisconnect {
    return this.init.afterDisconnect ?? (this.init.tty || this.init.detachable ? 'forever' : DEFAULT_NON_TTY_AFTER_DISCONNECT);
  }

  private stopLinger(): void {
    this.cancelLinger?.();
    this.cancelLinger = null;
  }

  /** @internal engine output sink. */
  emit(stream: 'stdout' | 'stderr', data: Uint8Array): void {
    if (data.length === 0) return;
    this.bytesOut += data.length;
    this.lastActivityAt = this.clock.now();
    // Only the tail of a large chunk can stay, and a copy of it, so the scrollback never pins the whole output.
    const kept = data.length > SCROLLBACK_BYTES ? data.slice(data.length - SCROLLBACK_BYTES) : data;
    this.scrollback.push({ stream, data: kept });
    this.scrollbackBytes += kept.length;
    // Trim from the oldest end, cutting into a chunk rather than dropping it whole: what stays is always the last
    // SCROLLBACK_BYTES of output (or all of it), never less because one chunk was large.
    while (this.scrollbackBytes > SCROLLBACK_BYTES) {
      const oldest = this.scrollback[0]!;
      const excess = this.scrollbackBytes - SCROLLBACK_BYTES;
      if (oldest.data.length > excess) {
        this.scrollback[0] = { stream: oldest.stream, data: oldest.data.slice(excess) };
        this.scrollbackBytes -= excess;
      } else {
        this.scrollback.shift();
        this.scrollbackBytes -= oldest.data.length;
      }
    }
    this.onActivity();
    for (const l of [...this.listeners]) l.output(stream, data);
  }

  /** @internal exit sink. */
  finish(code: number): void {
    this.exitCode = code;
    this.stopLinger();
    for (const l of [...this.listeners]) l.exit(code);
    this.listeners.clear();
  }
}

/** The sessions of one sprite. */
export class SessionRegistry {
  private readonly sessions = new Map<string, ExecSession>();
  /** Ids of recently exited sessions (bounded), so a late kill can answer 410 instead of 404 (§2.3). */
  private readonly exited = new Set<string>();
  /** Commands that passed the session cap and have not started or been given up yet (`reserve`). */
  private reserved = 0;

  constructor(
    private readonly deps: {
      clock: Clock;
      /** The sprite's machine, which runs the commands. */
      machine: Machine;
      onActivity: () => void;
    },
  ) {}

  /**
   * Starts a command. `first` is attached before the engine starts, so a fast command never loses output.
   * The session leaves the registry as soon as it exits (docs/wire-reference.md §4.8 "Exited sessions disappear").
   */
  start(init: ExecSessionInit, first?: SessionListener): ExecSession {
    const session = new ExecSession(init, describeCommand(init), this.deps.clock, this.deps.onActivity);
    if (first) session.attach(first, { replay: false });
    const io = {
      stdout: (d: Uint8Array) => session.emit('stdout', d),
      stderr: (d: Uint8Array) => session.emit(init.tty ? 'stdout' : 'stderr', d),
    };
    const proc = this.deps.machine.spawn(
      { argv: init.argv, path: init.path, env: init.env, dir: init.dir, tty: init.tty, rows: init.rows, cols: init.cols },
      io,
      { stdin: init.stdin },
    );
    session.process = proc;
    (session as { id: string }).id = String(proc.pid);
    this.sessions.set(session.id, session);
    this.deps.onActivity();
    void proc.exit.then((code) => {
      this.sessions.delete(session.id);
      this.exited.add(session.id);
      if (this.exited.size > RECENTLY_EXITED_KEPT) this.exited.delete(this.exited.values().next().value!);
      session.finish(code);
      this.deps.onActivity();
    });
    return session;
  }

  /**
   * Checks that a command can start: its working directory exists in the sprite. ModelError `invalid_request`
   * (`chdir <dir>: no such file or directory`) otherwise, so callers can refuse before a WebSocket upgrade; a `dir`
   * over Linux's path limits or holding a NUL reads `chdir <dir>: file name too long` / `invalid argument`
   * (`checkPath`, the same check as the fs API's). A sprite whose machine could not boot, or did not answer at all
   * (an error that is not the filesystem's), rejects with ModelError `sprite_unavailable`.
   */
  async validate(init: Pick<ExecSessionInit, 'dir'>): Promise<void> {
    checkExecDir(init.dir);
    const st = await this.deps.machine.fs.stat(init.dir).catch((err: unknown) => {
      // A sprite that could not boot says so (503, naming why), rather than seeming to lack the directory.
      if (err instanceof ModelError && err.kind === 'sprite_unavailable') throw err;
      // Only the filesystem's own answer (ENOENT, ENOTDIR, EACCES…) means the directory is not there; a machine that
      // did not answer at all (its agent's connection just lost) is the sprite's unavailability, not the client's dir.
      if (!(err instanceof VfsError) && !(err instanceof ModelError)) {
        throw new ModelError('sprite_unavailable', `sprite unreachable: ${(err as Error)?.message ?? String(err)}`);
      }
      return undefined;
    });
    if (st?.type !== 'directory') throw new ModelError('invalid_request', `chdir ${init.dir}: no such file or directory`);
  }

  /** A live session, or ModelError `session_not_found`. */
  get(id: string): ExecSession {
    const s = this.sessions.get(id);
    if (!s) throw new ModelError('session_not_found', `session not found: ${id}`);
    return s;
  }

  /**
   * A live session for a kill: ModelError `session_exited` (410, which GO treats as "already exited") when it
   * exited recently, `session_not_found` otherwise.
   */
  getForKill(id: string): ExecSession {
    if (!this.sessions.has(id) && this.exited.has(id)) throw new ModelError('session_exited', `session already exited: ${id}`);
    return this.get(id);
  }

  /**
   * Holds one place under the session cap for a command about to start (between its checks and its start, a
   * WebSocket handshake may take a while), so commands asked for at the same moment cannot all pass the cap.
   * Returns the release, idempotent: call it when the command starts or is given up.
   */
  reserve(): () => void {
    this.reserved++;
    let held = true;
    return () => {
      if (held) this.reserved--;
      held = false;
    };
  }

  /** Live sessions plus the places reserved for commands about to start: what the session cap is checked against. */
  get count(): number {
    return this.sessions.size + this.reserved;
  }

  /** Live sessions, oldest first. */
  list(): ExecSession[] {
    return [...this.sessions.values()].sort((a, b) => a.createdAt - b.createdAt || Number(a.id) - Number(b.id));
  }

  /** Whether any command is running (keeps the sprite `running`). */
  get busy(): boolean {
    return this.sessions.size > 0;
  }

  /** Ends every session (restore, delete, shutdown) and resolves when all have exited. */
  async endAll(): Promise<void> {
    const live = [...this.sessions.values()];
    for (const s of live) s.process.signal('KILL');
    await Promise.all(live.map((s) => s.process.exit));
  }
}

/** The command as the session list shows it: resolved executable plus args (docs/wire-reference.md §4.8). */
function describeCommand(init: ExecSessionInit): string {
  const prog = init.path ?? init.argv[0] ?? 'bash';
  const resolved = prog.includes('/') ? prog : `/usr/bin/${prog}`;
  return [resolved, ...init.argv.slice(1)].join(' ');
}
