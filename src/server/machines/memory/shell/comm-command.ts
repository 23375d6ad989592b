/**
 * `comm` as GNU coreutils runs it in the sprite's C.UTF-8 locale (lines compared as bytes): three columns (`-1 -2
 * -3` hide them), `--output-delimiter`, `--total`, `-z`, and the order check (`comm: file 1 is not in sorted
 * order`, then `input is not in sorted order` and exit 1; `--nocheck-order` skips it, `--check-order` stops at it).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/comm-invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';
import { OrderedOutput, type OrderedResult } from './output-order.ts';

const TRY = "Try 'comm --help' for more information.\n";

async function comm(args: string[], ctx: InputCtx): Promise<OrderedResult> {
  const hide = new Set<string>();
  let delimiter: string | undefined;
  let total = false;
  let zero = false;
  let check = 'default' as 'default' | 'strict' | 'none';
  const walked = walkArgs(args, (a) => {
    if (a.startsWith('--')) {
      if (a.startsWith('--output-delimiter=')) delimiter = Buffer.from(a.slice(19), 'utf8').toString('latin1');
      else if (a === '--total') total = true;
      else if (a === '--zero-terminated') zero = true;
      else if (a === '--check-order') check = 'strict';
      else if (a === '--nocheck-order') check = 'none';
      else return unsupported('comm', a);
      return undefined;
    }
    for (const c of a.slice(1)) {
      if (c === '1' || c === '2' || c === '3') hide.add(c);
      else if (c === 'z') zero = true;
      else return unsupported('comm', `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const names = walked.operands;
  if (names.length < 2) return { stdout: '', stderr: `comm: missing operand${names.length === 1 ? ` after ‘${names[0]}’` : ''}\n${TRY}`, exitCode: 1 };
  if (names.length > 2) return { stdout: '', stderr: `comm: extra operand ‘${names[2]}’\n${TRY}`, exitCode: 1 };
  const eol = zero ? '\0' : '\n';
  const files: string[][] = [];
  for (const name of names) {
    const input = await readOperand(ctx, name);
    if ('error' in input) return { stdout: '', stderr: `comm: ${name}: ${input.error}\n`, exitCode: 1 };
    const t = input.bytes;
    files.push(t === '' ? [] : (t.endsWith(eol) ? t.slice(0, -1) : t).split(eol));
  }
  const [a, b] = files as [string[], string[]];
  const sep = delimiter ?? '\t';
  // GNU comm reports disorder through error(), which flushes the lines before it: program order where they meet.
  const text = new OrderedOutput();
  const counts = [0, 0, 0];
  const warned = [false, false];
  let disorder = false;
  const column = (col: 1 | 2 | 3, line: string) => {
    counts[col - 1]!++;
    if (hide.has(String(col))) return;
    let lead = '';
    if (col >= 2 && !hide.has('1')) lead += sep;
    if (col === 3 && !hide.has('2')) lead += sep;
    text.out(lead + line + eol);
  };
  /** Checks that `line` does not sort before `prev` in file `k` (0 or 1); false when --check-order must stop. */
  const ordered = (k: 0 | 1, prev: string | undefined, line: string): boolean => {
    if (check === 'none' || prev === undefined || prev <= line || warned[k]) return true;
    warned[k] = true;
    disorder = true;
    text.err(`comm: file ${k + 1} is not in sorted order\n`);
    return check !== 'strict';
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x < y)) {
      if (!ordered(0, a[i - 1], x!)) break;
      column(1, x!);
      i++;
    } else if (x === undefined || y < x) {
      if (!ordered(1, b[j - 1], y)) break;
      column(2, y);
      j++;
    } else {
      column(3, x);
      i++;
      j++;
    }
  }
  if (total) text.out(`${counts[0]}${sep}${counts[1]}${sep}${counts[2]}${sep}total${eol}`);
  if (disorder && check !== 'strict') text.err('comm: input is not in sorted order\n');
  return { ...bytesOutput(unsafeBytesFromLatin1(text.stdout)), stderr: text.stderr, exitCode: disorder ? 1 : 0, outputOrder: text.order('before-errors') };
}

/** `comm` for just-bash's `customCommands`. */
export function commCommands(): CustomCommand[] {
  return [defineCommand('comm', (args, ctx) => comm(args, ctx))];
}
