/**
 * GNU tar's reproducible-archive options and its archive format, over the shell engine's tar: `--mtime=DATE`
 * (`@SECONDS`, a date string, or a file whose time is taken when it starts with `/` or `.`), `--clamp-mtime`,
 * `--mode=CHANGES`, `--sort=name|none|inode` and `--format=gnu` are taken off the command line, the rest runs, and
 * the archive it created or appended to (a file, or stdout) is written again in GNU's format with them applied
 * (tar-gnu-format.ts), through its compressor (gzip, bzip2, xz) when it has one. `-r`/`-u` create a missing archive
 * as GNU's do, and refuse a compressed one with GNU's usage error.
 * @see https://www.gnu.org/software/tar/manual/html_node/Reproducibility.html
 */
import { bytesOutput, latin1FromBytes, stdoutAsBytes, unsafeBytesFromLatin1, type CommandContext, type ExecResult } from 'just-bash';
import { tarPlan } from './tar-plan.ts';
import { asGnuTar, type GnuOptions } from './tar-gnu-format.ts';
import { applyMode } from './mode-commands.ts';
import { parseDateString } from './date-parse.ts';
import { gnuGzip } from './gzip-deflate.ts';
import { compressDefault } from './compress-commands.ts';
import { bunzip2Capped, gunzipCapped, unxzCapped } from './decompress-limit.ts';
import { SANDBOX_HINT } from './world.ts';
import { verboseListing } from './tar-listing.ts';

const USAGE = "Try 'tar --help' or 'tar --usage' for more information.\n";

/** The options this module takes, and the command line without them. */
interface Taken {
  mtime?: string;
  clamp: boolean;
  mode?: string;
  sort?: string;
  rest: string[];
}

function take(args: string[]): Taken {
  const t: Taken = { clamp: false, rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      t.rest.push(...args.slice(i));
      break;
    }
    const m = /^--(mtime|mode|sort|format)(?:=(.*))?$/s.exec(a);
    if (a === '--clamp-mtime') t.clamp = true;
    // Listings are in UTC anyway: a sprite's zone.
    else if (a === '--utc') continue;
    else if (m && (m[1] !== 'format' || /^gnu$/.test(m[2] ?? args[i + 1] ?? ''))) {
      const v = m[2] ?? args[++i] ?? '';
      if (m[1] !== 'format') t[m[1] as 'mtime' | 'mode' | 'sort'] = v;
    } else t.rest.push(a);
  }
  return t;
}

/** The `--mtime` value in seconds: `@N`, a reference file's time (a value starting with `/` or `.`), or a date. */
async function mtimeOf(value: string, ctx: CommandContext): Promise<number | undefined> {
  if (/^@-?\d+(?:\.\d+)?$/.test(value)) return Math.floor(Number(value.slice(1)));
  if (value.startsWith('/') || value.startsWith('.')) {
    const st = await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, value)).catch(() => null);
    return st ? Math.floor(st.mtime.getTime() / 1000) : undefined;
  }
  const d = parseDateString(value, Date.now(), ctx.env.get('TZ') ?? 'UTC');
  return d ? Math.floor(d.ms / 1000) : undefined;
}

type Kind = 'gzip' | 'bzip2' | 'xz' | 'plain' | 'other';
const kindOf = (b: Buffer): Kind =>
  b.length === 0 ? 'other' : b[0] === 0x1f && b[1] === 0x8b ? 'gzip' : b.subarray(0, 3).toString('latin1') === 'BZh' ? 'bzip2' : b[0] === 0xfd && b.subarray(1, 6).toString('latin1') === '7zXZ\0' ? 'xz' : b[0] === 0x28 && b[1] === 0xb5 ? 'other' : 'plain';

/** The archive `raw` written again in GNU's format with `o`, through its own compressor; undefined when it cannot be. */
async function rewrite(raw: Buffer, o: GnuOptions): Promise<{ bytes: Buffer; plain: string } | undefined> {
  const kind = kindOf(raw);
  if (kind === 'other') return undefined;
  try {
    const plain = kind === 'gzip' ? gunzipCapped(raw) : kind === 'bzip2' ? bunzip2Capped(raw) : kind === 'xz' ? await unxzCapped(raw) : raw;
    const text = asGnuTar(plain.toString('latin1'), o);
    const gnu = Buffer.from(text, 'latin1');
    // tar's compressor child reads a pipe: gzip stores no name and no time.
    const bytes = kind === 'gzip' ? gnuGzip(gnu) : kind === 'plain' ? gnu : compressDefault(kind, gnu);
    return bytes && { bytes, plain: text };
  } catch {
    return undefined;
  }
}

/**
 * `tar args` run by `inner` with this module's options applied to the archive written, or undefined when the
 * command line neither writes an archive nor names them (the caller runs it as it is).
 */
export async function tarReproducible(args: string[], ctx: CommandContext, inner: (args: string[]) => Promise<ExecResult>): Promise<ExecResult | undefined> {
  const t = take(args);
  const p = tarPlan(t.rest);
  const writes = p.op === 'c' || p.op === 'r' || p.op === 'u';
  if (!writes) return t.rest.length === args.length ? undefined : inner(t.rest);
  const o: GnuOptions = { clamp: t.clamp };
  if (t.mtime !== undefined) {
    o.mtime = await mtimeOf(t.mtime, ctx);
    if (o.mtime === undefined) return { stdout: '', stderr: `tar: --mtime=${t.mtime}: this date is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
  }
  if (t.mode !== undefined) {
    const spec = t.mode;
    if (applyMode(spec, 0o644, false, 0) === null) return { stdout: '', stderr: `tar: Invalid mode given on option\n`, exitCode: 2 };
    o.mode = (mode, dir) => applyMode(spec, mode, dir, 0)!;
  }
  if (t.sort !== undefined) {
    if (!['name', 'none', 'inode'].includes(t.sort)) return { stdout: '', stderr: `tar: invalid argument ‘${t.sort}’ for ‘--sort’\nValid arguments are:\n  - ‘none’\n  - ‘name’\n  - ‘inode’\n${USAGE}`, exitCode: 2 };
    o.sortName = t.sort === 'name';
  }
  const toStdout = p.archive === undefined || p.archive === '-';
  const path = toStdout ? undefined : ctx.fs.resolvePath(ctx.cwd, p.archive!);
  if (p.op !== 'c') {
    if (p.compressed) return { stdout: '', stderr: `tar: Cannot update compressed archives\n${USAGE}`, exitCode: 2 };
    // GNU appends to a missing archive by creating it.
    if (path && !(await ctx.fs.stat(path).catch(() => null)) && (await ctx.fs.stat(path.replace(/\/[^/]*$/, '') || '/').catch(() => null))) await ctx.fs.writeFile(path, Buffer.alloc(10240));
  }
  const r = await inner(t.rest);
  const raw = toStdout ? Buffer.from(latin1FromBytes(stdoutAsBytes(r)), 'latin1') : await ctx.fs.readFileBuffer(path!).then((b) => Buffer.from(b), () => undefined);
  const gnu = raw === undefined || raw.length === 0 ? undefined : await rewrite(raw, o);
  if (gnu === undefined) return r;
  if (!toStdout && !gnu.bytes.equals(raw!)) await ctx.fs.writeFile(path!, gnu.bytes);
  const out = toStdout ? { ...r, ...bytesOutput(unsafeBytesFromLatin1(gnu.bytes.toString('latin1'))) } : r;
  return verbosity(t.rest) >= 2 && p.op === 'c' ? listedLong(out, gnu.plain, toStdout, t.rest.includes('--numeric-owner')) : out;
}

/** How many times a command line asks for `-v` (`-cvvf`, `--verbose`). */
function verbosity(args: string[]): number {
  let n = 0;
  for (const [i, a] of args.entries()) {
    if (a === '--') break;
    if (a === '--verbose') n++;
    else if ((a.startsWith('-') && !a.startsWith('--')) || (i === 0 && !a.startsWith('-'))) n += /^-?([^fCTXbKNgVLFHI]*)/.exec(a)![1]!.split('v').length - 1;
  }
  return n;
}

/** `tar -cvv`: the member lines are `tar -tv`'s (on stdout, or stderr when the archive is stdout). */
function listedLong(r: ExecResult, plain: string, toStdout: boolean, numeric: boolean): ExecResult {
  const listing = verboseListing(plain, [], numeric);
  if (!toStdout) return { ...r, stdout: listing };
  const messages = r.stderr.split('\n').filter((l) => l.startsWith('tar: ') || l.startsWith('tar (child)'));
  return { ...r, stderr: listing + messages.map((l) => `${l}\n`).join('') };
}
