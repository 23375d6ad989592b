/**
 * The text of a service's log (`/.sprite/logs/services/<name>.log`): output cut into lines, stderr lines marked
 * with `[stderr] `, no line longer than LOG_LINE_MAX_CHARS. Shared by whoever writes a log (the agent inside a sprite,
 * the in-memory engines) and by spritzer's reading of it (the `logs` reply, the live events), so both agree.
 * It owns the format only: no file, no process.
 * @see docs/wire-reference.md §9.3
 */

/**
 * Longest line (UTF-16 code units) a service's output is split into: a longer run without a newline is cut, so
 * output with no newline (`cat /dev/zero`) is not held whole.
 */
export const LOG_LINE_MAX_CHARS = 64 * 1024;

/** Prefix of stderr lines in the combined log (§9.3). */
export const STDERR_PREFIX = '[stderr] ';

/** `line` cut into pieces of at most LOG_LINE_MAX_CHARS (the line itself when it is short enough). */
function cutLine(line: string): string[] {
  if (line.length <= LOG_LINE_MAX_CHARS) return [line];
  const pieces: string[] = [];
  for (let at = 0; at < line.length; at += LOG_LINE_MAX_CHARS) pieces.push(line.slice(at, at + LOG_LINE_MAX_CHARS));
  return pieces;
}

/**
 * Splits a byte stream into UTF-8 lines (without `\n`), none longer than LOG_LINE_MAX_CHARS; `flush` returns a last
 * unterminated line.
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder();
  private pending = '';

  /** The lines this chunk completes (a run longer than the bound counts as lines of that length). */
  push(data: Uint8Array): string[] {
    const parts = (this.pending + this.decoder.decode(data, { stream: true })).split('\n');
    this.pending = parts.pop()!;
    const lines = parts.flatMap(cutLine);
    if (this.pending.length > LOG_LINE_MAX_CHARS) {
      // Whole pieces go out now; the last (at most the bound) may still be continued by the next chunk.
      const pieces = cutLine(this.pending);
      this.pending = pieces.pop()!;
      lines.push(...pieces);
    }
    return lines;
  }

  /** The unterminated rest, as a line, if any. */
  flush(): string[] {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    return rest === '' ? [] : [rest];
  }
}

/** Log text of `lines` of one stream: each line with its newline, stderr lines prefixed. */
export function logText(stream: 'stdout' | 'stderr', lines: string[]): string {
  const prefix = stream === 'stderr' ? STDERR_PREFIX : '';
  return lines.map((line) => `${prefix}${line}\n`).join('');
}

/**
 * One process's output turned into log text, stream by stream (a line is complete only at its own stream's newline):
 * `push` returns the text to append for a chunk (empty while no line is complete), `flush` the unterminated rests.
 */
export class ServiceLogLines {
  private readonly stdout = new LineSplitter();
  private readonly stderr = new LineSplitter();

  push(stream: 'stdout' | 'stderr', data: Uint8Array): string {
    return logText(stream, this[stream].push(data));
  }

  flush(): string {
    return logText('stdout', this.stdout.flush()) + logText('stderr', this.stderr.flush());
  }
}
