/**
 * The interactive shell of the `shell` engine: what a TTY exec of `bash` or `sh` with no script gets. It prints a
 * prompt, reads lines through a {@link LineDiscipline}, runs each line (through the engine's `run`), carries the
 * shell's variables, exit status and directory from one line to the next, and ends on `exit` or end of input.
 * ^C interrupts the running line (exit status 130) and the shell lives on. It owns the REPL loop; running a line
 * and the process lifecycle are engine.ts's.
 * @see docs/wire-reference.md §4.5 (TTY)
 */
import { LineDiscipline } from './line-discipline.ts';

/** What one line runs with, and what it leaves for the next. */
export interface ShellState {
  /** Shell variables (just-bash's `env` after the line). */
  env: Record<string, string>;
  /** Working directory. */
  cwd: string;
  /** `$?`: the exit status of the last line. */
  status: number;
}

/** What the interactive shell needs from its engine. */
export interface InteractiveShellDeps {
  /** Raw terminal output (the echo and the prompt; already in terminal form, `\r\n`). */
  write(data: Uint8Array): void;
  /**
   * Runs one line with `state`. Resolves with its exit code and the state it leaves, or `state: null` when the
   * line ended the shell (`exit`, `set -e` failing). `abort` fires on ^C; the result of an aborted line is ignored.
   */
  run(line: string, state: ShellState, abort: AbortSignal): Promise<{ exitCode: number; state: ShellState | null }>;
  /** The shell ended with `code`. */
  finish(code: number): void;
  /** Home directory, shown as `~` in the prompt. */
  home: string;
  /** Host name shown in the prompt (the sprite's name). */
  hostname: string;
}

/** Exit status of a line interrupted by ^C (128 + SIGINT). */
export const INTERRUPTED_STATUS = 130;

/** True when `argv` (with `path`) asks for an interactive shell: `bash`/`sh` with no words but `-i`, `-l`, `--login`. */
export function isInteractiveShellRequest(argv: string[], path?: string): boolean {
  const program = (path ?? argv[0] ?? '').split('/').pop();
  if (program !== 'bash' && program !== 'sh') return false;
  return argv.slice(1).every((w) => /^-[il]+$/.test(w) || w === '--login' || w === '--norc' || w === '--noprofile');
}

/**
 * A running interactive shell. Call `start` once (it prints the first prompt), then `input` with typed bytes;
 * `interrupt` is ^C (also the `INT` signal), `eof` is end of input (^D on an empty line, or the stdin EOF).
 * Lines typed while a line runs are queued and run in order after it.
 * @deviation State between lines is variables, `$?` and the directory; functions, aliases and `set` options do not
 * carry over (each line is a fresh just-bash run). No `PS2` continuation: a line must be a complete command.
 */
export class InteractiveShell {
  private readonly discipline: LineDiscipline;
  private readonly queue: string[] = [];
  private running: AbortController | null = null;
  /** End of input arrived while a line ran: the shell ends once the queued lines have run, as bash reads it then. */
  private eofQueued = false;
  private ended = false;

  constructor(
    private readonly deps: InteractiveShellDeps,
    private state: ShellState,
  ) {
    this.discipline = new LineDiscipline({
      echo: (b) => this.write(b),
      line: (b) => this.submit(Buffer.from(b).toString('utf8')),
      interrupt: () => this.interrupt(),
      eof: () => this.eof(),
    });
  }

  /** Prints the first prompt. */
  start(): void {
    this.prompt();
  }

  /** Typed bytes. */
  input(data: Uint8Array): void {
    if (!this.ended) this.discipline.feed(data);
  }

  /** ^C: ends the running line with status 130 (or drops the typed line) and shows a new prompt. */
  interrupt(): void {
    if (this.ended) return;
    this.queue.length = 0; // ^C flushes typed-ahead input, a pending ^D with it (a TTY's ISIG without NOFLSH)
    this.eofQueued = false;
    const line = this.running;
    if (line) {
      this.running = null;
      line.abort();
      this.state = { ...this.state, status: INTERRUPTED_STATUS };
    }
    this.prompt();
  }

  /**
   * End of input: the shell ends with the last status, as bash does on ^D. While a line runs it waits, as typed-ahead
   * input does: the shell ends after that line and any lines typed before the ^D.
   */
  eof(): void {
    if (this.ended) return;
    if (this.running) {
      this.eofQueued = true;
      return;
    }
    this.write(Buffer.from('exit\r\n'));
    this.end(this.state.status);
  }

  /** Ends the shell without running more (a fatal signal); the caller settles the exit. */
  stop(): void {
    this.ended = true;
    this.running?.abort();
    this.running = null;
  }

  private submit(line: string): void {
    if (this.ended || this.eofQueued) return;
    if (this.running) {
      this.queue.push(line);
      return;
    }
    this.runLine(line);
  }

  private runLine(line: string): void {
    if (line.trim() === '') {
      this.prompt();
      return;
    }
    const abort = new AbortController();
    this.running = abort;
    void this.deps.run(line, this.state, abort.signal).then(
      (result) => this.done(abort, result),
      () => this.done(abort, { exitCode: 1, state: { ...this.state, status: 1 } }),
    );
  }

  private done(abort: AbortController, result: { exitCode: number; state: ShellState | null }): void {
    if (this.running !== abort || this.ended) return;
    this.running = null;
    if (result.state === null) {
      this.end(result.exitCode);
      return;
    }
    this.state = result.state;
    this.runQueued();
  }

  /** After a line: runs the next typed-ahead line (an empty one just shows a prompt), or prompts and takes a pending ^D. */
  private runQueued(): void {
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
      if (next.trim() !== '') {
        this.runLine(next);
        return;
      }
      this.prompt();
    }
    this.prompt();
    if (this.eofQueued) this.eof();
  }

  private prompt(): void {
    const { cwd } = this.state;
    const home = this.deps.home;
    const shown = cwd === home ? '~' : cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd;
    this.write(Buffer.from(`sprite@${this.deps.hostname}:${shown}$ `, 'utf8'));
  }

  private end(code: number): void {
    this.ended = true;
    this.deps.finish(code);
  }

  private write(data: Uint8Array): void {
    if (!this.ended) this.deps.write(data);
  }
}
