/**
 * A single-consumer event queue behind an async iterator, shared by the exec, proxy and watch sockets:
 * producers `push` items and finally `end` it, with or without a failure; the consumer's `for await` drains
 * what was pushed, then ends, or throws the failure.
 */

/** Items in, one async iteration out. */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: Error | undefined;

  /** Whether `end` was called. */
  get done(): boolean {
    return this.ended;
  }

  /** Queues an item (ignored once ended). */
  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.wake?.();
  }

  /** Ends the queue; the first call wins. With `failure`, iteration throws it after the queued items. */
  end(failure?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.items.length > 0) {
        yield this.items.shift()!;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
      this.wake = undefined;
    }
  }
}
