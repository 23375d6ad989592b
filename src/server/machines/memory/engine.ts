/**
 * The interface of the in-memory machine's exec engines (`shell`, `interpreter`): how an engine starts a command in
 * a sprite it sees as a `SpriteContext` (its VFS, its pid counter, its in-sprite API). The process types themselves
 * are the Machine port's (port.ts); the machine (machine.ts) wraps an engine into a `Machine`.
 * @see docs/architecture.md "Machines and engines"
 */
import type { Vfs } from './vfs.ts';
import type { ProcessTable } from './processes.ts';
import type { ExecIO, ExecProcess, ExecRequest, ExecStartOptions } from '../port.ts';
import type { Duplex } from 'node:stream';

/** The sprite a command runs in, as an engine sees it. */
export interface SpriteContext {
  /** Sprite name (for hostnames and logs). */
  name: string;
  /** The sprite's live filesystem; in-memory engines read and write it directly. */
  vfs: Vfs;
  /** Allocates the next process id of this sprite (monotonic, never reused while the sprite lives). */
  allocatePid(): number;
  /**
   * The sprite's process table: what `ps` lists and `kill` reaches. A process an engine starts beside the exec's
   * own (a shell's background job) joins it, and outlives the exec that started it as on Linux; stopping,
   * restoring or destroying the sprite ends everything in it. Absent (a bare context in unit tests): such processes
   * are known only to the exec that started them.
   */
  processes?: ProcessTable;
  /** When the machine booted (epoch ms on its clock), what `uptime` counts from; absent: when the exec started. */
  bootedAt?: number;
  /**
   * Opens one connection to the sprite's in-sprite API (what `/.sprite/api.sock` is on the real engines; HTTP that
   * spritzer answers as this sprite's own API, docs/wire-reference.md §12). Absent, or undefined when nothing serves
   * it (a machine outside a server): the engine's `sprite-env` reports it cannot reach the API.
   */
  openApi?(): Duplex | undefined;
}

/** A command an engine started: the port's process without `tap`, which the machine adds (service-log.ts). */
export type EngineProcess = Omit<ExecProcess, 'tap'>;

/** An exec engine. */
export interface ExecEngine {
  /** `shell`, `interpreter`, … (the value of --exec). */
  readonly name: string;
  /** Start a command. Must not write to `io` synchronously before returning. */
  start(sprite: SpriteContext, req: ExecRequest, io: ExecIO, opts: ExecStartOptions): EngineProcess;
  /**
   * Opens a TCP connection to `host:port` as seen from inside the sprite (the proxy socket, §6.1). Engines
   * with nothing listening (the in-memory ones) leave it undefined, and the proxy answers with its dial
   * failure close. Rejects when the connection is refused.
   */
  connect?(sprite: SpriteContext, host: string, port: number): Promise<import('node:stream').Duplex>;
}
