/**
 * The services of one sprite: definitions, the state machine (`stopped | starting | running | stopping |
 * failed`), `needs` order, restart with backoff, sticky stop, signals, reading logs and live events. Commands run on
 * the sprite's Machine, like exec; the machine writes their output to the log inside the sprite (ExecRequest `log`),
 * and hands it to spritzer only while someone listens (`tap`), so a chatty service costs its own sprite. It knows no HTTP: it throws `ModelError`s and emits
 * camelCase events; NDJSON, `duration` and the wire field names belong to the routes.
 * @see docs/wire-reference.md §9
 */
import type { Clock, TimerHandle } from '../core/clock.ts';
import type { ExecProcess } from '../machines/port.ts';
import type { Machine } from '../machines/port.ts';
import { ModelError } from '../core/errors.ts';
import { VfsError } from '../machines/port.ts';
import { normalizeSignalName } from '../../protocol/signals.ts';
import { findNeedsCycle, startOrder } from './service-graph.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { LineSplitter, STDERR_PREFIX } from '../../protocol/service-log.ts';

/** Bytes of a service's log one reply (`GET …/logs`) reads at most: the log's last ones. */
export const LOG_REPLY_MAX_BYTES = 4 * 1024 * 1024;

/** Lines of a service's log one reply (`GET …/logs`) shows at most: the log's last ones. */
export const LOG_REPLY_MAX_LINES = 10_000;

/** Directory of the service logs inside the sprite. */
export const SERVICE_LOG_DIR = '/.sprite/logs/services';
/** How long `stop` waits after TERM before KILL, unless told otherwise (§9.2: stop `timeout` default 10s). */
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;
/**
 * First restart delay after a service's command exits; it doubles per consecutive exit.
 * @deviation the real runtime restarts crashed services (concepts/services.mdx) but does not document its
 *   delays; spritzer uses 1 s doubling to 30 s.
 */
export const RESTART_BACKOFF_INITIAL_MS = 1_000;
/** Longest restart delay. */
export const RESTART_BACKOFF_MAX_MS = 30_000;
/** A run at least this long resets the backoff to its initial delay. */
export const BACKOFF_RESET_AFTER_MS = 30_000;
/** How long `signal` with TERM or KILL waits for the process to go (§9.2: "SRV waits up to 10 s"). */
export const SIGNAL_WAIT_MS = 10_000;
/** Working directory of a service without `dir`. */
export const DEFAULT_SERVICE_DIR = '/home/sprite';
/** Base environment of a service command; a definition's `env` is added on top (§9.1). */
export const DEFAULT_SERVICE_ENV: Readonly<Record<string, string>> = Object.freeze({
  HOME: '/home/sprite',
  USER: 'sprite',
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
});

/** Service names: a letter or digit, then letters, digits, `.`, `_`, `-` (they become log file names). */
export const SERVICE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** What a client sends to create or update a service (camelCase; the routes map `http_port`/`httpPort`). */
export interface ServiceInput {
  cmd?: string;
  args?: string[];
  needs?: string[];
  httpPort?: number | null;
  env?: Record<string, string>;
  dir?: string;
}

/** A validated service definition. @see docs/wire-reference.md §9.1 */
export interface ServiceDefinition {
  name: string;
  /** Executable only. */
  cmd: string;
  args: string[];
  /** Services started before this one, in this order. */
  needs: string[];
  httpPort: number | null;
  /** Added to the base environment. */
  env: Record<string, string>;
  /** Working directory; `DEFAULT_SERVICE_DIR` when absent. */
  dir?: string;
}

/** A service's status. @see docs/wire-reference.md §9.1 `state.status` */
export type ServiceStatus = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed';

/**
 * A service's state; times are epoch milliseconds (the routes format them, ≤ 6 fractional digits).
 * `starting` = its command exited and a restart is scheduled at `nextRestartAt`; `failed` = the engine could not
 * start the command (also retried at `nextRestartAt`). `error` says why (`exited with code 1`).
 * @see docs/wire-reference.md §9.1
 */
export interface ServiceState {
  name: string;
  status: ServiceStatus;
  pid?: number;
  startedAt?: number;
  restartCount: number;
  nextRestartAt?: number;
  error?: string;
}

/** A service with its state, as `get`/`list` return it. */
export type Service = ServiceDefinition & { state: ServiceState };

/** Paths of a service's logs: one combined file, stderr lines prefixed `[stderr] ` (§9.3 `log_files`). */
export interface ServiceLogFiles {
  combined: string;
  stdout: string;
  stderr: string;
}

/** Event types of a service stream. @see docs/wire-reference.md §9.3 */
export type ServiceEventType = 'started' | 'stdout' | 'stderr' | 'exit' | 'error' | 'stopping' | 'stopped' | 'complete';

/**
 * One service event (camelCase form of the §9.3 NDJSON line). `timestamp` is integer epoch ms; `data` is a line
 * of output without its newline, or a message; `exitCode` on `exit`/`stopped`; `logFiles` on `complete`.
 */
export interface ServiceEvent {
  type: ServiceEventType;
  timestamp: number;
  data?: string;
  exitCode?: number;
  logFiles?: ServiceLogFiles;
}

/** Receives the events of one service. */
export type ServiceListener = (event: ServiceEvent) => void;

/** Dependencies of a `ServiceManager`. */
export interface ServiceManagerDeps {
  clock: Clock;
  /** The sprite's machine: services run their command on it and write their logs to its disk. */
  machine: Machine;
  /** Called when a service starts or writes output (the sprite's activity). */
  onActivity?: () => void;
  /** Base environment; defaults to `DEFAULT_SERVICE_ENV`. */
  baseEnv?: Record<string, string>;
  /** Services per sprite and entries per `needs` (default DEFAULT_LIMITS; docs/limits.md). */
  limits?: Pick<Limits, 'servicesMax' | 'serviceNeedsMax' | 'serviceDefinitionsMaxBytes'>;
}

/** The log file of service `name`. */
export function serviceLogPath(name: string): string {
  return `${SERVICE_LOG_DIR}/${name}.log`;
}

/** `log_files` of service `name`: `combined`, `stdout` and `stderr` all name the one `.log` file (§9.3). */
export function logFiles(name: string): ServiceLogFiles {
  const path = serviceLogPath(name);
  return { combined: path, stdout: path, stderr: path };
}

/** One running command of a service. */
interface Run {
  process: ExecProcess;
  startedAt: number;
  stdout: LineSplitter;
  stderr: LineSplitter;
  /** Set once the manager ends this run on purpose (stop, restart, shutdown): its exit is no crash. */
  ending: boolean;
  killTimer?: TimerHandle;
  /** Resolves with the exit code once the exit has been handled. */
  ended: Promise<number>;
  markEnded: (code: number) => void;
}

/** Everything the manager keeps per service. */
interface ServiceRecord {
  def: ServiceDefinition;
  status: ServiceStatus;
  run?: Run;
  startedAt?: number;
  restartCount: number;
  nextRestartAt?: number;
  error?: string;
  /** Desired state: up after put/start/restart, down after stop (sticky). */
  wanted: boolean;
  /** Consecutive exits, for the backoff. */
  crashes: number;
  restartTimer?: TimerHandle;
}

/**
 * The services of one sprite. Lifecycle methods validate synchronously (throwing `ModelError` before anything
 * happens) and emit events synchronously while they act, so a caller subscribes first, then calls. Shaped as a
 * sprite addon (`busy`, `afterRestore`, `shutdown`).
 */
export class ServiceManager {
  private readonly records = new Map<string, ServiceRecord>();
  private readonly listeners = new Map<string, Set<ServiceListener>>();
  private closed = false;
  /** Services meant to run when `suspend` was called, until the reboot's `restoreFromDefinitions`. */
  private suspended?: Set<ServiceRecord>;

  constructor(private readonly deps: ServiceManagerDeps) {}

  /**
   * Creates or updates service `name` and starts it after its needs (a running service is stopped first, then
   * started with the new definition). Resolves once it has been started.
   * @throws ModelError `service_invalid` (bad name, missing `cmd`, bad field types, unknown need, `needs` cycle, bad
   *   port); `service_conflict` when another service already has an HTTP port.
   * @see docs/wire-reference.md §9.2 (`PUT /services/{svc}`)
   */
  put(name: string, input: ServiceInput): Promise<void> {
    const def = this.validate(name, input);
    let rec = this.records.get(name);
    if (!rec) {
      rec = { def, status: 'stopped', restartCount: 0, wanted: false, crashes: 0 };
      this.records.set(name, rec);
    } else {
      rec.def = def;
    }
    const target = rec;
    if (isActive(target)) return this.end(target, DEFAULT_STOP_TIMEOUT_MS).then(() => this.startAgain(target));
    this.startWithNeeds(target);
    return Promise.resolve();
  }

  /** A service with its state. @throws ModelError `service_not_found`. @see docs/wire-reference.md §9.2 */
  get(name: string): Service {
    return view(this.require(name));
  }

  /** Every service with its state, ordered by name. @see docs/wire-reference.md §9.2 (a bare array on the wire) */
  list(): Service[] {
    return [...this.records.keys()].sort().map((n) => view(this.records.get(n)!));
  }

  /**
   * Starts a service after its needs (needs that are not running start first, in `needs` order). A restart
   * pending after an exit happens at once.
   * @throws ModelError `service_not_found`; `service_conflict` when it is already running or stopping (SRV's 409
   *   "already running").
   * @see docs/wire-reference.md §9.2 (`POST …/start`)
   */
  start(name: string): void {
    const rec = this.require(name);
    if (rec.run) throw new ModelError('service_conflict', `service ${name} is already running`);
    this.startWithNeeds(rec);
  }

  /**
   * Stops a service: emits `stopping`, sends TERM, KILL after `timeoutMs`, then `stopped` with the exit code.
   * Sticky: no restart until `start`/`restart`/`put`. A service waiting for a restart just stops waiting.
   * Resolves with the exit code, or null when no command was running. Stopping a service already stopping
   * joins that stop.
   * @throws ModelError `service_not_found`; `service_not_running` when it is stopped.
   * @see docs/wire-reference.md §9.2 (`POST …/stop?timeout=`, 409 not running), §9.3
   */
  stop(name: string, timeoutMs: number = DEFAULT_STOP_TIMEOUT_MS): Promise<number | null> {
    const rec = this.require(name);
    if (!isActive(rec)) throw new ModelError('service_not_running', `service ${name} is not running`);
    rec.wanted = false;
    return this.end(rec, timeoutMs);
  }

  /**
   * Stops the service if it is active (default timeout), then starts it after its needs. Resolves once started.
   * @throws ModelError `service_not_found`.
   * @see docs/wire-reference.md §9.2 (`POST …/restart`: stop then start events)
   */
  restart(name: string): Promise<void> {
    const rec = this.require(name);
    if (!isActive(rec)) {
      this.startWithNeeds(rec);
      return Promise.resolve();
    }
    return this.end(rec, DEFAULT_STOP_TIMEOUT_MS).then(() => this.startAgain(rec));
  }

  /**
   * Sends a signal to a running service's command. The command dying of it counts as an exit like any other:
   * the service restarts with backoff and `restartCount` grows. For TERM and KILL it resolves once the command
   * has exited or after `SIGNAL_WAIT_MS`; for other signals at once.
   * @throws ModelError `service_not_found`; `invalid` for an unknown signal (any case, `SIG` prefix optional);
   *   `service_not_running` when no command runs.
   * @see docs/wire-reference.md §9.2 (`POST …/services/signal`), concepts/services.mdx (TERM/KILL count as a crash)
   */
  signal(name: string, signal: string): Promise<void> {
    const rec = this.require(name);
    const sig = normalizeSignalName(signal);
    if (!sig) throw new ModelError('invalid', `invalid signal: ${signal}`);
    const run = rec.run;
    if (!run || rec.status === 'stopping') throw new ModelError('service_not_running', `service ${name} is not running`);
    run.process.signal(sig);
    if (sig !== 'TERM' && sig !== 'KILL') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = this.deps.clock.setTimeout(resolve, SIGNAL_WAIT_MS);
      void run.ended.then(() => {
        this.deps.clock.clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Deletes a service definition; its log file stays.
   * @throws ModelError `service_not_found`; `service_conflict` while it is active (running, stopping or waiting for
   *   a restart) or while another service needs it.
   * @see docs/wire-reference.md §9.2 (`DELETE` → 204; 409), concepts/services.mdx (delete keeps the log)
   */
  delete(name: string): void {
    const rec = this.require(name);
    if (isActive(rec)) throw new ModelError('service_conflict', `service ${name} is running`);
    const dependent = [...this.records.values()].find((r) => r.def.needs.includes(name));
    if (dependent) throw new ModelError('service_conflict', `service ${name} is needed by ${dependent.def.name}`);
    this.records.delete(name);
  }

  /**
   * The service's log as `stdout`/`stderr` events (one per line, `[stderr] ` prefix removed), the last `lines`
   * lines when given (all otherwise), stamped now. A reply holds at most the log's last LOG_REPLY_MAX_BYTES and
   * LOG_REPLY_MAX_LINES lines, read without reading the rest of the file (the log is the sprite's file: its code
   * can make it as large as its disk); when more was asked for, the first event says how much is not shown.
   * @deviation the log file keeps no times, so replayed lines carry the time of the request, not of the output.
   * @deviation a reply shows at most the last 4 MiB and 10,000 lines of the log (the file itself has all of it).
   * @throws ModelError `service_not_found`.
   * @see docs/wire-reference.md §9.2 (`GET …/logs?lines=`), §9.3
   */
  async logs(name: string, lines?: number): Promise<ServiceEvent[]> {
    this.require(name);
    const { fs } = this.deps.machine;
    const path = serviceLogPath(name);
    let bytes: Uint8Array;
    let skipped: number;
    try {
      const { size } = await fs.stat(path);
      skipped = Math.max(0, size - LOG_REPLY_MAX_BYTES);
      bytes = await fs.readFile(path, { offset: skipped, length: size - skipped });
    } catch (e) {
      if (e instanceof VfsError) return [];
      throw e;
    }
    if (skipped > 0) {
      // The window starts inside a line: that line is not shown either.
      const cut = bytes.indexOf(0x0a) + 1;
      skipped += cut;
      bytes = bytes.subarray(cut);
    }
    const all = new TextDecoder().decode(bytes).split('\n');
    if (all[all.length - 1] === '') all.pop();
    const wanted = lines === undefined ? Infinity : Math.max(0, lines);
    const shown = Math.min(wanted, LOG_REPLY_MAX_LINES);
    const picked = shown >= all.length ? all : shown === 0 ? [] : all.slice(-shown);
    const timestamp = this.deps.clock.now();
    const events: ServiceEvent[] = picked.map((line) =>
      line.startsWith(STDERR_PREFIX)
        ? { type: 'stderr', timestamp, data: line.slice(STDERR_PREFIX.length) }
        : { type: 'stdout', timestamp, data: line },
    );
    const notShown = all.length - picked.length;
    if (wanted > picked.length && (skipped > 0 || notShown > 0)) {
      // Lines are counted only in the window read: the skipped bytes' lines are unknown (never read).
      const what = skipped > 0 && notShown > 0 ? `${skipped} bytes of the log and the ${notShown} lines after them` : skipped > 0 ? `${skipped} bytes of the log` : `${notShown} lines of the log`;
      events.unshift({ type: 'stdout', timestamp, data: `[spritzer] the first ${what} are not shown (a reply holds at most its last ${LOG_REPLY_MAX_LINES} lines and ${LOG_REPLY_MAX_BYTES} bytes); the whole log is ${path}` });
    }
    return events;
  }

  /** `log_files` of a service (see the module-level `logFiles`). */
  logFiles(name: string): ServiceLogFiles {
    return logFiles(name);
  }

  /** The `complete` event that ends a stream of service `name`, stamped now, with its `logFiles`. */
  completeEvent(name: string): ServiceEvent {
    return { type: 'complete', timestamp: this.deps.clock.now(), logFiles: logFiles(name) };
  }

  /**
   * Subscribes to the events of service `name` (also before it exists, so a caller can subscribe before
   * `put`). Returns the unsubscribe function.
   */
  subscribe(name: string, listener: ServiceListener): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    this.records.get(name)?.run?.process.tap(true);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(name) === set) {
        this.listeners.delete(name);
        this.records.get(name)?.run?.process.tap(false);
      }
    };
  }

  /**
   * Ends every service for good: pending restarts are cancelled, running commands get KILL, and no service
   * restarts afterwards. Resolves once every command has exited (sprite delete, server exit).
   */
  shutdown(): Promise<void> {
    this.closed = true;
    return this.endAll().then(() => undefined);
  }

  /**
   * Before the machine reboots (restore, restart): ends every command (KILL, no restart) and remembers which
   * services were meant to run. Resolves once all have exited.
   */
  async suspend(): Promise<void> {
    this.suspended ??= new Set([...this.records.values()].filter((r) => r.wanted));
    await this.endAll();
  }

  /**
   * After a checkpoint restore or a reboot: ends what still runs, then starts again, in `needs` order, every
   * service that was meant to run (not stopped by the user) when `suspend` was called (or now, without one).
   * Backoff starts over; `restartCount` stays.
   * @see docs/wire-reference.md §7.5 ("services come back")
   */
  async restoreFromDefinitions(): Promise<void> {
    const wanted = this.suspended ?? new Set([...this.records.values()].filter((r) => r.wanted));
    this.suspended = undefined;
    await this.endAll();
    if (this.closed) return;
    const order = this.orderWithNeeds([...this.records.keys()].sort().map((n) => this.records.get(n)!));
    for (const rec of order) {
      if (wanted.has(rec) && !rec.run) {
        rec.wanted = true;
        rec.crashes = 0;
        this.launch(rec);
      }
    }
  }

  /**
   * Persistence hook (src/server/store): records a service saved before a restart, stopped, without validating
   * or starting it (`start` does); `restartCount` as saved.
   */
  restoreDefinition(def: ServiceDefinition, restartCount: number): void {
    this.records.set(def.name, { def, status: 'stopped', restartCount, wanted: false, crashes: 0 });
  }

  /** After a reboot of the machine: services come back from their definitions (see `restoreFromDefinitions`). */
  afterRestore(): void {
    void this.restoreFromDefinitions();
  }

  /**
   * Sprite-addon hook: services never keep the sprite awake by themselves (concepts/services.mdx: "unless
   * serving traffic"); their starts and output count as activity through `onActivity`.
   */
  busy(): boolean {
    return false;
  }

  // ---- internals ----

  private require(name: string): ServiceRecord {
    const rec = this.records.get(name);
    if (!rec) throw new ModelError('service_not_found', `service not found: ${name}`);
    return rec;
  }

  private validate(name: string, input: ServiceInput): ServiceDefinition {
    const bad = (msg: string) => new ModelError('service_invalid', msg);
    if (typeof name !== 'string' || !SERVICE_NAME_PATTERN.test(name)) throw bad(`invalid service name: ${JSON.stringify(name)}`);
    if (typeof input !== 'object' || input === null) throw bad('invalid service definition');
    const { cmd, args = [], needs = [], httpPort = null, env = {}, dir } = input;
    if (typeof cmd !== 'string' || cmd.trim() === '') throw bad('cmd is required');
    if (!isStringArray(args)) throw bad('args must be an array of strings');
    if (!isStringArray(needs)) throw bad('needs must be an array of strings');
    const { servicesMax, serviceNeedsMax, serviceDefinitionsMaxBytes } = this.deps.limits ?? DEFAULT_LIMITS;
    if (needs.length > serviceNeedsMax) throw bad(`too many needs: ${needs.length} (at most ${serviceNeedsMax})`);
    if (!this.records.has(name) && this.records.size >= servicesMax) throw bad(`too many services: at most ${servicesMax} per sprite`);
    if (typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string')) {
      throw bad('env must be an object of strings');
    }
    if (dir !== undefined && (typeof dir !== 'string' || !dir.startsWith('/'))) throw bad('dir must be an absolute path');
    if (httpPort !== null && !(Number.isInteger(httpPort) && httpPort >= 1 && httpPort <= 65535)) {
      throw bad(`invalid http_port: ${JSON.stringify(httpPort)}`);
    }
    const ownSize = definitionBytes({ cmd, args, needs, env, dir });
    const others = [...this.records.values()].reduce((sum, r) => sum + (r.def.name === name ? 0 : definitionBytes(r.def)), 0);
    if (others + ownSize > serviceDefinitionsMaxBytes) {
      throw bad(`service definitions too large: ${others + ownSize} bytes with this one, at most ${serviceDefinitionsMaxBytes} per sprite`);
    }
    const uniqueNeeds = [...new Set(needs)];
    for (const need of uniqueNeeds) {
      if (need === name) throw bad(`dependency cycle: ${name} -> ${name}`);
      if (!this.records.has(need)) throw bad(`unknown dependency: ${need}`);
    }
    const cycle = this.findCycle(name, uniqueNeeds);
    if (cycle) throw bad(`dependency cycle: ${cycle.join(' -> ')}`);
    if (httpPort !== null) {
      const other = [...this.records.values()].find((r) => r.def.name !== name && r.def.httpPort !== null);
      if (other) throw new ModelError('service_conflict', 'another service already has an HTTP port configured');
    }
    return { name, cmd, args: [...args], needs: uniqueNeeds, httpPort, env: { ...env }, ...(dir !== undefined ? { dir } : {}) };
  }

  /** A path `name -> … -> name` through existing definitions if `name` had `needs`, or null (linear, `service-graph.ts`). */
  private findCycle(name: string, needs: string[]): string[] | null {
    return findNeedsCycle(name, needs, (n) => this.records.get(n)?.def.needs);
  }

  /** `roots` and everything they need, needs first (depth first, in `needs` order), each once (linear, `service-graph.ts`). */
  private orderWithNeeds(roots: ServiceRecord[]): ServiceRecord[] {
    const order = startOrder(roots.map((r) => r.def.name), (n) => this.records.get(n)?.def.needs);
    return order.map((n) => this.records.get(n)!);
  }

  private startWithNeeds(target: ServiceRecord): void {
    for (const rec of this.orderWithNeeds([target])) {
      rec.wanted = true;
      if (rec.run) continue;
      if (rec === target) rec.crashes = 0;
      this.launch(rec);
    }
  }

  /** After an internal stop: start again unless the service was deleted or the manager closed meanwhile. */
  private startAgain(rec: ServiceRecord): void {
    if (this.closed || this.records.get(rec.def.name) !== rec || rec.run) return;
    this.startWithNeeds(rec);
  }

  /** Runs the service's command now. */
  private launch(rec: ServiceRecord): void {
    this.cancelRestart(rec);
    const { clock, machine } = this.deps;
    const { def } = rec;
    let run: Run | undefined;
    const io = {
      stdout: (data: Uint8Array) => run && this.output(rec, 'stdout', run.stdout.push(data)),
      stderr: (data: Uint8Array) => run && this.output(rec, 'stderr', run.stderr.push(data)),
    };
    let process: ExecProcess;
    try {
      process = machine.spawn(
        {
          argv: [def.cmd, ...def.args],
          env: { ...(this.deps.baseEnv ?? DEFAULT_SERVICE_ENV), ...def.env },
          dir: def.dir ?? DEFAULT_SERVICE_DIR,
          tty: false,
          rows: 24,
          cols: 80,
          // The machine logs the output inside the sprite; it comes here only while someone listens.
          log: { path: serviceLogPath(def.name), tap: this.listeners.has(def.name) },
          // Services run as the unprivileged sprite user, without an exec session's file capabilities.
          service: true,
        },
        io,
        { stdin: false },
      );
    } catch (e) {
      const message = `Failed to start service: ${e instanceof Error ? e.message : String(e)}`;
      rec.status = 'failed';
      rec.error = message;
      this.emit(rec, { type: 'error', data: message });
      this.emit(rec, { type: 'exit', exitCode: 1 });
      this.scheduleRestart(rec);
      return;
    }
    let markEnded!: (code: number) => void;
    const ended = new Promise<number>((resolve) => (markEnded = resolve));
    run = {
      process,
      startedAt: clock.now(),
      stdout: new LineSplitter(),
      stderr: new LineSplitter(),
      ending: false,
      ended,
      markEnded,
    };
    const thisRun = run;
    rec.run = run;
    rec.status = 'running';
    rec.startedAt = run.startedAt;
    rec.error = undefined;
    this.emit(rec, { type: 'started', data: `Service ${def.name} started` });
    this.deps.onActivity?.();
    void process.exit.then((code) => this.onExit(rec, thisRun, code));
  }

  private onExit(rec: ServiceRecord, run: Run, code: number): void {
    this.output(rec, 'stdout', run.stdout.flush());
    this.output(rec, 'stderr', run.stderr.flush());
    if (run.killTimer) this.deps.clock.clearTimeout(run.killTimer);
    if (rec.run === run) rec.run = undefined;
    if (run.ending || this.closed || !rec.wanted) {
      rec.status = 'stopped';
      rec.startedAt = undefined;
      this.emit(rec, { type: 'stopped', exitCode: code });
    } else {
      rec.error = `exited with code ${code}`;
      this.emit(rec, { type: 'exit', exitCode: code });
      if (this.deps.clock.now() - run.startedAt >= BACKOFF_RESET_AFTER_MS) rec.crashes = 0;
      rec.status = 'starting';
      this.scheduleRestart(rec);
    }
    run.markEnded(code);
  }

  /** Schedules the next automatic start after the backoff delay (1 s, 2 s, 4 s, … capped at 30 s). */
  private scheduleRestart(rec: ServiceRecord): void {
    if (this.closed) return;
    const delay = Math.min(RESTART_BACKOFF_INITIAL_MS * 2 ** rec.crashes, RESTART_BACKOFF_MAX_MS);
    rec.crashes++;
    rec.nextRestartAt = this.deps.clock.now() + delay;
    rec.restartTimer = this.deps.clock.setTimeout(() => {
      rec.restartTimer = undefined;
      rec.restartCount++;
      this.launch(rec);
    }, delay);
  }

  private cancelRestart(rec: ServiceRecord): void {
    if (rec.restartTimer) this.deps.clock.clearTimeout(rec.restartTimer);
    rec.restartTimer = undefined;
    rec.nextRestartAt = undefined;
  }

  /**
   * Ends an active service on purpose: `stopping`, then TERM and KILL after `timeoutMs` (or KILL at once for
   * `'kill'`), then `stopped`. A service only waiting for a restart stops at once (null exit code).
   */
  private end(rec: ServiceRecord, timeoutMs: number | 'kill'): Promise<number | null> {
    const run = rec.run;
    if (run?.ending) return run.ended;
    if (!run) {
      const wasWaiting = rec.restartTimer !== undefined;
      this.cancelRestart(rec);
      if (wasWaiting) {
        rec.status = 'stopped';
        this.emit(rec, { type: 'stopping' });
        this.emit(rec, { type: 'stopped' });
      }
      return Promise.resolve(null);
    }
    run.ending = true;
    rec.status = 'stopping';
    this.emit(rec, { type: 'stopping' });
    if (timeoutMs === 'kill') {
      run.process.signal('KILL');
    } else {
      run.process.signal('TERM');
      run.killTimer = this.deps.clock.setTimeout(() => run.process.signal('KILL'), timeoutMs);
    }
    return run.ended;
  }

  /** Ends every command with KILL and cancels every pending restart; resolves when all have exited. */
  private endAll(): Promise<Array<number | null>> {
    return Promise.all([...this.records.values()].map((rec) => this.end(rec, 'kill')));
  }

  /** Emits one event per line of the output the machine handed over (it logged it already). */
  private output(rec: ServiceRecord, stream: 'stdout' | 'stderr', lines: string[]): void {
    if (lines.length === 0) return;
    for (const line of lines) this.emit(rec, { type: stream, data: line });
    this.deps.onActivity?.();
  }

  private emit(rec: ServiceRecord, event: Omit<ServiceEvent, 'timestamp'>): void {
    const set = this.listeners.get(rec.def.name);
    if (!set) return;
    const full: ServiceEvent = { ...event, timestamp: this.deps.clock.now() } as ServiceEvent;
    for (const listener of [...set]) listener(full);
  }
}

/** Whether a service has a command running or stopping, or a restart pending. */
function isActive(rec: ServiceRecord): boolean {
  return rec.run !== undefined || rec.restartTimer !== undefined;
}

/**
 * A service definition's size as `execve` would count its command line: every string of `cmd`, `args`, `needs`,
 * `env` (`KEY=value`) and `dir`, in UTF-8 bytes plus a terminating NUL.
 */
function definitionBytes(def: Pick<ServiceDefinition, 'cmd' | 'args' | 'needs' | 'env'> & { dir?: string }): number {
  const strings = [def.cmd, ...def.args, ...def.needs, ...Object.entries(def.env).map(([k, v]) => `${k}=${v}`), ...(def.dir === undefined ? [] : [def.dir])];
  return strings.reduce((sum, s) => sum + Buffer.byteLength(s) + 1, 0);
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function view(rec: ServiceRecord): Service {
  const { def } = rec;
  const state: ServiceState = { name: def.name, status: rec.status, restartCount: rec.restartCount };
  if (rec.run) state.pid = rec.run.process.osPid ?? rec.run.process.pid;
  if (rec.startedAt !== undefined && rec.run) state.startedAt = rec.startedAt;
  if (rec.nextRestartAt !== undefined) state.nextRestartAt = rec.nextRestartAt;
  if (rec.error !== undefined) state.error = rec.error;
  return { ...def, args: [...def.args], needs: [...def.needs], env: { ...def.env }, state };
}
