/**
 * Stdin that an engine collects before its command starts (the shell engine: just-bash takes all of stdin up
 * front), bounded by `maxStdinBytes`, and the messages a command gets when stdin cannot be delivered. It owns the
 * bytes and the wording; when a command starts or fails is the engine's decision.
 * @see docs/limits.md (exec stdin per command)
 */

/** Collected stdin chunks, never more than `maxBytes` in total. */
export class StdinBuffer {
  private chunks: Uint8Array[] = [];
  private size = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes collected so far. */
  get bytes(): number {
    return this.size;
  }

  /**
   * Adds `data`. Returns false, and drops everything collected, when the total would pass `maxBytes`: the
   * command must then fail rather than run on part of its input.
   */
  add(data: Uint8Array): boolean {
    if (this.size + data.length > this.maxBytes) {
      this.chunks = [];
      this.size = 0;
      return false;
    }
    if (data.length > 0) this.chunks.push(data);
    this.size += data.length;
    return true;
  }

  /** Everything collected, as one buffer; the buffer is empty afterwards. */
  take(): Buffer {
    const all = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    return all;
  }
}

/** Exit code of a command refused for too much stdin: 126, as just-bash's own "stdin size limit exceeded". */
export const STDIN_TOO_LARGE_EXIT = 126;

/** The stderr line of a command refused because its stdin passed `maxBytes`. */
export function stdinTooLargeMessage(maxBytes: number): string {
  return `spritzer: stdin is larger than ${maxBytes} bytes, the shell engine's limit (--max-stdin-bytes); the command did not run\n`;
}

/** The stderr line of a command that was sent stdin after it had started (once per command). */
export const LATE_STDIN_MESSAGE =
  'spritzer: stdin that arrived after the command started was dropped: the shell engine reads stdin before it starts a command (send EOF, frame [4], when stdin is complete)\n';
