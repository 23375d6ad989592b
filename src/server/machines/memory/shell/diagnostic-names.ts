/**
 * File names in GNU coreutils' diagnostics. The programs name an operand they could not read with gnulib's
 * `quotef` (coreutils system.h: `quotearg_n_style_colon (0, shell_escape_quoting_style, name)`): a name a shell
 * would read as one plain word stays bare (`cat: nope: No such file or directory`), any other is shell-quoted
 * (`cat: 'a b': …`, `cat: "it's": …`, control bytes as `'a'$'\t''b'`), as `ls` quotes in its `shell-escape` style.
 * The commands here word their messages with the bare name; this wrapper quotes it, for every program listed, in one
 * place. It does not touch messages that quote already (`head: cannot open 'a b' for reading`, quoteaf's).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Formatting-the-file-names.html (gnulib quotearg.c)
 */
import { defineCommand, type Command, type CustomCommand, type ExecResult } from 'just-bash';
import { quoteName } from './ls-quote.ts';

/** The programs whose `NAME: FILE: error` (or `sort: cannot read: FILE: error`) diagnostics use quotef. */
export const QUOTEF_PROGRAMS: ReadonlySet<string> = new Set([
  'cat', 'wc', 'sort', 'base64', 'base32', 'basenc', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum',
  'cksum', 'sum', 'cut', 'nl', 'fold', 'expand', 'unexpand', 'paste', 'od', 'tac', 'fmt', 'pr', 'comm', 'join', 'uniq', 'shuf', 'tsort', 'ptx',
]);

/**
 * `line` (one line of `name`'s stderr) with each operand of `args` that needs quoting quoted where it stands as the
 * file a message is about (`: FILE: `).
 */
function quotedLine(name: string, line: string, names: readonly string[]): string {
  if (!line.startsWith(`${name}: `)) return line;
  let out = line;
  for (const file of names) {
    const at = out.indexOf(`: ${file}: `, name.length);
    if (at >= 0) out = `${out.slice(0, at + 2)}${quoteName(file, 'shell-escape')}${out.slice(at + 2 + file.length)}`;
  }
  return out;
}

/** `text` (stderr) with the operands quoted, line by line. */
function quotedText(name: string, text: string, names: readonly string[]): string {
  return text.split(/(?<=\n)/).map((l) => quotedLine(name, l, names)).join('');
}

/**
 * `result` of `name ARGS` with the file names in its diagnostics quoted as GNU's quotef quotes them; the runs of
 * `outputOrder` (stdout and stderr lengths, alternating) follow the new stderr.
 */
export function quoteDiagnosticNames<R extends ExecResult & { outputOrder?: number[] }>(name: string, args: readonly string[], result: R): R {
  if (!result.stderr || !QUOTEF_PROGRAMS.has(name)) return result;
  // Longest first, so that `a b` is not quoted inside `a b c`.
  const names = [...new Set(args)].filter((a) => a !== '' && quoteName(a, 'shell-escape') !== a).sort((a, b) => b.length - a.length);
  if (names.length === 0) return result;
  if (!result.outputOrder) {
    const stderr = quotedText(name, result.stderr, names);
    return stderr === result.stderr ? result : { ...result, stderr };
  }
  const order = [...result.outputOrder];
  let at = 0;
  let stderr = '';
  for (let k = 1; k < order.length; k += 2) {
    const run = quotedText(name, result.stderr.slice(at, at + order[k]!), names);
    at += order[k]!;
    order[k] = run.length;
    stderr += run;
  }
  stderr += quotedText(name, result.stderr.slice(at), names);
  return { ...result, stderr, outputOrder: order };
}

/** The quoting wrapper of `cmd`, made once per command object (a stateless command is wrapped once, not per exec). */
const wrappers = new WeakMap<Command, Command>();
function wrapper(cmd: Command): Command {
  let w = wrappers.get(cmd);
  if (!w) wrappers.set(cmd, (w = defineCommand(cmd.name, async (args, ctx) => quoteDiagnosticNames(cmd.name, args, await cmd.execute(args, ctx)))));
  return w;
}

/**
 * `commands` with every program of {@link QUOTEF_PROGRAMS} wrapped so that its diagnostics quote file names as GNU's
 * do; `builtins` (just-bash's own commands) listed there that `commands` does not define are wrapped over just-bash's.
 */
export function withQuotedDiagnostics(commands: CustomCommand[], builtins: Iterable<string>): CustomCommand[] {
  const defined = new Set(commands.map((c) => c.name));
  const wrapped = commands.map((c): CustomCommand => ('load' in c || !QUOTEF_PROGRAMS.has(c.name) ? c : wrapper(c as Command)));
  for (const name of builtins) if (!defined.has(name) && QUOTEF_PROGRAMS.has(name)) wrapped.push(builtinWrapper(name));
  return wrapped;
}

/** The quoting wrapper over just-bash's own `name` (one per name: it holds no state). */
const builtinWrappers = new Map<string, Command>();
function builtinWrapper(name: string): Command {
  let w = builtinWrappers.get(name);
  if (!w) builtinWrappers.set(name, (w = defineCommand(name, async (args, ctx) => quoteDiagnosticNames(name, args, await ctx.origCommand!(args)))));
  return w;
}
