/**
 * File names in GNU coreutils' diagnostics. The programs name an operand they could not read with gnulib's
 * `quotef` (coreutils system.h: `quotearg_n_style_colon (0, shell_escape_quoting_style, name)`): a name a shell
 * would read as one plain word stays bare (`cat: nope: No such file or directory`), any other is shell-quoted
 * (`cat: 'a b': …`, `cat: "it's": …`, control bytes as `'a'$'\t''b'`), as `ls` quotes in its `shell-escape` style.
 * Other messages always quote the name (`quoteaf`: shell_escape_always_quoting_style: `cp: cannot stat 'a b'`,
 * `"it's"`, `'a'$'\t''b'`). The commands here word their messages with the bare name, or with the name inside two
 * `'`; this wrapper quotes it as GNU's do, for every program listed, in one place.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Formatting-the-file-names.html (gnulib quotearg.c)
 */
import { defineCommand, type Command, type CustomCommand, type ExecResult } from 'just-bash';
import { quoteName } from './ls-quote.ts';

/** The programs whose `NAME: FILE: error` (or `sort: cannot read: FILE: error`) diagnostics use quotef. */
export const QUOTEF_PROGRAMS: ReadonlySet<string> = new Set([
  'cat', 'wc', 'sort', 'base64', 'base32', 'basenc', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum',
  'cksum', 'sum', 'cut', 'nl', 'fold', 'expand', 'unexpand', 'paste', 'od', 'tac', 'fmt', 'pr', 'comm', 'join', 'uniq', 'shuf', 'tsort', 'ptx',
]);

/** The programs whose messages always quote a file name (quoteaf: `cannot stat 'FILE'`, `cannot open 'FILE' for reading`). */
export const QUOTEAF_PROGRAMS: ReadonlySet<string> = new Set([
  'cp', 'mv', 'rm', 'ln', 'link', 'unlink', 'mkdir', 'rmdir', 'touch', 'chmod', 'chown', 'chgrp', 'stat', 'du', 'head', 'tail', 'tac',
  'truncate', 'split', 'csplit', 'dd', 'install', 'readlink', 'realpath', 'shred', 'tee', 'wc', 'sort', 'ls',
]);

/**
 * `line` (one line of `name`'s stderr) with each operand of `names` quoted as GNU quotes it: where it stands bare as
 * the file a message is about (`: FILE: `, quotef), or inside two plain `'` (quoteaf).
 */
function quotedLine(name: string, line: string, names: readonly string[]): string {
  if (!line.startsWith(`${name}: `)) return line;
  let out = line;
  for (const file of names) {
    const bare = QUOTEF_PROGRAMS.has(name) ? out.indexOf(`: ${file}: `, name.length) : -1;
    if (bare >= 0) out = `${out.slice(0, bare + 2)}${quoteName(file, 'shell-escape')}${out.slice(bare + 2 + file.length)}`;
    const always = quoteName(file, 'shell-escape-always');
    const plain = `'${file}'`;
    const quoted = QUOTEAF_PROGRAMS.has(name) && always !== plain ? out.indexOf(plain, name.length) : -1;
    if (quoted >= 0) out = `${out.slice(0, quoted)}${always}${out.slice(quoted + plain.length)}`;
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
  if (!result.stderr || !(QUOTEF_PROGRAMS.has(name) || QUOTEAF_PROGRAMS.has(name))) return result;
  // Longest first, so that `a b` is not quoted inside `a b c`.
  const names = [...new Set(args)].filter((a) => a !== '' && (quoteName(a, 'shell-escape') !== a || quoteName(a, 'shell-escape-always') !== `'${a}'`)).sort((a, b) => b.length - a.length);
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
 * `commands` with every program of {@link QUOTEF_PROGRAMS} and {@link QUOTEAF_PROGRAMS} wrapped so that its diagnostics quote file names as GNU's
 * do; `builtins` (just-bash's own commands) listed there that `commands` does not define are wrapped over just-bash's.
 */
export function withQuotedDiagnostics(commands: CustomCommand[], builtins: Iterable<string>): CustomCommand[] {
  const quotes = (n: string) => QUOTEF_PROGRAMS.has(n) || QUOTEAF_PROGRAMS.has(n);
  const defined = new Set(commands.map((c) => c.name));
  const wrapped = commands.map((c): CustomCommand => ('load' in c || !quotes(c.name) ? c : wrapper(c as Command)));
  for (const name of builtins) if (!defined.has(name) && quotes(name)) wrapped.push(builtinWrapper(name));
  return wrapped;
}

/** The quoting wrapper over just-bash's own `name` (one per name: it holds no state). */
const builtinWrappers = new Map<string, Command>();
function builtinWrapper(name: string): Command {
  let w = builtinWrappers.get(name);
  if (!w) builtinWrappers.set(name, (w = defineCommand(name, async (args, ctx) => quoteDiagnosticNames(name, args, await ctx.origCommand!(args)))));
  return w;
}
