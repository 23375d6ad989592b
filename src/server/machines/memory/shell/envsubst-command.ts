/**
 * GNU gettext's `envsubst` for the shell engine: copies stdin to stdout with each `$NAME` and `${NAME}` replaced by
 * the exported variable's value (empty when unset). With a SHELL-FORMAT operand only the variables it names are
 * replaced; `-v` prints those names, one a line (stdin unread). Nothing else is special: `${NAME:-x}`, `$1`, `$$`
 * and backslashes are copied as they are.
 * @see https://www.gnu.org/software/gettext/manual/html_node/envsubst-Invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { exported } from './env-command.ts';

/** A reference `$NAME` or `${NAME}` (gettext: a letter or `_`, then letters, digits, `_`). */
const REFERENCE = /\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g;

const usage = (line: string): ExecResult => ({ stdout: '', stderr: `envsubst: ${line}\nTry 'envsubst --help' for more information.\n`, exitCode: 1 });

/** The names SHELL-FORMAT refers to, in order, repeats kept (as `envsubst -v` prints them). */
const namesIn = (format: string): string[] => [...format.matchAll(REFERENCE)].map((m) => m[1] ?? m[2]!);

function envsubst(args: string[], ctx: CommandContext): ExecResult {
  let list = false;
  const operands: string[] = [];
  for (const a of args) {
    if (a === '-v' || a === '--variables') list = true;
    else if (a === '--') continue;
    else if (['-h', '--help', '-V', '--version'].includes(a)) return { stdout: '', stderr: `envsubst: ${a} is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
    else if (a.startsWith('-') && a !== '-') return usage(`invalid option -- '${a.replace(/^-+/, '')}'`);
    else operands.push(a);
  }
  if (operands.length > 1) return { stdout: '', stderr: 'envsubst: too many arguments\n', exitCode: 1 };
  if (list) {
    if (operands.length === 0) return { stdout: '', stderr: 'envsubst: missing arguments\n', exitCode: 1 };
    return { stdout: namesIn(operands[0]!).map((n) => `${n}\n`).join(''), stderr: '', exitCode: 0 };
  }
  const only = operands.length === 1 ? new Set(namesIn(operands[0]!)) : null;
  const env = exported(ctx);
  // stdin and stdout are bytes (one char each); a value is text, written as its UTF-8 bytes.
  const out = String(ctx.stdin ?? '').replace(REFERENCE, (whole, bare: string | undefined, braced: string | undefined) => {
    const name = bare ?? braced!;
    if (only && !only.has(name)) return whole;
    return Buffer.from(env[name] ?? '', 'utf8').toString('latin1');
  });
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: '', exitCode: 0 };
}

/** The `envsubst` command. */
export function envsubstCommand(): CustomCommand {
  return defineCommand('envsubst', async (args, ctx) => envsubst(args, ctx));
}
