/**
 * Typed NDJSON event streams for the SDK: wraps a response body in an `EventStream` that yields one event per
 * line through the shared strict codec (`readNdjson`), plus the checkpoint-id parser. Strict: a malformed
 * line, a line that is not an object with a string `type`, or a body that ends without its terminal event
 * throws `NdjsonError`. It does not make requests (operations.ts does).
 * @see docs/wire-reference.md §4.9, §7.1, §7.5, §9.3; src/protocol/ndjson.ts
 */
import { NdjsonError, readNdjson } from '../protocol/ndjson.ts';
import type { components } from '../../generated/openapi.d.ts';
import { SpritesStreamError } from './errors.ts';

/** One line of createCheckpoint / restoreCheckpoint. @see docs/wire-reference.md §7.1 */
export type CheckpointStreamEvent = components['schemas']['CheckpointStreamEvent'];
/** One line of putService / startService / stopService / restartService / getServiceLogs. @see docs/wire-reference.md §9.3 */
export type ServiceStreamEvent = components['schemas']['ServiceStreamEvent'];
/** One line of killExecSession. @see docs/wire-reference.md §4.9 */
export type KillStreamEvent = components['schemas']['KillStreamEvent'];

/** Any NDJSON event: an object with a string `type`. */
export interface TypedEvent {
  type: string;
}

/** Which events end a stream, and which of those mean failure. */
export interface StreamKind<T extends TypedEvent> {
  isTerminal(event: T): boolean;
  /** The failure message when `event` reports an error, else undefined. */
  failure(event: T): string | undefined;
}

/** Checkpoint streams end with `complete` or `error`. @see docs/wire-reference.md §7.1 */
export const CHECKPOINT_STREAM: StreamKind<CheckpointStreamEvent> = {
  isTerminal: (e) => e.type === 'complete' || e.type === 'error',
  failure: (e) => (e.type === 'error' ? e.error : undefined),
};

/** Service streams end with `complete`; an `error` line before it is a failure. @see docs/wire-reference.md §9.3 */
export const SERVICE_STREAM: StreamKind<ServiceStreamEvent> = {
  isTerminal: (e) => e.type === 'complete',
  failure: (e) => (e.type === 'error' ? e.data : undefined),
};

/** Kill streams end with `complete` or `error`. @see docs/wire-reference.md §4.9 */
export const KILL_STREAM: StreamKind<KillStreamEvent> = {
  isTerminal: (e) => e.type === 'complete' || e.type === 'error',
  failure: (e) => (e.type === 'error' ? e.message : undefined),
};

/**
 * A single-use async iterable of typed NDJSON events read from a response body (the terminal event is
 * yielded too). Iterate it with `for await`, or call `collect()` (all events) or `wait()` (all events; throws
 * `SpritesStreamError` when an event reports failure). Errors while reading are `NdjsonError`
 * (`malformed_line`, `invalid_utf8`, `missing_terminal`, `after_terminal`).
 */
export class EventStream<T extends TypedEvent> implements AsyncIterable<T> {
  private consumed = false;

  constructor(
    private readonly body: ReadableStream<Uint8Array> | null | undefined,
    private readonly kind: StreamKind<T>,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.consumed) throw new Error('an EventStream can be read only once');
    this.consumed = true;
    return this.events()[Symbol.asyncIterator]();
  }

  /** Reads the stream to its end and returns every event in order. */
  async collect(): Promise<T[]> {
    const out: T[] = [];
    for await (const e of this) out.push(e);
    return out;
  }

  /** As `collect()`, then throws `SpritesStreamError` for the first event that reports failure. */
  async wait(): Promise<T[]> {
    const events = await this.collect();
    for (const e of events) {
      const message = this.kind.failure(e);
      if (message !== undefined) throw new SpritesStreamError(message, e);
    }
    return events;
  }

  private async *events(): AsyncGenerator<T> {
    const lines = readNdjson<unknown>(chunks(this.body), {
      isTerminal: (v) => isTypedEvent(v) && this.kind.isTerminal(v as T),
    });
    let line = 0;
    for await (const value of lines) {
      line += 1;
      if (!isTypedEvent(value)) {
        throw new NdjsonError('malformed_line', `NDJSON event ${line} is not an object with a string "type"`, line);
      }
      yield value as T;
    }
  }
}

/**
 * The checkpoint id in a createCheckpoint `complete` line's `data`, e.g. `"Checkpoint v3 created
 * successfully"` → `"v3"`; undefined when the text names none.
 * @see docs/wire-reference.md §7.1 ("keep the complete line as `Checkpoint vN created successfully`")
 */
export function checkpointIdFromComplete(data: string | undefined): string | undefined {
  return data ? /\bCheckpoint\s+(\S+)\s+created\b/.exec(data)?.[1] : undefined;
}

function isTypedEvent(v: unknown): v is TypedEvent {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as TypedEvent).type === 'string';
}

async function* chunks(body: ReadableStream<Uint8Array> | null | undefined): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stops the download when the caller breaks out early.
    await reader.cancel().catch(() => undefined);
  }
}
