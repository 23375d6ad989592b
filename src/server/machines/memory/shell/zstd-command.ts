/**
 * `zstd`, `unzstd` and `zstdcat` as the Zstandard CLI 1.5 runs them, over zstd-codec.ts: each file operand
 * compressed to `NAME.zst` (or back, from `.zst`/`.tzst`), the source kept unless `--rm`; `-c` and stdin to stdout;
 * `-d`, `-f`, `-k`, `-q`, `-t`, `-o FILE`, `-l` (the frame table), levels `-1`…`-19` (`--ultra` to `-22`), `-T N`.
 * Messages and the one-line summaries on stderr are the CLI's; an option it lacks here fails loudly.
 * @see zstd(1)
 */
import { accessTime } from './file-time.ts';
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { ZSTD_MAGIC, zstdCompress, zstdDecompress, zstdFailure, zstdList } from './zstd-codec.ts';

interface Options {
  decompress: boolean;
  stdout: boolean;
  remove: boolean;
  force: boolean;
  quiet: boolean;
  test: boolean;
  list: boolean;
  level: number;
  output?: string;
}

const SUFFIXES = ['.zst', '.tzst'];
const STDIN = '/*stdin*\\';

function parse(prog: string, args: string[]): { o: Options; operands: string[] } | ExecResult {
  const o: Options = { decompress: prog !== 'zstd', stdout: prog === 'zstdcat', remove: false, force: prog === 'zstdcat', quiet: false, test: false, list: false, level: 3 };
  const operands: string[] = [];
  let ultra = false;
  const LONG: Record<string, string> = { '--decompress': 'd', '--uncompress': 'd', '--compress': 'z', '--stdout': 'c', '--keep': 'k', '--force': 'f', '--quiet': 'q', '--test': 't', '--list': 'l' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (LONG[name] && value === undefined) apply(LONG[name]!);
      else if (name === '--rm') o.remove = true;
      else if (name === '--ultra') ultra = true;
      else if (name === '--no-progress' || name === '--no-check' || name === '--check') continue;
      else if (name === '--threads' && value !== undefined) continue;
      else if (name === '--output' && value !== undefined) o.output = value;
      else return unsupported(prog, a);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const level = /^-(\d+)$/.exec(a);
      if (level) {
        o.level = Number(level[1]);
        continue;
      }
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'o') {
          o.output = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          break;
        }
        if (c === 'T') {
          if (j + 1 >= a.length) i++;
          break;
        }
        if (!apply(c)) return unsupported(prog, `-${c}`);
      }
      continue;
    }
    operands.push(a);
  }
  if (o.level > (ultra ? 22 : 19)) o.level = ultra ? 22 : 19;
  return { o, operands };
  function apply(c: string): boolean {
    if (c === 'd') o.decompress = true;
    else if (c === 'z') o.decompress = false;
    else if (c === 'c') o.stdout = true;
    else if (c === 'k') o.remove = false;
    else if (c === 'f') o.force = true;
    else if (c === 'q') o.quiet = true;
    else if (c === 't') (o.test = true), (o.decompress = true);
    else if (c === 'l') o.list = true;
    else return false;
    return true;
  }
}

/** The CLI's human-readable size: a value, its precision and unit (util.c's UTIL_makeHumanReadableSize). */
function human(size: number): { value: number; precision: number; suffix: string } {
  const units = [' B', ' KiB', ' MiB', ' GiB', ' TiB'];
  let k = 0;
  while (k < units.length - 1 && size >= 2 ** (10 * (k + 1))) k++;
  const value = size / 2 ** (10 * k);
  const precision = value >= 100 || value === size ? 0 : value >= 10 ? 1 : value > 1 ? 2 : 3;
  return { value, precision, suffix: units[k]! };
}
const fixed = (v: number, width: number, precision: number) => v.toFixed(precision).padStart(width);

/** One `zstd -l` row (fileio.c's displayInfo at the default level). */
function listRow(name: string, data: Buffer): string | undefined {
  const l = zstdList(data);
  if (!l) return undefined;
  const c = human(l.compressed);
  let row = `${String(l.frames + l.skips).padStart(6)}  ${String(l.skips).padStart(5)}  ${fixed(c.value, 6, c.precision)}${c.suffix.padStart(4)}`;
  if (l.uncompressed !== undefined) {
    const u = human(l.uncompressed);
    row += `  ${fixed(u.value, 8, u.precision)}${u.suffix.padStart(4)}  ${fixed(l.compressed ? l.uncompressed / l.compressed : 0, 5, 3)}  `;
  } else row += ' '.repeat(23);
  return `${row}${(l.checksum ? 'XXH64' : 'None').padStart(5)}  ${name}\n`;
}

async function zstd(prog: string, args: string[], ctx: CommandContext): Promise<ExecResult> {
  const parsed = parse(prog, args);
  if ('exitCode' in parsed) return parsed;
  const { o, operands } = parsed;
  let out = Buffer.alloc(0);
  let err = '';
  let status = 0;
  const say = (text: string) => {
    if (!o.quiet) err += text;
  };
  if (o.list) {
    if (operands.length === 0 || operands.includes('-')) return { stdout: '', stderr: 'zstd: --list does not support reading from standard input \n', exitCode: 1 };
    let table = 'Frames  Skips  Compressed  Uncompressed  Ratio  Check  Filename\n';
    for (const name of operands) {
      const data = await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, name)).then(Buffer.from, () => undefined);
      const row = data && listRow(name, data);
      if (row) table += row;
      else {
        if (data) table += `File "${name}" not compressed by zstd \n`;
        else err += `Error : ${name} is not a file\n`;
        status = 1;
      }
    }
    return { stdout: table, stderr: err, exitCode: status };
  }
  /** The data transformed, or null after saying why not. */
  const transform = async (data: Buffer, name: string): Promise<Buffer | null> => {
    if (!o.decompress) return zstdCompress(data, o.level);
    if (!data.subarray(0, 4).equals(ZSTD_MAGIC)) {
      err += `zstd: ${name}: unsupported format \n`;
      status = 1;
      return null;
    }
    try {
      return zstdDecompress(data);
    } catch (e) {
      err += zstdFailure(name, e);
      status = 1;
      return null;
    }
  };
  for (const name of operands.length > 0 ? operands : ['-']) {
    if (name === '-') {
      const r = await transform(Buffer.from(latin1FromBytes(ctx.stdin), 'latin1'), STDIN);
      if (r && !o.test) out = Buffer.concat([out, r]);
      continue;
    }
    const abs = ctx.fs.resolvePath(ctx.cwd, name);
    const st = await ctx.fs.stat(abs).catch(() => null);
    if (!st) {
      err += `zstd: can't stat ${name} : No such file or directory -- ignored \n`;
      status = 1;
      continue;
    }
    if (st.isDirectory) {
      err += `zstd: ${name} is a directory -- ignored \n`;
      status = 1;
      continue;
    }
    let target = o.output;
    if (target === undefined && !o.stdout && !o.test) {
      const suffix = SUFFIXES.find((s) => name.endsWith(s));
      if (!o.decompress) target = `${name}.zst`;
      else if (suffix) target = name.slice(0, -suffix.length) + (suffix === '.tzst' ? '.tar' : '');
      else {
        err += `zstd: ${name}: unknown suffix (.zst/.tzst/.gz/.tgz/.lzma/.xz/.txz/.lz4/.tlz4 expected). Can't derive the output file name. Specify it with -o dstFileName. Ignoring.\n`;
        status = 1;
        continue;
      }
    }
    if (target !== undefined && !o.force && (await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, target)).catch(() => null))) {
      // Not asked on a terminal: the CLI's question, answered from stdin (anything but y is no); -q does not ask.
      if (o.quiet || !/^[yY]/.test(latin1FromBytes(ctx.stdin))) {
        err += o.quiet ? `zstd: ${target} already exists; not overwritten  \n` : `zstd: ${target} already exists; overwrite (y/n) ? Not overwritten  \n`;
        status = 1;
        continue;
      }
      err += `zstd: ${target} already exists; overwrite (y/n) ? `;
    }
    const data = Buffer.from(await ctx.fs.readFileBuffer(abs));
    const result = await transform(data, name);
    if (!result) {
      // The CLI opens (creates or truncates) the output before decoding, and removes it when decoding fails.
      if (target !== undefined) await ctx.fs.rm(ctx.fs.resolvePath(ctx.cwd, target), { force: true }).catch(() => undefined);
      continue;
    }
    if (o.test) {
      say(`${name.padEnd(20)}: ${result.length} bytes \n`);
      continue;
    }
    if (target === undefined) {
      out = Buffer.concat([out, result]);
      continue;
    }
    const tabs = ctx.fs.resolvePath(ctx.cwd, target);
    await ctx.fs.writeFile(tabs, result);
    await ctx.fs.chmod(tabs, st.mode & 0o7777);
    await ctx.fs.utimes(tabs, accessTime(await ctx.fs.stat(tabs)), st.mtime);
    if (o.decompress) say(`${name.padEnd(20)}: ${result.length} bytes \n`);
    else {
      const [i, r] = [human(data.length), human(result.length)];
      const ratio = data.length ? (result.length / data.length) * 100 : 0;
      say(`${name.padEnd(20)} :${ratio.toFixed(2).padStart(6)}%   (${fixed(i.value, 6, i.precision)}${i.suffix} => ${fixed(r.value, 6, r.precision)}${r.suffix}, ${target}) \n`);
    }
    if (o.remove) await ctx.fs.rm(abs);
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out.toString('latin1'))), stderr: err, exitCode: status };
}

/** Names of the commands of {@link zstdCommands}. */
export const ZSTD_COMMAND_NAMES: readonly string[] = ['zstd', 'unzstd', 'zstdcat'];

/** `zstd`, `unzstd` and `zstdcat` for just-bash's `customCommands`. */
export function zstdCommands(): CustomCommand[] {
  return ZSTD_COMMAND_NAMES.map((name) => defineCommand(name, (args, ctx) => zstd(name, args, ctx)));
}
