/**
 * The exec engine interface. Every engine (shell, interpreter, later sandbox and container) implements it;
 * the WebSocket layer, HTTP exec, sessions and services sit on top and never know which engine runs.
 * It owns the shape of a running command; it does not own framing, sessions or HTTP.
 * @see docs/architecture.md "Machines and engines"
 */
import type { Vfs } from './vfs.ts';
import type { Duplex } from 'node:stream';

/** What to run. `argv[0]` is the program; `path` overrides the executable (docs/wire-reference.md §4.2). */
export interface ExecRequest {
  argv: string[];
  /** Executable to run; defaults to argv[0]. */
  path?: string;
  /** The complete environment (already merged or replaced by the caller). */
  env: Record<string, string>;
  /** Absolute working directory. */
  dir: string;
  tty: boolean;
  /** Terminal size (only meaningful with tty). */
  rows: number;
  cols: number;
}

/**
 * Where a command's output goes. The caller passes these sinks to `start()` so the relay exists before the
 * command runs: a fast command can never lose output. In TTY mode engines write everything to `stdout`.
 */
export interface ExecIO {
  stdout(data: Uint8Array): void;
  stderr(data: Uint8Array): void;
}

/** The sprite a command runs in, as an engine sees it. */
export interface SpriteContext {
  /** Sprite name (for hostnames and logs). */
  name: string;
  /** The sprite's live filesystem; in-memory engines read and write it directly. */
  vfs: Vfs;
  /** Allocates the next process id of this sprite (monotonic, never reused while the sprite lives). */
  allocatePid(): number;
  /**
   * Takes over a process that outlives the exec that started it (a `nohup cmd &` of the shell engine), so that
   * stopping, restoring or destroying the sprite ends it too. Absent: such processes end on their own only.
   */
  adopt?(proc: ExecProcess): void;
  /**
   * Opens one connection to the sprite's in-sprite API (what `/.sprite/api.sock` is on the real engines; HTTP that
   * spritzer answers as this sprite's own API, docs/wire-reference.md §12). Absent, or undefined when nothing serves
   * it (a machine outside a server): the engine's `sprite-env` reports it cannot reach the API.
   */
  openApi?(): Duplex | undefined;
}

/** A running command. */
export interface ExecProcess {
  /** Process id, unique per sprite; the session id is its decimal string. */
  readonly pid: number;
  /** Feed stdin bytes (ignored after `endStdin`). */
  writeStdin(data: Uint8Array): void;
  /** Stdin reached EOF. */
  endStdin(): void;
  /** Terminal resize (TTY only; a no-op otherwise). */
  resize(cols: number, rows: number): void;
  /** Deliver a signal by name without `SIG` prefix (`TERM`, `KILL`, `INT`, `HUP`, …). */
  signal(name: string): void;
  /** Resolves with the exit code (0–255; 128+n when killed by signal n). Never rejects. */
  readonly exit: Promise<number>;
}

/** Options every engine honours. */
export interface ExecStartOptions {
  /**
   * Whether the client will send stdin. When false the engine runs with empty stdin at once.
   * When true, an engine that needs all stdin up front (just-bash) waits for EOF or for
   * `stdinGraceMs` (`stdinWaitMs` for a script that may read stdin) without a stdin frame, whichever comes first (documented rule, see docs/fidelity.md).
   */
  stdin: boolean;
}

/** An exec engine. */
export interface ExecEngine {
  /** `shell`, `interpreter`, … (the value of --exec). */
  readonly name: string;
  /** Start a command. Must not write to `io` synchronously before returning. */
  start(sprite: SpriteContext, req: ExecRequest, io: ExecIO, opts: ExecStartOptions): ExecProcess;
  /**
   * Opens a TCP connection to `host:port` as seen from inside the sprite (the proxy socket, §6.1). Engines
   * with nothing listening (the in-memory ones) leave it undefined, and the proxy answers with its dial
   * failure close. Rejects when the connection is refused.
   */
  connect?(sprite: SpriteContext, host: string, port: number): Promise<import('node:stream').Duplex>;
}
