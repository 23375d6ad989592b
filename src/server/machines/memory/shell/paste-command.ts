/**
 * `paste` as GNU coreutils runs it: lines of the operands side by side (or each operand on one line with `-s`),
 * joined by the `-d` list used in turn (`\n`, `\t`, `\\`, `\0` for none), stdin when there is no operand or for
 * `-` (several `-` share stdin's lines), `-z`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/paste-invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';

/** The delimiters of a `-d` list, escapes read (`\0` is the empty delimiter). */
function delimiters(list: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    if (list[i] !== '\\' || i + 1 >= list.length) out.push(list[i]!);
    else {
      const c = list[++i]!;
      out.push(c === 'n' ? '\n' : c === 't' ? '\t' : c === '0' ? '' : c === 'b' ? '\b' : c === 'f' ? '\f' : c === 'r' ? '\r' : c === 'v' ? '\v' : c);
    }
  }
  return out;
}

async function paste(args: string[], ctx: InputCtx): Promise<ExecResult> {
  let serial = false;
  let list = '\t';
  let zero = false;
  const walked = walkArgs(args, (a, next) => {
    if (a.startsWith('--')) {
      if (a === '--serial') serial = true;
      else if (a === '--zero-terminated') zero = true;
      else if (a.startsWith('--delimiters=')) list = a.slice(13);
      else if (a === '--delimiters') list = next() ?? '';
      else return unsupported('paste', a);
      return undefined;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'd') {
        list = j + 1 < a.length ? a.slice(j + 1) : (next() ?? '');
        return undefined;
      }
      if (c === 's') serial = true;
      else if (c === 'z') zero = true;
      else return unsupported('paste', `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const delims = delimiters(Buffer.from(list, 'utf8').toString('latin1'));
  if (delims.length === 0) delims.push('');
  const eol = zero ? '\0' : '\n';
  const names = walked.operands.length > 0 ? walked.operands : ['-'];
  const files: string[][] = [];
  let stdinLines: string[] | undefined;
  const split = (t: string) => (t === '' ? [] : (t.endsWith(eol) ? t.slice(0, -1) : t).split(eol));
  for (const name of names) {
    if (name === '-') {
      stdinLines ??= split((await readOperand(ctx, '-') as { bytes: string }).bytes);
      files.push(stdinLines);
      continue;
    }
    const input = await readOperand(ctx, name);
    if ('error' in input) return { stdout: '', stderr: `paste: ${name}: ${input.error}\n`, exitCode: 1 };
    files.push(split(input.bytes));
  }
  let out = '';
  if (serial) {
    for (const lines of files) {
      out += lines.map((l, k) => (k === 0 ? l : delims[(k - 1) % delims.length] + l)).join('') + eol;
    }
  } else {
    // Every `-` takes the next stdin line in turn, so they share one cursor.
    const cursors = new Map<string[], number>();
    const take = (lines: string[]) => {
      const k = cursors.get(lines) ?? 0;
      cursors.set(lines, k + 1);
      return lines[k];
    };
    for (;;) {
      const row = files.map(take);
      if (row.every((l) => l === undefined)) break;
      out += row.map((l, k) => (k === 0 ? '' : delims[(k - 1) % delims.length]) + (l ?? '')).join('') + eol;
    }
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: '', exitCode: 0 };
}

/** `paste` for just-bash's `customCommands`. */
export function pasteCommands(): CustomCommand[] {
  return [defineCommand('paste', (args, ctx) => paste(args, ctx))];
}
