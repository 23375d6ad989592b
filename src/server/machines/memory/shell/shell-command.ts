/**
 * `bash` and `sh` as commands of the shell engine: `bash [OPTIONS] -c STRING [NAME [ARG…]]`, `bash [OPTIONS] FILE
 * [ARG…]` and `bash [OPTIONS]` reading its script from stdin, with the options scripts use (`-l`/`--login`, `-e`,
 * `-u`, `-x`, `-o NAME`, `-O SHOPT`, `-n`, `-s`, combined as `-lc`, `-euo pipefail`). A login shell reads the
 * profile files first; a script file streams its output per command when its output is the exec's own (the
 * `STREAMING_SHELL` form output-sink.ts rewrites it to), and so does an executable shell script run by path
 * (`./run.sh`); a native program run by path there fails loudly. It owns the options and the script's source;
 * running is just-bash's (`ctx.exec`).
 * @see bash(1) "INVOCATION", "OPTIONS"
 */
import { isStdinOperand } from './text-input.ts';
import { rewriteJobControl } from './jobs.ts';
import { SINK_DIR } from './sink-dir.ts';
import { decodeBytesToUtf8, defineCommand, latin1FromBytes, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { DASH_PREAMBLE, dashResult } from './dash-flavour.ts';
import { shellQuote } from '../argv.ts';
import { BASH_FALLBACKS, bashVariables, exported, startingPath } from './env-command.ts';
import { nextShellLevel, withLastCommandLevel } from './shell-level.ts';
import { ULIMIT_VARIABLE } from './sysinfo-commands.ts';
import { NICE_VARIABLE } from './coreutils-extra.ts';
import { commandStringPlace, diagnose, scriptFilePlace, stdinPlace, withSyntaxRecovery, type ErrorPlace } from './syntax-errors.ts';

/** The command a `bash`/`sh`/`./script` whose output is the exec's own is rewritten to: `STREAMING_SHELL NAME ARG…`. */
export const STREAMING_SHELL = '__spritzer_run';

/** How one invocation of a shell reads its script, as its options say. */
export interface ShellInvocation {
  /** `-c`: the script is the first operand. */
  command: boolean;
  /** `-l`, `--login`. */
  login: boolean;
  /** `-i`: an interactive shell (it reads its rc file; `$-` has `i`). */
  interactive?: boolean;
  /** `--norc`: no rc file; `--rcfile FILE`: that one instead of `~/.bashrc`. */
  rcfile?: string | null;
  /** `-n`: read and check the script, run nothing. */
  noexec: boolean;
  /** `-s`, or no operand: the script comes from stdin. */
  stdin: boolean;
  /** `set` words for the options given (`-e`, `-o pipefail`, `+o posix`). */
  sets: string[];
  /** `shopt -s`/`-u` words for `-O NAME` / `+O NAME`. */
  shopts: Array<[flag: '-s' | '-u', name: string]>;
  /** The operands (script or file first, then `$0`/`$1`…). */
  operands: string[];
  /** `--version`: print the version text and exit 0, running nothing. */
  version?: boolean;
}

/**
 * What `bash --version` prints: the release `$BASH_VERSION` names (patches/just-bash/shell-variables.mjs, bash 5.2.37
 * as Ubuntu ships it) and bash's own copyright and licence lines (bash's version.c, show_shell_version).
 */
export const BASH_VERSION_TEXT =
  'GNU bash, version 5.2.37(1)-release (x86_64-pc-linux-gnu)\nCopyright (C) 2022 Free Software Foundation, Inc.\n' +
  'License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>\n\n' +
  'This is free software; you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n';

/** Single-letter options that are `set` options (bash(1) "OPTIONS": every `set` flag is an invocation flag). */
const SET_FLAGS = new Set('abefhkmnptuvxBCEHPT'.split(''));

/**
 * Reads a shell's arguments as bash does: options up to the first operand or `--`; `-o`/`-O` take the next word.
 * Returns a message (bash's words, exit 2) for an option bash does not have.
 */
export function parseShellArgs(args: string[]): ShellInvocation | { error: string } {
  const inv: ShellInvocation = { command: false, login: false, noexec: false, stdin: false, sets: [], shopts: [], operands: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (arg === '--login') inv.login = true;
    else if (arg === '--version') inv.version = true;
    else if (arg === '--norc') inv.rcfile = null;
    else if (arg === '--noprofile' || arg === '--posix' || arg === '--noediting') continue;
    else if (arg === '--rcfile' || arg === '--init-file') inv.rcfile = args[++i] ?? null;
    else if (arg.startsWith('--')) return { error: `bash: ${arg}: invalid option` };
    else if (/^[-+][A-Za-z]+$/.test(arg)) {
      const on = arg[0] === '-';
      for (const flag of arg.slice(1)) {
        if (flag === 'c' && on) inv.command = true;
        else if (flag === 'l' && on) inv.login = true;
        else if (flag === 's' && on) inv.stdin = true;
        else if (flag === 'i') inv.interactive = on;
        else if (flag === 'o' || flag === 'O') {
          const name = args[++i];
          if (name === undefined) return { error: `bash: ${arg}: option requires an argument` };
          if (flag === 'o') inv.sets.push(`${on ? '-' : '+'}o ${name}`);
          else inv.shopts.push([on ? '-s' : '-u', name]);
        } else if (SET_FLAGS.has(flag)) {
          if (flag === 'n') inv.noexec = on;
          else inv.sets.push(`${on ? '-' : '+'}${flag}`);
        } else return { error: `bash: ${arg[0]}${flag}: invalid option` };
      }
    } else break;
  }
  inv.operands = args.slice(i);
  if (!inv.command && inv.operands.length === 0) inv.stdin = true;
  return inv;
}

const text = (stdout: string, exitCode = 0, stderr = ''): ExecResult => ({ stdout, stderr, exitCode });

/** The profile files a login shell reads, in order, as they exist in `ctx.fs`. */
async function profileFiles(ctx: CommandContext, bash: boolean): Promise<string[]> {
  const exists = async (p: string) => ctx.fs.exists(p).catch(() => false);
  const files: string[] = [];
  if (await exists('/etc/profile')) files.push('/etc/profile');
  else {
    // @deviation With no /etc/profile, a login shell still reads /etc/profile.d/*.sh, as Debian's and Ubuntu's
    // /etc/profile does on a real sprite.
    const names = await ctx.fs.readdir('/etc/profile.d').catch(() => [] as string[]);
    for (const name of [...names].sort()) if (name.endsWith('.sh')) files.push(`/etc/profile.d/${name}`);
  }
  const home = ctx.env.get('HOME');
  if (home) {
    for (const name of bash ? ['.bash_profile', '.bash_login', '.profile'] : ['.profile']) {
      if (await exists(`${home}/${name}`)) {
        files.push(`${home}/${name}`);
        break;
      }
    }
  }
  return files;
}

/**
 * What runs before the script's first line, on that same line so that line numbers stay bash's: the export of the
 * inherited variables and functions, the profile files of a login shell, then the options.
 */
async function preamble(ctx: CommandContext, inv: ShellInvocation, bash: boolean, script: string): Promise<string> {
  const words: string[] = [];
  // What the shell inherits from its environment it exports in turn (`declare -p E` shows `-x`), as do PWD, and for
  // bash SHLVL and OLDPWD (exported even while unset: `env -i bash -c 'export -p'`); dash leaves SHLVL alone.
  const names = [...Object.keys(exported(ctx)), ...(bash ? ['PWD', 'SHLVL', 'OLDPWD'] : ['PWD'])].filter((n, i, all) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n) && all.indexOf(n) === i);
  words.push(`export ${names.join(' ')}`);
  // A function the parent exported (`export -f`) comes as `BASH_FUNC_NAME%%=() { … }`: a bash child defines and
  // exports it (dash ignores them).
  for (const [key, body] of bash ? Object.entries(exported(ctx)) : []) {
    const fn = /^BASH_FUNC_([^=]+)%%$/.exec(key)?.[1];
    if (fn !== undefined && body.startsWith('() {')) words.push(`eval ${shellQuote(`${fn} ${body}`)}`, `export -f ${shellQuote(fn)}`);
  }
  // A script whose commands write to the exec's sinks already (a nested `bash -c '…'` whose text the caller's
  // rewrite streamed) has the files it reads first write there too, so their output keeps its place before it.
  const sinks = streamedSinks(script);
  const startup = [...(inv.login ? (await profileFiles(ctx, bash)).map((file) => `. ${shellQuote(file)}`) : []), ...(bash ? await startupFiles(ctx, inv) : [])];
  words.push(...startup.map((w) => (sinks ? `{ ${w}; } ${sinks}` : w)));
  if (inv.sets.length > 0) words.push(`set ${inv.sets.join(' ')}`);
  const after: string[] = [];
  for (const [flag, name] of inv.shopts) after.push(`shopt ${flag} ${shellQuote(name)}`);
  // The script's `$_` starts as the `_` of the shell's environment (its pathname, which the parent put there), else
  // the shell's name (bash(1) "Special Parameters"); the preamble's own commands must not leave theirs.
  if (bash) after.push(`: ${shellQuote(exported(ctx)._ ?? 'bash')}`);
  // Under -x the commands after `set` would be traced: bash sets its options before the script, untraced.
  const xtrace = inv.sets.some((w) => w === '-o xtrace' || /^-[a-zA-Z]*x/.test(w));
  if (xtrace && after.length > 0) words.push(`{ ${after.join('; ')}; } 2>/dev/null`);
  else words.push(...after);
  return words.length > 0 ? `${words.join('; ')}; ` : '';
}

/** The sink redirections a script's text already carries (output-sink.ts `streamNestedShell`), as one would write them. */
function streamedSinks(script: string): string | null {
  const err = new RegExp(`2>\\| ${SINK_DIR.replace(/[.]/g, '\\.')}(stdout|stderr)`).exec(script);
  return err ? `>| ${SINK_DIR}stdout 2>| ${SINK_DIR}${err[1]}` : null;
}

/**
 * What bash reads at its start besides a login shell's profile (bash(1) "INVOCATION"): an interactive shell that is
 * not a login shell (`-i`) says it has no job control when its stderr is no terminal, sets PS1 and PS2 when unset,
 * and reads /etc/bash.bashrc (Debian's and Ubuntu's system rc file) then `~/.bashrc` (`--rcfile FILE` instead,
 * none with `--norc`); a non-interactive one reads the file `$BASH_ENV` names, if it is there.
 */
async function startupFiles(ctx: CommandContext, inv: ShellInvocation): Promise<string[]> {
  const exists = async (p: string) => ctx.fs.exists(ctx.fs.resolvePath(ctx.cwd, p)).catch(() => false);
  const read = async (file: string) => ((await exists(file)) ? [`. ${shellQuote(file)}`] : []);
  if (!inv.interactive) {
    const file = exported(ctx).BASH_ENV;
    // A file that is not there is passed over without a word, as bash does.
    return file ? await read(file) : [];
  }
  const words = [
    `[ -t 2 ] || printf 'bash: cannot set terminal process group (%s): Inappropriate ioctl for device\\nbash: no job control in this shell\\n' "$BASHPID" >&2`,
    `PS1=\${PS1-'\\s-\\v\\$ '} PS2=\${PS2-'> '}`,
    // An interactive shell expands aliases (bash(1) "ALIASES"): those its rc file defines work in its script.
    'shopt -s expand_aliases',
  ];
  if (inv.rcfile === null || inv.login) return words;
  const home = ctx.env.get('HOME');
  if (inv.rcfile !== undefined) return [...words, ...(await read(inv.rcfile))];
  return [...words, ...(await read('/etc/bash.bashrc')), ...(home ? await read(`${home}/.bashrc`) : [])];
}

/** The environment a child shell starts with: the exported variables, `$0` and the positional parameters. */
function childEnv(ctx: CommandContext, name: string, params: string[], bash: boolean): Record<string, string> {
  // bash sets its own variables (IFS, OSTYPE, BASHOPTS…) afresh; an exported one from the parent wins.
  const env: Record<string, string> = { ...bashVariables(ctx.env.get('HOSTNAME') ?? ''), ...(bash ? BASH_FALLBACKS : {}), ...exported(ctx) };
  // dash has no BASH_VERSION of its own (an exported one it keeps).
  if (!bash && !exported(ctx).BASH_VERSION) delete env.BASH_VERSION;
  // bash exports its directory and its nesting level (bash(1) "Shell Variables": PWD, SHLVL); a sprite's `sh` is
  // dash, which passes SHLVL on as it found it.
  env.PWD = ctx.cwd;
  if (bash) Object.assign(env, nextShellLevel(env));
  // A child process inherits its parent's resource limits (setrlimit(2)): the shell's `ulimit` state, unexported.
  const limits = ctx.env.get(ULIMIT_VARIABLE);
  if (limits !== undefined) env[ULIMIT_VARIABLE] = limits;
  // A process's niceness is inherited by its children (setpriority(2)).
  const nice = ctx.env.get(NICE_VARIABLE);
  if (nice !== undefined) env[NICE_VARIABLE] = nice;
  // With no PATH at all, the shell uses its compiled-in default.
  env.PATH ??= startingPath(bash);
  env['0'] = name;
  env['#'] = String(params.length);
  env['@'] = params.join(' ');
  env['*'] = params.join(' ');
  params.forEach((p, i) => (env[String(i + 1)] = p));
  return env;
}

/** The variable `exec -a NAME` sets while its command starts (patches/just-bash/exec-argv0.mjs). */
const ARGV0_VARIABLE = '__spritzer_argv0';

/**
 * The shell's argv[0], which it takes as `$0` when no operand names it: `exec -a NAME`'s, else the word that ran it
 * when that is a path (`/bin/sh -c 'echo $0'` prints `/bin/sh`: patches/just-bash/program-invoked-name.mjs, or
 * `invokedAs` for a shell the streaming helper runs), else the program's name.
 */
function argv0(ctx: CommandContext, program: string, invokedAs?: string): string {
  const word = invokedAs ?? (ctx as { spzInvokedAs?: string }).spzInvokedAs;
  return ctx.env.get(ARGV0_VARIABLE) ?? (word?.includes('/') ? word : program);
}

/**
 * Runs a shell invocation: `program` is `bash`, or `sh` or `dash` (dash-flavoured), `args` its words. With `stream`, the script is instrumented
 * (output-sink.ts) so that each of its commands' output reaches the exec at once.
 */
async function runShellInvocation(program: string, args: string[], ctx: CommandContext, stream: ((script: string) => string) | null, invokedAs?: string): Promise<ExecResult> {
  const inv = parseShellArgs(args);
  if ('error' in inv) return text('', 2, `${inv.error}\n`);
  // dash has no --version: it takes it for an option it does not know.
  if (inv.version) return program === 'bash' ? text(BASH_VERSION_TEXT) : text('', 2, `${program}: 0: Illegal option --\n`);
  let script: string;
  let name: string;
  let params: string[];
  let place: ErrorPlace;
  let stdin: string | undefined;
  if (inv.command) {
    if (inv.operands.length === 0) return text('', 2, `${program}: -c: option requires an argument\n`);
    [script, name = argv0(ctx, program, invokedAs), ...params] = inv.operands as [string, ...string[]];
    place = commandStringPlace;
  } else if (inv.stdin) {
    script = decodeBytesToUtf8(ctx.stdin);
    name = argv0(ctx, program, invokedAs);
    params = inv.operands;
    place = stdinPlace;
    stdin = '';
  } else {
    const [file, ...rest] = inv.operands as [string, ...string[]];
    const path = ctx.fs.resolvePath(ctx.cwd, file);
    if (isStdinOperand(path, false)) {
      // `bash /dev/stdin`: the script is the shell's fd 0, read to its end (the commands get none of it).
      script = decodeBytesToUtf8(ctx.stdin);
      stdin = '';
    } else {
      try {
        // bash names the script itself as the shell by then (`bash dir` says `dir: dir: Is a directory`); dash reads a
        // directory as an empty script.
        if ((await ctx.fs.stat(path)).isDirectory) return program === 'bash' ? text('', 126, `${file}: ${file}: Is a directory\n`) : text('');
        script = await ctx.fs.readFile(path);
      } catch {
        return text('', 127, `${program}: ${file}: No such file or directory\n`);
      }
    }
    name = file;
    params = rest;
    place = scriptFilePlace(file);
  }
  if (inv.noexec) {
    const failure = diagnose(script, place);
    return failure ? text('', failure.status, `${failure.message.join('\n')}\n`) : text('');
  }
  // A sprite's `sh` is dash: its `echo` reads escapes (dash-flavour.ts).
  const dash = program !== 'bash' ? `${DASH_PREAMBLE}; ` : '';
  const env = childEnv(ctx, name, params, program === 'bash');
  // A `bash -c` runs its last program in its own process, one level lower (shell-level.ts).
  const own = program === 'bash' && inv.command && !inv.sets.some((o) => /x/.test(o)) ? withLastCommandLevel(script, Number(env.SHLVL)) : script;
  let run = dash + (await preamble(ctx, inv, program === 'bash', script)) + withSyntaxRecovery(own, place, inv.shopts.some(([flag, name]) => flag === '-s' && name === 'extglob'));
  // `&`, `$!`, `wait` and `jobs` reach the job table whether or not the script streams (jobs.ts): just-bash's own
  // `&` ran the job to its end first and its `wait` answered 0.
  run = stream ? stream(run) : rewriteJobControl(run);
  // A `-c` shell's own variable (bash(1) "Shell Variables"), not inherited from the parent's.
  delete env.BASH_EXECUTION_STRING;
  if (inv.command) env.BASH_EXECUTION_STRING = script;
  if (!ctx.exec) return text('', 1, `${program}: internal error: cannot run a script here\n`);
  // `loginShell` (an option of the patched just-bash, patches/just-bash/login-shell-option.mjs): `shopt login_shell`.
  const login = inv.login ? { loginShell: true } : {};
  // `spzInteractive` (patches/just-bash/interactive-invocation.mjs): `$-` shows `i` for `bash -i`.
  if (inv.interactive && program === 'bash') Object.assign(login, { spzInteractive: true });
  // `scriptFile` (patches/just-bash/error-message-place.mjs): the file a function's error messages name.
  if (!inv.command && !inv.stdin) Object.assign(login, { scriptFile: name });
  // `exportedNames` (patches/just-bash/child-shell-exports.mjs): the child's own exports, what it inherited (its
  // preamble exports them with PWD and SHLVL); a default PATH it made up stays unexported.
  Object.assign(login, { exportedNames: Object.keys(exported(ctx)) });
  // dash puts no `_` of its own into its programs' environments (patches/just-bash/underscore-variable.mjs).
  if (program !== 'bash') Object.assign(login, { keepUnderscore: true });
  const result =
    stdin === undefined && ctx.execWithInheritedStdin
      ? await ctx.execWithInheritedStdin(run, { env, replaceEnv: true, cwd: ctx.cwd, signal: ctx.signal, ...login })
      : await ctx.exec(run, { env, replaceEnv: true, cwd: ctx.cwd, stdin: stdin ?? latin1FromBytes(ctx.stdin), stdinKind: 'bytes', signal: ctx.signal, ...login });
  // dash's wording for the shell's own messages; what a streamed script already delivered keeps bash's.
  return program !== 'bash' ? dashResult(result, name) : result;
}

const SHELL_NAMES = new Set(['bash', 'sh', 'dash']);
const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * Whether `source` is a script a shell runs: a `#!` line naming `sh`/`bash`/`dash` (directly or through `env`), or
 * text with no `#!` line at all (the kernel refuses it, and bash runs it itself).
 */
function isShellScript(source: string): boolean {
  if (!source.startsWith('#!')) return !source.includes('\0');
  const words = source.slice(2, source.indexOf('\n') < 0 ? undefined : source.indexOf('\n')).trim().split(/\s+/);
  const interpreter = basename(words[0] ?? '') === 'env' ? words.find((w, i) => i > 0 && !w.startsWith('-')) : words[0];
  return ['sh', 'bash', 'dash'].includes(basename(interpreter ?? ''));
}

/**
 * The `bash` and `sh` commands, and {@link STREAMING_SHELL}: `STREAMING_SHELL bash ARG…` is `bash ARG…` with its
 * script streamed through `stream`; `STREAMING_SHELL ./PATH ARG…` runs an executable shell script the same way
 * (any other program named by path runs as it would have).
 */
export function shellCommands(stream: (script: string) => string): CustomCommand[] {
  return [
    defineCommand('bash', (args, ctx) => runShellInvocation('bash', args, ctx, null)),
    defineCommand('sh', (args, ctx) => runShellInvocation('sh', args, ctx, null)),
    // `/bin/sh` is a link to dash: `dash` is the same shell under its own name (`dash: 1: x: not found`).
    defineCommand('dash', (args, ctx) => runShellInvocation('dash', args, ctx, null)),
    defineCommand(STREAMING_SHELL, async (args, ctx) => {
      const [program = '', ...rest] = args;
      if (SHELL_NAMES.has(basename(program))) return runShellInvocation(basename(program), rest, ctx, stream, program);
      const original = () => ctx.exec!(args.map(shellQuote).join(' '), { cwd: ctx.cwd, stdin: latin1FromBytes(ctx.stdin), stdinKind: 'bytes', signal: ctx.signal });
      const path = ctx.fs.resolvePath(ctx.cwd, program);
      const stat = await ctx.fs.stat(path).catch(() => null);
      if (!stat?.isFile || (stat.mode & 0o111) === 0) return original();
      const head = await ctx.fs.readFile(path).catch(() => '');
      if (head.startsWith('\x7fELF')) return text('', 127, `${program}: a native program (ELF binary) cannot run in the shell engine; run spritzer with --exec sandbox\n`);
      if (!isShellScript(head)) return original();
      return runShellInvocation('bash', [program, ...rest], ctx, stream);
    }),
  ];
}
