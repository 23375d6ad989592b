/**
 * util-linux `rev` over input that is not UTF-8. rev reads wide characters (fgetws in the sprite's C.UTF-8 locale),
 * so at a line holding a byte sequence that is no character it stops reading that file with
 * `rev: NAME: N: Invalid or incomplete multibyte or wide character` (N: the lines of that file read before it; NAME
 * `stdin` for standard input), goes on with the next file, and exits 1. The lines before it are reversed as usual.
 * Input that is all UTF-8 is left to just-bash's rev (this answers null).
 * @see rev(1) (util-linux 2.38), text-utils/rev.c
 */
import { bytesOutput, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type ExecResult } from 'just-bash';

const STRICT = new TextDecoder('utf-8', { fatal: true });

/** A line's bytes (latin1) as text, or null when they are not UTF-8. */
function text(line: string): string | null {
  try {
    return STRICT.decode(Buffer.from(line, 'latin1'));
  } catch {
    return null;
  }
}

/**
 * rev's whole result when some input is not UTF-8, else null (options, or all text valid: just-bash's rev answers).
 * @param args rev's operands (files; none: stdin)
 */
export async function revUndecodable(args: string[], ctx: CommandContext): Promise<ExecResult | null> {
  if (args.some((a) => a.startsWith('-'))) return null;
  const inputs: Array<{ name: string; bytes: string | null }> = [];
  for (const f of args.length === 0 ? [null] : args) {
    if (f === null) inputs.push({ name: 'stdin', bytes: latin1FromBytes(ctx.stdin) });
    else {
      const bytes = await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, f)).then((b) => Buffer.from(b).toString('latin1'), () => null);
      inputs.push({ name: f, bytes });
    }
  }
  if (inputs.every((i) => i.bytes === null || text(i.bytes) !== null)) return null;
  let out = '';
  let err = '';
  for (const { name, bytes } of inputs) {
    if (bytes === null) {
      err += `rev: cannot open ${name}: No such file or directory\n`;
      continue;
    }
    const lines = bytes.split('\n');
    const ended = lines[lines.length - 1] === '';
    if (ended) lines.pop();
    for (const [n, line] of lines.entries()) {
      const t = text(line);
      if (t === null) {
        err += `rev: ${name}: ${n}: Invalid or incomplete multibyte or wide character\n`;
        break;
      }
      out += Buffer.from([...t].reverse().join(''), 'utf8').toString('latin1') + (ended || n < lines.length - 1 ? '\n' : '');
    }
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: err, exitCode: err ? 1 : 0 };
}
