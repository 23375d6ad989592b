/**
 * `gzip`, `gunzip` and `zcat` as GNU gzip reports: decompression to stdout (`zcat`, `-dc`) and `-l` done here over
 * node's zlib (any operand name, `/dev/fd/N` and stdin included; `-f` passes data that is not gzip through), the
 * rest (compressing, decompressing in place) by just-bash's gzip with GNU's wording: messages always say `gzip:`
 * (gunzip and zcat are gzip), an existing output is `already exists;\tnot overwritten` with exit 2, a suffix
 * warning exits 2; an operand NAME that does not exist is read as NAME.gz, and a file decompressed in place gets the
 * compressed file's time (with `-N`, the time in its header).
 * `zgrep` searches decompressed data with `grep`.
 * @see https://www.gnu.org/software/gzip/manual/gzip.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, stdoutAsBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { readOperand, type InputCtx } from './text-input.ts';
import { EBADF } from './closed-stdin.ts';
import { OrderedOutput, withStdoutBytes, type OrderedResult } from './output-order.ts';
import { DecompressLimitError, gunzipCapped } from './decompress-limit.ts';
import { regzipped, type GzipHeader } from './gzip-deflate.ts';

type Run = (args: string[]) => Promise<ExecResult>;

/** The short flags of a gzip argv (its clusters, `--stdout`, `--decompress`…), and its operands. */
function flagsOf(args: string[]): { flags: Set<string>; operands: string[] } {
  const LONG: Record<string, string> = { '--stdout': 'c', '--to-stdout': 'c', '--decompress': 'd', '--uncompress': 'd', '--force': 'f', '--keep': 'k', '--list': 'l', '--quiet': 'q', '--test': 't', '--verbose': 'v' };
  const flags = new Set<string>();
  const operands: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === '--') options = false;
    else if (options && a === '--suffix') flags.add(`--suffix=${args[++i] ?? ''}`);
    else if (options && a.startsWith('--')) flags.add(LONG[a] ?? a);
    else if (options && a.startsWith('-') && a.length > 1) {
      // -S SUF (or -SSUF) takes the rest of the cluster, or the next word, as its value.
      const s = a.indexOf('S');
      for (const c of s < 0 ? a.slice(1) : a.slice(1, s)) flags.add(c);
      if (s >= 0) flags.add(`--suffix=${s === a.length - 1 ? (args[++i] ?? '') : a.slice(s + 1)}`);
    } else operands.push(a);
  }
  return { flags, operands };
}

const isGzip = (bytes: string) => bytes.charCodeAt(0) === 0x1f && bytes.charCodeAt(1) === 0x8b;

/** Decompresses each operand (or stdin) to stdout, as `gzip -dc` (`-f`: data that is not gzip is copied). */
async function toStdout(operands: string[], force: boolean, ctx: InputCtx): Promise<OrderedResult> {
  // gzip writes each file's output before it reports the next one: program order.
  const text = new OrderedOutput();
  let status = 0;
  for (const name of operands.length > 0 ? operands : ['-']) {
    const input = await readOperand(ctx, name);
    const shown = name === '-' ? ('error' in input && input.readFailed ? 'standard input' : 'stdin') : name;
    if ('error' in input) {
      const dir = input.error === 'Is a directory';
      text.err(dir ? `gzip: ${shown} is a directory -- ignored\n` : `gzip: ${shown}: ${input.error}\n`);
      status = Math.max(status, dir ? 2 : 1);
      continue;
    }
    if (!isGzip(input.bytes)) {
      if (force) text.out(input.bytes);
      else if (input.bytes === '' || input.bytes === '\x1f') {
        // Too short to tell: gzip ran out of input while reading the magic number.
        text.err(`\ngzip: ${shown}: unexpected end of file\n`);
        status = 1;
      }
      else {
        // GNU's message comes after a newline here (its progress line to a terminal would precede it).
        text.err(`\ngzip: ${shown}: not in gzip format\n`);
        status = 1;
      }
      continue;
    }
    try {
      text.out(gunzipCapped(Buffer.from(input.bytes, 'latin1')).toString('latin1'));
    } catch (err) {
      if (err instanceof DecompressLimitError) {
        // Past the shell engine's decompression cap gzip fails as on a full disk, and stops there (docs/limits.md).
        text.err('gzip: stdout: No space left on device\n');
        status = 1;
        break;
      }
      text.err(`\ngzip: ${shown}: unexpected end of file\n`);
      status = 1;
    }
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(text.stdout)), stderr: text.stderr, exitCode: status, outputOrder: text.order('before-errors') };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** gzip's ratio column: the share of `size` saved, one decimal, right-aligned in 5 (gzip.c display_ratio). */
const ratioOf = (saved: number, size: number) => `${(size === 0 ? 0 : (saved / size) * 100).toFixed(1).padStart(5)}%`;

/**
 * `gzip -l`: the compressed and uncompressed sizes of each operand, GNU's columns and ratio; with `-v` the method,
 * CRC and time (the header's, else the file's) first; a `(totals)` line after more than one operand; `-q` without
 * the heading. As gzip.c's do_list.
 */
async function list(operands: string[], ctx: InputCtx, flags: Set<string>): Promise<ExecResult> {
  const verbose = flags.has('v');
  const quiet = flags.has('q');
  const heading = `${verbose ? 'method  crc     date  time  ' : ''}         compressed        uncompressed  ratio uncompressed_name\n`;
  let out = '';
  let stderr = '';
  let totalIn = 0;
  let totalOut = 0;
  // gzip's totals line takes the last file's header and trailer off the total, as its do_list does.
  let lastHeader = 0;
  for (const name of operands.length > 0 ? operands : ['-']) {
    const input = await readOperand(ctx, name);
    const shown = name === '-' ? 'stdin' : name;
    if ('error' in input) {
      stderr += `gzip: ${shown}: ${input.error}\n`;
      continue;
    }
    const b = input.bytes;
    if (!isGzip(b) || b.length < 18) {
      stderr += `\ngzip: ${shown}: not in gzip format\n`;
      lastHeader = 0;
      continue;
    }
    const size = (b.charCodeAt(b.length - 4) | (b.charCodeAt(b.length - 3) << 8) | (b.charCodeAt(b.length - 2) << 16)) + b.charCodeAt(b.length - 1) * 2 ** 24;
    // The ratio counts the deflated data only: the header (with the stored name) and the 8-byte trailer are not.
    let header = 10;
    if (b.charCodeAt(3) & 0x08) header = b.indexOf('\0', 10) + 1;
    const data = b.length - header - 8;
    const target = name === '-' ? 'stdout' : name.replace(/\.(gz|z|tgz)$/i, (m) => (m.toLowerCase() === '.tgz' ? '.tar' : ''));
    if (out === '' && !quiet) out = heading;
    if (verbose) {
      const crc = Buffer.from(b.slice(b.length - 8, b.length - 4), 'latin1').readUInt32LE(0);
      let stamp = Buffer.from(b.slice(4, 8), 'latin1').readUInt32LE(0);
      if (stamp === 0 && name !== '-' && input.regular) stamp = Math.floor(((await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, name)).catch(() => null))?.mtime.getTime() ?? 0) / 1000);
      const t = new Date(stamp * 1000);
      const when = `${MONTHS[t.getUTCMonth()]}${String(t.getUTCDate()).padStart(3)} ${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}`;
      out += `defla ${crc.toString(16).padStart(8, '0')} ${when} `;
    }
    out += `${String(b.length).padStart(19)} ${String(size).padStart(19)} ${ratioOf(size - data, size)} ${target}\n`;
    totalIn += b.length;
    totalOut += size;
    lastHeader = header + 8;
  }
  if (operands.length > 1 && !quiet && out !== '') out += `${verbose ? ' '.repeat(28) : ''}${String(totalIn).padStart(19)} ${String(totalOut).padStart(19)} ${ratioOf(totalOut - (totalIn - lastHeader), totalOut)} (totals)\n`;
  return { stdout: out, stderr, exitCode: stderr ? 1 : 0 };
}

/**
 * The operands that are symbolic links: GNU gzip opens a file it replaces with O_NOFOLLOW (unless `-f`, or `-c`
 * which replaces nothing), so it refuses them with `Too many levels of symbolic links` and exit 1.
 */
async function symlinkOperands(operands: string[], ctx: InputCtx): Promise<string[]> {
  const links: string[] = [];
  for (const o of operands) if (o !== '-' && (await ctx.fs.lstat(ctx.fs.resolvePath(ctx.cwd, o)).catch(() => null))?.isSymbolicLink) links.push(o);
  return links;
}

/** Just-bash's result worded as GNU gzip's (file names as the operands gave them). */
function gnuWording(r: ExecResult, operands: string[], ctx: InputCtx): ExecResult {
  let stderr = r.stderr
    .replace(/^(gunzip|zcat): /gm, 'gzip: ')
    // GNU starts these on a line of their own (after a progress line that `-v` would have left open).
    .replace(/^(?<!\n\n)gzip: (.*): (not in gzip format|unexpected end of file)$/gm, '\ngzip: $1: $2')
    .replace(/already exists; not overwritten/g, 'already exists;\tnot overwritten')
    .replace(/^gzip: (.*): is a directory -- ignored$/gm, 'gzip: $1 is a directory -- ignored')
    // `-tv`'s verdict: GNU writes a space after the tab.
    .replace(/^(.*):\tOK$/gm, '$1:\t OK')
    // just-bash's own gzip stops at its output limit (the decompression cap): worded as GNU's full disk.
    .replace(/^gzip: (.*?)(\.gz|\.z|\.tgz)?: (Cannot create a Buffer larger than \d+ bytes|decompressed data exceeds limit.*|.*live byte limit exceeded.*)$/gm, (_m, name: string, suffix?: string) => `gzip: ${name}${suffix === '.tgz' ? '.tar' : ''}: No space left on device`);
  for (const o of operands) if (!o.startsWith('/')) stderr = stderr.split(ctx.fs.resolvePath(ctx.cwd, o)).join(o);
  // The output file of `NAME.gz` (`already exists`) is named as the operand names it too.
  for (const o of operands) {
    const out = o.replace(/\.(gz|z)$/i, '');
    if (!o.startsWith('/') && out !== o) stderr = stderr.replace(new RegExp(`^gzip: ${ctx.fs.resolvePath(ctx.cwd, out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?= already exists)`, 'gm'), `gzip: ${out}`);
  }
  const warning = /unknown suffix -- ignored|already exists;|is a directory -- ignored/.test(stderr) && !/No such file|not in gzip format/.test(stderr);
  const stdout = r.stdout.includes(':\tOK') ? r.stdout.replace(/^(.*):\tOK$/gm, '$1:\t OK') : undefined;
  return { ...r, ...(stdout === undefined ? {} : { stdout }), stderr, exitCode: r.exitCode === 1 && warning ? 2 : r.exitCode };
}

async function gzip(cmd: string, args: string[], ctx: InputCtx, run: Run): Promise<ExecResult> {
  let { flags, operands } = flagsOf(args);
  const decompress = cmd !== 'gzip' || flags.has('d');
  if (decompress && !flags.has('l')) {
    const found = await withSuffixes(operands, flags, ctx);
    if (found.some((o, i) => o !== operands[i])) {
      args = args.map((a) => (operands.includes(a) ? found[operands.indexOf(a)]! : a));
      operands = found;
    }
  }
  if (flags.has('l')) return list(operands, ctx, flags);
  // Compressing a closed stdin: the read fails (decompressing it fails in toStdout, through readOperand).
  if (!decompress && ctx.stdinClosed && (operands.length === 0 || operands.includes('-'))) return { stdout: '', stderr: `gzip: standard input: ${EBADF}\n`, exitCode: 1 };
  if (decompress && (cmd === 'zcat' || flags.has('c') || operands.length === 0) && !flags.has('t') && ![...flags].some((f) => f.startsWith('--') && !f.startsWith('--suffix='))) return toStdout(operands, flags.has('f'), ctx);
  if (decompress && !flags.has('t') && operands.some((o) => /\.t[ga]z$/i.test(o))) return tarSuffix(args, operands, ctx, run);
  if (!flags.has('c') && !flags.has('f') && !flags.has('t')) {
    const links = await symlinkOperands(operands, ctx);
    if (links.length > 0) {
      const rest = args.filter((a) => !links.includes(a));
      const others = operands.filter((o) => !links.includes(o));
      const r = others.length > 0 ? await gzip(cmd, rest, ctx, run) : { stdout: '', stderr: '', exitCode: 0 };
      return { ...r, stderr: `${links.map((l) => `gzip: ${l}: Too many levels of symbolic links\n`).join('')}${r.stderr}`, exitCode: Math.max(1, r.exitCode) };
    }
  }
  // GNU gives NAME.gz its source's time (and stores it in the header): taken before the source goes.
  const times = new Map<string, Date>();
  if (!decompress) for (const o of operands) {
    const st = o === '-' ? null : await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, o)).catch(() => null);
    if (st?.isFile) times.set(o, st.mtime);
  }
  const restore = decompress && !flags.has('t') ? await decompressedTimes(args, flags, operands, ctx) : [];
  const r = gnuWording(await run(args), operands, ctx);
  for (const t of restore) {
    if ((await ctx.fs.lstat(t.out).catch(() => null))?.isFile) await ctx.fs.utimes(t.out, t.when, t.when);
  }
  return decompress || flags.has('t') ? r : deflatedAsGnu(r, args, flags, operands, ctx, times);
}

/**
 * The operands of a decompression as GNU gzip opens them: a NAME that does not exist is read as the first of
 * NAME.gz (or NAME + the `-S` suffix), NAME-gz, NAME.z, NAME-z, NAME_z, NAME.Z that does (`gunzip f` decompresses
 * `f.gz` into `f`, and messages name `f.gz`); the others as they are.
 */
async function withSuffixes(operands: string[], flags: Set<string>, ctx: InputCtx): Promise<string[]> {
  const suffix = [...flags].find((f) => f.startsWith('--suffix='))?.slice(9);
  const tries = [...new Set([suffix || '.gz', '.gz', '-gz', '.z', '-z', '_z', '.Z'])];
  const out: string[] = [];
  for (const o of operands) {
    const exists = async (name: string) => (await ctx.fs.lstat(ctx.fs.resolvePath(ctx.cwd, name)).catch(() => null)) !== null;
    if (o === '-' || (await exists(o))) {
      out.push(o);
      continue;
    }
    let chosen = o;
    for (const t of tries) {
      if (await exists(o + t)) {
        chosen = o + t;
        break;
      }
    }
    out.push(chosen);
  }
  return out;
}

/**
 * The time each file decompressed in place gets, as GNU gzip gives it: the compressed file's own time (`-n`, the
 * default when decompressing), or with `-N` (`--name`; the last of -n/-N wins) the time stored in its header when
 * that is not 0. Taken before the run (the compressed file goes). An operand whose output already exists (and no
 * `-f`) is left out: gzip refuses to overwrite it.
 */
async function decompressedTimes(args: string[], flags: Set<string>, operands: string[], ctx: InputCtx): Promise<Array<{ out: string; when: Date }>> {
  const fromHeader = args.reduce((keep, a) => (a === '--no-name' || /^-[^-]*n/.test(a) ? false : a === '--name' || /^-[^-]*N/.test(a) ? true : keep), false);
  const suffix = [...flags].find((f) => f.startsWith('--suffix='))?.slice(9);
  const suffixes = [...(suffix ? [suffix] : []), '.gz', '-gz', '.z', '-z', '_z', '.Z'];
  const found: Array<{ out: string; when: Date }> = [];
  for (const o of operands) {
    if (o === '-') continue;
    const abs = ctx.fs.resolvePath(ctx.cwd, o);
    const known = suffixes.find((x) => abs.endsWith(x) && abs.length > x.length);
    const gz = known ? abs : `${abs}${suffix ?? '.gz'}`;
    const out = known ? abs.slice(0, -known.length) : abs;
    const st = await ctx.fs.stat(gz).catch(() => null);
    if (!st?.isFile) continue;
    if (!flags.has('f') && (await ctx.fs.lstat(out).catch(() => null))) continue;
    let when = st.mtime;
    if (fromHeader) {
      const head = Buffer.from(await ctx.fs.readFileBuffer(gz)).subarray(0, 8);
      const stamp = head.length === 8 && head[0] === 0x1f && head[1] === 0x8b ? head.readUInt32LE(4) : 0;
      if (stamp !== 0) when = new Date(stamp * 1000);
    }
    found.push({ out, when });
  }
  return found;
}

/** The level a gzip command line asks for (`-1`…`-9`, `--fast`, `--best`; the last one wins), default 6. */
function levelOf(args: string[]): number {
  let level = 6;
  for (const a of args) {
    if (a === '--') break;
    if (a === '--fast') level = 1;
    else if (a === '--best') level = 9;
    else if (/^-[^-]/.test(a)) for (const c of a.slice(1, a.includes('S') ? a.indexOf('S') : undefined)) if (/[1-9]/.test(c)) level = Number(c);
  }
  return level;
}

/**
 * What just-bash's gzip compressed (stdout, or each operand's `NAME.gz`, keeping its time) deflated again as GNU
 * gzip deflates (gzip-deflate.ts): node's zlib picks other matches, so sizes, `gzip -l` and checksums differed.
 */
async function deflatedAsGnu(r: ExecResult, args: string[], flags: Set<string>, operands: string[], ctx: InputCtx, times: ReadonlyMap<string, Date>): Promise<ExecResult> {
  const level = levelOf(args);
  // GNU stores a file's name and time unless -n (stdin has neither); the last of -n/-N wins.
  const saveName = args.reduce((keep, a) => (a === '--no-name' || /^-[^-]*n/.test(a) ? false : a === '--name' || /^-[^-]*N/.test(a) ? true : keep), true);
  // One member per operand that is stdin or a file (a missing one or a directory wrote none).
  const headerOf = async (o: string): Promise<GzipHeader | null> => {
    if (o === '-') return {};
    const st = await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, o)).catch(() => null);
    if (!st?.isFile) return null;
    return saveName ? { name: o.replace(/^.*\//, ''), mtime: Math.floor(st.mtime.getTime() / 1000) } : {};
  };
  if (flags.has('c') || operands.length === 0 || operands.includes('-')) {
    const out = Buffer.from(latin1FromBytes(stdoutAsBytes(r)), 'latin1');
    const again = regzipped(out, level, (await Promise.all((operands.length ? operands : ['-']).map(headerOf))).filter((h) => h !== null));
    // Always a fresh result: just-bash's own accounting of the old one (a failed operand's run) would not hold.
    r = withStdoutBytes(r, again.toString('latin1'));
    if (flags.has('c') || operands.length === 0) return r;
  }
  if (flags.has('r') || r.exitCode !== 0) return r;
  const suffix = [...flags].find((f) => f.startsWith('--suffix='))?.slice(9) || '.gz';
  for (const o of operands) {
    if (o === '-') continue;
    const path = ctx.fs.resolvePath(ctx.cwd, o + suffix);
    const st = await ctx.fs.stat(path).catch(() => null);
    if (!st?.isFile) continue;
    const bytes = Buffer.from(await ctx.fs.readFileBuffer(path));
    const when = times.get(o) ?? st.mtime;
    const again = regzipped(bytes, level, saveName ? [{ name: o.replace(/^.*\//, ''), mtime: Math.floor(when.getTime() / 1000) }] : undefined);
    if (again !== bytes) await ctx.fs.writeFile(path, again);
    await ctx.fs.utimes(path, when, when);
  }
  return r;
}

/**
 * gunzip of a `.tgz`/`.taz` file writes `NAME.tar` (GNU gzip's suffix table); just-bash's knows only `.gz` and
 * `.z`, so each such operand is decompressed under the name `NAME.tar.gz` and renamed back if it is still there
 * (`-k`, or a failure).
 */
async function tarSuffix(args: string[], operands: string[], ctx: InputCtx, run: Run): Promise<ExecResult> {
  const moved = new Map<string, string>();
  for (const o of operands) {
    if (!/\.t[ga]z$/i.test(o)) continue;
    const as = `${o.slice(0, -4)}.tar.gz`;
    const from = ctx.fs.resolvePath(ctx.cwd, o);
    const to = ctx.fs.resolvePath(ctx.cwd, as);
    if (!(await ctx.fs.stat(from).catch(() => null)) || (await ctx.fs.stat(to).catch(() => null))) continue;
    await ctx.fs.mv(from, to);
    moved.set(o, as);
  }
  const r = gnuWording(await run(args.map((a) => moved.get(a) ?? a)), [...operands.map((o) => moved.get(o) ?? o)], ctx);
  let stderr = r.stderr;
  for (const [o, as] of moved) {
    const to = ctx.fs.resolvePath(ctx.cwd, as);
    if (await ctx.fs.stat(to).catch(() => null)) await ctx.fs.mv(to, ctx.fs.resolvePath(ctx.cwd, o));
    stderr = stderr.split(as).join(o);
  }
  return { ...r, stderr };
}

/** `gzip`, `gunzip` and `zcat` for just-bash's `customCommands`, over its own. */
export function gzipCommands(): CustomCommand[] {
  return ['gzip', 'gunzip', 'zcat'].map((name) => defineCommand(name, (args, ctx) => gzip(name, args, ctx, (a) => ctx.origCommand!(a))));
}

/**
 * `zgrep` as gzip's script runs it: each operand decompressed (plain data as it is) and searched by `grep` with
 * the operand's name as its label (names shown when there are several, or with `-H`); stdin without operands.
 */
async function zgrep(args: string[], ctx: CommandContext): Promise<ExecResult> {
  // The first word that is not an option (nor an option's value) is the pattern, unless -e/-f gave one.
  const VALUED = new Set(['-e', '-f', '-m', '-A', '-B', '-C', '--regexp', '--file', '--max-count']);
  const opts: string[] = [];
  const files: string[] = [];
  let patternGiven = args.some((a) => a === '-e' || a === '-f' || /^--(regexp|file)=/.test(a) || /^-[^-]*[ef]/.test(a));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-') && a !== '-') {
      opts.push(a);
      if (VALUED.has(a)) opts.push(args[++i] ?? '');
    } else if (!patternGiven) {
      opts.push('-e', a);
      patternGiven = true;
    } else files.push(a);
  }
  const names = opts.includes('-h') ? false : files.length > 1 || opts.includes('-H');
  let stdout = '';
  let stderr = '';
  let status = 1;
  for (const name of files.length > 0 ? files : ['-']) {
    const data = await toStdout([name], true, ctx);
    if (data.exitCode !== 0) {
      stderr += data.stderr;
      status = 2;
      continue;
    }
    const label = name === '-' ? '(standard input)' : name;
    const argv = [...opts, `--label=${label}`, ...(names ? ['-H'] : []), '-'];
    const r = await ctx.exec!(`grep ${argv.map(shellQuote).join(' ')}`, { cwd: ctx.cwd, stdin: data.stdout, stdinKind: 'bytes' });
    stdout += r.stdoutKind === 'bytes' ? r.stdout : Buffer.from(r.stdout, 'utf8').toString('latin1');
    stderr += r.stderr;
    if (r.exitCode === 0 && status !== 2) status = 0;
    else if (r.exitCode > 1) status = 2;
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(stdout)), stderr, exitCode: status };
}

/** `zgrep` for just-bash's `customCommands`. */
export function zgrepCommands(): CustomCommand[] {
  return [defineCommand('zgrep', (args, ctx) => zgrep(args, ctx))];
}
