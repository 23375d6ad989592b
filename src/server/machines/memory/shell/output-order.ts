/**
 * The order in which a command's stdout and stderr reach a place they share (`cmd 2>&1`, `cmd >f 2>&1`, `cmd |& …`).
 * A real program writes stderr unbuffered and, when stdout is not a terminal, stdout through a 4096-byte stdio
 * buffer, so what ends up first depends on how the program flushes: GNU programs that report through gnulib's
 * `error()` (cat, head, wc, grep, cut, md5sum…) flush stdout before each message, so the two streams come in
 * program order; a program that only writes to stderr (sed, awk, tac) lets its messages overtake the stdout still
 * in its buffer. This module records a command's runs in the order a program of either kind delivers them, as the
 * `outputOrder` the patched interpreter honours (patches/just-bash/joined-output-order.mjs).
 */
import { bytesOutput, unsafeBytesFromLatin1, type ExecResult, type IFileSystem } from 'just-bash';

/** A command result with the lengths (characters) of its alternating output runs, stdout first. */
export type OrderedResult = ExecResult & { outputOrder?: number[] };

/** How a program flushes stdout: before each error message (gnulib `error()`), or only when its buffer fills. */
export type Flushing = 'before-errors' | 'buffered';

/** The size of a stdio buffer on a pipe or file (glibc's BUFSIZ / st_blksize): stdout reaches its target in blocks. */
export const STDIO_BUFFER = 4096;

/**
 * A command's output written as it happens: `out` and `err` append to stdout and stderr, and `result` gives both with
 * the order in which a program of the given {@link Flushing} would deliver them.
 */
export class OrderedOutput {
  stdout = '';
  stderr = '';
  /** For each `err` or `prompt`, the stdout length when it was written, its length, and whether it is a prompt. */
  private readonly marks: Array<[number, number, boolean?]> = [];

  out(text: string): void {
    this.stdout += text;
  }

  err(text: string): void {
    if (text === '') return;
    this.marks.push([this.stdout.length, text.length]);
    this.stderr += text;
  }

  /**
   * A question written straight to stderr (GNU's `rm -i`, `cp -i`: fprintf, not error()): it flushes nothing, so
   * stdout still in the buffer comes after it whatever the program's {@link Flushing}.
   */
  prompt(text: string): void {
    if (text === '') return;
    this.marks.push([this.stdout.length, text.length, true]);
    this.stderr += text;
  }

  /** The result with its `outputOrder`; the lengths are characters, so a block of 4096 is exact for ASCII output. */
  result(exitCode: number, flushing: Flushing): OrderedResult {
    return { stdout: this.stdout, stderr: this.stderr, exitCode, outputOrder: this.order(flushing) };
  }

  /** The `outputOrder` alone, for a command that builds its result itself (a bytes result, say). */
  order(flushing: Flushing): number[] {
    return orderOf(this.marks, flushing);
  }
}

/**
 * The `outputOrder` for `marks`, one per message in order: the stdout length when it was written, its length, and
 * whether it is a prompt (which flushes nothing); each message comes after the stdout a program of the given
 * {@link Flushing} has delivered by then.
 */
export function orderOf(marks: ReadonlyArray<[number, number, boolean?]>, flushing: Flushing): number[] {
  const order: number[] = [];
  let delivered = 0;
  for (const [at, length, prompt] of marks) {
    const upTo = flushing === 'before-errors' && !prompt ? at : at - (at % STDIO_BUFFER);
    order.push(Math.max(0, upTo - delivered), length);
    delivered = Math.max(delivered, upTo);
  }
  return order;
}

/**
 * `result` as delivered by a program that reports all its errors before it writes any output (ls checks every
 * operand before it lists one; sed opens its input files up front): stderr first, then stdout.
 */
export function errorsFirst<R extends ExecResult>(result: R): R & OrderedResult {
  return result.stderr === '' || result.stdout === '' ? result : { ...result, outputOrder: [0, result.stderr.length] };
}

/**
 * The order of `cat FILE…` (no options: each operand's bytes in turn), which reports an operand it cannot read
 * through error() between the files around it: its result's stderr lines are matched to the operands that fail to
 * stat as files, in turn, and placed after the sizes of the operands before them. Undefined when that accounting
 * does not add up to the result (a file that changed, an option), so the result keeps just-bash's order.
 * `stdinLength` is asked only for a `-` operand: a cat of files leaves a stdin it shares with later commands unread.
 */
export async function catOutputOrder(result: ExecResult, operands: string[], fs: IFileSystem, cwd: string, stdinLength: () => number): Promise<number[] | undefined> {
  if (result.stderr === '' || operands.some((a) => a.startsWith('-') && a !== '-')) return undefined;
  const messages = result.stderr.split(/(?<=\n)/);
  const marks: Array<[number, number]> = [];
  let at = 0;
  let stdin = operands.includes('-') ? stdinLength() : 0;
  for (const name of operands) {
    if (name === '-') {
      at += stdin;
      stdin = 0;
      continue;
    }
    const st = await fs.stat(fs.resolvePath(cwd, name)).catch(() => null);
    if (st && !st.isDirectory) {
      at += st.size;
      continue;
    }
    const message = messages.shift();
    if (message === undefined) return undefined;
    marks.push([at, message.length]);
  }
  return messages.length === 0 && at === result.stdout.length ? orderOf(marks, 'before-errors') : undefined;
}

/**
 * Appends to `text` the output of a finished child (`stdout`, `stderr`) in the order it wrote them (`order`, its
 * `outputOrder`; without one, stdout first): what a command that runs others (`xargs`) passes on, child by child.
 */
export function replayOutput(text: OrderedOutput, stdout: string, stderr: string, order?: number[]): void {
  let i = 0;
  let j = 0;
  for (const [k, n] of (order ?? []).entries()) {
    if (k % 2 === 0) text.out(stdout.slice(i, (i += n)));
    else text.err(stderr.slice(j, (j += n)));
  }
  text.out(stdout.slice(i));
  text.err(stderr.slice(j));
}

/**
 * `r` with its stdout replaced by `bytes` (a latin1 byte string, e.g. an archive written again): the order of
 * its stdout blocks among the messages, and the part of the old stdout already charged to the output budget
 * (just-bash refuses an accounting larger than the output), no longer hold, so they are dropped.
 */
export function withStdoutBytes(r: ExecResult, bytes: string): ExecResult {
  const { outputOrder: _order, internalOutputAccounting: accounting, ...rest } = r as OrderedResult & { internalOutputAccounting?: { stdout: number; stderr: number } };
  return { ...rest, ...(accounting ? { internalOutputAccounting: { ...accounting, stdout: 0 } } : {}), ...bytesOutput(unsafeBytesFromLatin1(bytes)) };
}
