/**
 * Everyday GNU coreutils commands just-bash lacks, and `sudo`, for the `shell` engine's command table: `id`,
 * `groups`, `sudo`, `mktemp`, `install`, `realpath`. Each behaves as its GNU (or sudo 1.9) namesake for the forms
 * listed on it, and refuses any other option loudly (exit 2, `<cmd>: option <opt> is not available in the shell
 * engine; run spritzer with --exec sandbox`), so it never answers silently wrong.
 * @see https://www.gnu.org/software/coreutils/manual/ (id, groups, mktemp, install, realpath), sudo(8);
 *   docs/fidelity.md "shell engine"
 */
import { notOnPath, programNotFound, reportExecFailure } from './exec-failure.ts';
import { randomBytes } from 'node:crypto';
import { exported } from './child-environment.ts';
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { localeQuote } from './gnu-quote.ts';
import { gnuOptionStatus, gnuRejection } from './gnu-options.ts';
import { OrderedOutput } from './output-order.ts';
import { runsAsRoot } from './run-as.ts';
import { canonical, joined } from './canonical-path.ts';
import { execOnOwnStdin } from './inherited-stdin.ts';
import { detachName } from './replace-file.ts';
import { programArgv } from './program-path.ts';
import { ACCOUNTS, GROUP_NAMES, ROOT_ACCOUNT, SPRITE_ACCOUNT } from '../accounts.ts';

const HINT = 'run spritzer with --exec sandbox';
const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });
/**
 * The loud refusal of an option this emulation does not do (`-T`, `--zap=3`, or words naming a form), unless GNU's
 * `cmd` lacks the option too: then GNU's own rejection, its usage tail and status (gnu-options.ts).
 */
export const unsupported = (cmd: string, opt: string): ExecResult =>
  (/^(--[^=\s]+(=[^]*)?|-[^-\s])$/.test(opt) && gnuOptionStatus(cmd, opt)?.kind === 'unknown' ? gnuRejection(cmd, opt) : undefined) ??
  fail(`${cmd}: option ${opt} is not available in the shell engine; ${HINT}\n`, 2);

/** Whether the command runs under this module's `sudo` (it sets SUDO_UID and USER=root, as sudo(8) does). */
const isRoot = runsAsRoot;

/** Splits `-abc` into flags and `--x=y` into name and value; returns the operands after the options. */
function parseOptions(args: string[], withValue: ReadonlySet<string>): { flags: Map<string, string | true>; operands: string[]; bad?: string } {
  const flags = new Map<string, string | true>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      if (withValue.has(name)) flags.set(name, eq < 0 ? (args[++i] ?? '') : a.slice(eq + 1));
      else flags.set(name, true);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = `-${a[j]}`;
        if (withValue.has(f)) {
          flags.set(f, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
          break;
        }
        flags.set(f, true);
      }
    } else operands.push(a);
  }
  return { flags, operands };
}

/** The first flag of `flags` not in `known`, if any. */
const unknownFlag = (flags: Map<string, unknown>, known: string[]) => [...flags.keys()].find((f) => !known.includes(f));

/**
 * `groups [USER…]`: the user's group names; with operands, a `USER : groups` line for each, an unknown one reported
 * (`groups: ‘x’: no such user`, status 1) without stopping the others, as GNU groups does.
 */
function groups(args: string[], env: Map<string, string>): ExecResult {
  const users = args[0] === '--' ? args.slice(1) : args;
  const option = args[0] !== '--' ? args.find((a) => a.startsWith('-') && a !== '-') : undefined;
  if (option !== undefined) {
    const what = option.startsWith('--') ? `unrecognized option '${option}'` : `invalid option -- '${option[1]}'`;
    return fail(`groups: ${what}\nTry 'groups --help' for more information.\n`);
  }
  if (users.length === 0) return id(['-Gn'], env);
  let stdout = '';
  let stderr = '';
  for (const who of users) {
    const r = id(['-Gn', '--', who], env);
    if (r.exitCode === 0) stdout += `${who} : ${r.stdout}`;
    else stderr += r.stderr.replace(/^id:/, 'groups:');
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** `whoami`: the user's name; an operand is GNU's usage error (status 1), an option it lacks is refused loudly. */
function whoami(args: string[], env: Map<string, string>): ExecResult {
  const [first] = args[0] === '--' ? args.slice(1) : args;
  if (args[0] !== '--' && first !== undefined && first.startsWith('-') && first !== '-') return unsupported('whoami', first);
  if (first !== undefined) return fail(`whoami: extra operand ${localeQuote(env, first)}\nTry 'whoami --help' for more information.\n`);
  return ok(`${isRoot(env) ? ROOT_ACCOUNT.name : SPRITE_ACCOUNT.name}\n`);
}

/**
 * `id [-u|-g|-G] [-n] [-r] [USER]` as GNU id prints it for the sprite's users (the sprite user, root under `sudo`):
 * `uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)` (accounts.ts).
 */
function id(args: string[], env: Map<string, string>): ExecResult {
  const { flags, operands } = parseOptions(args, new Set());
  // A sprite's kernel has no SELinux: GNU id's answer to a security context request there.
  if (flags.has('-Z') || flags.has('--context')) return fail('id: --context (-Z) works only on an SELinux-enabled kernel\n');
  // `-a` is accepted and ignored, as GNU does (a compatibility option).
  const bad = unknownFlag(flags, ['-a', '-u', '-g', '-G', '-n', '-r', '--user', '--group', '--groups', '--name', '--real']);
  if (bad) return unsupported('id', bad);
  if (operands.length > 1) return fail(`id: extra operand ${localeQuote(env, operands[1]!)}\nTry 'id --help' for more information.\n`);
  const who = operands[0];
  const user = who === undefined ? (isRoot(env) ? ROOT_ACCOUNT : SPRITE_ACCOUNT) : ACCOUNTS.find((u) => u.name === who || String(u.uid) === who);
  if (!user) return fail(`id: ${localeQuote(env, who!)}: no such user\n`);
  const name = flags.has('-n') || flags.has('--name');
  const g = (n: number) => (name ? (GROUP_NAMES[n] ?? String(n)) : String(n));
  if (flags.has('-u') || flags.has('--user')) return ok(`${name ? user.name : user.uid}\n`);
  if (flags.has('-g') || flags.has('--group')) return ok(`${g(user.gid)}\n`);
  if (flags.has('-G') || flags.has('--groups')) return ok(`${user.groups.map(g).join(' ')}\n`);
  if (name) return fail('id: cannot print only names or real IDs in default format\n');
  const groups = user.groups.map((n) => `${n}(${GROUP_NAMES[n]})`).join(',');
  return ok(`uid=${user.uid}(${user.name}) gid=${user.gid}(${GROUP_NAMES[user.gid]}) groups=${groups}\n`);
}

/**
 * `sudo [-n] [-E] [-H] [-u root] [--] CMD…`: runs CMD as root. A sprite has one user with passwordless sudo, so
 * the command just runs, with sudo's environment changes (USER, LOGNAME, HOME=/root, SUDO_USER/UID/GID/COMMAND).
 * The command (and any shell it starts) acts as root on the sprite's files: no permission checks, and what it
 * creates is root's (bash-fs.ts, by the environment set here).
 */
async function sudo(args: string[], ctx: Parameters<Parameters<typeof defineCommand>[1]>[1]): Promise<ExecResult> {
  let i = 0;
  let preserve = false;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-')) break;
    if (a === '-n' || a === '--non-interactive' || a === '-H' || a === '--set-home' || a === '-S' || a === '--stdin') continue;
    if (a === '-E' || a === '--preserve-env') {
      preserve = true;
      continue;
    }
    if ((a === '-u' || a === '--user') && (args[i + 1] === 'root' || args[i + 1] === '0' || args[i + 1] === '#0')) {
      i++;
      continue;
    }
    return unsupported('sudo', a);
  }
  const command = args.slice(i);
  if (command.length === 0) return fail('usage: sudo -h | -K | -k | -V\nusage: sudo [-n] [-E] [-u user] command [arg ...]\n');
  const env: Record<string, string> = exported(ctx);
  if (!preserve) for (const k of Object.keys(env)) if (!['PATH', 'TERM', 'LANG', 'LC_ALL', 'DISPLAY', 'COLORTERM'].includes(k)) delete env[k];
  // sudo removes exported shell functions (a value starting with `()`) whatever it keeps (sudoers(5) "Command environment").
  for (const [k, v] of Object.entries(env)) if (v.startsWith('()')) delete env[k];
  Object.assign(env, {
    USER: 'root',
    LOGNAME: 'root',
    HOME: '/root',
    SHELL: '/bin/bash',
    SUDO_USER: SPRITE_ACCOUNT.name,
    SUDO_UID: String(SPRITE_ACCOUNT.uid),
    SUDO_GID: String(SPRITE_ACCOUNT.gid),
    SUDO_COMMAND: command.join(' '),
  });
  // Exported in the script: just-bash passes an exec's `env` option to nested shells only when exported.
  const exports = `export ${Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')}`;
  // sudo looks the command up itself (programs only): a missing program and a directory are both `command not
  // found`, status 1; it execs the program, never the shell's builtin of its name (program-path.ts).
  const failed = () => `sudo: ${command[0]}: command not found`;
  if (await notOnPath(ctx.fs, ctx.cwd, command[0]!, env.PATH)) return programNotFound(failed, () => 1);
  const program = await programArgv(ctx, command);
  const r = await execOnOwnStdin(ctx, `${exports}; ${program.map(shellQuote).join(' ')}`, { cwd: ctx.cwd, env, replaceEnv: true });
  return reportExecFailure(r, command[0]!, failed, () => 1);
}

const TEMPLATE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** `template` with its last run of X's (the one ending where its suffix begins) replaced by random characters. */
function fillTemplate(template: string, suffixLength: number): string {
  const head = template.slice(0, template.length - suffixLength);
  const m = /X*$/.exec(head)!;
  const bytes = randomBytes(m[0].length);
  return head.slice(0, m.index) + [...bytes].map((b) => TEMPLATE_CHARS[b % TEMPLATE_CHARS.length]).join('') + template.slice(head.length);
}

/**
 * `mktemp [-d] [-u] [-q] [-t] [-p DIR] [--suffix=S] [TEMPLATE]`: creates a file (0600) or directory (0700) with a
 * unique name; the default template is `tmp.XXXXXXXXXX` in `$TMPDIR` or `/tmp`. A template needs 3 or more X's.
 */
async function mktemp(args: string[], fs: IFileSystem, cwd: string, env: Map<string, string>): Promise<ExecResult> {
  const { flags, operands } = parseOptions(args, new Set(['-p', '--tmpdir', '--suffix']));
  const bad = unknownFlag(flags, ['-d', '--directory', '-u', '--dry-run', '-q', '--quiet', '-t', '-p', '--tmpdir', '--suffix']);
  if (bad) return unsupported('mktemp', bad);
  if (operands.length > 1) return fail(`mktemp: too many templates\nTry 'mktemp --help' for more information.\n`);
  const quiet = flags.has('-q') || flags.has('--quiet');
  const given = flags.get('--suffix');
  const asTemplate = operands[0] ?? 'tmp.XXXXXXXXXX';
  const q = (text: string) => localeQuote(env, text);
  // GNU: without --suffix, whatever follows the template's last X is its suffix; with it, the template ends in X.
  // A bad template is reported even with -q, which hides only the failure to create the file (mktemp.c).
  if (typeof given === 'string' && !asTemplate.endsWith('X')) return fail(`mktemp: with --suffix, template ${q(asTemplate)} must end in X\n`);
  const suffix = typeof given === 'string' ? given : asTemplate.slice(asTemplate.lastIndexOf('X') + 1);
  if (suffix.includes('/')) return fail(`mktemp: invalid suffix ${q(suffix)}, contains directory separator\n`);
  let template = typeof given === 'string' ? asTemplate + suffix : asTemplate;
  const tmpdirFlag = flags.get('-p') ?? flags.get('--tmpdir');
  const base = (typeof tmpdirFlag === 'string' && tmpdirFlag) || env.get('TMPDIR') || '/tmp';
  if (!/XXX$/.test(template.slice(0, template.length - suffix.length))) return fail(`mktemp: too few X's in template ${q(asTemplate)}\n`);
  const inDir = operands[0] === undefined || flags.has('-t') || tmpdirFlag !== undefined;
  if (inDir) {
    if (asTemplate.includes('/')) return fail(`mktemp: invalid template, ${q(asTemplate)}, contains directory separator\n`);
    template = `${base.replace(/\/+$/, '')}/${template}`;
  }
  const dir = flags.has('-d') || flags.has('--directory');
  for (let attempt = 0; attempt < 100; attempt++) {
    const name = fillTemplate(template, suffix.length);
    const path = fs.resolvePath(cwd, name);
    if (await fs.exists(path)) continue;
    if (flags.has('-u') || flags.has('--dry-run')) return ok(`${name}\n`);
    try {
      if (dir) {
        await fs.mkdir(path);
        await fs.chmod(path, 0o700);
      } else {
        await fs.writeFile(path, '');
        await fs.chmod(path, 0o600);
      }
    } catch (err) {
      return fail(quiet ? '' : `mktemp: failed to create ${dir ? 'directory' : 'file'} via template ${q(template)}: ${describe(err)}\n`);
    }
    return ok(`${name}\n`);
  }
  return fail(quiet ? '' : `mktemp: failed to create file via template ${q(template)}: File exists\n`);
}

const ERRNO: Record<string, string> = {
  ENOENT: 'No such file or directory',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EEXIST: 'File exists',
  EACCES: 'Permission denied',
  ELOOP: 'Too many levels of symbolic links',
};
const describe = (err: unknown) => ERRNO[(err as { code?: string }).code ?? ''] ?? (err as Error).message;

/** A GNU mode operand (octal only here); null for a symbolic mode. */
const octalMode = (m: string) => (/^[0-7]{1,4}$/.test(m) ? parseInt(m, 8) : null);

/**
 * `install [-d] [-D] [-C] [-m MODE] [-v] SRC… DEST`: copies files (mode 0755 unless `-m`) or makes directories (`-d`,
 * with parents, mode 0755 unless `-m`); `-D` makes DEST's missing parents; `-C` leaves a destination that already
 * has the same bytes and mode untouched. Symbolic modes and owners are refused.
 */
/** The first component of relative-or-absolute `dir` that exists and is not a directory (or `dir` itself), as named. */
async function firstBlocked(fs: IFileSystem, cwd: string, dir: string): Promise<string> {
  const parts = dir.split('/');
  for (let k = 1; k <= parts.length; k++) {
    const prefix = parts.slice(0, k).join('/');
    if (!prefix) continue;
    const st = await fs.stat(fs.resolvePath(cwd, prefix)).catch(() => null);
    if (st && !st.isDirectory) return prefix;
  }
  return dir;
}

async function install(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const { flags, operands } = parseOptions(args, new Set(['-m', '--mode', '-t', '--target-directory']));
  const bad = unknownFlag(flags, ['-d', '--directory', '-D', '-m', '--mode', '-v', '--verbose', '-t', '--target-directory', '-c', '-C', '--compare']);
  if (bad) return unsupported('install', bad);
  const modeText = (flags.get('-m') ?? flags.get('--mode')) as string | undefined;
  const mode = modeText === undefined ? 0o755 : octalMode(modeText);
  if (mode === null) return unsupported('install', `-m ${modeText} (symbolic modes)`);
  const verbose = flags.has('-v') || flags.has('--verbose');
  const compare = flags.has('-C') || flags.has('--compare');
  let stdout = '';
  let stderr = '';
  const abs = (p: string) => fs.resolvePath(cwd, p);
  if (flags.has('-d') || flags.has('--directory')) {
    if (operands.length === 0) return fail("install: missing operand\nTry 'install --help' for more information.\n");
    for (const d of operands) {
      try {
        await mkdirs(fs, abs(d), verbose ? (p) => (stdout += `install: creating directory '${p}'\n`) : undefined, cwd);
        await fs.chmod(abs(d), mode);
      } catch (err) {
        stderr += `install: cannot create directory '${d}': ${describe(err)}\n`;
      }
    }
    return { stdout, stderr, exitCode: stderr ? 1 : 0 };
  }
  const target = (flags.get('-t') ?? flags.get('--target-directory')) as string | undefined;
  const sources = target === undefined ? operands.slice(0, -1) : operands;
  const dest = target ?? operands[operands.length - 1];
  if (dest === undefined || sources.length === 0) {
    return fail(operands.length === 1 ? `install: missing destination file operand after '${operands[0]}'\nTry 'install --help' for more information.\n` : "install: missing file operand\nTry 'install --help' for more information.\n");
  }
  if (flags.has('-D')) {
    // The directory as the user named it: DEST itself for several sources or -t, else DEST without its last name.
    const named = sources.length > 1 || target !== undefined ? dest : dest.replace(/\/+$/, '').replace(/\/?[^/]*$/, '') || (dest.startsWith('/') ? '/' : '.');
    try {
      await mkdirs(fs, abs(named), verbose ? (p) => (stdout += `install: creating directory '${p}'\n`) : undefined, cwd);
    } catch (err) {
      return fail(`install: cannot create directory '${await firstBlocked(fs, cwd, named)}': ${describe(err)}\n`);
    }
  }
  const destIsDir = await isDir(fs, abs(dest));
  // One source to a DEST written with a trailing slash: DEST must be a directory (GNU opens `DEST/` as the file).
  if (!destIsDir && sources.length === 1 && target === undefined && dest.endsWith('/')) {
    // Whether anything is at the name itself: `f/` after a file looks up as nothing (ENOTDIR).
    return fail((await fs.exists(abs(dest.replace(/\/+$/, '') || '/'))) ? `install: cannot stat '${dest}': Not a directory\n` : `install: cannot create regular file '${dest}': Not a directory\n`);
  }
  if (sources.length > 1 && !destIsDir) return fail(`install: target '${dest}' is not a directory\n`);
  for (const src of sources) {
    const to = destIsDir ? `${dest.replace(/\/+$/, '')}/${src.replace(/\/+$/, '').split('/').pop()}` : dest;
    try {
      const st = await fs.stat(abs(src));
      if (st.isDirectory) {
        stderr += `install: omitting directory '${src}'\n`;
        continue;
      }
      const bytes = await fs.readFileBuffer(abs(src));
      // -C: a destination with the same bytes and mode is left as it is (its time too).
      if (compare && (await sameFile(fs, abs(to), bytes, mode))) continue;
      // install removes the destination first and creates a new file: a symlink there is replaced, not followed.
      await detachName(fs, abs(to));
      await fs.writeFile(abs(to), bytes);
      await fs.chmod(abs(to), mode);
      if (verbose) stdout += `'${src}' -> '${to}'\n`;
    } catch (err) {
      const code = (err as { code?: string }).code;
      stderr += code === 'ENOENT' && !(await fs.exists(abs(src))) ? `install: cannot stat '${src}': ${describe(err)}\n` : `install: cannot create regular file '${to}': ${describe(err)}\n`;
    }
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** Whether `path` is a regular file holding `bytes` with permission bits `mode` (install -C's test). */
async function sameFile(fs: IFileSystem, path: string, bytes: Uint8Array, mode: number): Promise<boolean> {
  const st = await fs.lstat(path).catch(() => null);
  if (!st?.isFile || (st.mode & 0o7777) !== mode) return false;
  return Buffer.from(await fs.readFileBuffer(path)).equals(Buffer.from(bytes));
}

async function isDir(fs: IFileSystem, p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory;
  } catch {
    return false;
  }
}

/** `mkdir -p` of `p`, calling `created` with each directory it made (relative to `cwd` when below it). */
async function mkdirs(fs: IFileSystem, p: string, created: ((p: string) => void) | undefined, cwd: string): Promise<void> {
  const parts = p.split('/').filter(Boolean);
  let at = '';
  for (const part of parts) {
    at += `/${part}`;
    if (await fs.exists(at)) {
      if (!(await isDir(fs, at))) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      continue;
    }
    await fs.mkdir(at);
    created?.(at.startsWith(`${cwd}/`) ? at.slice(cwd.length + 1) : at);
  }
}

/**
 * `realpath [-e|-m] [-s] [-q] [--relative-to=DIR] [--relative-base=DIR] FILE…`: the canonical absolute path. By default every component
 * but the last must exist (GNU's default); `-e` needs all, `-m` none; `-s` does not resolve symlinks.
 */
async function realpath(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const { flags, operands } = parseOptions(args, new Set(['--relative-to', '--relative-base']));
  const bad = unknownFlag(flags, ['-e', '--canonicalize-existing', '-m', '--canonicalize-missing', '-s', '--strip', '--no-symlinks', '-q', '--quiet', '--relative-to', '--relative-base', '-z', '--zero']);
  if (bad) return unsupported('realpath', bad);
  if (operands.length === 0) return fail("realpath: missing operand\nTry 'realpath --help' for more information.\n");
  const mustExist = flags.has('-e') || flags.has('--canonicalize-existing');
  const missingOk = flags.has('-m') || flags.has('--canonicalize-missing');
  const noLinks = flags.has('-s') || flags.has('--strip') || flags.has('--no-symlinks');
  const quiet = flags.has('-q') || flags.has('--quiet');
  const end = flags.has('-z') || flags.has('--zero') ? '\0' : '\n';
  const relTo = flags.get('--relative-to') as string | undefined;
  const relBase = flags.get('--relative-base') as string | undefined;
  const dirOf = async (d: string | undefined) => (d === undefined ? undefined : canonical(fs, joined(cwd, d), { mustExist: false, missingOk: true, noLinks }));
  const base = await dirOf(relBase);
  const to = relTo !== undefined ? await dirOf(relTo) : base;
  // --relative-base=DIR: a path is printed relative (to --relative-to, else to DIR) only when it, and that
  // directory, lie below DIR; other paths stay absolute.
  const below = (dir: string, path: string) => dir === '/' || path === dir || path.startsWith(`${dir}/`);
  // GNU realpath reports through error(), which flushes what it printed so far: program order.
  const text = new OrderedOutput();
  for (const name of operands) {
    if (name === '') {
      if (!quiet) text.err(`realpath: '': ${ERRNO.ENOENT}\n`);
      continue;
    }
    try {
      let p = await canonical(fs, joined(cwd, name), { mustExist, missingOk, noLinks });
      if (to !== undefined && (base === undefined || (below(base, p) && below(base, to)))) p = relative(to, p);
      text.out(p + end);
    } catch (err) {
      if (!quiet) text.err(`realpath: ${name}: ${describe(err)}\n`);
    }
  }
  return text.result(text.stderr || (quiet && text.stdout.split(end).length - 1 < operands.length) ? 1 : 0, 'before-errors');
}



function relative(from: string, to: string): string {
  const a = from.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rel = [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
  return rel || '.';
}

/** Names of the commands of {@link gnuCommands} (each needs its `/bin` stub to be found on PATH). */
export const GNU_COMMAND_NAMES: readonly string[] = ['id', 'groups', 'sudo', 'mktemp', 'install', 'realpath', 'whoami'];

/** The commands of this module, for just-bash's `customCommands`. */
export function gnuCommands(): CustomCommand[] {
  return [
    defineCommand('id', async (args, ctx) => id(args, ctx.env)),
    defineCommand('whoami', async (args, ctx) => whoami(args, ctx.env)),
    defineCommand('groups', async (args, ctx) => groups(args, ctx.env)),
    defineCommand('sudo', (args, ctx) => sudo(args, ctx)),
    defineCommand('mktemp', (args, ctx) => mktemp(args, ctx.fs, ctx.cwd, ctx.env)),
    defineCommand('install', (args, ctx) => install(args, ctx.fs, ctx.cwd)),
    defineCommand('realpath', (args, ctx) => realpath(args, ctx.fs, ctx.cwd)),
  ];
}
