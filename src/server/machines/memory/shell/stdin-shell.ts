/**
 * `bash` (or `sh`) reading its commands from a stdin that is not a terminal: it runs each complete command as soon
 * as its last line arrives, and ends at EOF or `exit`, as real bash does (a detached shell a client writes
 * `echo …\n` lines to, later). The whole session is one just-bash run of a loop that asks for the next complete
 * command ({@link CommandFeed}) and `eval`s it, so variables, functions, options, traps and the directory carry
 * over as in one bash. It owns the feeding and the loop's text; the process lifecycle is engine.ts's.
 * @see bash(1) "INVOCATION" (commands read from standard input)
 */
import { defineCommand, type CustomCommand } from 'just-bash';
import { parseScript } from './script-ast.ts';
import { diagnose, failureScript, stdinPlaceAfter } from './syntax-errors.ts';

/** Hands the next complete command to the loop; exits 1 at the end of input. */
export const NEXT_COMMAND = '__spritzer_next_command';
/** Exits with the status of the last command the loop ran, so that `$?` is bash's at each command. */
export const LAST_STATUS = '__spritzer_last_status';

/** The script of the whole session: read a command, restore `$?`, run it; at the end, the last status. */
export const STDIN_SHELL_SCRIPT = `while __spritzer_command=$(${NEXT_COMMAND} "$?"); do ${LAST_STATUS}; eval "$__spritzer_command"; done; ${LAST_STATUS}`;

/** A last line that the next one continues (`a |`, `a &&`, `a ||`, `a \`). */
const CONTINUES = /(\|\||&&|\||\\)[ \t]*\n$/;

/** Whether any here-document below `root` is still open (its delimiter line has not arrived). */
function hasOpenHereDoc(root: unknown): boolean {
  if (Array.isArray(root)) return root.some(hasOpenHereDoc);
  if (root === null || typeof root !== 'object') return false;
  const node = root as Record<string, unknown>;
  if (node.type === 'HereDoc' && node.terminated === false) return true;
  return Object.values(node).some(hasOpenHereDoc);
}

/**
 * Lines arriving on stdin, cut into complete commands as bash reads them: a line that completes a command (with the
 * lines before it that did not) is handed on; a syntax error is handed on as a command that prints bash's message and
 * exits 2, as bash ends there; at EOF an unfinished command is bash's "unexpected end of file".
 */
export class CommandFeed {
  private pending = '';
  private buffer = '';
  private readonly ready: string[] = [];
  private ended = false;
  private waiter: (() => void) | null = null;
  private status = 0;
  private readonly decoder = new TextDecoder();
  /** Lines of stdin handed on (or blank) before the buffer: a syntax error's message counts from the first. */
  private consumed = 0;

  constructor(private readonly prepare: (command: string) => string = (c) => c) {}

  /** Bytes from stdin. */
  push(data: Uint8Array): void {
    if (this.ended) return;
    this.pending += this.decoder.decode(data, { stream: true });
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) !== -1) {
      this.line(this.pending.slice(0, nl + 1));
      this.pending = this.pending.slice(nl + 1);
    }
    this.wake();
  }

  /** The end of stdin. */
  end(): void {
    if (this.ended) return;
    this.pending += this.decoder.decode();
    if (this.pending) this.line(this.pending);
    this.pending = '';
    if (this.buffer.trim() !== '') {
      const failure = diagnose(this.buffer, stdinPlaceAfter(this.consumed));
      this.ready.push(failure ? failureScript('', failure) : this.prepare(this.buffer));
    }
    this.buffer = '';
    this.ended = true;
    this.wake();
  }

  /** The loop's two commands. */
  commands(): CustomCommand[] {
    return [
      defineCommand(NEXT_COMMAND, async (args) => {
        this.status = Number(args[0]) || 0;
        const command = await this.next();
        return command === null ? { stdout: '', stderr: '', exitCode: 1 } : { stdout: command, stderr: '', exitCode: 0 };
      }),
      defineCommand(LAST_STATUS, async () => ({ stdout: '', stderr: '', exitCode: this.status })),
    ];
  }

  /** The next complete command, or null at the end of input. */
  async next(): Promise<string | null> {
    for (;;) {
      const command = this.ready.shift();
      if (command !== undefined) return command;
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  private line(text: string): void {
    this.buffer += text;
    if (this.buffer.trim() === '') {
      this.consumed += this.buffer.split('\n').length - 1;
      this.buffer = '';
      return;
    }
    const failure = diagnose(this.buffer, stdinPlaceAfter(this.consumed));
    if (failure?.incomplete || (!failure && (CONTINUES.test(this.buffer) || hasOpenHereDoc(parseScript(this.buffer))))) return;
    this.ready.push(failure ? failureScript('', failure) : this.prepare(this.buffer));
    this.consumed += this.buffer.split('\n').length - 1;
    this.buffer = '';
  }
}
