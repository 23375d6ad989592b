/**
 * util-linux `column -t` (2.38, the reference's) for the shell engine: input lines made a table and printed with
 * each column padded to its widest cell (display width), two spaces (or `-o SEP`) between columns and the last
 * column never padded; a row with fewer cells gets empty ones, so its padding and separators still come out. Cells
 * are split at runs of blanks (leading ones skipped), or at every character of `-s SEPS` (empty cells kept);
 * empty lines are dropped unless `-L` keeps them. `-N NAMES` adds a header (counted in the widths; `-d` hides it);
 * `-R`, `-H` and `-O` right-align, hide and order the columns given by name or number; `-l N` makes the Nth column
 * take the rest of the line. `-T`/`-W`/`-E` only act on a table wider than the output (`-c N`, else `COLUMNS`,
 * else 80): such a table, and `-J`, `-r`, `-i`, `-p`, are refused naming `--exec sandbox`. Without `-t` this is not
 * used (just-bash's `column` fills columns).
 * @see https://man7.org/linux/man-pages/man1/column.1.html
 */
import { latin1FromBytes, type CommandContext, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { errnoText } from './text-input.ts';
import { displayWidth } from './char-width.ts';

/** The options that take a value (short letter → long name), as util-linux's getopt knows them. */
const VALUED: Record<string, string> = { c: 'columns', E: 'table-noextreme', H: 'table-hide', i: 'tree-id', l: 'table-columns-limit', N: 'table-columns', n: 'table-name', O: 'table-order', o: 'output-separator', p: 'tree-parent', R: 'table-right', r: 'tree', s: 'separator', T: 'table-truncate', W: 'table-wrap' };
const FLAGS: Record<string, string> = { d: 'table-noheadings', e: 'table-header-repeat', J: 'json', L: 'keep-empty-lines', t: 'table', x: 'fillrows' };

interface Table {
  separators?: string;
  output: string;
  names?: string[];
  noHeadings: boolean;
  keepEmpty: boolean;
  limit: number;
  right?: string;
  hide?: string;
  order?: string;
  width?: number;
  fits?: string;
}

/** One line's cells: split at runs of blanks (leading and trailing ones ignored) or at each separator character. */
function cells(line: string, t: Table): string[] {
  const seps = t.separators;
  const isSep = (ch: string) => (seps === undefined ? ch === ' ' || ch === '\t' : seps.includes(ch));
  const out: string[] = [];
  const chars = [...line];
  let i = 0;
  if (seps === undefined) while (i < chars.length && isSep(chars[i]!)) i++;
  let cell = '';
  for (; i < chars.length; i++) {
    const ch = chars[i]!;
    if (t.limit > 0 && out.length === t.limit - 1) {
      cell += chars.slice(i).join('');
      break;
    }
    if (!isSep(ch)) {
      cell += ch;
      continue;
    }
    out.push(cell);
    cell = '';
    if (seps === undefined) {
      while (i + 1 < chars.length && isSep(chars[i + 1]!)) i++;
      if (i + 1 === chars.length) return out;
    }
  }
  out.push(cell);
  return out;
}

/** The columns (0-based) a `-R`/`-H`/`-O` list names, by name or 1-based number; an unknown name is an error. */
function columnList(list: string, names: string[] | undefined, count: number): number[] | { error: string } {
  const out: number[] = [];
  for (const item of list.split(',')) {
    const byName = names?.indexOf(item) ?? -1;
    if (byName >= 0) out.push(byName);
    else if (/^\d+$/.test(item)) {
      if (Number(item) >= 1 && Number(item) <= count) out.push(Number(item) - 1);
    } else return { error: `column: undefined column name '${item}'\n` };
  }
  return out;
}

/** The table of `text` as util-linux prints it. */
function render(text: string, t: Table): ExecResult {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const rows = lines.filter((l) => t.keepEmpty || l !== '').map((l) => (l === '' ? [] : cells(l, t)));
  let count = Math.max(t.names?.length ?? 0, ...rows.map((r) => r.length));
  if (rows.length === 0 && !t.names) return { stdout: '', stderr: '', exitCode: 0 };
  const pick = (list: string | undefined) => (list === undefined ? [] : columnList(list, t.names, count));
  const right = pick(t.right);
  const hide = pick(t.hide);
  const order = pick(t.order);
  for (const r of [right, hide, order]) if ('error' in r) return { stdout: '', stderr: r.error, exitCode: 1 };
  const hidden = new Set(hide as number[]);
  const ordered = [...new Set([...(order as number[]), ...Array.from({ length: count }, (_, i) => i)])].filter((c) => !hidden.has(c));
  const all = t.names && !t.noHeadings ? [t.names, ...rows] : rows;
  const width = (c: number) => Math.max(0, ...all.map((r) => displayWidth(r[c] ?? '')));
  const widths = ordered.map(width);
  const rightSet = new Set(right as number[]);
  const total = widths.reduce((a, b) => a + b, 0) + Math.max(0, ordered.length - 1) * displayWidth(t.output);
  if (t.fits && total > (t.width ?? 80)) return unsupported('column', `${t.fits} on a table wider than the output`);
  count = ordered.length;
  let stdout = '';
  for (const r of all) {
    const parts = ordered.map((c, k) => {
      const v = r[c] ?? '';
      const pad = ' '.repeat(widths[k]! - displayWidth(v));
      // The last column is never padded on the right, nor an empty cell of it on the left.
      if (k === count - 1) return rightSet.has(c) && v !== '' ? pad + v : v;
      return rightSet.has(c) ? pad + v : v + pad;
    });
    stdout += `${parts.join(t.output)}\n`;
  }
  return { stdout, stderr: '', exitCode: 0 };
}

/**
 * `column` in table mode (`-t`/`--table`, or `-J`): the table of its operands (a `-` operand is a file of that
 * name, as util-linux opens it) or of stdin. Returns null without table mode, for just-bash's `column` to fill
 * columns.
 */
export async function columnTable(args: string[], ctx: CommandContext): Promise<ExecResult | null> {
  const t: Table = { output: '  ', noHeadings: false, keepEmpty: false, limit: 0 };
  let table = false;
  const files: string[] = [];
  const usage = (msg: string): ExecResult => ({ stdout: '', stderr: `column: ${msg}\nTry 'column --help' for more information.\n`, exitCode: 1 });
  const set = (letter: string, value: string): ExecResult | undefined => {
    if (letter === 's') t.separators = value;
    else if (letter === 'o') t.output = value;
    else if (letter === 'N') t.names = value.split(',');
    else if (letter === 'R') t.right = value;
    else if (letter === 'H') t.hide = value;
    else if (letter === 'O') t.order = value;
    else if (letter === 'l' || letter === 'c') {
      if (!/^\d+$/.test(value)) return { stdout: '', stderr: `column: invalid ${letter === 'l' ? 'columns limit' : 'columns'} argument: '${value}'\n`, exitCode: 1 };
      if (letter === 'l') t.limit = Number(value);
      else t.width = Number(value);
    } else if (letter === 'T' || letter === 'W' || letter === 'E') t.fits = `-${letter}`;
    else if (letter !== 'n') return unsupported('column', `-${letter}`);
    return undefined;
  };
  const flag = (letter: string): ExecResult | undefined => {
    if (letter === 't') table = true;
    else if (letter === 'd') t.noHeadings = true;
    else if (letter === 'L') t.keepEmpty = true;
    else if (letter === 'J') return unsupported('column', '-J');
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.includes('=') ? [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a.slice(2), undefined];
      const v = Object.entries(VALUED).find(([, n]) => n === name);
      const f = Object.entries(FLAGS).find(([, n]) => n === name);
      if (v) {
        const value = inline ?? args[++i];
        if (value === undefined) return usage(`option '--${name}' requires an argument`);
        const r = set(v[0], value);
        if (r) return r;
      } else if (f) {
        const r = flag(f[0]);
        if (r) return r;
      } else return null;
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      files.push(a);
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const letter = a[k]!;
      if (VALUED[letter]) {
        const value = k + 1 < a.length ? a.slice(k + 1) : args[++i];
        if (value === undefined) return usage(`option requires an argument -- '${letter}'`);
        const r = set(letter, value);
        if (r) return r;
        break;
      }
      if (!FLAGS[letter]) return null;
      const r = flag(letter);
      if (r) return r;
    }
  }
  if (!table) return null;
  if (t.width === undefined && /^\d+$/.test(ctx.env.get('COLUMNS') ?? '')) t.width = Number(ctx.env.get('COLUMNS'));
  let text = '';
  if (files.length === 0) text = Buffer.from(latin1FromBytes(ctx.stdin), 'latin1').toString('utf8');
  for (const f of files) {
    try {
      text += Buffer.from(await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, f))).toString('utf8');
    } catch (err) {
      return { stdout: '', stderr: `column: ${f}: ${errnoText(err)}\n`, exitCode: 1 };
    }
  }
  return render(text, t);
}
