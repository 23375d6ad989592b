/**
 * Time-sliced just-bash: the `shell` engine runs every command in the server's own event loop, and a CPU-bound
 * script (`while true; do :; done`) is one unbroken chain of promise continuations that never lets the loop poll
 * for I/O. This module makes every just-bash statement check a shared time budget and, once the current slice has
 * used it up, wait for a turn of the event loop first, so requests and other sprites are served between slices
 * (round robin: one slice per loop iteration, whichever script holds it). It owns that scheduling only; it does
 * not limit how long a command runs (world.ts `shellExecutionLimits` does) nor move work to other threads.
 * @deviation a real sprite runs a busy loop on its own CPUs; here all `shell`-engine commands share one core in
 * slices (docs/fidelity.md "CPU-bound commands").
 * @see docs/performance.md "Busy loops, lazy imports, fair baselines" (with 10 parallel `while true; do :; done`,
 * GET /_spritzer/health still answers)
 */
import { Bash } from 'just-bash';

/** Default length of one slice of shell work between two turns of the event loop: 5 ms. */
export const DEFAULT_SLICE_MS = 5;

/** What the slicer needs (injected so tests can drive it). */
export interface TurnOptions {
  /** Monotonic milliseconds; default `performance.now`. */
  now?: () => number;
  /** Slice length in ms; default {@link DEFAULT_SLICE_MS}. */
  sliceMs?: number;
  /** Schedules `fn` after the event loop has polled for I/O; default `setImmediate`. */
  defer?: (fn: () => void) => void;
}

/**
 * A shared slice clock with a queue. `enter()` is called before each unit of work: it returns `undefined` when the
 * work may run now, or a promise that resolves on a later turn of the event loop. Work runs now when no slice is
 * running (it starts one) or the running slice is younger than `sliceMs`; otherwise it joins a FIFO queue. Once per
 * turn of the event loop (the `defer` callback, which runs only when no work is running) the slice ends and the
 * longest-waiting unit gets the next one, so ten busy scripts take turns and I/O is polled between any two slices.
 * A command that starts after an idle period never waits.
 */
export class TurnScheduler {
  private sliceStart: number | undefined;
  private readonly queue: Array<() => void> = [];
  private tickScheduled = false;
  private readonly now: () => number;
  private readonly sliceMs: number;
  private readonly defer: (fn: () => void) => void;
  /** How many times work waited for a turn (for tests and the bench). */
  turns = 0;

  constructor(opts: TurnOptions = {}) {
    this.now = opts.now ?? (() => performance.now());
    this.sliceMs = opts.sliceMs ?? DEFAULT_SLICE_MS;
    this.defer = opts.defer ?? setImmediate;
  }

  /** Units of work waiting for a turn. */
  get waiting(): number {
    return this.queue.length;
  }

  enter(): Promise<void> | undefined {
    if (this.sliceStart === undefined) {
      this.startSlice();
      return undefined;
    }
    if (this.now() - this.sliceStart < this.sliceMs) return undefined;
    this.turns++;
    return new Promise<void>((resolve) => {
      this.queue.push(resolve);
      this.schedule();
    });
  }

  private startSlice(): void {
    this.sliceStart = this.now();
    this.schedule();
  }

  private schedule(): void {
    if (this.tickScheduled) return;
    this.tickScheduled = true;
    this.defer(this.tick);
  }

  private readonly tick = (): void => {
    this.tickScheduled = false;
    this.sliceStart = undefined;
    const next = this.queue.shift();
    if (!next) return;
    this.startSlice(); // the woken unit owns the new slice (its continuation skips enter())
    next();
  };
}

type Interpreter = { executeStatement(node: unknown): Promise<unknown> };
const PATCHED = Symbol.for('spritzer.shellTurns');

let installing: Promise<TurnScheduler | undefined> | undefined;

/**
 * Makes every just-bash interpreter (all `Bash` instances in this process) ask `scheduler` before each statement.
 * just-bash 3.4 exports no interpreter class and no per-statement hook, so the prototype is found once, by
 * running `:` while `Function.prototype.bind` notes what the interpreter binds its `executeStatement` to (its
 * constructor does `this.executeStatement.bind(this)`); bind is restored at once. Idempotent: later calls return
 * the first call's promise. Resolves with `undefined` (and patches nothing) when the interpreter is not found,
 * e.g. after a just-bash upgrade that renamed the method: commands then run as before, without turns.
 */
export function installShellTurns(scheduler: TurnScheduler = new TurnScheduler()): Promise<TurnScheduler | undefined> {
  installing ??= (async () => {
    const proto = await findInterpreterPrototype();
    if (!proto) return undefined;
    const existing = (proto as unknown as Record<symbol, TurnScheduler>)[PATCHED];
    if (existing) return existing;
    const original = proto.executeStatement;
    proto.executeStatement = function executeStatement(this: Interpreter, node: unknown) {
      const wait = scheduler.enter();
      return wait ? wait.then(() => original.call(this, node)) : original.call(this, node);
    };
    (proto as unknown as Record<symbol, TurnScheduler>)[PATCHED] = scheduler;
    return scheduler;
  })();
  return installing;
}

async function findInterpreterPrototype(): Promise<Interpreter | undefined> {
  const bind = Function.prototype.bind;
  let found: Interpreter | undefined;
  // eslint-disable-next-line no-extend-native
  Function.prototype.bind = function (this: (...a: unknown[]) => unknown, thisArg: unknown, ...args: unknown[]) {
    if (!found && this.name === 'executeStatement' && thisArg !== null && typeof thisArg === 'object') {
      const proto = Object.getPrototypeOf(thisArg) as Interpreter | null;
      if (proto && typeof proto.executeStatement === 'function') found = proto;
    }
    return bind.call(this, thisArg, ...args);
  } as typeof bind;
  try {
    await new Bash({ defenseInDepth: false }).exec(':');
  } catch {
    // not found: no turns
  } finally {
    Function.prototype.bind = bind;
  }
  return found;
}
