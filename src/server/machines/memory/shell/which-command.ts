/**
 * `which` as a sprite's Debian/Ubuntu has it (debianutils' `/usr/bin/which`, a POSIX sh script): `-a` is its only
 * option (read with sh's getopts, so `-s` or `--skip-alias` is an illegal option, exit 2); a name with a slash is
 * printed as given when it is an executable file; any other is looked up on PATH (an empty element is `.`).
 * @see debianutils' which(1) and its script
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { errorsFirst } from './output-order.ts';

/** Whether `path` (relative to `cwd`) is a regular file with an execute bit, as `[ -f P ] && [ -x P ]` tests. */
async function executable(fs: IFileSystem, cwd: string, path: string): Promise<boolean> {
  try {
    const st = await fs.stat(fs.resolvePath(cwd, path));
    return st.isFile && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * `which [-a] NAME...`: each NAME's first match (all with `-a`) on stdout; status 0 when every NAME was found,
 * 1 otherwise (and with no NAME). An option other than `-a` prints dash's `Illegal option -X` on stderr and the
 * script's usage line on stdout, status 2.
 */
async function which(args: string[], fs: IFileSystem, cwd: string, env: Map<string, string>): Promise<ExecResult> {
  let all = false;
  let i = 0;
  // sh's getopts: clusters of option letters up to `--` or the first operand.
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (const c of a.slice(1)) {
      if (c !== 'a') return errorsFirst({ stdout: 'Usage: /usr/bin/which [-a] args\n', stderr: `Illegal option -${c}\n`, exitCode: 2 });
      all = true;
    }
  }
  const names = args.slice(i);
  let path = env.get('PATH') ?? '';
  if (/[^:]:$/.test(path)) path += ':';
  // The script splits PATH with IFS=':' (a trailing empty field is dropped, as sh's field splitting does).
  const dirs = path === '' ? [] : path.replace(/:$/, '').split(':');
  let out = '';
  let status = names.length === 0 ? 1 : 0;
  for (const name of names) {
    let found = false;
    if (name.includes('/')) {
      found = await executable(fs, cwd, name);
      if (found) out += `${name}\n`;
    } else {
      for (const dir of dirs) {
        const candidate = `${dir || '.'}/${name}`;
        if (!(await executable(fs, cwd, candidate))) continue;
        out += `${candidate}\n`;
        found = true;
        if (!all) break;
      }
    }
    if (!found) status = 1;
  }
  return { stdout: out, stderr: '', exitCode: status };
}

/** The `which` command, for just-bash's `customCommands`. */
export function whichCommand(): CustomCommand {
  return defineCommand('which', async (args, ctx) => which(args, ctx.fs, ctx.cwd, ctx.env));
}
