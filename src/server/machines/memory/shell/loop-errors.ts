/**
 * ELOOP in the messages of just-bash's file commands: its `cat`, `head`, `wc`… word every failure to open an
 * operand as `No such file or directory`, even when the operand is a symlink loop, which bash reports as
 * `Too many levels of symbolic links` (and the fs API answers ELOOP). It owns that correction of a command's
 * stderr only; the filesystem adapter (bash-fs.ts) already throws the VFS's ELOOP, and which commands are wrapped
 * is world.ts's choice.
 * @see docs/fidelity.md "What the shell engine cannot do" (the symlink loop row)
 */
import type { ExecResult, IFileSystem } from 'just-bash';

const ENOENT_TEXT = 'No such file or directory';
const ELOOP_TEXT = 'Too many levels of symbolic links';

/**
 * Returns `result` with each `<operand>: No such file or directory` in its stderr reworded as
 * `<operand>: Too many levels of symbolic links` when that operand (an argument not starting with `-`, resolved
 * against `cwd`) is a symlink loop: `fs.stat` fails with code `ELOOP`. Costs nothing unless stderr has an ENOENT
 * line; never throws (an operand that cannot be judged is left as it is).
 */
export async function withLoopErrors(result: ExecResult, args: readonly string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  if (!result.stderr.includes(ENOENT_TEXT)) return result;
  let stderr = result.stderr;
  for (const arg of new Set(args)) {
    if (arg.startsWith('-') || (!stderr.includes(`${arg}: ${ENOENT_TEXT}`) && !stderr.includes(`${arg}': ${ENOENT_TEXT}`))) continue;
    if (!(await isLoop(fs, fs.resolvePath(cwd, arg)))) continue;
    stderr = stderr.split(`${arg}: ${ENOENT_TEXT}`).join(`${arg}: ${ELOOP_TEXT}`).split(`${arg}': ${ENOENT_TEXT}`).join(`${arg}': ${ELOOP_TEXT}`);
  }
  return stderr === result.stderr ? result : { ...result, stderr };
}

async function isLoop(fs: IFileSystem, path: string): Promise<boolean> {
  try {
    await fs.stat(path);
    return false;
  } catch (err) {
    return (err as { code?: unknown }).code === 'ELOOP';
  }
}
