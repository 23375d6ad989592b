/**
 * The GNU `pwd` program (what `/bin/pwd` and `env pwd` run; bash's builtin `pwd` stays the interpreter's): physical by default (`-P`), logical only with `-L` or when
 * POSIXLY_CORRECT is set. The logical name is `$PWD` when it is absolute, has no `.` or `..` component and names
 * the working directory itself; otherwise the physical name is printed. Options: `-L`, `-P`, `--logical`,
 * `--physical` (the last one given wins; a long option may be abbreviated); operands are ignored with a warning.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/pwd-invocation.html; pwd.c (logical_getcwd)
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { inodeNumber } from './devices.ts';
import { errorsFirst } from './output-order.ts';
import { gnuStandardText } from './gnu-help.ts';

const usage = (what: string): ExecResult => ({ stdout: '', stderr: `pwd: ${what}\nTry 'pwd --help' for more information.\n`, exitCode: 1 });

/** `$PWD` when it may name the working directory (absolute, no `.`/`..` component) and does; else null. */
async function logicalName(fs: IFileSystem, pwd: string | undefined, physical: string): Promise<string | null> {
  if (!pwd?.startsWith('/') || /\/\.\.?(\/|$)/.test(pwd)) return null;
  try {
    const [a, b] = await Promise.all([fs.stat(pwd), fs.stat(physical)]);
    return a.isDirectory && inodeNumber(a, await fs.realpath(pwd)) === inodeNumber(b, physical) ? pwd : null;
  } catch {
    return null;
  }
}

async function pwd(args: string[], fs: IFileSystem, cwd: string, env: Record<string, string>): Promise<ExecResult> {
  let logical = env.POSIXLY_CORRECT !== undefined;
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands += args.length - i - 1;
      break;
    }
    if (a.startsWith('--')) {
      // getopt_long: any prefix of a long option names it (each starts with its own letter).
      const long = ['--logical', '--physical', '--help', '--version'].find((l) => l.startsWith(a));
      if (!long) return usage(`unrecognized option '${a}'`);
      if (long === '--help' || long === '--version') return { stdout: gnuStandardText('pwd', long) ?? '', stderr: '', exitCode: 0 };
      logical = long === '--logical';
    }
    else if (a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (c !== 'L' && c !== 'P') return usage(`invalid option -- '${c}'`);
        logical = c === 'L';
      }
    } else operands++;
  }
  const stderr = operands ? 'pwd: ignoring non-option arguments\n' : '';
  let physical: string;
  try {
    physical = await fs.realpath(cwd);
  } catch {
    physical = cwd;
  }
  const name = logical ? ((await logicalName(fs, env.PWD, physical)) ?? physical) : physical;
  // The warning is error()'s, written before anything is printed.
  return errorsFirst({ stdout: `${name}\n`, stderr, exitCode: 0 });
}

/**
 * The `pwd` program for just-bash's `customCommands`; run as bash's builtin (the context says `builtin`, see
 * patches/just-bash/tell-builtin-context.mjs) it stays just-bash's own, logical one.
 */
export function pwdCommand(): CustomCommand {
  return defineCommand('pwd', (args, ctx) => {
    if ((ctx as { builtin?: boolean }).builtin && ctx.origCommand) return ctx.origCommand(args);
    return pwd(args, ctx.fs, ctx.cwd, ctx.exportedEnv ?? Object.fromEntries(ctx.env));
  });
}
