/**
 * The strict NDJSON line codec used by every `application/x-ndjson` stream (checkpoint create/restore,
 * services, exec kill): one JSON value per `\n`-terminated line. Shared by the server and the SDK.
 * Strict: a malformed line is an error (never skipped), and a stream that ends without its terminal event
 * is an error. It does not know event shapes; callers say which value is terminal.
 * @see docs/wire-reference.md §4.9, §7, §9.3; docs/architecture.md "Data flow: create a checkpoint"
 */

/** What went wrong in an NDJSON stream. */
export type NdjsonErrorCode = 'malformed_line' | 'invalid_utf8' | 'missing_terminal' | 'after_terminal';

/** An NDJSON stream that breaks the format. `line` is the 1-based line number, when there is one. */
export class NdjsonError extends Error {
  constructor(
    readonly code: NdjsonErrorCode,
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'NdjsonError';
  }
}

/**
 * One NDJSON line: `JSON.stringify(value) + '\n'`. JSON escapes newlines inside strings, so the line never
 * contains a raw `\n`. Throws `TypeError` for values JSON cannot represent (`undefined`, a function).
 */
export function encodeNdjsonLine(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('value has no JSON representation');
  return json + '\n';
}

/** A decoded value and the 1-based number of the line it came from. */
export interface NdjsonEntry {
  value: unknown;
  line: number;
}

/**
 * Incremental strict decoder: feed chunks split anywhere (including inside a UTF-8 sequence), get back the
 * values of the lines they complete. Blank lines (only spaces, tabs or `\r`) are skipped but counted; a
 * `\r\n` ending is accepted. A malformed line throws `NdjsonError('malformed_line')` with its line number,
 * and invalid UTF-8 throws `invalid_utf8`; a stream is over after either (discard the decoder).
 */
export class NdjsonDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private buffer = '';
  private lineNumber = 0;

  /** Lines completed so far (including blank ones). */
  get linesRead(): number {
    return this.lineNumber;
  }

  /** Feeds a chunk; returns the values of every line it completes, in order. */
  push(chunk: Uint8Array | string): unknown[] {
    return this.pushEntries(chunk).map((e) => e.value);
  }

  /** Ends the input: a last line without `\n` is parsed too. Returns its value, if any. */
  end(): unknown[] {
    return this.endEntries().map((e) => e.value);
  }

  /** As {@link push}, with the 1-based line number of each value. */
  pushEntries(chunk: Uint8Array | string): NdjsonEntry[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decode(chunk, true);
    const entries: NdjsonEntry[] = [];
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      this.parseLine(line, entries);
    }
    return entries;
  }

  /** As {@link end}, with line numbers. */
  endEntries(): NdjsonEntry[] {
    this.buffer += this.decode(new Uint8Array(0), false);
    const rest = this.buffer;
    this.buffer = '';
    const entries: NdjsonEntry[] = [];
    if (rest.length > 0) this.parseLine(rest, entries);
    return entries;
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return this.utf8.decode(bytes, { stream });
    } catch {
      throw new NdjsonError('invalid_utf8', `invalid UTF-8 after line ${this.lineNumber}`, this.lineNumber + 1);
    }
  }

  private parseLine(raw: string, into: NdjsonEntry[]): void {
    this.lineNumber += 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    try {
      into.push({ value: JSON.parse(line) as unknown, line: this.lineNumber });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new NdjsonError('malformed_line', `malformed NDJSON line ${this.lineNumber}: ${why}`, this.lineNumber);
    }
  }
}

/** Options of {@link readNdjson}. */
export interface ReadNdjsonOptions<T> {
  /** True for the event that ends the stream (`complete`, `error`, …). */
  isTerminal(value: T): boolean;
}

/**
 * Reads an NDJSON stream to its end, yielding each value (the terminal one included).
 * Throws `NdjsonError`: `malformed_line` / `invalid_utf8` as {@link NdjsonDecoder}; `missing_terminal` when
 * the stream ends before a terminal value; `after_terminal` when a non-blank line follows the terminal value.
 * Breaking out of the loop early stops reading (the source iterator is returned).
 * @see docs/architecture.md "always ending in a `complete` or `error` line"
 */
export async function* readNdjson<T = unknown>(
  stream: AsyncIterable<Uint8Array | string>,
  options: ReadNdjsonOptions<T>,
): AsyncGenerator<T, void, undefined> {
  const decoder = new NdjsonDecoder();
  let terminalLine: number | undefined;
  const handle = function* (entries: NdjsonEntry[]): Generator<T> {
    for (const { value, line } of entries) {
      if (terminalLine !== undefined) {
        throw new NdjsonError('after_terminal', `line ${line} follows the terminal event on line ${terminalLine}`, line);
      }
      if (options.isTerminal(value as T)) terminalLine = line;
      yield value as T;
    }
  };
  for await (const chunk of stream) yield* handle(decoder.pushEntries(chunk));
  yield* handle(decoder.endEntries());
  if (terminalLine === undefined) {
    throw new NdjsonError('missing_terminal', `stream ended after ${decoder.linesRead} lines without a terminal event`);
  }
}
