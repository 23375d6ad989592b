/**
 * What a command that runs another program (env, xargs, nice, nohup…) hands the shell for it: such a command execs
 * a program (execvp: the name looked up in PATH), never a shell builtin, so a name bash has as a builtin (`pwd`,
 * `echo`, `kill`) is given as the path of the program PATH finds for it; the builtin and the program can differ
 * (the `pwd` program is physical by default). Any other name is left for the shell to look up.
 * @see execvp(3); bash manual "Shell Builtin Commands"
 */
import type { CommandContext, IFileSystem } from 'just-bash';
import { BUILTINS } from './shell-level.ts';

/** The search path execvp(3) uses when the environment has no `PATH` (glibc's default). */
const EXECVP_DEFAULT_PATH = '/bin:/usr/bin';

/**
 * The first executable regular file `name` (a word without `/`) in the directories of `path` (a PATH value; an
 * empty entry is the current directory `cwd`; undefined: glibc's default), as execvp(3) searches; null when none.
 */
export async function findOnPath(fs: IFileSystem, cwd: string, name: string, path: string | undefined): Promise<string | null> {
  for (const dir of (path ?? EXECVP_DEFAULT_PATH).split(':')) {
    const file = fs.resolvePath(cwd, `${dir === '' ? '.' : dir}/${name}`);
    const st = await fs.stat(file).catch(() => null);
    if (st?.isFile && (st.mode & 0o111) !== 0) return file;
  }
  return null;
}

/**
 * The program `name` runs: `name` itself unless it is a bash builtin's name without a slash, else the file
 * {@link findOnPath} finds for it, or null when none is.
 */
export async function programPath(fs: IFileSystem, cwd: string, name: string, path: string | undefined): Promise<string | null> {
  if (name.includes('/') || !BUILTINS.has(name)) return name;
  return findOnPath(fs, cwd, name, path);
}

/** `argv` with its program named as {@link programPath} finds it in the command's PATH (left as it is when not found). */
export async function programArgv(ctx: CommandContext, argv: string[]): Promise<string[]> {
  if (argv.length === 0) return argv;
  const path = ctx.exportedEnv ? ctx.exportedEnv.PATH : ctx.env.get('PATH');
  return [(await programPath(ctx.fs, ctx.cwd, argv[0]!, path)) ?? argv[0]!, ...argv.slice(1)];
}
