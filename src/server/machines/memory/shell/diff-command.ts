/**
 * `diff` as GNU diffutils 3.x runs it, replacing just-bash's (which always writes a unified diff of its own shape):
 * the normal format by default, `-u`/`-U N`, `-c`/`-C N`, `-e`, `-q`, `-s`, directories (`-r`, `-N`, `Only in`),
 * a file against a directory, the whitespace and case options, `--label`, binary files, and GNU's exit statuses
 * (0 same, 1 different, 2 trouble), and side by side (`-y`, `-W`, `--suppress-common-lines`, `--left-column`). It
 * owns the options, the files and the headers; which lines changed is diff-engine.ts's, the hunks diff-format.ts's
 * and diff-side.ts's. Options it lacks (`-p`, `-t`, …) fail loudly.
 * @see https://www.gnu.org/software/diffutils/manual/diffutils.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { nanosText } from './file-time.ts';
import { compareLines, type Change } from './diff-engine.ts';
import { formatChanges, type DiffSide, type DiffStyle } from './diff-format.ts';
import { sideBySide, type SideBySide } from './diff-side.ts';
import { unsupported } from './gnu-commands.ts';
import { sdiffAsDiff } from './sdiff-command.ts';
import { isStdinOperand, walkArgs } from './text-input.ts';
import { EBADF, stdinIsClosed } from './closed-stdin.ts';

interface Options {
  style: DiffStyle;
  brief: boolean;
  reportSame: boolean;
  recursive: boolean;
  newFile: boolean;
  text: boolean;
  ignoreCase: boolean;
  allSpace: boolean;
  spaceChange: boolean;
  blankLines: boolean;
  stripCr: boolean;
  labels: string[];
  exclude: string[];
  /** Side-by-side output (`-y`), with its width and common-line choices. */
  side?: SideBySide;
  width: number;
  suppressCommon: boolean;
  leftColumn: boolean;
  /** The option words as written, for the `diff OPTIONS a b` line before each pair of a directory comparison. */
  switches: string;
}

const TRY = "diff: Try 'diff --help' for more information.\n";
const usage = (msg: string): ExecResult => ({ stdout: '', stderr: `diff: ${msg}\n${TRY}`, exitCode: 2 });
/** Long options taking a value, by their full name. */
const LONG_VALUED = new Set(['--label', '--exclude', '--unified', '--context', '--color', '--palette', '--width']);
const LONG_FLAGS: Record<string, string> = {
  '--brief': 'q', '--report-identical-files': 's', '--recursive': 'r', '--new-file': 'N', '--text': 'a', '--ignore-case': 'i',
  '--ignore-all-space': 'w', '--ignore-space-change': 'b', '--ignore-blank-lines': 'B', '--ed': 'e', '--normal': 'normal',
  '--strip-trailing-cr': 'strip', '--side-by-side': 'y', '--suppress-common-lines': 'suppress', '--left-column': 'left',
};

/** Parses argv as GNU's getopt would (options anywhere, `--` ends them). */
function parse(args: string[]): { o: Options; operands: string[] } | ExecResult {
  const o: Options = { style: { kind: 'normal' }, brief: false, reportSame: false, recursive: false, newFile: false, text: false, ignoreCase: false, allSpace: false, spaceChange: false, blankLines: false, stripCr: false, labels: [], exclude: [], width: 130, suppressCommon: false, leftColumn: false, switches: '' };
  /** The output style an option chose: GNU's specify_style refuses a second, different one. */
  let chosen: string | undefined;
  const choose = (kind: string): ExecResult | undefined => {
    if (chosen !== undefined && chosen !== kind) return usage('conflicting output style options');
    chosen = kind;
    return undefined;
  };
  const context = (v: string | undefined, kind: 'unified' | 'context'): ExecResult | undefined => {
    if (v !== undefined && !/^\d+$/.test(v)) return usage(`invalid context length '${v}'`);
    const conflict = choose(kind);
    if (conflict) return conflict;
    o.style = { kind, context: v === undefined ? 3 : Number(v) };
    return undefined;
  };
  const width = (v: string | ExecResult): ExecResult | undefined => {
    if (typeof v !== 'string') return v;
    if (!/^\d+$/.test(v) || Number(v) === 0) return usage(`invalid width '${v}'`);
    o.width = Number(v);
    return undefined;
  };
  const flag = (f: string): ExecResult | undefined => {
    if (f === 'q') o.brief = true;
    else if (f === 's') o.reportSame = true;
    else if (f === 'r') o.recursive = true;
    else if (f === 'N') o.newFile = true;
    else if (f === 'a') o.text = true;
    else if (f === 'i') o.ignoreCase = true;
    else if (f === 'w') o.allSpace = true;
    else if (f === 'b') o.spaceChange = true;
    else if (f === 'B') o.blankLines = true;
    else if (f === 'e' || f === 'normal' || f === 'y') {
      const conflict = choose(f);
      if (conflict) return conflict;
      if (f === 'y') o.side = { width: 0, suppressCommon: false, leftColumn: false };
      else o.style = { kind: f === 'e' ? 'ed' : 'normal' };
    }
    else if (f === 'strip') o.stripCr = true;
    else if (f === 'suppress') o.suppressCommon = true;
    else if (f === 'left') o.leftColumn = true;
    else if (f === 'u') return context(undefined, 'unified');
    else if (f === 'c') return context(undefined, 'context');
    else return unsupported('diff', f.length === 1 ? `-${f}` : f);
    return undefined;
  };
  const walked = walkArgs<ExecResult>(args, (a, next) => {
    o.switches += ` ${a}`;
    /** The value of an option that takes the next word. */
    const separate = (missing: string): string | ExecResult => {
      const v = next();
      if (v === undefined) return usage(missing);
      o.switches += ` ${v}`;
      return v;
    };
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      if (name === '--label' || name === '--exclude') {
        const value = eq < 0 ? separate(`option '${name}' requires an argument`) : a.slice(eq + 1);
        if (typeof value !== 'string') return value;
        (name === '--label' ? o.labels : o.exclude).push(value);
        return undefined;
      }
      const value = eq < 0 ? undefined : a.slice(eq + 1);
      if (name === '--unified' || name === '--context') return context(value, name === '--unified' ? 'unified' : 'context');
      if (name === '--width') return width(value ?? separate(`option '--width' requires an argument`));
      if (name === '--color') return value === 'always' ? unsupported('diff', a) : undefined;
      if (LONG_FLAGS[name] && value === undefined) return flag(LONG_FLAGS[name]!);
      return unsupported('diff', a);
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'U' || c === 'C' || c === 'L' || c === 'x' || c === 'W') {
        const value = j + 1 < a.length ? a.slice(j + 1) : separate(`option requires an argument -- '${c}'`);
        if (typeof value !== 'string') return value;
        if (c === 'W') return width(value);
        if (c === 'L') o.labels.push(value);
        else if (c === 'x') o.exclude.push(value);
        else return context(value, c === 'U' ? 'unified' : 'context');
        return undefined;
      }
      if (/\d/.test(c)) continue; // GNU's obsolete `-NUM` (a context length) changes nothing without -c/-u.
      const r = flag(c);
      if (r) return r;
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  if (o.side) o.side = { width: o.width, suppressCommon: o.suppressCommon, leftColumn: o.leftColumn };
  return { o, operands: walked.operands };
}

interface Ctx {
  fs: IFileSystem;
  cwd: string;
  /** The stdin's bytes (null when it is closed), read only for a `-` operand. */
  stdin: () => string | null;
  now: Date;
  o: Options;
  out: string;
  err: string;
  status: number;
}

type Entry = { kind: 'file'; bytes: string; mtime: Date } | { kind: 'dir'; mtime: Date } | { kind: 'missing' } | { kind: 'error'; message: string };

const ERRORS: Record<string, string> = { ENOENT: 'No such file or directory', EACCES: 'Permission denied', ENOTDIR: 'Not a directory' };

async function load(c: Ctx, name: string): Promise<Entry> {
  if (isStdinOperand(name)) {
    const bytes = c.stdin();
    return bytes === null ? { kind: 'error', message: EBADF } : { kind: 'file', bytes, mtime: c.now };
  }
  const path = c.fs.resolvePath(c.cwd, name);
  try {
    const st = await c.fs.stat(path);
    if (st.isDirectory) return { kind: 'dir', mtime: st.mtime };
    return { kind: 'file', bytes: Buffer.from(await c.fs.readFileBuffer(path)).toString('latin1'), mtime: st.mtime };
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'error', message: ERRORS[code] ?? (err as Error).message };
  }
}

/** A file's lines and whether the last lacks its newline. */
function sideOf(bytes: string): DiffSide {
  if (bytes === '') return { lines: [], noEol: false };
  const noEol = !bytes.endsWith('\n');
  const lines = (noEol ? bytes : bytes.slice(0, -1)).split('\n');
  return { lines, noEol };
}

/** The line as the comparison sees it under the whitespace and case options. */
function key(o: Options, line: string): string {
  let k = o.stripCr && line.endsWith('\r') ? line.slice(0, -1) : line;
  if (o.allSpace) k = k.replace(/[ \t\v\f\r]+/g, '');
  else if (o.spaceChange) k = k.replace(/[ \t\v\f\r]+$/, '').replace(/[ \t\v\f\r]+/g, ' ');
  if (o.ignoreCase) k = k.toLowerCase();
  return k;
}

/** GNU's timestamp in headers: `2024-01-02 03:04:05.123456789 +0000` (the sprite's clock is UTC). */
function stamp(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${nanosText(d)} +0000`;
}

const EPOCH = new Date(0);
const isBinary = (s: string) => s.slice(0, 32768).includes('\0');

/** Compares two files (already loaded; an absent one is empty under -N) and writes the result into `c`. */
function diffFiles(c: Ctx, name0: string, name1: string, e0: Entry, e1: Entry, inDir: boolean): void {
  const bytes0 = e0.kind === 'file' ? e0.bytes : '';
  const bytes1 = e1.kind === 'file' ? e1.bytes : '';
  const o = c.o;
  // Side by side, identical files still print every line in both columns.
  if (bytes0 === bytes1 && e0.kind === e1.kind && (!o.side || o.brief)) {
    if (o.reportSame) c.out += `Files ${name0} and ${name1} are identical\n`;
    return;
  }
  if (o.brief || (!o.text && (isBinary(bytes0) || isBinary(bytes1)))) {
    if (bytes0 !== bytes1) {
      c.out += o.brief ? `Files ${name0} and ${name1} differ\n` : `Binary files ${name0} and ${name1} differ\n`;
      c.status = Math.max(c.status, 1);
    }
    return;
  }
  const a = sideOf(bytes0);
  const b = sideOf(bytes1);
  /** Each side's lines numbered by class: equal text (as `text` gives it) and equal final-newline state, one class. */
  const classer = (text: (line: string) => string, eolBlind: boolean) => {
    const classes = new Map<string, number>();
    return (side: DiffSide) =>
      side.lines.map((l, i) => {
        const k = `${text(l)}${i === side.lines.length - 1 && side.noEol && !eolBlind ? '' : '\n'}`;
        let n = classes.get(k);
        if (n === undefined) classes.set(k, (n = classes.size + 1));
        return n;
      });
  };
  // Under -b and -w the final newline is white space too: a last line without it matches one with it.
  const compared = classer((l) => key(o, l), o.allSpace || o.spaceChange);
  const [eq0, eq1] = [compared(a), compared(b)];
  const exact = classer((l) => l, false);
  const [raw0, raw1] = [exact(a), exact(b)];
  let changes = compareLines(eq0, eq1, o.style.kind === 'unified' || o.style.kind === 'context' ? o.style.context : 0, raw0, raw1);
  if (o.blankLines) {
    const blank = (side: DiffSide, from: number, n: number) => side.lines.slice(from, from + n).every((l) => key(o, l).trim() === '');
    changes = changes.filter((ch: Change) => !(blank(a, ch.line0, ch.deleted) && blank(b, ch.line1, ch.inserted)));
  }
  if (o.side && !o.brief) {
    if (changes.length > 0) c.status = Math.max(c.status, 1);
    if (inDir && changes.length > 0) c.out += `diff${o.switches} ${name0} ${name1}\n`;
    c.out += sideBySide(o.side, changes, a, b);
    return;
  }
  if (changes.length === 0) {
    if (o.reportSame && !o.blankLines) c.out += `Files ${name0} and ${name1} are identical\n`;
    return;
  }
  c.status = Math.max(c.status, 1);
  if (inDir) c.out += `diff${o.switches} ${name0} ${name1}\n`;
  const style = o.style;
  if (style.kind === 'unified' || style.kind === 'context') {
    const [m0, m1] = style.kind === 'unified' ? ['---', '+++'] : ['***', '---'];
    const header = (mark: string, label: string | undefined, name: string, e: Entry) => `${mark} ${label ?? `${name}\t${stamp(e.kind === 'file' || e.kind === 'dir' ? e.mtime : EPOCH)}`}\n`;
    c.out += header(m0, o.labels[0], name0, e0) + header(m1, o.labels[1], name1, e1);
  }
  c.out += formatChanges(style, changes, a, b);
}

const base = (name: string) => name.replace(/\/+$/, '').split('/').pop() ?? name;
const join = (dir: string, name: string) => `${dir.replace(/\/+$/, '')}/${name}`;

/** Compares two directories entry by entry, in byte order of the names, as GNU's `diff_dirs`. */
async function diffDirs(c: Ctx, dir0: string, dir1: string): Promise<void> {
  const list = async (d: string) => new Set(await c.fs.readdir(c.fs.resolvePath(c.cwd, d)).catch(() => [] as string[]));
  const [n0, n1] = await Promise.all([list(dir0), list(dir1)]);
  const excluded = (n: string) => c.o.exclude.some((g) => globMatch(g, n));
  const names = [...new Set([...n0, ...n1])].filter((n) => !excluded(n)).sort((x, y) => (Buffer.from(x) < Buffer.from(y) ? -1 : x === y ? 0 : 1));
  for (const n of names) {
    const p0 = join(dir0, n);
    const p1 = join(dir1, n);
    if (!n0.has(n) || !n1.has(n)) {
      const present = n0.has(n) ? await load(c, p0) : await load(c, p1);
      if (c.o.newFile && present.kind === 'file') {
        const absent: Entry = { kind: 'missing' };
        diffFiles(c, p0, p1, n0.has(n) ? present : absent, n0.has(n) ? absent : present, true);
      } else if (c.o.newFile && present.kind === 'dir') {
        // -N takes the absent directory as an empty one: each file below is compared with an empty file (-r), or
        // the pair is reported as two subdirectories.
        if (c.o.recursive) await diffDirs(c, p0, p1);
        else c.out += `Common subdirectories: ${p0} and ${p1}\n`;
      } else {
        c.out += `Only in ${n0.has(n) ? dir0.replace(/\/+$/, '') : dir1.replace(/\/+$/, '')}: ${n}\n`;
        c.status = Math.max(c.status, 1);
      }
      continue;
    }
    await diffPair(c, p0, p1, true);
  }
}

/** A glob of `-x` against a file name (`*`, `?`, `[…]`). */
function globMatch(glob: string, name: string): boolean {
  const re = glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(name);
}

/** Compares two operands of any kind (files, directories, a file and a directory). */
async function diffPair(c: Ctx, name0: string, name1: string, inDir: boolean): Promise<void> {
  let [e0, e1] = await Promise.all([load(c, name0), load(c, name1)]);
  if (!inDir && e0.kind === 'dir' && e1.kind !== 'dir' && name1 !== '-') {
    name0 = join(name0, base(name1));
    e0 = await load(c, name0);
  } else if (!inDir && e1.kind === 'dir' && e0.kind !== 'dir' && name0 !== '-') {
    name1 = join(name1, base(name0));
    e1 = await load(c, name1);
  }
  for (const [e, n] of [[e0, name0], [e1, name1]] as const) {
    if (e.kind === 'error' || (e.kind === 'missing' && !(c.o.newFile && (e0.kind === 'file' || e1.kind === 'file')))) {
      c.err += `diff: ${n}: ${e.kind === 'error' ? e.message : ERRORS.ENOENT}\n`;
      c.status = 2;
      return;
    }
  }
  if (e0.kind === 'dir' && e1.kind === 'dir') {
    if (inDir && !c.o.recursive) c.out += `Common subdirectories: ${name0} and ${name1}\n`;
    else await diffDirs(c, name0, name1);
    return;
  }
  if (e0.kind === 'dir' || e1.kind === 'dir') {
    const what = (e: Entry) => (e.kind === 'dir' ? 'directory' : 'regular file');
    c.out += `File ${name0} is a ${what(e0)} while file ${name1} is a ${what(e1)}\n`;
    c.status = Math.max(c.status, 1);
    return;
  }
  diffFiles(c, name0, name1, e0, e1, inDir);
}

async function diff(args: string[], fs: IFileSystem, cwd: string, stdin: () => string | null): Promise<ExecResult> {
  const parsed = parse(args);
  if ('exitCode' in parsed) return parsed;
  const { o, operands } = parsed;
  if (operands.length < 2) return usage(operands.length === 0 ? `missing operand after 'diff'` : `missing operand after '${operands[0]}'`);
  if (operands.length > 2) return usage(`extra operand '${operands[2]}'`);
  const c: Ctx = { fs, cwd, stdin, now: new Date(), o, out: '', err: '', status: 0 };
  await diffPair(c, operands[0]!, operands[1]!, false);
  return { ...bytesOutput(unsafeBytesFromLatin1(c.out)), stderr: c.err, exitCode: c.status };
}

/** `diff` and `sdiff` (which runs `diff -y`) for just-bash's `customCommands`. */
export function diffCommands(): CustomCommand[] {
  const stdin = (ctx: CommandContext) => () => (stdinIsClosed(ctx) ? null : latin1FromBytes(ctx.stdin));
  return [
    defineCommand('diff', (args, ctx) => diff(args, ctx.fs, ctx.cwd, stdin(ctx))),
    defineCommand('sdiff', (args, ctx) => {
      const asDiff = sdiffAsDiff(args);
      return Array.isArray(asDiff) ? diff(asDiff, ctx.fs, ctx.cwd, stdin(ctx)) : Promise.resolve(asDiff);
    }),
  ];
}
