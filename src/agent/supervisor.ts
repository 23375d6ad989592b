/**
 * The agent's process supervisor: starts processes (`child_process.spawn`, own process group, for pipes; node-pty
 * for a TTY), streams their output as produced, feeds stdin, delivers signals to the process group, resizes
 * terminals, reports exit codes (128+n for signal n) and kills everything on request. It owns the process table;
 * it does not frame anything (the session does) and does not reap orphans: inside the sandbox bubblewrap's own
 * PID 1 does (the agent runs as PID 2), see docs/agent-protocol.md "Processes".
 * @see src/server/machines/memory/engine.ts `ExecProcess`, docs/wire-reference.md §4
 */
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants as osConstants } from 'node:os';
import * as fsp from 'node:fs/promises';
import { accessSync, constants as fsConstants, readdirSync, readFileSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { SpawnMessage } from '../protocol/agent.ts';
import { ProcessLogFile } from './service-log.ts';
import { pidsRoom } from './pids-room.ts';

/** Where a process' events go. Output chunks are Buffers the sink may keep. */
export interface ProcessSink {
  stdout(id: number, data: Buffer): void;
  stderr(id: number, data: Buffer): void;
  exit(id: number, code: number): void;
  /** Process `id` started as `pid` inside the sprite (before any of its output). */
  started(id: number, pid: number): void;
}

/** A pausable output source (a pipe or a pty), so the session can apply socket backpressure. */
interface Pausable {
  pause(): void;
  resume(): void;
}

/** The subset of node-pty's IPty that the supervisor uses (node-pty is loaded at run time, not bundled). */
interface Pty extends Pausable {
  readonly pid: number;
  onData(cb: (data: Buffer | string) => void): void;
  onExit(cb: (e: { exitCode: number; signal?: number }) => void): void;
  write(data: Buffer | string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
}
type PtyModule = { spawn(file: string, args: string[], opts: Record<string, unknown>): Pty };

interface Running {
  id: number;
  /** The OS pid (the process group id too). */
  osPid: number | undefined;
  child?: ChildProcess;
  pty?: Pty;
  sources: Pausable[];
  exited: boolean;
  /** killAll ran before the process existed: it must not start. */
  killed?: boolean;
  /** `SpawnMessage.stdinMax`: most stdin bytes that may wait for the process (in its pipe's writer or node-pty's queue). */
  stdinMax?: number;
  /** Stdin passed `stdinMax`: the process was killed, later stdin is dropped. */
  stdinOverflowed?: boolean;
  /** The service log its output goes to (`SpawnMessage.log`). */
  log?: ProcessLogFile;
  /** Whether its output goes to the host too (always, without a log). */
  tapped: boolean;
  /** Its log has too much waiting: its output is paused until the log catches up. */
  logBlocked: boolean;
  done: Promise<void>;
}

/** Options of the supervisor (injected by main; tests pass their own). */
export interface SupervisorOptions {
  /** Host directory sprite paths map under (`''` inside the sandbox). Working directories map under it. */
  root: string;
  /** Whether uid/gid of a spawn request are applied (only possible as root). */
  dropPrivileges: boolean;
  /**
   * The run-as helper (native/runas.c) that, with `dropPrivileges`, starts every process: it sets the request's
   * uid/gid and gives it the request's capabilities as ambient ones (`SpawnMessage.caps`). Unset: node sets uid/gid
   * itself and no process holds a capability.
   */
  runAs?: string;
  /**
   * How long to wait, after the process exited, for its stdout/stderr to reach EOF before reporting the exit (ms).
   * A background child that keeps the pipe open would otherwise hold the exit back for its whole life.
   */
  exitDrainMs: number;
  /** Whether `killAll` also kills every other process in the PID namespace (true only as the sandbox's PID 1 or 2). */
  sweepNamespace: boolean;
  /** Owner of the service log files and directories the agent creates (the sprite user), or null to keep its own. */
  logOwner: { uid: number; gid: number } | null;
}

/** Tasks a terminal exec takes: the process, and node-pty's thread that waits for it. */
const PTY_TASKS = 2;
/** Tasks left free beyond those, for what the sprite's own processes fork between the check and the spawn. */
const PTY_TASKS_MARGIN = 2;

/** The descriptor on which the run-as helper reports a failed step (`STEP ERRNO`); its close on exec says it ran. */
const HELPER_STATUS_FD = 3;

/**
 * What the run-as helper reported on its status pipe: undefined when the pipe closed empty (the program runs), else
 * the failed step (`exec`, `setresuid`…) and the errno's code (`ENOENT`, `EACCES`…).
 */
function helperStatus(pipe: Readable | undefined): Promise<{ step: string; code: string } | undefined> {
  if (!pipe) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    pipe.setEncoding('utf8');
    pipe.on('data', (d: string) => void (text += d));
    pipe.on('error', () => undefined);
    pipe.once('close', () => {
      const m = /^(\S+) (\d+)\n?$/.exec(text);
      if (!m) return resolve(undefined);
      const n = Number(m[2]);
      const code = Object.entries(osConstants.errno).find(([, v]) => v === n)?.[0] ?? `errno ${n}`;
      resolve({ step: m[1]!, code });
    });
  });
}

/** Why a process could not start, in Go's words for the errno (os/exec's error text; EACCES when unknown). */
function errnoText(code: string | undefined): string {
  if (code === 'EAGAIN') return 'resource temporarily unavailable';
  if (code === 'ENOMEM') return 'cannot allocate memory';
  if (code === 'E2BIG') return 'argument list too long';
  if (code === 'ENOEXEC') return 'exec format error';
  return 'permission denied';
}

/** Exit code of a process killed by `signal` (a name like `SIGTERM`, or a number): 128 + n. */
export function signalExitCode(signal: string | number): number {
  const n = typeof signal === 'number' ? signal : (osConstants.signals as Record<string, number>)[signal] ?? 0;
  return 128 + n;
}

/** The number of signal `name` (with or without `SIG`), or undefined when unknown. */
export function signalNumber(name: string): number | undefined {
  const upper = name.toUpperCase();
  const full = upper.startsWith('SIG') ? upper : `SIG${upper}`;
  return (osConstants.signals as Record<string, number>)[full];
}

/** The supervisor: one per agent. */
export class Supervisor {
  private readonly procs = new Map<number, Running>();
  private ptyModule: PtyModule | undefined;
  private paused = false;

  constructor(
    private readonly sink: ProcessSink,
    private readonly opts: SupervisorOptions,
  ) {}

  /** The number of live processes (for tests and the hello reply). */
  get liveCount(): number {
    return [...this.procs.values()].filter((p) => !p.exited).length;
  }

  /**
   * Starts process `id` (the caller's pid) as `msg` says. A working directory that is missing makes it exit 1 with
   * `chdir <dir>: no such file or directory` on stderr; an executable that cannot be found exits 127 (126 when it
   * cannot be executed). Never throws: every failure ends as output plus an exit.
   */
  spawn(id: number, msg: SpawnMessage): void {
    if (this.procs.has(id)) {
      this.sink.stderr(id, Buffer.from(`spawn: process id ${id} is in use\n`));
      this.sink.exit(id, 1);
      return;
    }
    let resolveDone!: () => void;
    const entry: Running = {
      id, osPid: undefined, sources: [], exited: false, stdinMax: msg.stdinMax, done: new Promise((r) => (resolveDone = r)),
      tapped: msg.log ? msg.log.tap === true : true, logBlocked: false,
    };
    if (msg.log && typeof msg.log.path === 'string' && msg.log.path.startsWith('/')) {
      entry.log = new ProcessLogFile(this.opts.root, msg.log.path, this.opts.logOwner, (blocked) => {
        entry.logBlocked = blocked;
        this.applyPause(entry);
      });
    }
    this.procs.set(id, entry);
    // The exit is reported once the log holds every line of the output.
    const finish = (code: number): void => {
      if (entry.exited) return;
      entry.exited = true;
      this.pending.delete(id);
      void (entry.log?.close() ?? Promise.resolve()).then(() => {
        this.sink.exit(id, code);
        this.procs.delete(id);
        resolveDone();
      });
    };
    // In TTY mode everything goes to stdout, with the terminal's line endings.
    const fail = (message: string, code: number): void => {
      if (msg.tty) this.output(entry, 'stdout', Buffer.from(message.replace(/\n/g, '\r\n')));
      else this.output(entry, 'stderr', Buffer.from(message));
      finish(code);
    };
    const dir = msg.dir || '/home/sprite';
    const hostDir = this.opts.root ? (dir === '/' ? this.opts.root : this.opts.root + dir) : dir;
    // Stdin, signal and resize frames for this id that arrive before the process exists wait in `pending`.
    this.pending.set(id, []);
    fsp.stat(hostDir).then(
      (st) => {
        if (entry.killed) return finish(signalExitCode('SIGKILL'));
        if (!st.isDirectory()) return fail(`chdir ${dir}: not a directory\n`, 1);
        if (msg.tty) this.startPty(entry, msg, hostDir, finish, fail);
        else this.startPipes(entry, msg, hostDir, finish, fail);
      },
      () => fail(`chdir ${dir}: no such file or directory\n`, 1),
    ).catch((err: unknown) => {
      this.pending.delete(id);
      if (!entry.exited) fail(`spawn: ${(err as Error).message}\n`, 1);
    });
  }

  /** Stdin/EOF/signal/resize frames that arrived while the process was still starting. */
  private readonly pending = new Map<number, Array<(r: Running) => void>>();

  private flushPending(entry: Running): void {
    const queue = this.pending.get(entry.id);
    this.pending.delete(entry.id);
    for (const op of queue ?? []) run(op, entry);
  }

  private whenStarted(id: number, op: (r: Running) => void): void {
    const queue = this.pending.get(id);
    if (queue) return void queue.push(op);
    const entry = this.procs.get(id);
    if (entry && !entry.exited) run(op, entry);
  }

  /** A chunk of output: to the process's log if it has one, and to the host unless it has a log and is not tapped. */
  private output(entry: Running, stream: 'stdout' | 'stderr', data: Buffer): void {
    entry.log?.push(stream, data);
    if (entry.tapped) this.sink[stream](entry.id, data);
  }

  /** Whether the output of `entry` is held: the host's socket is congested, or its log has too much waiting. */
  private held(entry: Running): boolean {
    return this.paused || entry.logBlocked;
  }

  private applyPause(entry: Running): void {
    for (const s of entry.sources) (this.held(entry) ? s.pause() : s.resume());
  }

  /** Whether the output of process `id` (started with a log) also goes to the host from now on. */
  tap(id: number, on: boolean): void {
    const entry = this.procs.get(id);
    if (entry?.log) entry.tapped = on;
  }

  private uidGid(msg: SpawnMessage): { uid?: number; gid?: number } {
    if (!this.opts.dropPrivileges) return {};
    return { uid: msg.uid, gid: msg.gid };
  }

  /**
   * How to start `msg`'s program: through the run-as helper (as root; it becomes msg's user with msg's capabilities
   * and execs the program, reporting a failed exec on `statusFd` when that is not -1), or directly with node
   * setting the ids.
   */
  private launchCommand(msg: SpawnMessage, statusFd: number): { file: string; args: string[]; argv0: string; ids: { uid?: number; gid?: number }; viaHelper: boolean } {
    const file = msg.path || msg.argv[0]!;
    const helper = this.opts.dropPrivileges ? this.opts.runAs : undefined;
    if (!helper) return { file, args: msg.argv.slice(1), argv0: msg.argv[0]!, ids: this.uidGid(msg), viaHelper: false };
    const caps = (msg.caps ?? []).join(',') || '-';
    const groups = (msg.groups ?? []).join(',') || '-';
    return { file: helper, args: [String(msg.uid), String(msg.gid), groups, caps, String(statusFd), file, ...msg.argv], argv0: 'spritzer-runas', ids: {}, viaHelper: true };
  }

  private startPipes(entry: Running, msg: SpawnMessage, cwd: string, finish: (code: number) => void, fail: (m: string, c: number) => void): void {
    const file = msg.path || msg.argv[0]!;
    const how = this.launchCommand(msg, HELPER_STATUS_FD);
    let child: ChildProcess;
    try {
      child = spawnChild(how.file, how.args, {
        argv0: how.argv0,
        cwd,
        env: msg.env,
        detached: true,
        stdio: [msg.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(how.viaHelper ? ['pipe' as const] : [])],
        ...how.ids,
      });
    } catch (err) {
      this.pending.delete(entry.id);
      return fail(`exec: ${JSON.stringify(file)}: ${(err as Error).message}\n`, 126);
    }
    entry.child = child;
    entry.osPid = child.pid;
    const out = child.stdout as Readable;
    const errStream = child.stderr as Readable;
    child.stdin?.on('error', () => undefined); // EPIPE when the process does not read its stdin
    // A failed exec, as node reports it ('error', no pid) or as the helper does (a line on its status pipe).
    // @deviation the message is Go's os/exec wording; real Sprites' text is UNCONFIRMED (docs/fidelity.md).
    const execFailed = (code: string | undefined): void => {
      const notFound = code === 'ENOENT';
      fail(`exec: ${JSON.stringify(file)}: ${notFound ? 'executable file not found in $PATH' : errnoText(code)}\n`, notFound ? 127 : 126);
    };
    if (child.pid === undefined) {
      // The executable could not be started (ENOENT, EACCES): 'error' follows on the next tick, and no 'exit'.
      this.pending.delete(entry.id);
      child.on('error', (err: NodeJS.ErrnoException) => execFailed(err.code));
      return;
    }
    child.on('error', () => undefined); // e.g. a kill of a process that is gone
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    // Through the helper the program runs only once its exec succeeded (the status pipe closed empty): output read
    // before that is held here (node discards what nobody reads once the process exits), then follows the start;
    // a failed exec is reported as node reports one, without a start.
    let early: Array<['stdout' | 'stderr', Buffer]> | undefined = how.viaHelper ? [] : undefined;
    entry.sources.push(out, errStream);
    if (this.held(entry)) for (const s of entry.sources) s.pause();
    out.on('data', (d: Buffer) => (early ? early.push(['stdout', d]) : this.output(entry, 'stdout', d)));
    errStream.on('data', (d: Buffer) => (early ? early.push(['stderr', d]) : this.output(entry, 'stderr', d)));
    const status = how.viaHelper ? helperStatus(child.stdio[HELPER_STATUS_FD] as Readable) : Promise.resolve(undefined);
    void status.then((failure) => {
      if (failure) {
        this.pending.delete(entry.id);
        out.destroy();
        errStream.destroy();
        if (failure.step === 'exec') return void exited.then(() => execFailed(failure.code));
        return void exited.then(() => fail(`spawn: ${failure.step}: ${failure.code}\n`, 126));
      }
      this.sink.started(entry.id, child.pid!);
      for (const [stream, d] of early ?? []) this.output(entry, stream, d);
      early = undefined;
      this.running(entry, out, errStream, exited, finish);
    });
  }

  /** Wires the exit of a started pipe process: reported once its pipes drained. */
  private running(
    entry: Running,
    out: Readable,
    errStream: Readable,
    exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
    finish: (code: number) => void,
  ): void {
    const ended = (s: Readable) => new Promise<void>((r) => (s.readableEnded || s.destroyed ? r() : s.once('close', () => r())));
    void exited.then(({ code, signal }) => {
      const exitCode = signal ? signalExitCode(signal) : (code ?? 0);
      const drained = Promise.all([ended(out), ended(errStream)]);
      // Gives up on the pipes only after `exitDrainMs` without output while not paused (a background child holds them).
      // @deviation the exit is reported then, and that child's later output is dropped (docs/fidelity.md).
      const idle = new Promise<void>((resolve) => {
        let settled = false;
        let last = Date.now();
        const touch = (): void => void (last = Date.now());
        out.on('data', touch);
        errStream.on('data', touch);
        const check = (): void => {
          if (settled) return;
          if (this.held(entry)) last = Date.now();
          else if (Date.now() - last >= this.opts.exitDrainMs) return resolve();
          setTimeout(check, this.opts.exitDrainMs).unref();
        };
        setTimeout(check, this.opts.exitDrainMs).unref();
        void drained.then(() => {
          settled = true;
          resolve();
        });
      });
      void idle.then(() => {
        out.destroy();
        errStream.destroy();
        finish(exitCode);
      });
    });
    this.flushPending(entry);
  }

  private loadPty(): PtyModule {
    if (!this.ptyModule) {
      const require = createRequire(import.meta.url);
      this.ptyModule = require('node-pty') as PtyModule;
    }
    return this.ptyModule;
  }

  /**
   * Runs the process on a real pseudo-terminal (node-pty) as a session leader.
   * @deviation node-pty adds `PWD` and `TERM` (default `xterm`) to the given environment (docs/fidelity.md).
   */
  private startPty(entry: Running, msg: SpawnMessage, cwd: string, finish: (code: number) => void, fail: (m: string, c: number) => void): void {
    const file = msg.path || msg.argv[0]!;
    // node-pty reports a failed exec only as text from the forked child: look the program up first, as exec would.
    if (!findExecutable(file, msg.env.PATH, cwd)) {
      this.pending.delete(entry.id);
      return fail(`exec: ${JSON.stringify(file)}: executable file not found in $PATH\n`, 127);
    }
    // node-pty aborts the agent when it cannot create the thread that waits for the process: refuse first, as a
    // fork at the sprite's task limit fails (a margin for what the sprite forks meanwhile).
    const room = pidsRoom();
    if (room !== undefined && room < PTY_TASKS + PTY_TASKS_MARGIN) {
      this.pending.delete(entry.id);
      return fail(`exec: ${JSON.stringify(file)}: ${errnoText('EAGAIN')}\r\n`, 126);
    }
    // Through the helper, a failed exec (after the check above) is its message on the terminal, exit 126 or 127.
    const how = this.launchCommand(msg, -1);
    let pty: Pty;
    try {
      pty = this.loadPty().spawn(how.file, how.viaHelper ? how.args : msg.argv.slice(1), {
        name: msg.env.TERM ?? 'xterm',
        cols: Math.max(1, msg.cols || 80),
        rows: Math.max(1, msg.rows || 24),
        cwd,
        env: msg.env,
        encoding: null,
        ...how.ids,
      });
    } catch (err) {
      this.pending.delete(entry.id);
      return fail(`exec: ${JSON.stringify(file)}: ${(err as Error).message}\r\n`, 127);
    }
    entry.pty = pty;
    entry.osPid = pty.pid;
    this.sink.started(entry.id, pty.pid);
    entry.sources.push(pty);
    if (this.held(entry)) pty.pause();
    pty.onData((d) => this.output(entry, 'stdout', typeof d === 'string' ? Buffer.from(d) : d));
    pty.onExit(({ exitCode, signal }) => finish(signal ? signalExitCode(signal) : exitCode));
    this.flushPending(entry);
  }

  /**
   * Feeds stdin bytes to process `id` (dropped when it has no stdin or has ended). Bytes the pipe has not taken wait
   * in the agent; when they would pass the process' `stdinMax`, the process is killed instead (`stdinOverflow`).
   */
  writeStdin(id: number, data: Buffer): void {
    this.whenStarted(id, (r) => {
      if (r.pty) {
        if (r.stdinOverflowed) return;
        if (r.stdinMax !== undefined && ptyQueuedBytes(r.pty) + data.length > r.stdinMax) this.stdinOverflow(r, r.stdinMax);
        else r.pty.write(data);
      } else if (r.child?.stdin && !r.child.stdin.writableEnded && !r.stdinOverflowed) {
        if (r.stdinMax !== undefined && r.child.stdin.writableLength + data.length > r.stdinMax) this.stdinOverflow(r, r.stdinMax);
        else r.child.stdin.write(data);
      }
    });
  }

  /**
   * A process that does not read its stdin while more keeps coming: its waiting stdin is dropped, stderr says why,
   * and its process group gets KILL (exit 137). @see docs/limits.md (`--max-stdin-bytes`)
   * @deviation real Sprites' behaviour here is unknown; killing keeps the exec socket free for signals and resizes,
   * which stopping to read it would block (docs/fidelity.md).
   */
  private stdinOverflow(r: Running, max: number): void {
    r.stdinOverflowed = true;
    r.child?.stdin?.destroy();
    // On a terminal everything the process sees comes on stdout, with the terminal's line endings.
    if (r.pty) this.output(r, 'stdout', Buffer.from(stdinOverflowMessage(max).replace(/\n/g, '\r\n')));
    else this.output(r, 'stderr', Buffer.from(stdinOverflowMessage(max)));
    killGroup(r.osPid, osConstants.signals.SIGKILL);
  }

  /** Closes stdin of process `id` (TTY: sends the terminal's EOF character, ^D). */
  endStdin(id: number): void {
    this.whenStarted(id, (r) => {
      if (r.pty) r.pty.write('\x04');
      else r.child?.stdin?.end();
    });
  }

  /** Resizes the terminal of process `id` (ignored without a TTY). */
  resize(id: number, cols: number, rows: number): void {
    this.whenStarted(id, (r) => r.pty?.resize(cols, rows));
  }

  /** Delivers signal `name` (`TERM`, `SIGINT`, …) to process `id`'s group. Unknown names are ignored. */
  signal(id: number, name: string): void {
    const n = signalNumber(name);
    if (n === undefined) return;
    this.whenStarted(id, (r) => killGroup(r.osPid, n));
  }

  /**
   * Pauses (or resumes) every output source: the session calls it when the socket to the host is congested, so a
   * fast writer blocks on its full pipe instead of the agent buffering without bound.
   */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    for (const r of this.procs.values()) this.applyPause(r);
  }

  /**
   * Sends KILL to every process group the agent started (and, in the sandbox, to every other process of the PID
   * namespace) and resolves when all of them have exited (timeout 5 s).
   */
  async killAll(): Promise<void> {
    const live = [...this.procs.values()];
    for (const r of live) {
      r.killed = true;
      killGroup(r.osPid, osConstants.signals.SIGKILL);
    }
    if (this.opts.sweepNamespace) sweepNamespace();
    const deadline = Date.now() + 5000;
    await Promise.race([Promise.all(live.map((r) => r.done)), new Promise((r) => setTimeout(r, 5000).unref())]);
    while (this.opts.sweepNamespace && Date.now() < deadline && otherPids().length > 0) {
      sweepNamespace();
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/**
 * Bytes written to `pty` that wait for the terminal to take them. node-pty queues every write that the kernel's
 * terminal buffer (a few KiB) cannot take yet, without bound and without telling; its 1.x `CustomWriteStream` keeps
 * them in `_writeQueue` (`{buffer, offset}` entries), read here. 0 when that shape is not there (another node-pty):
 * then the terminal's stdin is not bounded.
 */
function ptyQueuedBytes(pty: Pty): number {
  const queue = (pty as unknown as { _writeStream?: { _writeQueue?: Array<{ buffer: Buffer; offset: number }> } })._writeStream?._writeQueue;
  if (!Array.isArray(queue)) return 0;
  let total = 0;
  for (const task of queue) total += task.buffer.byteLength - task.offset;
  return total;
}

/** Whether `file` names an executable: a path (relative to `cwd`), or a name found on `PATH` (execvp's default when unset). */
function findExecutable(file: string, path: string | undefined, cwd: string): boolean {
  const executable = (p: string): boolean => {
    try {
      accessSync(p, fsConstants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (file.includes('/')) return executable(file.startsWith('/') ? file : `${cwd}/${file}`);
  return (path ?? '/usr/local/bin:/usr/bin:/bin').split(':').some((dir) => executable(`${dir || '.'}/${file}`));
}

/** Runs a stdin/signal/resize operation; one on a terminal that is closing (EBADF, EIO) changes nothing. */
function run(op: (r: Running) => void, entry: Running): void {
  try {
    op(entry);
  } catch {
    // the process is on its way out; its exit follows
  }
}

function killGroup(pid: number | undefined, signal: number): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Pids of the namespace other than the agent, its ancestors and PID 1 (read from /proc). */
function otherPids(): number[] {
  const keep = new Set<number>([1, process.pid]);
  let ppid = process.ppid;
  while (ppid > 1 && !keep.has(ppid)) {
    keep.add(ppid);
    try {
      ppid = Number(/^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${ppid}/stat`, 'utf8'))?.[1] ?? 1);
    } catch {
      break;
    }
  }
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((p) => !keep.has(p));
}

function sweepNamespace(): void {
  for (const pid of otherPids()) {
    try {
      process.kill(pid, osConstants.signals.SIGKILL);
    } catch {
      // gone already
    }
  }
}

/** The stderr line of a process killed for not reading its stdin (`Supervisor.stdinOverflow`). */
export function stdinOverflowMessage(max: number): string {
  return `spritzer: the command did not read its stdin: more than ${max} bytes of it were waiting, the limit (--max-stdin-bytes); the command was killed\n`;
}
