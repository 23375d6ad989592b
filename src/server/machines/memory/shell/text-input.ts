/**
 * Reading the input operands of the shell engine's own text tools, as GNU coreutils reads them: `-` (or no operand)
 * is stdin (so are `/dev/stdin` and `/dev/fd/0`), a file is read whole as a byte string (one char per byte), and a failure is worded as GNU words it
 * (`wc: nope: No such file or directory`, `… Is a directory`).
 */
import { latin1FromBytes, type IFileSystem, type ByteString } from 'just-bash';

/** The paths that name the command's own stdin. */
const STDIN_PATHS = new Set(['/dev/stdin', '/proc/self/fd/0', '/dev/fd/0']);

/** What a text tool needs of just-bash's command context. */
export interface InputCtx {
  fs: IFileSystem;
  cwd: string;
  stdin: ByteString;
}

const ERRORS: Record<string, string> = { ENOENT: 'No such file or directory', EACCES: 'Permission denied', ENOTDIR: 'Not a directory', EISDIR: 'Is a directory', ELOOP: 'Too many levels of symbolic links' };

/** The error text of a failed fs call (`No such file or directory`, …). */
export const errnoText = (err: unknown): string => ERRORS[(err as { code?: string }).code ?? ''] ?? (err as Error).message;

/** The bytes of operand `name` (`-` is stdin), or the GNU error text of reading it. */
export async function readOperand(ctx: InputCtx, name: string): Promise<{ bytes: string; regular: boolean } | { error: string }> {
  if (name === '-' || STDIN_PATHS.has(name)) return { bytes: latin1FromBytes(ctx.stdin), regular: false };
  const path = ctx.fs.resolvePath(ctx.cwd, name);
  try {
    const st = await ctx.fs.stat(path);
    if (st.isDirectory) return { error: ERRORS.EISDIR! };
    return { bytes: Buffer.from(await ctx.fs.readFileBuffer(path)).toString('latin1'), regular: true };
  } catch (err) {
    return { error: errnoText(err) };
  }
}
