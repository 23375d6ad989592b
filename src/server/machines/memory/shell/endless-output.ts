/**
 * Programs that write without end (`yes`, `cat /dev/zero`): on Linux they stop only when the reader of their pipe
 * closes it (SIGPIPE) or a signal ends them (`timeout`, `kill`, ^C). The shell engine runs a pipeline's stages one
 * after the other, so into a pipe such a program writes a bounded amount and dies of SIGPIPE (coreutils-extra.ts,
 * devices.ts); into anything else (a file, `/dev/null`, the terminal) it waits for the signal that ends it: its
 * exec's abort (`timeout`'s, the exec's own signal or `--shell-timeout`, which ends every command that waits).
 * Waiting costs no CPU. To the exec's own output (a terminal, a service's log) it first writes that bounded amount.
 * The interpreter tells a command whether its stdout is a pipe and where its own `<` reads from
 * (patches/just-bash/with-stdout-pipe-known.mjs).
 * @deviation a file or the exec's output gets none or one bounded amount of what such a program writes before its
 * signal (GNU yes fills a disk or a terminal's scrollback at gigabytes a second).
 */
import type { ExecResult } from 'just-bash';
import { isEndlessDevice } from './devices.ts';

/** What a command needs to know of its context here (the fields the interpreter patch adds). */
export interface EndlessCtx {
  fs: { resolvePath(base: string, path: string): string; appendFile(path: string, content: string, encoding?: 'binary'): Promise<void> };
  cwd: string;
  /** The exec's abort signal (just-bash's `ctx.signal`). */
  signal?: AbortSignal;
  /** Whether the command's stdout is a pipe to a later stage (or its shell's stdout is one). */
  spzStdoutPipe?: boolean;
  /** The engine's output sink the command's stdout goes to (the exec's own stdout), when it goes to one. */
  spzStdoutSink?: string;
  /** The absolute path the command's own `<` reads stdin from, when it has one. */
  spzInPath?: string;
}

/** Whether the command's stdout goes somewhere that never closes it (not a pipe). */
export const writesToNoPipe = (ctx: EndlessCtx): boolean => ctx.spzStdoutPipe !== true;

/**
 * Writes `first()` (a byte string: one char per byte) to the exec's output when the command's stdout is that, then
 * waits until the exec's signal aborts (never, without one: the exec's deadline then ends the command) and resolves
 * with status 143 (the interpreter reports the abort itself; the status is what the command would be left with).
 */
export async function untilSignalled(ctx: EndlessCtx, first?: () => string): Promise<ExecResult> {
  if (ctx.spzStdoutSink && first) await ctx.fs.appendFile(ctx.spzStdoutSink, first(), 'binary');
  return waitForAbort(ctx.signal);
}

function waitForAbort(signal: AbortSignal | undefined): Promise<ExecResult> {
  const ended: ExecResult = { stdout: '', stderr: '', exitCode: 143 };
  if (signal?.aborted) return Promise.resolve(ended);
  return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(ended), { once: true }));
}

/**
 * The endless device `cat ARGS` reads (an operand that is one, or stdin from its own `< /dev/zero` when it reads
 * stdin) when it writes to no pipe: then it runs until a signal ends it. Otherwise null.
 */
export function catRunsForever(args: readonly string[], ctx: EndlessCtx): string | null {
  if (!writesToNoPipe(ctx)) return null;
  const operands: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (options && a.startsWith('-') && a !== '-') continue;
    else operands.push(a);
  }
  if (operands.length === 0) operands.push('-');
  const paths = operands.map((a) => (a === '-' ? (ctx.spzInPath ?? '') : ctx.fs.resolvePath(ctx.cwd, a)));
  return paths.find(isEndlessDevice) ?? null;
}
