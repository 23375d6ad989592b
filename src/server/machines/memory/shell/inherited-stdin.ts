/**
 * Running another command on this command's own stdin, as `env CMD`, `timeout CMD`, `nohup CMD`, `sudo CMD`,
 * `find -exec CMD` and `node -e` do: the child inherits the stdin it was given (the same open file, as exec(2) keeps
 * fd 0), and takes from it only what it reads. When this command's stdin is one a script shares with the commands
 * after it (`while read -r f; do env echo "$f"; done < list`), the child that does not read it leaves it to them.
 */
import { latin1FromBytes, type CommandContext, type ExecResult } from 'just-bash';

type ExecOptions = Omit<Parameters<NonNullable<CommandContext['exec']>>[1], 'stdin' | 'stdinKind'>;

/**
 * Runs `script` (a command line of the same shell) with `options` on `ctx`'s stdin, as a new process: without an
 * `env` in `options`, with the command's own environment as its whole environment
 * (patches/just-bash/with-child-process-environment.mjs). Through the interpreter's
 * `execWithInheritedStdin`, which reports what the child left of that stdin (patches/just-bash/used-stdin-is-consumed.mjs);
 * where there is none, by handing the child a copy of the stdin (all of it counted as read).
 */
export function execOnOwnStdin(ctx: CommandContext, script: string, options: ExecOptions): Promise<ExecResult> {
  if (ctx.execWithInheritedStdin) return ctx.execWithInheritedStdin(script, options);
  return ctx.exec!(script, { ...options, stdin: latin1FromBytes(ctx.stdin), stdinKind: 'bytes' });
}

/**
 * The lines of a stdin that answers a command's questions (`rm -i`, `cp -i`, `mv -i`, `ln -i`, `unzip` overwrite
 * prompts), read from `read` at the first question only: a command that asks nothing leaves its stdin to the
 * commands after it. `shift()` is the next answer (undefined at the end); `dropFinalEmpty` drops the empty string
 * after the last newline.
 */
export class AnswerLines {
  private lines: string[] | undefined;

  constructor(
    private readonly read: () => string,
    private readonly dropFinalEmpty = false,
  ) {}

  private all(): string[] {
    if (this.lines === undefined) {
      this.lines = this.read().split('\n');
      if (this.dropFinalEmpty && this.lines[this.lines.length - 1] === '') this.lines.pop();
    }
    return this.lines;
  }

  /** The next answer, or undefined when there is none left. */
  shift(): string | undefined {
    return this.all().shift();
  }

  /** How many answers are left. */
  get length(): number {
    return this.all().length;
  }
}
