/**
 * What the shell engine's own text tools share: their argv walked as GNU's getopt walks it, their output delivered
 * to stdout or to a named file, and their input operands read as GNU coreutils reads them: `-` (or no operand)
 * is stdin (so are `/dev/stdin` and `/dev/fd/0`; a regular file when the shell redirected it from one), a file is read whole as a byte string (one char per byte), and a failure is worded as GNU words it
 * (`wc: nope: No such file or directory`, `… Is a directory`).
 */
import { endlessBytes, isEndlessDevice, ownerOf } from './devices.ts';
import { errnoText as posixText } from './errno-text.ts';
import { bytesOutput, latin1FromBytes, unsafeBytesFromLatin1, type ByteString, type ExecResult, type IFileSystem } from 'just-bash';

/** The paths that name the command's own stdin. */
const STDIN_PATHS = new Set(['/dev/stdin', '/proc/self/fd/0', '/dev/fd/0']);

/** Whether operand `name` is the command's stdin: `-` when `dash`, or a path naming fd 0 (`/dev/stdin`, `/dev/fd/0`). */
export const isStdinOperand = (name: string, dash = true): boolean => (dash && name === '-') || STDIN_PATHS.has(name);

/** What a text tool needs of just-bash's command context. */
/**
 * What a command that stops reading a pipe early says of it: the bytes it left unread there. The pipeline gives the
 * command writing that pipe SIGPIPE (status 141) when they exceed a pipe's buffer (patches/just-bash/pipeline-producer-sigpipe.mjs).
 */
export interface LeavesStdin {
  stdinUnread?: number;
  /**
   * The bytes of its stdin the command took (`{@link stdinTaken}`): a stdin it shares with the commands after it
   * (a script's, a group's, a loop's) is left to them past that (patches/just-bash/used-stdin-is-consumed.mjs). A
   * command that says nothing and read its stdin took all of it.
   */
  internalStdinConsumed?: number;
}

/**
 * How much of a stdin of `total` bytes a tool took that used only its first `used` bytes and read it `block` bytes
 * at a time. From a regular file, just `used`: GNU head, `grep -m` and `sed q` set the file offset back to just after
 * what they used, as POSIX asks of a utility that stops early on seekable input (XCU 1.4, "Utility Description
 * Defaults", INPUT FILES). From a pipe, every block it read is gone, up to the whole of a short input.
 */
export function stdinTaken(total: number, used: number, regular: boolean, block: number): number {
  if (regular || used <= 0) return Math.max(0, Math.min(total, used));
  return Math.min(total, Math.ceil(used / block) * block);
}

export interface InputCtx {
  fs: IFileSystem;
  cwd: string;
  stdin: ByteString;
  /** Set (by the interpreter) when the command's stdin is closed (`<&-`): reading it fails with EBADF. */
  stdinClosed?: boolean;
  /** Set (by the interpreter) when the command's stdin is redirected from a regular file (`< f`), as fstat tells GNU. */
  stdinRegular?: boolean;
}


/** The error text of a failed fs call (`No such file or directory`, …). */
export const errnoText = (err: unknown): string => posixText((err as { code?: string }).code) ?? (err as Error).message;

/**
 * The bytes of operand `name` (`-` is stdin), or the GNU error text of reading it. A closed stdin's error is marked
 * `readFailed`: the tool had it open and its read failed, so tools that report on what they read (`od`'s final
 * offset, `cksum`'s empty sum) still do. A tool that stops after `want` bytes (`head -c N`) gets exactly that many of
 * an endless device (`/dev/zero`, `/dev/urandom`) rather than the device's fixed-size read; more than the engine
 * keeps in memory is an error marked `refused` (the tool refuses loudly).
 */
export async function readOperand(ctx: InputCtx, name: string, want?: number): Promise<{ bytes: string; regular: boolean } | { error: string; readFailed?: boolean; refused?: boolean }> {
  if (isStdinOperand(name)) return ctx.stdinClosed ? { error: posixText('EBADF')!, readFailed: true } : { bytes: latin1FromBytes(ctx.stdin), regular: ctx.stdinRegular === true };
  const path = ctx.fs.resolvePath(ctx.cwd, name);
  if (want !== undefined && isEndlessDevice(path)) {
    try {
      return { bytes: Buffer.from(endlessBytes(path, want)).toString('latin1'), regular: false };
    } catch (err) {
      return { error: (err as Error).message, refused: true };
    }
  }
  try {
    const st = await ctx.fs.stat(path);
    if (st.isDirectory) return { error: posixText('EISDIR')! };
    // A device (`/dev/null`) is no regular file: GNU wc sizes its columns for it as for a pipe. Neither is a
    // process substitution's `/dev/fd/N`, a pipe on Linux.
    const pipe = path.startsWith('/dev/fd/') || path.startsWith('/proc/self/fd/');
    return { bytes: Buffer.from(await ctx.fs.readFileBuffer(path)).toString('latin1'), regular: !ownerOf(st).device && !pipe };
  } catch (err) {
    return { error: errnoText(err) };
  }
}

/**
 * Walks `args` as GNU's getopt does: each option word (`-x…`, `--name[=value]`) goes to `option`, with `next()`
 * taking the following word as its value (undefined when there is none); every other word, and all after `--`, is
 * an operand. Returns the operands, or the first result `option` returns (an error).
 */
export function walkArgs<R>(args: string[], option: (word: string, next: () => string | undefined) => R | undefined): { operands: string[] } | { failed: R } {
  const operands: string[] = [];
  let i = 0;
  const next = () => (i + 1 < args.length ? args[++i] : undefined);
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { operands: [...operands, ...args.slice(i + 1)] };
    if (a.startsWith('-') && a.length > 1) {
      const r = option(a, next);
      if (r !== undefined) return { failed: r };
    } else operands.push(a);
  }
  return { operands };
}

/**
 * A tool's output `out` (a byte string): written to `target` when one is named (not `-`), else as stdout. A file
 * that cannot be written gives `failure(errno text)`.
 */
export async function deliver(ctx: InputCtx, out: string, target: string | undefined, failure: (why: string) => ExecResult): Promise<ExecResult> {
  if (target === undefined || target === '-') return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: '', exitCode: 0 };
  try {
    await ctx.fs.writeFile(ctx.fs.resolvePath(ctx.cwd, target), Buffer.from(out, 'latin1'));
  } catch (err) {
    return failure(errnoText(err));
  }
  return { stdout: '', stderr: '', exitCode: 0 };
}

/**
 * Walks the options before the first operand, for commands whose operands start a command or a program (`xargs
 * CMD…`, `awk PROGRAM…`): each option word goes to `option`, with `next()` taking the following word; `--` ends
 * the options. Returns the index of the first operand, or the first result `option` returns (an error).
 */
export function leadingOptions<R>(args: string[], option: (word: string, next: () => string | undefined) => R | undefined): { index: number } | { failed: R } {
  let i = 0;
  const next = () => args[++i];
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { index: i + 1 };
    if (!a.startsWith('-') || a === '-') break;
    const r = option(a, next);
    if (r !== undefined) return { failed: r };
  }
  return { index: i };
}
