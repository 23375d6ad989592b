/**
 * `--help` and `--version` of every GNU coreutils program the shell engine runs (and `--version` of the GNU sed,
 * grep, findutils, diffutils and tar programs), in one place: each such command is
 * wrapped so that the option prints GNU's text on stdout and exits 0, as the program does, before the command itself
 * sees its arguments. Scripts read these (`X --version | head -1`, `X --help | grep -q -- --opt` to probe for an
 * option), so a refusal would be a wrong answer. The texts are GPL program output: they are read from the host's own
 * GNU coreutils (once per program and option), not shipped with spritzer.
 * @see GNU coreutils manual "Common options"; gnulib's long-options.c and getopt (where option scanning stops)
 */
import { spawnSync } from 'node:child_process';
import { defineCommand, type Command, type CustomCommand, type ExecResult } from 'just-bash';

/** The coreutils programs answered here (those the shell engine runs, its own or just-bash's). */
const PROGRAMS: ReadonlySet<string> = new Set(
  `arch b2sum base32 base64 basename basenc cat chgrp chmod chown cksum comm cp cut date dd df dir dirname du env expand
  expr factor fmt fold groups head hostid id install join link ln logname ls md5sum mkdir mktemp mv nice nl nohup nproc
  numfmt od paste pr printenv readlink realpath rm rmdir seq sha1sum sha224sum sha256sum sha384sum sha512sum shuf sleep
  sort split stat stdbuf stty sum sync tac tail tee timeout touch tr truncate tsort tty uname unexpand uniq unlink vdir
  users wc who whoami yes`.split(/\s+/),
);

/**
 * Coreutils programs that bash also has as builtins: the program (run by a path, by env, xargs…) answers
 * `--help`/`--version`, the builtin never does. echo (unless POSIXLY_CORRECT), printf, true, false (status 1) and
 * `[` answer only when the option is their one argument; pwd reads options as the other programs do. (Debian's kill
 * is procps's, not answered here.)
 * @see GNU coreutils echo.c, printf.c, true.c, test.c (`[`), pwd.c
 */
const BUILTIN_PROGRAMS: ReadonlyMap<string, 'alone' | 'options'> = new Map([['echo', 'alone'], ['printf', 'alone'], ['true', 'alone'], ['false', 'alone'], ['[', 'alone'], ['pwd', 'options']]);

/**
 * Programs whose options end at their first operand (getopt's `+`, or operands that may look like options):
 * `env X --help` runs X with `--help`. Every other program permutes, so `--help` counts anywhere before `--`.
 * Measured on GNU coreutils 9.1 (`PROG operand --help`).
 */
const OPTIONS_FIRST: ReadonlySet<string> = new Set(['basename', 'env', 'expr', 'nice', 'nohup', 'printenv', 'seq', 'stdbuf', 'timeout', 'tr']);

/** The coreutils release the engine's commands were measured against (the fallback `--version` names it). */
const EMULATED_VERSION = '9.1';

/**
 * GNU programs outside coreutils whose `--version` is answered here (their `--help` is their own command's), with
 * the package their first line names, the release the engine's command was measured against, and the short option
 * that also asks for the version (`grep -V`, `diff -v`). `sed --version | head -1` is how a script tells GNU sed
 * from BSD's before using `-i` without a suffix.
 */
const OTHER_PACKAGES: ReadonlyMap<string, { pkg: string; version: string; short?: string }> = new Map([
  ['sed', { pkg: 'sed', version: '4.9' }],
  ['grep', { pkg: 'grep', version: '3.8', short: '-V' }],
  ['egrep', { pkg: 'grep', version: '3.8', short: '-V' }],
  ['fgrep', { pkg: 'grep', version: '3.8', short: '-V' }],
  ['find', { pkg: 'findutils', version: '4.9.0' }],
  ['xargs', { pkg: 'findutils', version: '4.9.0' }],
  ['diff', { pkg: 'diffutils', version: '3.8', short: '-v' }],
  ['cmp', { pkg: 'diffutils', version: '3.8', short: '-v' }],
  ['sdiff', { pkg: 'diffutils', version: '3.8', short: '-v' }],
  ['tar', { pkg: 'tar', version: '1.34' }],
]);

/** xargs reads its options before the command: `xargs echo --version` runs `echo --version` (find answers anywhere). */
const OTHER_OPTIONS_FIRST: ReadonlySet<string> = new Set(['xargs']);

/** Names of the programs this module answers `--help`/`--version` for. */
export const GNU_HELP_NAMES: readonly string[] = [...PROGRAMS, ...OTHER_PACKAGES.keys()];

/**
 * What the host's GNU program prints for `name option` in C.UTF-8, or undefined when the host has no GNU coreutils
 * (macOS, busybox) or the program fails. Runs it (fixed arguments, at most 5 s).
 */
export function hostCoreutilsText(name: string, option: '--help' | '--version'): string | undefined {
  const run = (prog: string, opt: string) =>
    spawnSync(prog, [opt], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
  if (hostIsGnu === undefined) hostIsGnu = /\(GNU coreutils\)/.test(run('ls', '--version').stdout ?? '');
  if (!hostIsGnu) return undefined;
  const r = run(name, option);
  // false answers too, with its own status 1.
  return (r.status === 0 || name === 'false') && r.stdout ? r.stdout : undefined;
}
let hostIsGnu: boolean | undefined;

const texts = new Map<string, string>();

/**
 * What the host's `name --version` prints when it is the GNU package `pkg`'s program (its first line names
 * `(GNU pkg)`), else undefined. Runs it (fixed arguments, at most 5 s).
 */
export function hostPackageVersion(name: string, pkg: string): string | undefined {
  const r = spawnSync(name, ['--version'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
  return r.status === 0 && r.stdout && r.stdout.split('\n')[0]!.includes(`(GNU ${pkg})`) ? r.stdout : undefined;
}

/**
 * GNU's `--version` text of a program from another GNU package ({@link OTHER_PACKAGES}): the host's when the host
 * has that GNU program (kept after the first call), else undefined. `host` reads the host's text (tests replace it).
 * @deviation without the host's GNU program, the first line alone: `NAME (GNU PKG) VERSION`.
 */
export function gnuPackageVersion(name: string, host = hostPackageVersion): string | undefined {
  const entry = OTHER_PACKAGES.get(name);
  if (!entry) return undefined;
  const key = `${name} --version`;
  const kept = host === hostPackageVersion ? texts.get(key) : undefined;
  if (kept !== undefined) return kept;
  const text = host(name, entry.pkg) ?? `${name} (GNU ${entry.pkg}) ${entry.version}\n`;
  if (host === hostPackageVersion) texts.set(key, text);
  return text;
}

/**
 * GNU's text for `name --help` or `name --version` (the host's coreutils, kept after the first call); undefined for a
 * program not answered here. `host` reads the host's text (tests replace it).
 * @deviation on a host without GNU coreutils, a short text of spritzer's own: `Usage: NAME [OPTION]...` for help, and
 * `NAME (GNU coreutils) 9.1` for the version (the engine's commands behave as GNU's, and scripts test for "GNU").
 */
export function gnuStandardText(name: string, option: '--help' | '--version', host = hostCoreutilsText): string | undefined {
  if (!PROGRAMS.has(name) && !BUILTIN_PROGRAMS.has(name)) return undefined;
  const key = `${name} ${option}`;
  const kept = host === hostCoreutilsText ? texts.get(key) : undefined;
  if (kept !== undefined) return kept;
  const text = host(name, option) ?? (option === '--help' ? `Usage: ${name} [OPTION]...\n` : `${name} (GNU coreutils) ${EMULATED_VERSION}\n`);
  if (host === hostCoreutilsText) texts.set(key, text);
  return text;
}

/**
 * Which of `--help`/`--version` the arguments of `name` ask for (the first one met), or null: options are scanned
 * up to `--`, and for {@link OPTIONS_FIRST} programs up to the first operand too.
 */
export function standardOption(name: string, args: readonly string[]): '--help' | '--version' | null {
  for (const a of args) {
    if (a === '--') return null;
    if (a === '--help' || a === '--version') return a;
    if ((!a.startsWith('-') || a === '-') && OPTIONS_FIRST.has(name)) return null;
  }
  return null;
}

/**
 * Whether the arguments of a program from another GNU package ask for its version: `--version` or its short option,
 * alone, met before `--` (and before the command for xargs).
 */
export function asksOtherVersion(name: string, args: readonly string[]): boolean {
  const entry = OTHER_PACKAGES.get(name);
  if (!entry) return false;
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--version' || (entry.short !== undefined && a === entry.short)) return true;
    if ((!a.startsWith('-') || a === '-') && OTHER_OPTIONS_FIRST.has(name)) return false;
  }
  return false;
}

/** The result of `name args` when they ask for help or the version, else undefined. */
function standardAnswer(name: string, args: readonly string[]): ExecResult | undefined {
  if (OTHER_PACKAGES.has(name)) {
    const text = asksOtherVersion(name, args) ? gnuPackageVersion(name) : undefined;
    return text === undefined ? undefined : { stdout: text, stderr: '', exitCode: 0 };
  }
  const option = standardOption(name, args);
  const text = option && gnuStandardText(name, option);
  return text === undefined || text === null ? undefined : { stdout: text, stderr: '', exitCode: 0 };
}

/**
 * `commands` with every coreutils program among them answering `--help`/`--version` first, plus a wrapper over
 * each of just-bash's own `builtins` in the table that `commands` does not define. Lazy commands are kept as they are.
 */
export function withGnuHelp(commands: CustomCommand[], builtins: Iterable<string>): CustomCommand[] {
  const defined = new Set(commands.map((c) => c.name));
  const wrapped = commands.map((c): CustomCommand => {
    if (!('load' in c) && BUILTIN_PROGRAMS.has(c.name)) return programHelpWrapper(c.name, c as Command);
    if ('load' in c || !(PROGRAMS.has(c.name) || OTHER_PACKAGES.has(c.name))) return c;
    return helpWrapper(c as Command);
  });
  for (const name of builtins) {
    if (defined.has(name)) continue;
    if (BUILTIN_PROGRAMS.has(name)) wrapped.push(programHelpWrapper(name));
    else if (PROGRAMS.has(name) || OTHER_PACKAGES.has(name)) wrapped.push(builtinHelpWrapper(name));
  }
  return wrapped;
}

/** Which of `--help`/`--version` the program `name` (one of {@link BUILTIN_PROGRAMS}) is asked for, or null. */
function programOption(name: string, args: readonly string[], env: Map<string, string>): '--help' | '--version' | null {
  if (BUILTIN_PROGRAMS.get(name) === 'options') return standardOption(name, args);
  if (name === 'echo' && env.has('POSIXLY_CORRECT')) return null;
  return args.length === 1 && (args[0] === '--help' || args[0] === '--version') ? args[0] : null;
}

/**
 * The wrapper of `name` (`cmd`, else just-bash's own) that answers as the coreutils program when it runs as one: the
 * interpreter says when it runs as bash's builtin instead (patches/just-bash/tell-builtin-context.mjs).
 */
function programHelpWrapper(name: string, cmd?: Command): Command {
  return defineCommand(name, async (args, ctx) => {
    const option = (ctx as { builtin?: boolean }).builtin ? null : programOption(name, args, ctx.env);
    const text = option && gnuStandardText(name, option);
    if (text) return { stdout: text, stderr: '', exitCode: name === 'false' ? 1 : 0 };
    return cmd ? cmd.execute(args, ctx) : ctx.origCommand!(args);
  });
}

/** The answering wrapper of `cmd`, made once per command object (a stateless command is wrapped once, not per exec). */
const helpWrappers = new WeakMap<Command, Command>();
function helpWrapper(cmd: Command): Command {
  let w = helpWrappers.get(cmd);
  if (!w) helpWrappers.set(cmd, (w = defineCommand(cmd.name, async (args, ctx) => standardAnswer(cmd.name, args) ?? cmd.execute(args, ctx))));
  return w;
}

/** The answering wrapper over just-bash's own `name` (one per name: it holds no state). */
const builtinHelpWrappers = new Map<string, Command>();
function builtinHelpWrapper(name: string): Command {
  let w = builtinHelpWrappers.get(name);
  if (!w) builtinHelpWrappers.set(name, (w = defineCommand(name, async (args, ctx) => standardAnswer(name, args) ?? ctx.origCommand!(args))));
  return w;
}
