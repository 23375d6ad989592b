/**
 * `xz`, `unxz`, `xzcat` and `bzip2`, `bunzip2`, `bzcat` for the shell engine, with the command lines and messages
 * of XZ Utils 5 and bzip2 1.0: each file operand compressed to `NAME.xz`/`NAME.bz2` (or back), keeping its mode and
 * time and removing it unless `-k`; `-c` to stdout, stdin to stdout without operands, `-d`, `-f`, `-t`, `-q`, `-0`…`-9`, `-e`.
 * The codecs are liblzma built to WebAssembly (the package `node-liblzma` here is spritzer's own shims/node-liblzma,
 * which nothing compiles at install; `xz` fails loudly should it not load) and compressjs.
 * @see xz(1), bzip2(1)
 */
import { accessTime } from './file-time.ts';
import { createRequire } from 'node:module';
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import compressjs from 'compressjs';
import { xzInfo, xzListing, xzUnlisted, type XzInfo } from './xz-list.ts';
import { bunzip2Capped, DecompressLimitError, unxzCapped } from './decompress-limit.ts';

const HINT = 'run spritzer with --exec sandbox';

/** One compression format and how its tools word their messages. */
interface Codec {
  tool: 'xz' | 'bzip2';
  suffixes: string[];
  magic: Buffer;
  /**
   * Throws an Error with liblzma's `errno` when xz's encoder cannot have the memory.
   * @deviation `-8`/`-9` of more than 16 MiB fail with "Cannot allocate memory": liblzma runs in WebAssembly with
   * 256 MiB (shims/node-liblzma), where real xz has the 370/674 MiB those encoders take.
   */
  compress(data: Buffer, level: number, extreme: boolean): Buffer;
  /** Decompresses at most DECOMPRESS_MAX_BYTES (decompress-limit.ts); past it rejects with DecompressLimitError. */
  decompress(data: Buffer): Promise<Buffer>;
  /** The tool's message when writing `out` fails with ENOSPC (the decompression cap is reported as one). */
  diskFull(prog: string, name: string, out: string): string;
  missing(prog: string, name: string): string;
  exists(prog: string, out: string): string;
  notRecognized(prog: string, name: string): { text: string; status: number };
  /** The output name when decompressing a name without the suffix: a warning, and the name used (or skip). */
  unknownSuffix(prog: string, name: string): { text: string; status: number; out?: string };
  alreadyCompressed(prog: string, name: string): { text: string; status: number };
}

type Lzma = { xzSync(b: Buffer, o?: { preset?: number; check?: number }): Buffer; check: { CRC64: number }; preset: { EXTREME: number } };
let lzma: Lzma | null | undefined;
/** liblzma in WebAssembly (shims/node-liblzma, installed as `node-liblzma`); null when it does not load. */
function liblzma(): Lzma | null {
  if (lzma === undefined) {
    try {
      lzma = createRequire(import.meta.url)('node-liblzma') as Lzma;
    } catch {
      lzma = null;
    }
  }
  return lzma;
}

const XZ: Codec = {
  tool: 'xz',
  suffixes: ['.xz', '.txz'],
  magic: Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]),
  // xz(1)'s default integrity check is CRC64.
  compress: (d, level, extreme) => Buffer.from(liblzma()!.xzSync(d, { preset: level | (extreme ? liblzma()!.preset.EXTREME : 0), check: liblzma()!.check.CRC64 })),
  decompress: (d) => unxzCapped(d),
  diskFull: (p, _n, o) => `${p}: ${o}: Write error: No space left on device\n`,
  missing: (p, n) => `${p}: ${n}: No such file or directory\n`,
  exists: (p, o) => `${p}: ${o}: File exists\n`,
  notRecognized: (p, n) => ({ text: `${p}: ${n}: File format not recognized\n`, status: 1 }),
  unknownSuffix: (p, n) => ({ text: `${p}: ${n}: Filename has an unknown suffix, skipping\n`, status: 2 }),
  alreadyCompressed: (p, n) => ({ text: `${p}: ${n}: File already has \`.xz' suffix, skipping\n`, status: 2 }),
};

const BZIP2: Codec = {
  tool: 'bzip2',
  suffixes: ['.bz2', '.bz', '.tbz2', '.tbz'],
  magic: Buffer.from('BZh'),
  compress: (d, level) => Buffer.from(compressjs.Bzip2.compressFile(d, undefined, Math.max(1, level))),
  decompress: async (d) => bunzip2Capped(d),
  diskFull: (p, n, o) => `${p}: I/O or other error, bailing out.  Possible reason follows.\n${p}: No space left on device\n\tInput file = ${n}, output file = ${o}\n`,
  missing: (p, n) => `${p}: Can't open input file ${n}: No such file or directory.\n`,
  exists: (p, o) => `${p}: Output file ${o} already exists.\n`,
  notRecognized: (p, n) => ({ text: `${p}: ${n} is not a bzip2 file.\n`, status: 2 }),
  unknownSuffix: (p, n) => ({ text: `${p}: Can't guess original name for ${n} -- using ${n}.out\n`, status: 0, out: `${n}.out` }),
  alreadyCompressed: (p, n) => ({ text: `${p}: Input file ${n} already has .bz2 suffix.\n`, status: 1 }),
};

/** Options of one run. */
interface Options { list: boolean; decompress: boolean; stdout: boolean; keep: boolean; force: boolean; test: boolean; quiet: boolean; level: number; extreme: boolean }

function parse(prog: string, codec: Codec, args: string[]): { o: Options; operands: string[] } | ExecResult {
  const o: Options = { list: false, decompress: /^(un|bun)|cat$/.test(prog), stdout: prog.endsWith('cat'), keep: false, force: false, test: false, quiet: false, level: codec.tool === 'xz' ? 6 : 9, extreme: false };
  const LONG: Record<string, string> = { '--decompress': 'd', '--uncompress': 'd', '--stdout': 'c', '--to-stdout': 'c', '--keep': 'k', '--force': 'f', '--test': 't', '--quiet': 'q', '--compress': 'z', ...(codec.tool === 'xz' ? { '--list': 'l' } : {}) };
  const operands: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    // @deviation xz's -T/--threads N: compressed single-threaded; xz's multi-threaded mode (-T0, -T2…) writes block
    // headers that record their sizes, other bytes for the same data (docs/fidelity.md).
    if (options && codec.tool === 'xz' && /^(-T|--threads)$/.test(a)) {
      i++;
      continue;
    }
    if (options && codec.tool === 'xz' && /^(-T\d+|--threads=\d+)$/.test(a)) continue;
    if (options && codec.tool === 'xz' && a === '--extreme') {
      o.extreme = true;
      continue;
    }
    if (options && a === '--') options = false;
    else if (options && a.startsWith('--')) {
      if (!LONG[a]) return { stdout: '', stderr: `${prog}: option ${a} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
      apply(LONG[a]!);
    } else if (options && a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) if (!apply(c)) return { stdout: '', stderr: `${prog}: option -${c} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
    } else operands.push(a);
  }
  return { o, operands };
  function apply(c: string): boolean {
    if (c === 'd') o.decompress = true;
    else if (c === 'z') o.decompress = false;
    else if (c === 'c') o.stdout = true;
    else if (c === 'k') o.keep = true;
    else if (c === 'f') o.force = true;
    else if (c === 't') o.test = true;
    else if (c === 'q') o.quiet = true;
    else if (c === 'l' && codec.tool === 'xz') o.list = true;
    else if (c === 'e' && codec.tool === 'xz') o.extreme = true;
    else if (/\d/.test(c)) o.level = Number(c);
    else return false;
    return true;
  }
}

const bytesOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

async function run(prog: string, codec: Codec, args: string[], ctx: CommandContext): Promise<ExecResult> {
  if (codec.tool === 'xz' && !liblzma()) return { stdout: '', stderr: `${prog}: not available in the shell engine on this host (liblzma's WebAssembly build did not load); ${HINT}\n`, exitCode: 127 };
  const parsed = parse(prog, codec, args);
  if ('exitCode' in parsed) return parsed;
  const { o, operands } = parsed;
  if (o.list) return list(prog, operands, ctx);
  let out = Buffer.alloc(0);
  let stderr = '';
  let status = 0;
  const warn = (text: string, s: number) => {
    if (!o.quiet || s === 1) stderr += text;
    status = Math.max(status, s);
  };
  const transform = async (data: Buffer, name: string, target: string | undefined): Promise<Buffer | null> => {
    // Testing decompresses (and throws the data away), whatever the program's name.
    if (!o.decompress && !o.test) {
      try {
        return codec.compress(data, o.level, o.extreme);
      } catch (err) {
        // liblzma's own words, as xz prints them (e.g. "Cannot allocate memory" for -9 of more than 16 MiB).
        warn(`${prog}: ${name}: ${(err as Error).message}\n`, 1);
        return null;
      }
    }
    if (!data.subarray(0, codec.magic.length).equals(codec.magic)) {
      const r = o.test && codec.tool === 'bzip2' ? { text: `${prog}: ${name}: bad magic number (file not created by bzip2)\n\nYou can use the \`bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files.\n\n`, status: 2 } : codec.notRecognized(prog, name);
      warn(r.text, r.status);
      return null;
    }
    try {
      return await codec.decompress(data);
    } catch (err) {
      // Past the shell engine's decompression cap the tool fails as on a full disk (docs/limits.md).
      if (err instanceof DecompressLimitError) {
        warn(codec.diskFull(prog, name, target ?? '(stdout)'), 1);
        return null;
      }
      warn(codec.tool === 'xz' ? `${prog}: ${name}: Compressed data is corrupt\n` : `${prog}: Data integrity error when decompressing.\n\tInput file = ${name}, output file = (stdout)\n`, codec.tool === 'xz' ? 1 : 2);
      return null;
    }
  };
  for (const name of operands.length > 0 ? operands : ['-']) {
    if (name === '-') {
      const r = await transform(Buffer.from(String(ctx.stdin ?? ''), 'latin1'), '(stdin)', undefined);
      if (r && !o.test) out = Buffer.concat([out, r]);
      continue;
    }
    const abs = ctx.fs.resolvePath(ctx.cwd, name);
    const st = await ctx.fs.stat(abs).catch(() => null);
    if (!st) {
      warn(codec.missing(prog, name), 1);
      continue;
    }
    if (st.isDirectory) {
      warn(codec.tool === 'xz' ? `${prog}: ${name}: Is a directory, skipping\n` : `${prog}: Input file ${name} is a directory.\n`, codec.tool === 'xz' ? 2 : 1);
      continue;
    }
    const suffix = codec.suffixes.find((s) => name.endsWith(s));
    const data = bytesOf(await ctx.fs.readFileBuffer(abs));
    let target: string | undefined;
    if (!o.stdout && !o.test) {
      if (o.decompress) {
        if (suffix) target = name.slice(0, -suffix.length) + (suffix.startsWith('.t') ? '.tar' : '');
        else if (codec.tool === 'xz' && !data.subarray(0, codec.magic.length).equals(codec.magic)) {
          // xz looks at the data before the name: what is not xz is said so, whatever its name.
          const r = codec.notRecognized(prog, name);
          warn(r.text, r.status);
          continue;
        } else {
          const u = codec.unknownSuffix(prog, name);
          warn(u.text, u.status);
          if (!u.out) continue;
          target = u.out;
        }
      } else if (suffix) {
        const r = codec.alreadyCompressed(prog, name);
        warn(r.text, r.status);
        continue;
      } else target = `${name}${codec.suffixes[0]}`;
      if (!o.force && (await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, target)).catch(() => null))) {
        warn(codec.exists(prog, target), 1);
        continue;
      }
    }
    const result = await transform(data, name, target);
    if (!result || o.test) continue;
    if (target === undefined) {
      out = Buffer.concat([out, result]);
      continue;
    }
    const tabs = ctx.fs.resolvePath(ctx.cwd, target);
    await ctx.fs.writeFile(tabs, result);
    await ctx.fs.chmod(tabs, st.mode & 0o7777);
    await ctx.fs.utimes(tabs, accessTime(st), st.mtime);
    if (!o.keep) await ctx.fs.rm(abs);
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out.toString('latin1'))), stderr, exitCode: status };
}

/** Names of the commands of {@link compressCommands} (each needs its `/bin` stub to be found on PATH). */
/** `xz -l FILE…`: the table of xz-list.ts; a file that is missing or not .xz is said so (status 1), and skipped. */
async function list(prog: string, operands: string[], ctx: CommandContext): Promise<ExecResult> {
  if (operands.length === 0 || operands.includes('-')) return { stdout: '', stderr: `${prog}: --list does not support reading from standard input\n`, exitCode: 1 };
  const files: Array<{ name: string; info: XzInfo }> = [];
  let stderr = '';
  for (const name of operands) {
    const data = await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, name)).then(bytesOf, () => undefined);
    const info = data && xzInfo(data);
    if (info) files.push({ name, info });
    else stderr += `${prog}: ${name}: ${data ? xzUnlisted(data) : 'No such file or directory'}\n`;
  }
  return { stdout: xzListing(files), stderr, exitCode: stderr ? 1 : 0 };
}

export const COMPRESS_COMMAND_NAMES: readonly string[] = ['xz', 'unxz', 'xzcat', 'bzip2', 'bunzip2', 'bzcat'];

/** `xz`, `unxz`, `xzcat`, `bzip2`, `bunzip2`, `bzcat` for just-bash's `customCommands`. */
export function compressCommands(): CustomCommand[] {
  return COMPRESS_COMMAND_NAMES.map((name) => defineCommand(name, (args, ctx) => run(name, name.includes('xz') ? XZ : BZIP2, args, ctx)));
}

/**
 * `data` compressed as the tool does by default (`xz`: preset 6, CRC64; `bzip2`: 900 kB blocks), e.g. for tar's
 * compressor child; undefined for xz when liblzma did not load.
 */
export function compressDefault(tool: 'xz' | 'bzip2', data: Buffer): Buffer | undefined {
  if (tool === 'xz') return liblzma() ? XZ.compress(data, 6, false) : undefined;
  return BZIP2.compress(data, 9, false);
}
