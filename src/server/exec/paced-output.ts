/**
 * A bounded, paced queue of exec output toward one client (a WebSocket or an HTTP exec response). It cuts output
 * into chunks of at most `outputChunkBytes`, hands a chunk to the transport only while less than
 * `outputHighWaterBytes` wait unflushed in the socket, resumes from the event loop (never in one synchronous run),
 * and gives up on a reader that falls more than `maxQueuedOutputBytes` behind. It owns no framing and no socket:
 * the sink does both.
 */
import type { ExecStreamLimits } from '../config/exec-limits.ts';

/** Which output stream a chunk belongs to. */
export type OutputStream = 'stdout' | 'stderr';

/** Where chunks go. */
export interface PacedSink {
  /**
   * Hands one chunk (at most `outputChunkBytes`, never empty) to the transport. `done` must be called once the
   * chunk left spritzer's buffers (the socket's write callback) or could not be written.
   */
  write(stream: OutputStream, chunk: Uint8Array, done: () => void): void;
}

type Item = { kind: 'data'; stream: OutputStream; data: Uint8Array; offset: number } | { kind: 'run'; fn: () => void };

/** How the queue resumes after a write completes; `setImmediate` by default (tests inject their own). */
export type Defer = (fn: () => void) => void;

/**
 * The queue. `push` output as it comes, `then` to run something (the exit frame) after everything pushed before
 * it was handed to the sink, `close` when the client is gone.
 *
 * Overflow rule: output that arrives while nothing is queued is taken whole, whatever its size (the engine already
 * holds those bytes, and refusing them would cap the output of a command rather than the backlog of a slow reader).
 * Output that arrives while earlier output still waits, and would take the backlog past `maxQueuedOutputBytes`,
 * drops the queue and calls `onOverflow` once; later calls do nothing.
 * @see docs/limits.md
 */
export class PacedOutput {
  private readonly items: Item[] = [];
  private head = 0;
  private queued = 0;
  private inflight = 0;
  private pumping = false;
  private scheduled = false;
  private state: 'open' | 'overflowed' | 'closed' = 'open';

  constructor(
    private readonly sink: PacedSink,
    private readonly limits: Pick<ExecStreamLimits, 'outputChunkBytes' | 'outputHighWaterBytes' | 'maxQueuedOutputBytes'>,
    private readonly onOverflow: (queuedBytes: number) => void,
    private readonly defer: Defer = setImmediate,
  ) {}

  /** Bytes pushed but not yet handed to the sink. */
  get queuedBytes(): number {
    return this.queued;
  }

  /** Bytes handed to the sink whose `done` has not been called yet. */
  get inflightBytes(): number {
    return this.inflight;
  }

  /** Whether the queue still accepts output (not overflowed, not closed). */
  get open(): boolean {
    return this.state === 'open';
  }

  /** Queues `data` of `stream`; sends at once what the high-water mark allows. */
  push(stream: OutputStream, data: Uint8Array): void {
    if (this.state !== 'open' || data.length === 0) return;
    if (this.queued > 0 && this.queued + data.length > this.limits.maxQueuedOutputBytes) {
      const backlog = this.queued + data.length;
      this.drop('overflowed');
      this.onOverflow(backlog);
      return;
    }
    this.items.push({ kind: 'data', stream, data, offset: 0 });
    this.queued += data.length;
    this.pump();
  }

  /** Runs `fn` once every chunk pushed before was handed to the sink (at once when the queue is empty). */
  then(fn: () => void): void {
    if (this.state !== 'open') return;
    this.items.push({ kind: 'run', fn });
    this.pump();
  }

  /** The client is gone: drops what is queued; later calls do nothing. */
  close(): void {
    if (this.state === 'open') this.drop('closed');
  }

  private drop(state: 'overflowed' | 'closed'): void {
    this.state = state;
    this.items.length = 0;
    this.head = 0;
    this.queued = 0;
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.state === 'open' && this.head < this.items.length) {
        const item = this.items[this.head]!;
        if (item.kind === 'run') {
          this.shift();
          item.fn();
          continue;
        }
        if (this.inflight >= this.limits.outputHighWaterBytes) break;
        const end = Math.min(item.data.length, item.offset + this.limits.outputChunkBytes);
        const chunk = item.data.subarray(item.offset, end);
        item.offset = end;
        if (end === item.data.length) this.shift();
        this.queued -= chunk.length;
        this.inflight += chunk.length;
        let called = false;
        this.sink.write(item.stream, chunk, () => {
          if (called) return;
          called = true;
          this.inflight -= chunk.length;
          this.schedule();
        });
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Removes the head item; compacts the array once the consumed prefix dominates (O(1) amortised). */
  private shift(): void {
    this.items[this.head] = undefined as unknown as Item;
    this.head++;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
  }

  private schedule(): void {
    if (this.scheduled || this.state !== 'open') return;
    this.scheduled = true;
    this.defer(() => {
      this.scheduled = false;
      this.pump();
    });
  }
}
