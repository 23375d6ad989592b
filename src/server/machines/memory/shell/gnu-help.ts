/**
 * `--help` and `--version` of every GNU coreutils program the shell engine runs, in one place: each such command is
 * wrapped so that the option prints GNU's own text (gnu-help-texts.ts) on stdout and exits 0, as the program does,
 * before the command itself sees its arguments. Scripts read these (`X --version | head -1`, `X --help | grep -q
 * -- --opt` to probe for an option), so a refusal would be a wrong answer.
 * @see GNU coreutils manual "Common options"; gnulib's long-options.c and getopt (where option scanning stops)
 */
import { defineCommand, type Command, type CustomCommand, type ExecResult } from 'just-bash';
import { COREUTILS_VERSION, GNU_HELP_TEXTS } from './gnu-help-texts.ts';

/**
 * Programs whose options end at their first operand (getopt's `+`, or operands that may look like options):
 * `env X --help` runs X with `--help`. Every other program permutes, so `--help` counts anywhere before `--`.
 * Measured on GNU coreutils 9.1 (`PROG operand --help`).
 */
const OPTIONS_FIRST: ReadonlySet<string> = new Set(['basename', 'env', 'expr', 'nice', 'nohup', 'printenv', 'seq', 'stdbuf', 'timeout', 'tr']);

/** The shared closing lines of a program's `--help`. */
const helpFooter = (name: string) =>
  `\nGNU coreutils online help: <https://www.gnu.org/software/coreutils/>\nReport any translation bugs to <https://translationproject.org/team/>\nFull documentation <https://www.gnu.org/software/coreutils/${name}>\nor available locally via: info '(coreutils) ${name} invocation'\n`;

/** The shared head of a program's `--version`, after its first line. */
const VERSION_HEAD =
  'Copyright (C) 2022 Free Software Foundation, Inc.\nLicense GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\nThis is free software: you are free to change and redistribute it.\nThere is NO WARRANTY, to the extent permitted by law.\n\n';

/** Names of the programs this module answers `--help`/`--version` for. */
export const GNU_HELP_NAMES: readonly string[] = Object.keys(GNU_HELP_TEXTS);

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

/** GNU's text for `name --help` or `name --version`; undefined for a program not in the table. */
export function gnuStandardText(name: string, option: '--help' | '--version'): string | undefined {
  const entry = GNU_HELP_TEXTS[name];
  if (!entry) return undefined;
  const [help, written, first, usual] = entry;
  if (option === '--help') return usual ? help + helpFooter(name) : help;
  return `${first || `${name} (GNU coreutils) ${COREUTILS_VERSION}`}\n${VERSION_HEAD}${written}`;
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
    if ('load' in c || !GNU_HELP_TEXTS[c.name]) return c;
    const cmd = c as Command;
    return defineCommand(cmd.name, async (args, ctx) => standardAnswer(cmd.name, args) ?? cmd.execute(args, ctx));
  });
  for (const name of builtins) {
    if (defined.has(name) || !GNU_HELP_TEXTS[name]) continue;
    wrapped.push(defineCommand(name, async (args, ctx) => standardAnswer(name, args) ?? ctx.origCommand!(args)));
  }
  return wrapped;
}
