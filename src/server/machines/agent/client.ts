/**
 * The host side of the in-sprite agent: one unix-socket connection to a sprite's agent, multiplexing fs calls,
 * processes, TCP relays and watches (protocol in docs/agent-protocol.md). The sandbox machine composes it with the
 * launcher and the storage; it owns the connection and maps agent replies onto the Machine port's shapes
 * (`VfsError`, `ExecProcess`, `Duplex`). It does not start or stop the agent, and allocates no pids (callers do).
 * @see src/server/machines/port.ts, src/protocol/agent.ts
 */
import { connect as netConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { ExecIO, ExecProcess, ExecRequest, ExecStartOptions } from '../port.ts';
import { VfsError, type VfsChange, type VfsEntry, type VfsErrorCode, type VfsStat } from '../port.ts';
import type { ListeningPort, MachineFs } from '../port.ts';
import {
  decodeEnvelope,
  encodeEnvelope,
  encodeFrame,
  encodeResize,
  FIRST_ACCEPT_ID,
  FrameDecoder,
  FrameType,
  PROTOCOL_VERSION,
  ProtocolError,
  type CallJson,
  type ReplyJson,
  type SpawnMessage,
  type WireError,
} from '../../../protocol/agent.ts';
import { agentMaySend, agentPayloadLimit, DEFAULT_AGENT_BOUNDS, type AgentBounds } from './bounds.ts';
import { SystemClock, type Clock, type TimerHandle } from '../../core/clock.ts';
import { DEFAULT_EXEC_STREAM_LIMITS } from '../../config/exec-limits.ts';
import { callDeadlineMs, callTimeoutError, DEFAULT_AGENT_TIMEOUT_MS, isCallTimeout, notAnsweredText } from './deadlines.ts';

/**
 * A spawn request as the agent takes it: the exec request plus the ids to run as (the sprite user: 1001/1001, with the
 * supplementary groups 27 and 100) and its capabilities.
 */
export interface AgentSpawnRequest extends ExecRequest {
  uid: number;
  gid: number;
  /** Ambient capabilities of the process (`SpawnMessage.caps`: an exec session's; none for a service). */
  caps?: string[];
  /** Supplementary group ids of the process (`SpawnMessage.groups`). */
  groups?: number[];
}

/** Codes `VfsError` describes itself; others keep the agent's message. */
const VFS_CODES = new Set<string>(['ENOENT', 'EEXIST', 'ENOTDIR', 'EISDIR', 'ENOTEMPTY', 'EINVAL', 'ELOOP', 'EACCES', 'ENOSPC']);

/**
 * The error an agent reply stands for: a `VfsError` for fs operations (code, sprite path, syscall), else an Error
 * with `code` (ECONNREFUSED for a refused dial, …).
 */
function toError(e: WireError, fsOp: boolean): Error {
  if (fsOp && e.path !== undefined) {
    // ENAMETOOLONG, ENOSPC, EIO… are listed by the Machine port but not (yet) by VfsErrorCode: kept verbatim.
    const err = new VfsError(e.code as VfsErrorCode, e.path, e.syscall ?? 'open');
    // The agent's own words when it says why (`EINVAL: not a regular file, …`) or names a code of its own.
    if (!VFS_CODES.has(e.code) || (typeof e.message === 'string' && e.message.startsWith(`${e.code}: `))) err.message = e.message;
    return err;
  }
  return Object.assign(new Error(e.message), { code: e.code });
}

/** The violation of an agent that sent a frame of a type only the host sends. */
function hostOnly(type: FrameType): string {
  return `the agent sent a frame of type ${type}, which only the host sends`;
}

/** A connection-loss error (pending calls reject with it). */
function lostError(): Error {
  return Object.assign(new Error('agent connection lost'), { code: 'ECONNRESET' });
}

interface PendingCall {
  resolve(r: { value: unknown; tail: Buffer }): void;
  reject(err: Error): void;
  fsOp: boolean;
  /** The call's op: it sets how large its REPLY may be (bounds.ts). */
  op: CallJson['op'];
  /** Its deadline's timer (deadlines.ts). */
  timer: TimerHandle;
}

interface ProcState {
  io: ExecIO;
  exited: boolean;
  /** The process id inside the sprite, from the agent's STARTED frame. */
  osPid?: number;
  resolveExit(code: number): void;
  /** The deadline of the agent's acknowledgement of a SPAWN or a KILL, while one runs. */
  timer?: TimerHandle;
}

/**
 * Calls whose deadline passed, remembered so that the agent's late reply is dropped rather than taken for a reply
 * to no call (a violation). Past this many the oldest are forgotten (a late reply to one of those is a violation).
 */
const EXPIRED_CALLS_KEPT = 16_384;

/** How a client waits for its agent: the clock its deadlines run on, and the per-call deadline (deadlines.ts). */
export interface AgentTiming {
  clock: Clock;
  /** `--agent-timeout` in ms: the deadline of one call (bulk calls get more: deadlines.ts). */
  timeoutMs: number;
}

/** The host's end of a TCP relay: a Duplex whose bytes travel as DATA frames. */
class RelayStream extends Duplex {
  /** The agent asked us to stop sending (its TCP socket is congested). */
  private remotePaused = false;
  private blocked: (() => void) | undefined;
  /** We asked the agent to stop (our reader is slow). */
  private askedPause = false;
  private finished = false;

  constructor(
    private readonly client: AgentClient,
    readonly id: number,
  ) {
    super({ allowHalfOpen: true });
  }

  /** Bytes from the agent. Past the stream's buffer the agent is asked to PAUSE, and the client checks its bound. */
  onData(data: Buffer): void {
    if (this.push(data)) return;
    if (!this.askedPause) {
      this.askedPause = true;
      this.client.sendFrame(FrameType.Pause, this.id);
    }
    this.client.relayOverflowing();
  }

  onEnd(): void {
    this.push(null);
  }

  onReset(reason: string): void {
    this.finished = true;
    // A relay nobody listens to for errors any more (a socket an HTTP server let go of after an upgrade) still
    // closes; its reset must not become an uncaught exception that takes the whole server down.
    if (this.listenerCount('error') === 0) this.once('error', () => undefined);
    this.destroy(Object.assign(new Error(reason || 'connection reset'), { code: 'ECONNRESET' }));
  }

  onPause(): void {
    this.remotePaused = true;
  }

  onResume(): void {
    this.remotePaused = false;
    const go = this.blocked;
    this.blocked = undefined;
    go?.();
  }

  /**
   * Ends the relay and destroys it once its last bytes are sent: `net.Socket#destroySoon`, which Node's HTTP server
   * calls on the sockets it serves (the in-sprite API serves relays). Without it, a request from inside a sprite that
   * declares an oversized body made the server throw.
   */
  destroySoon(): void {
    if (this.writableFinished) this.destroy();
    else {
      this.once('finish', () => this.destroy());
      this.end();
    }
  }

  override _read(): void {
    if (this.askedPause) {
      this.askedPause = false;
      this.client.sendFrame(FrameType.Resume, this.id);
    }
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const send = (): void => {
      if (this.client.sendFrame(FrameType.Data, this.id, chunk)) cb();
      else this.client.onDrain(() => cb());
    };
    if (this.remotePaused) this.blocked = send;
    else send();
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.client.sendFrame(FrameType.End, this.id);
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    // A relay that ended cleanly both ways is already gone on the agent's side; anything else is torn down.
    const clean = err === null && this.readableEnded && this.writableFinished;
    if (!this.finished && !clean) this.client.sendFrame(FrameType.Reset, this.id);
    this.finished = true;
    this.client.forgetRelay(this.id);
    cb(err);
  }
}

/**
 * A connection to one sprite's agent. The agent is not trusted (root inside the sprite can write on its
 * connection): every frame is bounded by `AgentBounds` before its payload is buffered, and a stream that breaks the
 * protocol closes the connection with `violation` set (bounds.ts).
 */
export class AgentClient {
  private readonly decoder = new FrameDecoder((type, ch) => {
    if (!agentMaySend(type)) throw new ProtocolError(hostOnly(type));
    return agentPayloadLimit(this.bounds, type, this.calls.get(ch)?.op ?? this.expired.get(ch));
  });
  private readonly calls = new Map<number, PendingCall>();
  /** Calls given up at their deadline, by id, with their op (EXPIRED_CALLS_KEPT). */
  private readonly expired = new Map<number, CallJson['op']>();
  private readonly procs = new Map<number, ProcState>();
  private readonly relays = new Map<number, RelayStream>();
  private readonly watches = new Map<number, (changes: VfsChange[]) => void>();
  private readonly drainWaiters: Array<() => void> = [];
  private nextCall = 1;
  private nextRelay = 1;
  private nextWatch = 1;
  /** Relays the agent opened (ACCEPT) that are still open. */
  private accepted = 0;
  private lost = false;
  private broken: string | undefined;
  /** Frames sent while the agent's frames of one read are handled (written at once afterwards). */
  private answers: Buffer[] | undefined;
  private resolveClosed!: () => void;

  /**
   * Called with each connection a process inside opened to the in-sprite API socket (ACCEPT frame): a Duplex of
   * its bytes (docs/agent-protocol.md "In-sprite API"), and with the agent's listener name (`api`, or `egress-proxy`
   * / `egress-dns` for the egress gate). Unset: such connections are reset at once.
   */
  onAccept?: (conn: Duplex, listener: string) => void;

  /** Resolves when the agent connection is lost (agent crashed, sandbox died, or `close()`). */
  readonly closed: Promise<void> = new Promise((r) => (this.resolveClosed = r));

  /** Filesystem ops, executed by the agent inside the sprite's mount namespace (paths in the sprite's view). */
  readonly fs: MachineFs;

  private constructor(
    private readonly socket: Socket,
    private readonly bounds: AgentBounds,
    private readonly timing: AgentTiming,
    /** `--max-stdin-bytes`: most stdin one command may leave unread in the agent (`SpawnMessage.stdinMax`). */
    private readonly stdinMax: number = DEFAULT_EXEC_STREAM_LIMITS.maxStdinBytes,
  ) {
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = this.decoder.push(chunk);
      } catch (err) {
        return this.violate((err as Error).message);
      }
      // The frames the host sends because of these (RESETs of refused ACCEPTs, PAUSEs…) go out as one write: a
      // million tiny writes would cost far more than their bytes while the agent does not read.
      const answers: Buffer[] = [];
      this.answers = answers;
      try {
        for (const f of frames) {
          if (this.lost) return;
          this.onFrame(f.type, f.channel, f.payload);
        }
      } finally {
        this.answers = undefined;
        if (answers.length > 0 && !this.lost) socket.write(answers.length === 1 ? answers[0]! : Buffer.concat(answers));
      }
      // An agent that does not read what it is sent is not read either, so what it makes the host answer never
      // piles up here.
      if (!this.lost && socket.writableLength > this.bounds.unsentBytes) {
        socket.pause();
        this.onDrain(() => socket.resume());
      }
    });
    socket.on('drain', () => {
      for (const w of this.drainWaiters.splice(0)) w();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => this.onLost());
    this.fs = this.makeFs();
  }

  /**
   * Connects to an agent listening on the unix socket `socketPath`, retrying while the socket is missing or refuses
   * (the agent is starting) until `timeoutMs` (default 5000) has passed or `signal` aborts, then checks the protocol
   * version. `bounds` (default DEFAULT_AGENT_BOUNDS) limit what the agent may send; `timing` (default: the system
   * clock, DEFAULT_AGENT_TIMEOUT_MS) sets the deadline of every later call; `stdinMax` (default 64 MiB,
   * `--max-stdin-bytes`) bounds the stdin each command may leave unread (the agent kills one that passes it). Rejects with an Error (code ETIMEDOUT,
   * ABORT_ERR, or EPROTO for a version mismatch).
   */
  static async connect(
    socketPath: string,
    opts: { timeoutMs?: number; signal?: AbortSignal; bounds?: AgentBounds; timing?: Partial<AgentTiming>; stdinMax?: number } = {},
  ): Promise<AgentClient> {
    const deadline = Date.now() + (opts.timeoutMs ?? 5000);
    const timing: AgentTiming = { clock: opts.timing?.clock ?? new SystemClock(), timeoutMs: opts.timing?.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS };
    let lastError: unknown;
    for (;;) {
      // A boot that failed meanwhile stops its attempts: a later boot's agent at the same path is not its to take.
      if (opts.signal?.aborted) throw Object.assign(new Error(`connecting to the agent at ${socketPath} was given up`), { code: 'ABORT_ERR' });
      try {
        const socket = await new Promise<Socket>((resolve, reject) => {
          const s = netConnect(socketPath);
          s.once('connect', () => {
            s.off('error', reject);
            resolve(s);
          });
          s.once('error', reject);
        });
        const client = new AgentClient(socket, opts.bounds ?? DEFAULT_AGENT_BOUNDS, timing, opts.stdinMax);
        // An agent that accepts but never answers (stopped) is retried like one that is not listening yet.
        const helloMs = Math.max(1, Math.min(timing.timeoutMs, deadline - Date.now()));
        let hello: { version: number };
        try {
          hello = (await client.call({ op: 'hello' }, undefined, false, helloMs)).value as { version: number };
        } catch (err) {
          client.close();
          throw err;
        }
        if (opts.signal?.aborted) {
          client.close();
          continue;
        }
        if (hello.version !== PROTOCOL_VERSION) {
          client.close();
          throw Object.assign(new Error(`agent speaks protocol ${hello.version}, expected ${PROTOCOL_VERSION}`), { code: 'EPROTO' });
        }
        return client;
      } catch (err) {
        if ((err as { code?: string }).code === 'EPROTO') throw err;
        lastError = err;
      }
      if (Date.now() >= deadline) {
        throw Object.assign(new Error(`agent at ${socketPath} not reachable: ${(lastError as Error)?.message}`), { code: 'ETIMEDOUT' });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Sends one frame; false when the socket is congested (or the connection is gone). While frames from the agent are
   * handled, it is queued and written with the others when they are done. Internal to the client.
   */
  sendFrame(type: FrameType, channel: number, payload?: Uint8Array): boolean {
    if (this.lost) return false;
    const frame = encodeFrame(type, channel, payload);
    if (!this.answers) return this.socket.write(frame);
    this.answers.push(frame);
    return !this.socket.writableNeedDrain;
  }

  /** Runs `fn` once the socket has drained (at once if the connection is gone). Internal to the client. */
  onDrain(fn: () => void): void {
    if (this.lost) fn();
    else this.drainWaiters.push(fn);
  }

  /** Drops a relay from the table. Internal to the client. */
  forgetRelay(id: number): void {
    if (this.relays.delete(id) && id >= FIRST_ACCEPT_ID) this.accepted--;
  }

  /**
   * A relay holds more than its stream's buffer: the bytes held for all relays must stay within
   * `relayBufferedBytes`, else the agent ignored PAUSE. Internal to the client.
   */
  relayOverflowing(): void {
    let held = 0;
    for (const r of this.relays.values()) held += r.readableLength;
    if (held > this.bounds.relayBufferedBytes) this.violate(`the agent's relays hold ${held} bytes the host did not read (it ignored PAUSE)`);
  }

  /**
   * Why the connection was closed for breaking the protocol (a frame over its bound, an unknown or host-only frame
   * type, a reply to no call, relays flooded past PAUSE…), or undefined. Set before `closed` resolves.
   */
  get violation(): string | undefined {
    return this.broken;
  }

  /** The agent broke the protocol: nothing more is read from it; the connection closes and `closed` resolves. */
  private violate(reason: string): void {
    if (this.lost) return;
    this.broken = reason;
    this.socket.destroy();
    this.onLost();
  }

  /**
   * Sends one call and resolves with its reply. Past its deadline (`deadlineMs`, default `callDeadlineMs`) it rejects
   * with `callTimeoutError` and the agent's late reply, if any, is dropped: the connection stays usable.
   */
  private call(req: CallJson, tail?: Uint8Array, fsOp = false, deadlineMs = callDeadlineMs(req, this.timing.timeoutMs)): Promise<{ value: unknown; tail: Buffer }> {
    if (this.lost) return Promise.reject(lostError());
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      const timer = this.timing.clock.setTimeout(() => {
        if (!this.calls.delete(id)) return;
        this.expired.set(id, req.op);
        if (this.expired.size > EXPIRED_CALLS_KEPT) this.expired.delete(this.expired.keys().next().value!);
        reject(callTimeoutError(req, deadlineMs, fsOp));
      }, deadlineMs);
      this.calls.set(id, { resolve, reject, fsOp, op: req.op, timer });
      this.sendFrame(FrameType.Call, id, encodeEnvelope(req, tail));
    });
  }

  private async fsCall<T>(req: CallJson, tail?: Uint8Array): Promise<T> {
    return (await this.call(req, tail, true)).value as T;
  }

  private makeFs(): MachineFs {
    return {
      readFile: async (path, range) => new Uint8Array((await this.call({ op: 'readFile', path, ...range }, undefined, true)).tail),
      writeFile: (path, data, opts = {}) => this.fsCall<VfsStat>({ op: 'writeFile', path, ...opts }, data),
      stat: (path) => this.fsCall<VfsStat>({ op: 'stat', path }),
      lstat: (path) => this.fsCall<VfsStat>({ op: 'lstat', path }),
      readdir: (path, opts = {}) => this.fsCall<VfsEntry[]>({ op: 'readdir', path, ...opts }),
      mkdir: async (path, opts = {}) => void (await this.fsCall({ op: 'mkdir', path, ...opts })),
      rm: (path, opts = {}) => this.fsCall<string[]>({ op: 'rm', path, ...opts }),
      rename: async (source, dest) => void (await this.fsCall({ op: 'rename', source, dest })),
      copy: (source, dest, opts = {}) => this.fsCall({ op: 'copy', source, dest, ...opts }),
      chmod: (path, mode, opts = {}) => this.fsCall({ op: 'chmod', path, mode, ...opts }),
      chown: (path, uid, gid, opts = {}) => this.fsCall({ op: 'chown', path, uid, gid, ...opts }),
    };
  }

  /**
   * Starts a process in the sprite. `opts.pid` (allocated by the caller) names it and is returned as `pid`; output
   * goes to `io` as produced (never synchronously within this call). `exit` resolves with the code (128+n for signal
   * n; 137 when the agent connection is lost). Throws a TypeError when `opts.pid` is already running here.
   * Nothing waits for ever on an agent that stopped answering: when it does not acknowledge the SPAWN (a `hello` sent
   * right after it is not answered in time) or does not report the exit of a process sent SIGKILL, within
   * `--agent-timeout`, the process is given up (`giveUp`): exit 137, its later frames dropped.
   */
  spawn(req: AgentSpawnRequest, io: ExecIO, opts: ExecStartOptions & { pid: number }): ExecProcess {
    const pid = opts.pid;
    if (this.procs.has(pid)) throw new TypeError(`pid ${pid} is already running`);
    let resolveExit!: (code: number) => void;
    const exit = new Promise<number>((r) => (resolveExit = r));
    const state: ProcState = { io, exited: false, resolveExit };
    const send = (type: FrameType, payload?: Uint8Array): void => {
      if (!state.exited) this.sendFrame(type, pid, payload);
    };
    if (this.lost) {
      state.exited = true;
      queueMicrotask(() => {
        io.stderr(new TextEncoder().encode('sprite agent is not running\n'));
        resolveExit(137);
      });
    } else {
      this.procs.set(pid, state);
      const msg: SpawnMessage = {
        argv: req.argv,
        path: req.path,
        env: req.env,
        dir: req.dir,
        tty: req.tty,
        rows: req.rows,
        cols: req.cols,
        uid: req.uid,
        gid: req.gid,
        ...(req.caps?.length ? { caps: req.caps } : {}),
        ...(req.groups?.length ? { groups: req.groups } : {}),
        stdin: opts.stdin,
        stdinMax: this.stdinMax,
        ...(req.log ? { log: req.log } : {}),
      };
      this.sendFrame(FrameType.Spawn, pid, Buffer.from(JSON.stringify(msg)));
      // The agent handles frames in order: its answer to this hello says it has taken the SPAWN.
      this.call({ op: 'hello' }, undefined, false, this.timing.timeoutMs).catch((err: unknown) => {
        if (isCallTimeout(err)) this.giveUp(pid, state, `spritzer: ${notAnsweredText(this.timing.timeoutMs)}; the command was given up\n`);
      });
    }
    return {
      pid,
      exit,
      get osPid() {
        return state.osPid;
      },
      writeStdin: (data) => {
        if (data.byteLength > 0) send(FrameType.Stdin, data);
      },
      endStdin: () => send(FrameType.StdinEof),
      resize: (cols, rows) => {
        if (req.tty) send(FrameType.Resize, encodeResize(cols, rows));
      },
      tap: (on) => {
        if (req.log) send(FrameType.Tap, Uint8Array.of(on ? 1 : 0));
      },
      signal: (name) => {
        const sig = name.replace(/^SIG/i, '');
        send(FrameType.Signal, Buffer.from(sig, 'utf8'));
        // A KILLed process ends at once unless the agent is not there to see it: then it is given up.
        if (sig.toUpperCase() === 'KILL' && !state.exited && !state.timer) {
          state.timer = this.timing.clock.setTimeout(() => this.giveUp(pid, state), this.timing.timeoutMs);
        }
      },
    };
  }

  /**
   * Ends process `pid` on the host's side without the agent: exit 137 (after `note` on its stderr, if given), its
   * later frames dropped, and a KILL sent so that an agent that comes back ends it too.
   */
  private giveUp(pid: number, state: ProcState, note?: string): void {
    if (state.exited) return;
    state.exited = true;
    if (state.timer) this.timing.clock.clearTimeout(state.timer);
    if (this.procs.get(pid) === state) this.procs.delete(pid);
    this.sendFrame(FrameType.Signal, pid, Buffer.from('KILL', 'utf8'));
    if (note) state.io.stderr(new TextEncoder().encode(note));
    state.resolveExit(137);
  }

  /**
   * Opens a TCP connection to `host:port` as seen inside the sprite (its own network namespace). Rejects with an
   * Error whose `code` is the dial error (`ECONNREFUSED` when nothing listens).
   * @see docs/wire-reference.md §6.1
   */
  async connect(host: string, port: number): Promise<Duplex> {
    const id = this.nextRelay++;
    const stream = new RelayStream(this, id);
    this.relays.set(id, stream);
    try {
      await this.call({ op: 'connect', relay: id, host, port });
    } catch (err) {
      this.relays.delete(id);
      throw err;
    }
    return stream;
  }

  /** The TCP ports listening inside the sprite (from /proc/net/tcp{,6}), with the owning pid when known. */
  async listeningPorts(): Promise<ListeningPort[]> {
    return (await this.call({ op: 'ports' })).value as ListeningPort[];
  }

  /**
   * Reports changes at or below `path` (recursive, or the path and its direct children) in batches until the
   * returned function is called. A path that does not exist yet is watched for. `listener` must not throw.
   */
  watch(path: string, opts: { recursive: boolean }, listener: (changes: VfsChange[]) => void): () => void {
    const id = this.nextWatch++;
    this.watches.set(id, listener);
    this.call({ op: 'watch', watch: id, path, recursive: opts.recursive }).catch(() => this.watches.delete(id));
    return () => {
      if (!this.watches.delete(id)) return;
      this.call({ op: 'unwatch', watch: id }).catch(() => undefined);
    };
  }

  /**
   * Starts the egress gate's listeners inside the sprite: TCP `proxyPort` and UDP `dnsPort` on 127.0.0.1; their
   * connections arrive as ACCEPTs (`egress-proxy`, `egress-dns`). Rejects with the bind error. @see src/agent/egress.ts
   */
  async startEgress(proxyPort: number, dnsPort: number): Promise<void> {
    await this.call({ op: 'egress', proxyPort, dnsPort });
  }

  /** KILLs every process the agent started (in the sandbox: every process of the sprite); resolves when reaped. */
  async killAll(): Promise<void> {
    await this.call({ op: 'killAll' });
  }

  /** Bytes and regular files of the sprite's writable tree (read-only mounts, /proc, /sys, /dev excluded). */
  async usage(): Promise<{ bytes: number; files: number }> {
    return (await this.call({ op: 'usage' })).value as { bytes: number; files: number };
  }

  /** Closes the connection (processes in the sprite keep running; `closed` resolves). */
  close(): void {
    this.socket.destroy();
    this.onLost();
  }

  private onLost(): void {
    if (this.lost) return;
    this.lost = true;
    for (const c of this.calls.values()) {
      this.timing.clock.clearTimeout(c.timer);
      c.reject(lostError());
    }
    this.calls.clear();
    this.expired.clear();
    for (const p of this.procs.values()) {
      if (p.timer) this.timing.clock.clearTimeout(p.timer);
      p.exited = true;
      p.resolveExit(137);
    }
    this.procs.clear();
    for (const r of [...this.relays.values()]) r.onReset('agent connection lost');
    this.relays.clear();
    this.accepted = 0;
    this.watches.clear();
    for (const w of this.drainWaiters.splice(0)) w();
    this.resolveClosed();
  }

  private onFrame(type: FrameType, ch: number, payload: Buffer): void {
    if (!agentMaySend(type)) return this.violate(hostOnly(type));
    switch (type) {
      case FrameType.Reply: {
        const pending = this.calls.get(ch);
        // A reply after the call's deadline: the caller has its error already.
        if (!pending && this.expired.delete(ch)) return;
        if (!pending) return this.violate(`the agent replied to call ${ch}, which is not pending`);
        this.calls.delete(ch);
        this.timing.clock.clearTimeout(pending.timer);
        let reply: ReplyJson;
        let tail: Buffer;
        try {
          const env = decodeEnvelope(payload);
          reply = env.json as ReplyJson;
          tail = env.tail;
          if (!reply || typeof reply !== 'object' || (!reply.ok && (!reply.error || typeof reply.error !== 'object'))) throw new Error('not a reply');
        } catch (err) {
          pending.reject(lostError());
          return this.violate(`the agent's reply to call ${ch} is malformed: ${(err as Error).message}`);
        }
        if (reply.ok) pending.resolve({ value: reply.value, tail });
        else pending.reject(toError(reply.error, pending.fsOp));
        return;
      }
      case FrameType.Stdout:
      case FrameType.Stderr: {
        const p = this.procs.get(ch);
        if (!p || p.exited) return;
        const bytes = new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
        if (type === FrameType.Stdout) p.io.stdout(bytes);
        else p.io.stderr(bytes);
        return;
      }
      case FrameType.Started: {
        const p = this.procs.get(ch);
        if (!p || p.exited) return;
        try {
          const pid = Number((JSON.parse(payload.toString('utf8')) as { pid: number }).pid);
          if (Number.isInteger(pid) && pid > 0) p.osPid = pid;
        } catch {
          // a malformed STARTED only leaves the id unknown
        }
        return;
      }
      case FrameType.Exit: {
        const p = this.procs.get(ch);
        if (!p) return;
        this.procs.delete(ch);
        p.exited = true;
        if (p.timer) this.timing.clock.clearTimeout(p.timer);
        let code = 1;
        try {
          code = Number((JSON.parse(payload.toString('utf8')) as { code: number }).code);
        } catch {
          // a malformed exit still ends the process
        }
        p.resolveExit(Number.isInteger(code) && code >= 0 && code <= 255 ? code : 1);
        return;
      }
      case FrameType.Data:
        this.relays.get(ch)?.onData(payload);
        return;
      case FrameType.End:
        this.relays.get(ch)?.onEnd();
        return;
      case FrameType.Reset:
        this.relays.get(ch)?.onReset(payload.toString('utf8'));
        return;
      case FrameType.Pause:
        this.relays.get(ch)?.onPause();
        return;
      case FrameType.Resume:
        this.relays.get(ch)?.onResume();
        return;
      case FrameType.Accept: {
        if (ch < FIRST_ACCEPT_ID) return this.violate(`the agent accepted relay ${ch}, an id of the host's`);
        if (this.relays.has(ch)) return this.violate(`the agent accepted relay ${ch}, which is open`);
        if (!this.onAccept || this.accepted >= this.bounds.acceptedRelays) return void this.sendFrame(FrameType.Reset, ch);
        const stream = new RelayStream(this, ch);
        this.relays.set(ch, stream);
        this.accepted++;
        let listener = 'api';
        try {
          const l = (JSON.parse(payload.toString('utf8')) as { listener?: unknown }).listener;
          if (typeof l === 'string') listener = l;
        } catch {
          // an ACCEPT without a readable payload is an in-sprite API connection (protocol 1's only listener)
        }
        try {
          this.onAccept(stream, listener);
        } catch {
          stream.destroy();
        }
        return;
      }
      case FrameType.Event: {
        const listener = this.watches.get(ch);
        if (!listener) return;
        try {
          listener(JSON.parse(payload.toString('utf8')) as VfsChange[]);
        } catch {
          // a listener must not throw; a malformed batch is dropped
        }
        return;
      }
      default:
        return;
    }
  }
}
