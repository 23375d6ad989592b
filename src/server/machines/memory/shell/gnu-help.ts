/**
 * `--help` and `--version` of every GNU coreutils program the shell engine runs, in one place: each such command is
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
  wc whoami yes`.split(/\s+/),
);

/**
 * Programs whose options end at their first operand (getopt's `+`, or operands that may look like options):
 * `env X --help` runs X with `--help`. Every other program permutes, so `--help` counts anywhere before `--`.
 * Measured on GNU coreutils 9.1 (`PROG operand --help`).
 */
const OPTIONS_FIRST: ReadonlySet<string> = new Set(['basename', 'env', 'expr', 'nice', 'nohup', 'printenv', 'seq', 'stdbuf', 'timeout', 'tr']);

/** The coreutils release the engine's commands were measured against (the fallback `--version` names it). */
const EMULATED_VERSION = '9.1';

/** Names of the programs this module answers `--help`/`--version` for. */
export const GNU_HELP_NAMES: readonly string[] = [...PROGRAMS];

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
  return r.status === 0 && r.stdout ? r.stdout : undefined;
}
let hostIsGnu: boolean | undefined;

const texts = new Map<string, string>();

/**
 * GNU's text for `name --help` or `name --version` (the host's coreutils, kept after the first call); undefined for a
 * program not answered here. `host` reads the host's text (tests replace it).
 * @deviation on a host without GNU coreutils, a short text of spritzer's own: `Usage: NAME [OPTION]...` for help, and
 * `NAME (GNU coreutils) 9.1` for the version (the engine's commands behave as GNU's, and scripts test for "GNU").
 */
export function gnuStandardText(name: string, option: '--help' | '--version', host = hostCoreutilsText): string | undefined {
  if (!PROGRAMS.has(name)) return undefined;
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

/** The result of `name args` when they ask for help or the version, else undefined. */
function standardAnswer(name: string, args: readonly string[]): ExecResult | undefined {
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
    if ('load' in c || !PROGRAMS.has(c.name)) return c;
    const cmd = c as Command;
    return defineCommand(cmd.name, async (args, ctx) => standardAnswer(cmd.name, args) ?? cmd.execute(args, ctx));
  });
  for (const name of builtins) {
    if (defined.has(name) || !PROGRAMS.has(name)) continue;
    wrapped.push(defineCommand(name, async (args, ctx) => standardAnswer(name, args) ?? ctx.origCommand!(args)));
  }
  return wrapped;
}
