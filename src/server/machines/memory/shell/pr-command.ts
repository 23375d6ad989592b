/**
 * `pr` as GNU coreutils 9.1 paginates: pages of `-l` lines (66) with GNU's header (two blank lines, the date
 * `%Y-%m-%d %H:%M` of the file's mtime or of now for stdin, the name or `-h` text centred, `Page N`, two blank
 * lines) and five blank trailer lines, the last page filled out; `-t` without them; `-N` columns filled down and
 * balanced on the last page, each cut to its width of `-w` (72) and padded with tabs as GNU pads; `-m` files side
 * by side; `-a` across; `-s[CHAR]` joined columns; `-o N` margin; `-n[SEP[DIGITS]]` line numbers; `-d` double
 * spacing. Other options fail loudly.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/pr-invocation.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { quoteName } from './ls-quote.ts';
import { EBADF, stdinIsClosed } from './closed-stdin.ts';

interface Options {
  columns: number;
  length: number;
  width: number;
  header?: string;
  omit: boolean;
  merge: boolean;
  double: boolean;
  number?: { sep: string; digits: number };
  /** `-s[CHAR]`: columns joined by CHAR, neither padded nor cut. */
  separator?: string;
  /** `-a`: lines fill each row across the columns. */
  across: boolean;
  /** `-o N`: spaces before every line. */
  margin: number;
}

const HEADER_LINES = 5;
const TRAILER_LINES = 5;

/** The lines of a text (a last line without its newline still counts). */
const linesOf = (text: string) => (text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n'));

/** Whitespace from column `from` to `to` as GNU pr writes it (print_white_space): tabs where they reach, then spaces. */
function pad(from: number, to: number): string {
  let out = '';
  let h = from;
  for (let next = (Math.floor(h / 8) + 1) * 8; to - h > 1 && next <= to; next = (Math.floor(h / 8) + 1) * 8) {
    out += '\t';
    h = next;
  }
  return out + ' '.repeat(Math.max(0, to - h));
}

/** GNU's header line (print_header): date, the name centred in what is left, `Page N`. */
function headerLine(o: Options, date: string, name: string, page: number): string {
  const pageText = `Page ${page}`;
  const available = Math.max(0, o.width - date.length - name.length - pageText.length);
  const lhs = available >> 1;
  // GNU writes the margin before the header's two blank lines too.
  return `${' '.repeat(o.margin)}\n\n${' '.repeat(o.margin)}${date}${' '.repeat(Math.max(1, lhs))}${name}${' '.repeat(Math.max(1, available - lhs))}${pageText}\n\n\n`;
}

/** `%Y-%m-%d %H:%M` in UTC, the sprite's zone. */
const stamp = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

/**
 * A line's bytes cut to `limit` columns as GNU pr cuts them, and the columns they take. pr is byte-based: in a UTF-8
 * locale a byte above 0x7f is no printable character by itself, and pr writes such a byte with no width (pr.c's
 * char_to_clump) — a line of non-ASCII text is never cut, and pads as if those bytes were not there.
 */
function fitColumn(text: string, limit: number): { cut: string; width: number } {
  let width = 0;
  let i = 0;
  for (; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) continue;
    if (width + 1 > limit) break;
    width++;
  }
  return { cut: text.slice(0, i), width };
}

/** The pages of `columns` (one file's lines, or each merged file's), numbered from `firstPage`. */
function paginate(o: Options, columns: string[][], date: string, name: string, firstPage: number): { out: string; pages: number } {
  const headed = !o.omit;
  const body = headed ? o.length - HEADER_LINES - TRAILER_LINES : o.length;
  const perColumn = Math.max(1, o.double ? Math.floor(body / 2) || 1 : body);
  const n = o.merge ? columns.length : o.columns;
  // A number takes its digits and its separator, a tab counting to the next tab stop.
  const numberWidth = o.number && o.merge ? o.number.digits + (o.number.sep === '\t' ? 8 - (o.number.digits % 8) : 1) : 0;
  const colWidth = n > 1 ? Math.floor((o.width - numberWidth - (n - 1)) / n) : Infinity;
  let out = '';
  let page = firstPage;
  let lineNo = 0;
  const cursors = columns.map(() => 0);
  const stream = columns[0]!;
  let pos = 0;
  for (;;) {
    // One page's columns: merged files each give their next lines; one file fills its columns down, balanced when
    // the input ends within the page.
    let cols: string[][];
    if (o.merge) {
      if (cursors.every((c, i) => c >= columns[i]!.length)) break;
      cols = columns.map((c, i) => c.slice(cursors[i], (cursors[i] = cursors[i]! + perColumn)));
    } else {
      if (pos >= stream.length) break;
      const left = stream.length - pos;
      const counts = Array.from({ length: o.columns }, () => perColumn);
      if (left < perColumn * o.columns) {
        const b = Math.floor(left / o.columns);
        const extra = left % o.columns;
        for (let k = 0; k < o.columns; k++) counts[k] = b + (k < extra ? 1 : 0);
      }
      cols = o.across
        ? Array.from({ length: o.columns }, (_, k) => stream.slice(pos, pos + perColumn * o.columns).filter((_l, i) => i % o.columns === k))
        : counts.map((n) => {
            const c = stream.slice(pos, pos + n);
            pos += n;
            return c;
          });
      if (o.across) pos += perColumn * o.columns;
    }
    const rows = Math.max(...cols.map((c) => c.length));
    if (headed) out += headerLine(o, date, name, page);
    let written = 0;
    for (let r = 0; r < rows; r++) {
      let line = ' '.repeat(o.margin);
      let at = o.margin;
      if (o.number && o.merge) {
        const n = String(++lineNo);
        line += `${n.padStart(o.number.digits).slice(-o.number.digits)}${o.number.sep}`;
        at = o.margin + numberWidth;
      }
      cols.forEach((c, k) => {
        const text = c[r];
        if (o.separator !== undefined) {
          // Joined by the separator: a merged file that has ended still gets its separator.
          if (text !== undefined || o.merge) line += (k > 0 ? o.separator : '') + (text ?? '');
          return;
        }
        // Merged files keep their columns: one that has ended is still padded over.
        if (text === undefined) {
          if (o.merge && k > 0) {
            const start = o.margin + numberWidth + k * (colWidth + 1);
            line += pad(at, start);
            at = start;
          }
          return;
        }
        if (o.number && !o.merge) {
          const n = String(++lineNo);
          line += `${n.padStart(o.number.digits).slice(-o.number.digits)}${o.number.sep}`;
        }
        const start = o.margin + numberWidth + k * (colWidth + 1);
        if (k > 0) line += pad(at, start);
        const { cut, width } = fitColumn(text, colWidth);
        line += cut;
        at = start + width;
      });
      out += `${line}\n`;
      written++;
      if (o.double) {
        out += '\n';
        written++;
      }
    }
    if (headed) out += '\n'.repeat(Math.max(0, body - written) + TRAILER_LINES);
    page++;
  }
  return { out, pages: page - firstPage };
}

function parse(args: string[]): { o: Options; files: string[] } | ExecResult {
  const o: Options = { columns: 1, length: 66, width: 72, omit: false, merge: false, double: false, across: false, margin: 0 };
  let widthGiven = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    const long: Record<string, string> = { '--omit-header': 't', '--merge': 'm', '--double-space': 'd' };
    if (long[a]) {
      args.splice(i + 1, 0, `-${long[a]}`);
      continue;
    }
    const lv = /^--(length|width|header|columns)=(.*)$/.exec(a);
    if (lv) {
      args.splice(i + 1, 0, `-${{ length: 'l', width: 'w', header: 'h', columns: '' }[lv[1]!]}${lv[2]}`);
      continue;
    }
    if (a.startsWith('--')) return unsupported('pr', a);
    if (a.startsWith('+') || !a.startsWith('-') || a === '-') {
      if (a.startsWith('+') && a.length > 1) return unsupported('pr', a);
      files.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      const rest = () => (j + 1 < a.length ? a.slice(j + 1) : args[++i] ?? '');
      if (/\d/.test(c)) {
        const m = /^\d+/.exec(a.slice(j))![0];
        o.columns = Number(m);
        j += m.length - 1;
      } else if (c === 't') o.omit = true;
      else if (c === 'a') o.across = true;
      else if (c === 's') {
        o.separator = a[j + 1] ?? '\t';
        break;
      } else if (c === 'o') {
        const v = rest();
        if (!/^\d+$/.test(v)) return { stdout: '', stderr: `pr: '-o' extra characters or invalid number in the argument: ‘${v}’\n`, exitCode: 1 };
        o.margin = Number(v);
        break;
      }
      else if (c === 'm') o.merge = true;
      else if (c === 'd') o.double = true;
      else if (c === 'l' || c === 'w' || c === 'h') {
        const v = rest();
        if (c === 'h') o.header = v;
        else if (!/^\d+$/.test(v) || Number(v) === 0) return { stdout: '', stderr: `pr: invalid ${c === 'l' ? 'page length' : 'page width'} argument: ‘${v}’\n`, exitCode: 1 };
        else if (c === 'l') o.length = Number(v);
        else (o.width = Number(v)), (widthGiven = true);
        break;
      } else if (c === 'n') {
        const m = /^(\D?)(\d*)/.exec(a.slice(j + 1))!;
        o.number = { sep: m[1] || '\t', digits: m[2] ? Number(m[2]) : 5 };
        j += m[0].length;
      } else return unsupported('pr', `-${c}`);
    }
  }
  if (o.length <= HEADER_LINES + TRAILER_LINES) o.omit = true;
  // -s with -w cuts columns by GNU rules of its own: not done here.
  if (o.separator !== undefined && widthGiven) return unsupported('pr', '-s with -w');
  // Numbers with columns filled down number each column's lines: not done here.
  if (o.number && o.columns > 1 && !o.merge) return unsupported('pr', '-n with columns');
  return { o, files };
}

async function pr(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const parsed = parse([...args]);
  if ('exitCode' in parsed) return parsed;
  const { o, files } = parsed;
  let err = '';
  const inputs: { name: string; text: string; date: Date }[] = [];
  for (const f of files.length === 0 ? ['-'] : files) {
    if (f === '-' && stdinIsClosed(ctx)) {
      err += `pr: 'standard input': ${EBADF}\n`;
      continue;
    }
    if (f === '-') {
      inputs.push({ name: '', text: latin1FromBytes(ctx.stdin), date: new Date() });
      continue;
    }
    const abs = ctx.fs.resolvePath(ctx.cwd, f);
    try {
      const st = await ctx.fs.stat(abs);
      if (st.isDirectory) {
        err += `pr: ${quoteName(f, 'shell-escape-always')}: Is a directory\n`;
        continue;
      }
      inputs.push({ name: f, text: Buffer.from(await ctx.fs.readFileBuffer(abs)).toString('latin1'), date: st.mtime });
    } catch {
      err += `pr: ${quoteName(f, 'shell-escape-always')}: No such file or directory\n`;
    }
  }
  let out = '';
  if (o.merge) {
    const date = stamp(new Date());
    if (inputs.length > 0) out = paginate(o, inputs.map((i) => linesOf(i.text)), date, o.header ?? '', 1).out;
  } else {
    for (const input of inputs) out += paginate(o, [linesOf(input.text)], stamp(input.date), o.header ?? input.name, 1).out;
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: err, exitCode: err ? 1 : 0 };
}

/** `pr` for just-bash's `customCommands`. */
export function prCommand(): CustomCommand {
  return defineCommand('pr', (args, ctx) => pr(args, ctx));
}
