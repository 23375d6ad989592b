/**
 * GNU `truncate`, `du` and `df` (and util-linux `fallocate`) over the sprite's filesystem: sizes as a sprite's ext4 disk reports them (4 KiB
 * blocks; a directory is one block, a symlink none), `du` walking post-order with `-s -a -c -d -b -k -m -h
 * --apparent-size -0`, `df` describing the one disk mounted on `/`. Sizes parse as GNU's (`1K`, `1KB`, `+3`, `<4`).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/truncate-invocation.html, du-invocation.html,
 *   df-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type FsStat, type IFileSystem } from 'just-bash';
import { strerror } from './errno-text.ts';
import { inodeNumber, ownerOf } from './devices.ts';
import { humanSize } from './ls-long.ts';
import { MOUNTS } from './proc.ts';
import { OrderedOutput } from './output-order.ts';
import { localeQuote } from './gnu-quote.ts';

const HINT = 'run spritzer with --exec sandbox';
const refuse = (cmd: string, what: string): ExecResult => ({ stdout: '', stderr: `${cmd}: ${what} is not available in the shell engine; ${HINT}\n`, exitCode: 2 });
const usage = (cmd: string, what: string): ExecResult => ({ stdout: '', stderr: `${cmd}: ${what}\nTry '${cmd} --help' for more information.\n`, exitCode: 1 });

/** The disk a sprite has: 100 GB (docs: ext4, 100 GB). */
export const DISK_BYTES = 100e9;

/** GNU's size suffixes: `K` 1024, `KB` 1000, `KiB` 1024, up to `Y`. Null when `text` is not a size. */
export function parseSize(text: string): number | null {
  const m = /^(\d+)([KMGTPEZY](iB|B)?|[bcw])?$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  if (!m[2]) return n;
  if (m[2] === 'b') return n * 512;
  if (m[2] === 'c') return n;
  if (m[2] === 'w') return n * 2;
  const power = 'KMGTPEZY'.indexOf(m[2][0]!) + 1;
  return n * (m[3] === 'B' ? 1000 : 1024) ** power;
}

/** A file's preferred I/O size (`st_blksize`, `stat -c %o`) on the sprite's ext4 disk. */
const IO_BLOCK_BYTES = 4096;

async function truncate(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  let size: string | undefined;
  let reference: string | undefined;
  let create = true;
  let ioBlocks = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-s' || a === '--size') size = args[++i];
    else if (a.startsWith('--size=')) size = a.slice(7);
    else if (a.startsWith('-s') && a.length > 2) size = a.slice(2);
    else if (a === '-r' || a === '--reference') reference = args[++i];
    else if (a.startsWith('--reference=')) reference = a.slice(12);
    else if (a === '-c' || a === '--no-create') create = false;
    else if (a === '-o' || a === '--io-blocks') ioBlocks = true;
    else if (/^-[co]+$/.test(a)) (create = !a.includes('c') && create), (ioBlocks ||= a.includes('o'));
    else if (a === '--') files.push(...args.slice(i + 1)), (i = args.length);
    else if (a.startsWith('-') && a.length > 1) return usage('truncate', a.startsWith('--') ? `unrecognized option '${a}'` : `invalid option -- '${a[1]}'`);
    else files.push(a);
  }
  if (size === undefined && reference === undefined) return usage('truncate', "you must specify either '--size' or '--reference'");
  if (files.length === 0) return usage('truncate', 'missing file operand');
  if (ioBlocks && size === undefined) return usage('truncate', "'--io-blocks' was specified but '--size' was not");
  const mode = size !== undefined && /^[-+<>/%]/.test(size) ? size[0]! : '=';
  let amount = 0;
  if (size !== undefined) {
    const n = parseSize(mode === '=' ? size : size.slice(1));
    if (n === null) return { stdout: '', stderr: `truncate: Invalid number: '${size}'\n`, exitCode: 1 };
    // -o counts SIZE in the file system's I/O blocks (st_blksize: 4096, what `stat -c %o` says).
    amount = ioBlocks ? n * IO_BLOCK_BYTES : n;
  }
  let base: number | undefined;
  if (reference !== undefined) {
    try {
      base = (await fs.stat(fs.resolvePath(cwd, reference))).size;
    } catch (err) {
      return { stdout: '', stderr: `truncate: cannot stat '${reference}': ${strerror(err)}\n`, exitCode: 1 };
    }
    if (size === undefined) amount = base;
  }
  let stderr = '';
  for (const name of files) {
    const p = fs.resolvePath(cwd, name);
    let data: Uint8Array;
    try {
      const st = await fs.stat(p);
      if (st.isDirectory) throw Object.assign(new Error('x'), { code: 'EISDIR' });
      data = await fs.readFileBuffer(p);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== 'ENOENT') {
        stderr += `truncate: cannot open '${name}' for writing: ${strerror(err)}\n`;
        continue;
      }
      if (!create) continue;
      data = new Uint8Array(0);
    }
    const now = base ?? data.length;
    const target =
      mode === '+' ? now + amount : mode === '-' ? Math.max(0, now - amount) : mode === '<' ? Math.min(now, amount) : mode === '>' ? Math.max(now, amount)
        : mode === '/' ? (amount ? Math.floor(now / amount) * amount : now) : mode === '%' ? (amount ? Math.ceil(now / amount) * amount : now) : amount;
    const out = new Uint8Array(target);
    out.set(data.subarray(0, Math.min(target, data.length)));
    try {
      await fs.writeFile(p, out);
    } catch (err) {
      stderr += `truncate: cannot open '${name}' for writing: ${strerror(err)}\n`;
    }
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/**
 * util-linux `fallocate -l LEN [-o OFF] [-n] [-x] FILE`: the file (made when missing, unless -n) grows to OFF+LEN
 * bytes of zeros if it is shorter; -n (--keep-size) leaves its size. The hole and range modes (-c -d -i -p -z),
 * which need the disk's extents, are refused loudly. Sizes take util-linux's suffixes (`1K`/`1k` 1024, `1KB` 1000).
 * @see https://man7.org/linux/man-pages/man1/fallocate.1.html
 */
async function fallocate(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const fail = (what: string): ExecResult => ({ stdout: '', stderr: `fallocate: ${what}\n`, exitCode: 1 });
  let length: string | undefined;
  let offset = '0';
  let keep = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (long: string) => (a.startsWith(`${long}=`) ? a.slice(long.length + 1) : a.length > 2 && !a.startsWith('--') ? a.slice(2) : args[++i]);
    if (a === '-l' || a === '--length' || a.startsWith('--length=') || /^-l./.test(a)) length = value('--length');
    else if (a === '-o' || a === '--offset' || a.startsWith('--offset=') || /^-o./.test(a)) offset = value('--offset') ?? '';
    else if (a === '-n' || a === '--keep-size') keep = true;
    else if (a === '-x' || a === '--posix' || a === '-v' || a === '--verbose') continue;
    else if (a === '--') files.push(...args.slice(i + 1)), (i = args.length);
    else if (a.startsWith('-') && a.length > 1) return refuse('fallocate', `option ${a}`);
    else files.push(a);
  }
  const size = (text: string | undefined) => (text === undefined ? null : parseSize(text.replace(/^(\d+)([kmgtpezy])/, (_m, d: string, u: string) => d + u.toUpperCase())));
  if (length === undefined) return fail('no length argument specified');
  const len = size(length);
  if (len === null || len === 0) return fail('invalid length value specified');
  const off = size(offset);
  if (off === null) return fail('invalid offset value specified');
  const name = files[0];
  if (name === undefined) return fail('no filename specified');
  const p = fs.resolvePath(cwd, name);
  let data: Uint8Array;
  try {
    data = await fs.readFileBuffer(p);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT' || keep) return fail(`cannot open ${name}: ${strerror(err)}`);
    data = new Uint8Array(0);
  }
  const target = keep ? data.length : Math.max(data.length, off + len);
  const out = new Uint8Array(target);
  out.set(data);
  try {
    await fs.writeFile(p, out);
  } catch (err) {
    return fail(`cannot open ${name}: ${strerror(err)}`);
  }
  return { stdout: '', stderr: '', exitCode: 0 };
}

/** Bytes `st` occupies: its apparent size, or its 4 KiB blocks on disk. */
function sizeOf(st: FsStat, apparent: boolean): number {
  if (apparent) return st.size;
  if (st.isDirectory) return 4096;
  if (st.isSymbolicLink || ownerOf(st).device) return 0;
  return Math.ceil(st.size / 4096) * 4096;
}

interface DuOptions {
  all: boolean;
  summarize: boolean;
  total: boolean;
  apparent: boolean;
  block: number;
  human: 0 | 1000 | 1024;
  maxDepth: number;
  follow: 'never' | 'args' | 'always';
  eol: string;
  /** -l: a file met again (another hard link, a nested operand) counts again. */
  countLinks: boolean;
}

async function du(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const o: DuOptions = { all: false, summarize: false, total: false, apparent: false, block: 1024, human: 0, maxDepth: Infinity, follow: 'never', eol: '\n', countLinks: false };
  const operands: string[] = [];
  const setBlock = (v: string | undefined): ExecResult | null => {
    const n = v === undefined ? null : parseSize(v) ?? parseSize(`1${v}`);
    if (n === null || n === 0) return { stdout: '', stderr: `du: invalid --block-size argument '${v}'\n`, exitCode: 1 };
    o.block = n;
    return null;
  };
  const depth = (v: string | undefined): ExecResult | null => {
    if (v === undefined || !/^\d+$/.test(v)) return { stdout: '', stderr: `du: invalid maximum depth '${v}'\n`, exitCode: 1 };
    o.maxDepth = Number(v);
    return null;
  };
  const letters: Record<string, () => ExecResult | null | void> = {
    a: () => void (o.all = true),
    s: () => void (o.summarize = true),
    c: () => void (o.total = true),
    b: () => ((o.apparent = true), void (o.block = 1)),
    k: () => void (o.block = 1024),
    m: () => void (o.block = 1024 * 1024),
    h: () => void (o.human = 1024),
    L: () => void (o.follow = 'always'),
    D: () => void (o.follow = 'args'),
    H: () => void (o.follow = 'args'),
    P: () => void (o.follow = 'never'),
    x: () => undefined,
    l: () => void (o.countLinks = true),
    S: () => refuse('du', 'option -S'),
    '0': () => void (o.eol = '\0'),
  };
  const long: Record<string, string> = { '--all': 'a', '--summarize': 's', '--total': 'c', '--bytes': 'b', '--human-readable': 'h', '--dereference': 'L', '--dereference-args': 'D', '--no-dereference': 'P', '--one-file-system': 'x', '--count-links': 'l', '--separate-dirs': 'S', '--null': '0' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    let bad: ExecResult | null | void = null;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    } else if (long[a]) bad = letters[long[a]!]!();
    else if (a === '--apparent-size') o.apparent = true;
    else if (a === '--si') o.human = 1000;
    else if (a.startsWith('--max-depth=')) bad = depth(a.slice(12));
    else if (a === '--max-depth') bad = depth(args[++i]);
    else if (a.startsWith('--block-size=')) bad = setBlock(a.slice(13));
    else if (a.startsWith('--')) return a === '--inodes' || a.startsWith('--time') || a.startsWith('--exclude') || a.startsWith('--threshold') ? refuse('du', `option ${a.split('=')[0]}`) : usage('du', `unrecognized option '${a}'`);
    else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'd' || c === 'B' || c === 't' || c === 'X') {
          const v = a.slice(j + 1) || args[++i];
          bad = c === 'd' ? depth(v) : c === 'B' ? setBlock(v) : refuse('du', `option -${c}`);
          break;
        }
        if (!letters[c]) return usage('du', `invalid option -- '${c}'`);
        bad = letters[c]!();
        if (bad) break;
      }
    } else operands.push(a);
    if (bad) return bad;
  }
  if (o.summarize && o.maxDepth !== Infinity && o.maxDepth > 0) return usage('du', 'cannot both summarize and show all entries');
  if (o.summarize) o.maxDepth = 0;
  const show = (bytes: number) => (o.human ? humanSize(bytes, o.human) : String(Math.ceil(bytes / o.block)));
  // GNU du reports through error(), which flushes the lines printed so far: program order.
  const text = new OrderedOutput();
  let grand = 0;
  // du.c remembers the files it has counted (device and inode) and skips one met again, printing nothing for it:
  // every file when there are several operands or -L (so `du d d/sub` counts d/sub once), else only a non-directory
  // with more than one link. -l turns this off.
  const seen = new Set<number>();
  const hashAll = operands.length > 1 || o.follow === 'always';
  const walk = async (path: string, abs: string, st: FsStat, d: number, top: boolean): Promise<number> => {
    if (!o.countLinks && (hashAll || (!st.isDirectory && ((st as { nlink?: number }).nlink ?? 1) > 1))) {
      const key = inodeNumber(st, abs);
      if (seen.has(key)) return 0;
      seen.add(key);
    }
    let total = sizeOf(st, o.apparent);
    if (st.isDirectory) {
      const names = await fs.readdir(abs).catch((err: unknown) => {
        // A directory the user may not list still counts itself; GNU names it and exits 1.
        if ((err as { code?: string }).code === 'EACCES') text.err(`du: cannot read directory '${path}': Permission denied\n`);
        return [] as string[];
      });
      for (const name of names) {
        const childAbs = `${abs.replace(/\/+$/, '')}/${name}`;
        const cst = o.follow === 'always' ? await fs.stat(childAbs).catch(() => fs.lstat(childAbs)) : await fs.lstat(childAbs).catch((err: unknown) => {
          if ((err as { code?: string }).code === 'EACCES') text.err(`du: cannot access '${path.endsWith('/') ? `${path}${name}` : `${path}/${name}`}': Permission denied\n`);
          return null;
        });
        if (cst) total += await walk(path.endsWith('/') ? `${path}${name}` : `${path}/${name}`, childAbs, cst, d + 1, false);
      }
    }
    if ((st.isDirectory || o.all || top) && d <= o.maxDepth) text.out(`${show(total)}\t${path}${o.eol}`);
    return total;
  };
  for (const name of operands.length ? operands : ['.']) {
    const abs = fs.resolvePath(cwd, name);
    try {
      const st = o.follow === 'never' ? await fs.lstat(abs) : await fs.stat(abs);
      grand += await walk(name, abs, st, 0, true);
    } catch (err) {
      text.err(`du: cannot access '${name}': ${strerror(err)}\n`);
    }
  }
  if (o.total) text.out(`${show(grand)}\ttotal${o.eol}`);
  return text.result(text.stderr ? 1 : 0, 'before-errors');
}

/** `df --output` fields, in GNU's order: header, minimum width, left-aligned. */
const DF_FIELDS: Record<string, { header: string; min: number; left?: boolean }> = {
  source: { header: 'Filesystem', min: 14, left: true },
  fstype: { header: 'Type', min: 4, left: true },
  itotal: { header: 'Inodes', min: 5 },
  iused: { header: 'IUsed', min: 5 },
  iavail: { header: 'IFree', min: 5 },
  ipcent: { header: 'IUse%', min: 4 },
  size: { header: '1K-blocks', min: 5 },
  used: { header: 'Used', min: 5 },
  avail: { header: 'Avail', min: 5 },
  pcent: { header: 'Use%', min: 4 },
  file: { header: 'File', min: 4, left: true },
  target: { header: 'Mounted on', min: 0, left: true },
};

/** GNU df's usage error: the message, then the hint, exit 1. */
const dfUsage = (message: string): ExecResult => ({ stdout: '', stderr: `df: ${message}\nTry 'df --help' for more information.\n`, exitCode: 1 });

/**
 * `df` of the sprite's one disk; `usedBytes` is what its files take. `--output[=FIELD,...]` picks GNU's columns
 * (all of them without a list), in the order given; it excludes `-i`, `-P` and `-T`, as GNU's does.
 */
async function df(args: string[], fs: IFileSystem, cwd: string, env: Map<string, string>, usedBytes: number): Promise<ExecResult> {
  let human: 0 | 1000 | 1024 = 0;
  let posix = false;
  let showType = false;
  let inodes = false;
  let output: string[] | undefined;
  const operands: string[] = [];
  for (const a of args) {
    if (a === '-h' || a === '--human-readable') human = 1024;
    else if (a === '-H' || a === '--si') human = 1000;
    else if (a === '-P' || a === '--portability') posix = true;
    else if (a === '-T' || a === '--print-type') showType = true;
    else if (a === '-i' || a === '--inodes') inodes = true;
    else if (a === '-k' || a === '-a' || a === '--all' || a === '-l' || a === '--local' || a === '--sync' || a === '--no-sync') continue;
    else if (a === '--output' || a.startsWith('--output=')) {
      const list = a === '--output' ? Object.keys(DF_FIELDS) : a.slice('--output='.length).split(',');
      for (const f of list) {
        if (!(f in DF_FIELDS)) return dfUsage(`option --output: field ${localeQuote(env, f)} unknown`);
        if (output?.includes(f) || list.indexOf(f) !== list.lastIndexOf(f)) return dfUsage(`option --output: field ${localeQuote(env, f)} used more than once`);
      }
      output = [...(output ?? []), ...list];
    } else if (/^-[hHPTikal]+$/.test(a)) {
      for (const c of a.slice(1)) {
        if (c === 'h') human = 1024;
        if (c === 'H') human = 1000;
        if (c === 'P') posix = true;
        if (c === 'T') showType = true;
        if (c === 'i') inodes = true;
      }
    } else if (a.startsWith('-')) return refuse('df', `option ${a.split('=')[0]}`);
    else operands.push(a);
  }
  if (output) {
    const clash = inodes ? '-i' : posix ? '-P' : showType ? '-T' : undefined;
    if (clash) return dfUsage(`options ${clash} and --output are mutually exclusive`);
  }
  let stderr = '';
  const files: string[] = [];
  for (const name of operands) {
    if (await fs.exists(fs.resolvePath(cwd, name))) files.push(name);
    else stderr += `df: ${name}: No such file or directory\n`;
  }
  if (operands.length === 0) files.push('-');
  const totalK = Math.floor(DISK_BYTES / 1024);
  const usedK = Math.ceil(usedBytes / 4096) * 4;
  const inodeTotal = 6553600;
  const percent = (used: number, avail: number) => `${Math.ceil((used * 100) / (used + avail || 1))}%`;
  const blocks = (k: number) => (human ? humanSize(k * 1024, human) : String(k));
  const count = (n: number) => (human ? humanSize(n, human) : String(n));
  const value: Record<string, (file: string) => string> = {
    source: () => MOUNTS[0]!.source,
    fstype: () => 'ext4',
    itotal: () => count(inodeTotal),
    iused: () => count(0),
    iavail: () => count(inodeTotal),
    ipcent: () => percent(0, inodeTotal),
    size: () => blocks(totalK),
    used: () => blocks(usedK),
    avail: () => blocks(totalK - usedK),
    pcent: () => percent(usedK, totalK - usedK),
    file: (file) => file,
    target: () => '/',
  };
  const fields = output ?? ['source', ...(showType ? ['fstype'] : []), ...(inodes ? ['itotal', 'iused', 'iavail', 'ipcent'] : ['size', 'used', 'avail', 'pcent']), 'target'];
  const header = (f: string): string => {
    if (f === 'size') return human ? 'Size' : posix && !output ? '1024-blocks' : '1K-blocks';
    if (f === 'avail' && !output && !human) return 'Available';
    if (f === 'pcent' && posix && !output) return 'Capacity';
    return DF_FIELDS[f]!.header;
  };
  const rows = [fields.map(header), ...files.map((file) => fields.map((f) => value[f]!(file)))];
  const widths = fields.map((f, i) => Math.max(DF_FIELDS[f]!.min, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (DF_FIELDS[fields[i]!]!.left ? (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)) : cell.padStart(widths[i]!))).join(' ') + '\n';
  return { stdout: files.length > 0 ? rows.map(line).join('') : '', stderr, exitCode: stderr ? 1 : 0 };
}

/** `mountpoint [-q] [-d] DIR`: whether DIR is one of the sprite's mounts (util-linux's words; exit 32 when not, 1 when DIR is missing). */
async function mountpoint(args: string[], fs: IFileSystem, cwd: string): Promise<ExecResult> {
  const quiet = args.some((a) => a === '-q' || a === '--quiet');
  const devno = args.some((a) => a === '-d' || a === '--fs-devno');
  const name = args.filter((a) => !a.startsWith('-')).pop();
  if (name === undefined) return { stdout: '', stderr: 'mountpoint: bad usage\nTry \'mountpoint --help\' for more information.\n', exitCode: 1 };
  const abs = await fs.realpath(fs.resolvePath(cwd, name)).catch(() => null);
  if (abs === null) return { stdout: '', stderr: quiet ? '' : `mountpoint: ${name}: No such file or directory\n`, exitCode: 1 };
  const index = MOUNTS.findIndex((m) => m.target === abs);
  if (index < 0) return { stdout: quiet ? '' : `${name} is not a mountpoint\n`, stderr: '', exitCode: 32 };
  return { stdout: quiet ? '' : devno ? `${index === 0 ? '254:0' : `0:${20 + index}`}\n` : `${name} is a mountpoint\n`, stderr: '', exitCode: 0 };
}

/** `truncate`, `du`, `df` and `mountpoint` for just-bash's `customCommands`; `usedBytes` gives what the sprite's files take. */
export function diskCommands(usedBytes: () => number): CustomCommand[] {
  return [
    defineCommand('mountpoint', (args, ctx) => mountpoint(args, ctx.fs, ctx.cwd)),
    defineCommand('truncate', (args, ctx) => truncate(args, ctx.fs, ctx.cwd)),
    defineCommand('fallocate', (args, ctx) => fallocate(args, ctx.fs, ctx.cwd)),
    defineCommand('du', (args, ctx) => du(args, ctx.fs, ctx.cwd)),
    defineCommand('df', (args, ctx) => df(args, ctx.fs, ctx.cwd, ctx.env, usedBytes())),
  ];
}
