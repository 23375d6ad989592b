/**
 * A pool of pre-started spare sandboxes: it keeps up to `size` of them booted (agent answering), hands one out on
 * `take()` and boots a replacement in the background, one at a time so a burst of creates never piles up boots
 * on the CPU. It owns only the pool's bookkeeping; how a spare is booted, renamed into a sprite and destroyed is
 * given by the caller (sandbox-machine.ts), and it knows nothing of bubblewrap, layers or the agent.
 * @see docs/sandbox.md "Spares" (a create and its first exec stay fast), docs/performance.md
 */

/** What the pool needs from its owner. */
export interface SparePoolDeps<T> {
  /** Boots one spare (resolves when it can take work). A rejection is logged and retried after `retryMs`. */
  boot(): Promise<T>;
  /** Frees a spare that will never be handed out (at `close`). */
  dispose(spare: T): Promise<void>;
  /** Whether a booted spare is still usable (e.g. not crashed); an unusable one is disposed, not handed out. */
  usable?(spare: T): boolean;
  /** Schedules a retry after a failed boot, and a refill after `take` (ms). Default `setTimeout`, unref'd. */
  setTimeout?(fn: () => void, ms: number): void;
  onError?(err: Error): void;
}

/**
 * Up to `size` booted spares. `size` 0 makes every `take()` answer undefined (the caller boots cold).
 * Errors of background boots never reject anything: they go to `onError` and the pool retries after `retryMs`.
 */
export class SparePool<T> {
  private readonly ready: T[] = [];
  private booting = false;
  private closed = false;
  private failures = 0;
  private idle: Promise<void> = Promise.resolve();
  /** Resolves when a refill scheduled by `take` has started (undefined when none is pending). */
  private refill?: Promise<void>;

  constructor(
    /** How many spares to keep booted. */
    readonly size: number,
    private readonly deps: SparePoolDeps<T>,
    /** Wait after a failed boot before the next attempt, doubled per failure in a row (at most 30 s). */
    private readonly retryMs = 1000,
    /**
     * Wait after `take` before the replacement boots, so the boot (hundreds of ms of CPU) does not compete with the
     * adopted sprite's first commands. 0 boots at once.
     */
    private readonly refillDelayMs = 300,
  ) {}

  /** Booted spares waiting (for tests and the benchmark). */
  get available(): number {
    return this.ready.length;
  }

  /** Starts filling the pool in the background (idempotent). */
  fill(): void {
    if (this.closed || this.booting || this.ready.length >= this.size) return;
    this.booting = true;
    this.idle = (async () => {
      try {
        while (!this.closed && this.ready.length < this.size) {
          const spare = await this.deps.boot();
          this.failures = 0;
          if (this.closed) {
            await this.deps.dispose(spare).catch(() => undefined);
            return;
          }
          this.ready.push(spare);
        }
      } catch (err) {
        this.failures += 1;
        this.deps.onError?.(err as Error);
        const wait = Math.min(30_000, this.retryMs * 2 ** (this.failures - 1));
        const later = this.deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms).unref());
        later(() => this.fill(), wait);
      } finally {
        this.booting = false;
      }
    })();
  }

  /** A booted spare, or undefined when none is ready; starts booting its replacement either way. */
  take(): T | undefined {
    let spare: T | undefined;
    while ((spare = this.ready.shift()) !== undefined) {
      if (!this.deps.usable || this.deps.usable(spare)) break;
      void this.deps.dispose(spare).catch(() => undefined);
    }
    this.scheduleFill();
    return spare;
  }

  private scheduleFill(): void {
    if (this.refillDelayMs <= 0) return this.fill();
    if (this.refill || this.closed) return;
    const later = this.deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms).unref());
    this.refill = new Promise((resolve) =>
      later(() => {
        this.refill = undefined;
        this.fill();
        resolve();
      }, this.refillDelayMs),
    );
  }

  /** Resolves when no boot is in flight (tests and the benchmark wait for a full pool with `fill` + `settled`). */
  async settled(): Promise<void> {
    await this.refill;
    await this.idle;
  }

  /** Stops refilling, waits for a boot in flight, and disposes every spare. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle;
    const spares = this.ready.splice(0);
    await Promise.all(spares.map((s) => this.deps.dispose(s).catch(() => undefined)));
  }
}
