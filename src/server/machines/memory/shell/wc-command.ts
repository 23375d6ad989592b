/**
 * `wc` as GNU coreutils prints it: the counts in columns as wide as the digits of the files' total size (at least 7
 * when stdin or another non-regular input is counted, none when one count of one input is printed), a `total` line
 * for several inputs, `-L` (the longest line, tabs to the next multiple of 8), `-m` and `-L` in the sprite's UTF-8 locale, or per byte in the C locale (`LC_ALL=C`), `--files0-from=F` (the names F holds, NUL-ended; `-` is stdin).
 * Stdin redirected from a regular file (`wc < f`) counts as that file (GNU fstat()s it); from a pipe or a device,
 * as a pipe.
 * @deviation stdin from a descriptor the shell opened on a file (`exec 3<f; wc <&3`, `exec < f`) counts as a pipe.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/wc-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { OrderedOutput } from './output-order.ts';
import { unsupported } from './gnu-commands.ts';
import { readOperand, type InputCtx } from './text-input.ts';
import { isByteLocale } from './locale-ctype.ts';
import { charWidth } from './char-width.ts';

type Count = 'lines' | 'words' | 'chars' | 'bytes' | 'max';
const ORDER: Count[] = ['lines', 'words', 'chars', 'bytes', 'max'];
const SHORT: Record<string, Count> = { l: 'lines', w: 'words', m: 'chars', c: 'bytes', L: 'max' };
const LONG: Record<string, Count> = { '--lines': 'lines', '--words': 'words', '--chars': 'chars', '--bytes': 'bytes', '--max-line-length': 'max' };

/** Columns of the UTF-8 character starting at byte `i` of `s` (wcwidth); a byte that starts none takes none. */
function utf8Width(s: string, i: number): number {
  const b = s.charCodeAt(i);
  if (b >= 0xf8) return 0;
  const n = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : 1;
  let c = b & (0x3f >> n);
  for (let k = 1; k <= n; k++) {
    const t = s.charCodeAt(i + k);
    if ((t & 0xc0) !== 0x80) return 0;
    c = (c << 6) | (t & 0x3f);
  }
  // Past Unicode, or a surrogate: no character, so no width.
  return c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) ? 0 : charWidth(c);
}

/**
 * The five counts of a byte string; in the C locale (`bytes`) a character is a byte, and one above 0x7f has no width;
 * in UTF-8 `-L` counts each character's columns (a combining mark none, a CJK character two).
 */
function counts(s: string, bytes = false): Record<Count, number> {
  let lines = 0;
  let words = 0;
  let chars = 0;
  let max = 0;
  let col = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i);
    if (bytes || (b & 0xc0) !== 0x80) chars++;
    if (b === 10) {
      lines++;
      max = Math.max(max, col);
      col = 0;
    } else if (b === 9) col += 8 - (col % 8);
    else if (b === 13 || b === 12) col = 0;
    else if (b >= 0x20 && b < 0x7f) col++;
    else if (!bytes && b >= 0xc0) col += utf8Width(s, i);
    const space = b === 32 || (b >= 9 && b <= 13);
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return { lines, words, chars, bytes: s.length, max: Math.max(max, col) };
}

async function wc(args: string[], ctx: InputCtx & { env: ReadonlyMap<string, string> }): Promise<ExecResult> {
  const wanted = new Set<Count>();
  const names: string[] = [];
  let files0: string | undefined;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === '--') options = false;
    else if (options && (a === '--files0-from' || a.startsWith('--files0-from='))) {
      files0 = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (files0 === undefined) return { stdout: '', stderr: "wc: option '--files0-from' requires an argument\nTry 'wc --help' for more information.\n", exitCode: 1 };
    } else if (options && a.startsWith('--')) {
      if (!LONG[a]) return unsupported('wc', a);
      wanted.add(LONG[a]!);
    } else if (options && a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (!SHORT[c]) return unsupported('wc', `-${c}`);
        wanted.add(SHORT[c]!);
      }
    } else names.push(a);
  }
  const shown = wanted.size === 0 ? (['lines', 'words', 'bytes'] as Count[]) : ORDER.filter((c) => wanted.has(c));
  // --files0-from=F: the names are F's NUL-ended strings (`-`: stdin's), never operands too.
  let listed: string[] | undefined;
  if (files0 !== undefined) {
    if (names.length > 0) return { stdout: '', stderr: `wc: extra operand '${names[0]}'\nfile operands cannot be combined with --files0-from\nTry 'wc --help' for more information.\n`, exitCode: 1 };
    const list = await readOperand(ctx, files0);
    if ('error' in list) return { stdout: '', stderr: `wc: cannot open '${files0}' for reading: ${list.error}\n`, exitCode: 1 };
    listed = list.bytes.split('\0');
    if (listed[listed.length - 1] === '') listed.pop();
  }
  const inputs = listed ?? (names.length === 0 ? [''] : names);
  const rows: Array<{ name: string; c: Record<Count, number> } | { name: string; error: string }> = [];
  let regularTotal = 0;
  let minimum = 1;
  for (const [k, name] of inputs.entries()) {
    if (listed && name === '') {
      rows.push({ name: `${files0}:${k + 1}`, error: 'invalid zero-length file name' });
      continue;
    }
    const r = await readOperand(ctx, name === '' ? '-' : name);
    if ('error' in r) {
      // A closed stdin (`<&-`) still gets its (zero) counts line from GNU wc, then the read error.
      if (name === '' && ctx.stdinClosed) rows.push({ name, c: counts('') });
      rows.push({ name: name || '-', error: r.error });
      if (r.error === 'Is a directory') minimum = 7;
      // GNU sizes the columns from stat(2), which a file the user may not read still answers.
      if (r.error === 'Permission denied') regularTotal += (await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, name)).catch(() => null))?.size ?? 0;
      continue;
    }
    if (r.regular) regularTotal += r.bytes.length;
    else minimum = 7;
    rows.push({ name, c: counts(r.bytes, isByteLocale(ctx.env)) });
  }
  // GNU sizes the columns from stat(2) of every operand (wc.c compute_number_width): one it cannot stat counts for
  // nothing, whichever place it has (`fstatus[0].failed` is stat's -1 then, which still sizes them).
  const width = Math.max(String(regularTotal).length, minimum);
  const columns = shown.length === 1 && inputs.length === 1 ? 1 : width;
  const line = (c: Record<Count, number>, name: string) => `${shown.map((k) => String(c[k]).padStart(columns)).join(' ')}${name ? ` ${name}` : ''}\n`;
  const total: Record<Count, number> = { lines: 0, words: 0, chars: 0, bytes: 0, max: 0 };
  // GNU wc reports through error(), which flushes the counts printed so far: the lines come in program order.
  const text = new OrderedOutput();
  for (const row of rows) {
    if ('error' in row) {
      text.err(`wc: ${row.name}: ${row.error}\n`);
      if (row.error === 'Is a directory') text.out(line({ lines: 0, words: 0, chars: 0, bytes: 0, max: 0 }, row.name));
      continue;
    }
    for (const k of ORDER) total[k] = k === 'max' ? Math.max(total.max, row.c.max) : total[k] + row.c[k];
    text.out(line(row.c, row.name));
  }
  if (inputs.length > 1) text.out(line(total, 'total'));
  return text.result(text.stderr ? 1 : 0, 'before-errors');
}

/** `wc` for just-bash's `customCommands`. */
export function wcCommands(): CustomCommand[] {
  return [defineCommand('wc', (args, ctx) => wc(args, ctx))];
}
