/**
 * GNU tar's reproducible-archive options and its archive format, over the shell engine's tar: `--mtime=DATE`
 * (`@SECONDS`, a date string, or a file whose time is taken when it starts with `/` or `.`), `--clamp-mtime`,
 * `--mode=CHANGES`, `--sort=name|none|inode` and `--format=gnu` are taken off the command line, the rest runs, and
 * the archive it created or appended to (a file, or stdout) is written again in GNU's format with them applied
 * (tar-gnu-format.ts), through its compressor (gzip, bzip2, xz) when it has one. `-r`/`-u` create a missing archive
 * as GNU's do, and refuse a compressed one with GNU's usage error. Also GNU's, on any command line: `-T`/`--files-from`
 * lists (stdin with `-T -`, NUL-separated with `--null`) read here into operands, `--no-recursion`, names stored
 * without a leading `/` (unless `-P`) with GNU's notes, and an archive file inside a directory it archives left out
 * with `file is the archive; not dumped`.
 * @see https://www.gnu.org/software/tar/manual/html_node/Reproducibility.html
 */
import { latin1FromBytes, stdoutAsBytes, type CommandContext, type ExecResult } from 'just-bash';
import { withStdoutBytes } from './output-order.ts';
import { tarPlan, type TarItem } from './tar-plan.ts';
import { fnmatch } from './fnmatch.ts';
import { asGnuTar, type GnuOptions } from './tar-gnu-format.ts';
import { applyMode } from './mode-commands.ts';
import { parseDateString } from './date-parse.ts';
import { gnuGzip } from './gzip-deflate.ts';
import { compressDefault } from './compress-commands.ts';
import { bunzip2Capped, gunzipCapped, unxzCapped } from './decompress-limit.ts';
import { SANDBOX_HINT } from './world.ts';
import { verboseListing } from './tar-listing.ts';
import { ownerOptions, ownersOf } from './tar-owners.ts';
import { withOwners } from './tar-archive.ts';

const USAGE = "Try 'tar --help' or 'tar --usage' for more information.\n";

/** The options this module takes, and the command line without them (`rest`). */
interface Taken {
  mtime?: string;
  clamp: boolean;
  /** `--null`, `--no-recursion`, and the `-T`/`--files-from` lists (read here: the engine's tar cannot read `-T -`). */
  nul: boolean;
  noRecursion: boolean;
  lists: string[];
  mode?: string;
  sort?: string;
  rest: string[];
}

/** `args` split into this module's options and the rest; a `--format` other than `gnu` stays in the rest. */
function take(args: string[]): Taken {
  const t: Taken = { clamp: false, nul: false, noRecursion: false, lists: [], rest: [] };
  t.nul = args.includes('--null');
  t.noRecursion = args.includes('--no-recursion');
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      t.rest.push(...args.slice(i));
      break;
    }
    const m = /^--(mtime|mode|sort|format)(?:=(.*))?$/s.exec(a);
    const files = /^(?:--files-from(?:=(.*))?|-T(.*))$/s.exec(a);
    if (files) t.lists.push(files[1] ?? (files[2] || undefined) ?? args[++i] ?? '');
    else if (a === '--null' || a === '--no-recursion') continue;
    else if (a === '--clamp-mtime') t.clamp = true;
    // Listings are in UTC anyway: a sprite's zone. The sprite's user cannot give files away nor keep modes past
    // its umask, so the options that ask for that are what extraction does already; warnings are few here.
    else if (a === '--utc' || a === '--no-same-owner' || a === '--no-same-permissions' || a.startsWith('--warning=')) continue;
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
async function rewrite(raw: Buffer, o: GnuOptions, owners: (plain: string) => Promise<string>): Promise<{ bytes: Buffer; plain: string } | undefined> {
  const kind = kindOf(raw);
  if (kind === 'other') return undefined;
  try {
    const plain = kind === 'gzip' ? gunzipCapped(raw) : kind === 'bzip2' ? bunzip2Capped(raw) : kind === 'xz' ? await unxzCapped(raw) : raw;
    // The engine's tar stores owners itself in plain and gzip archives only.
    const owned = kind === 'bzip2' || kind === 'xz' ? await owners(plain.toString('latin1')) : plain.toString('latin1');
    const text = asGnuTar(owned, o);
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
  let only: GnuOptions['only'];
  const listed: string[] = [];
  if (t.lists.length > 0 || t.noRecursion) {
    // The listed names become operands at the end (after any -C), and --no-recursion keeps only what is named.
    const names: string[] = [];
    for (const list of t.lists) {
      const text = list === '-' ? latin1FromBytes(ctx.stdin) : await ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, list)).catch(() => undefined);
      if (text === undefined) return { stdout: '', stderr: `tar: ${list}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 };
      names.push(...text.split(t.nul ? '\0' : '\n').filter((n) => n !== ''));
    }
    if (names.length > 0) t.rest.push(...(t.rest.includes('--') ? [] : ['--']), ...names);
    listed.push(...names);
    if (t.noRecursion) {
      // Each named member once, where it first comes (a file named after its directory was archived with it).
      const named = new Set([...p.members, ...names].map((n) => n.replace(/\/+$/, '')));
      const seen = new Set<string>();
      only = (name) => named.has(name) && !seen.has(name) && (seen.add(name), true);
    }
  }
  const writes = p.op === 'c' || p.op === 'r' || p.op === 'u';
  if (!writes) return t.rest.length === args.length ? undefined : inner(t.rest);
  const o: GnuOptions = { clamp: t.clamp, only, numeric: t.rest.includes('--numeric-owner') };
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
    if (!['name', 'none', 'inode'].includes(t.sort)) return { stdout: '', stderr: `tar: invalid argument ‘${t.sort}’ for ‘--sort’\nValid arguments are:\n  - ‘none’\n  - ‘name’\n  - ‘inode’\n`, exitCode: 2 };
    o.sortName = t.sort === 'name';
  }
  const toStdout = p.archive === undefined || p.archive === '-';
  const path = toStdout ? undefined : ctx.fs.resolvePath(ctx.cwd, p.archive!);
  if (p.op !== 'c') {
    if (p.compressed) return { stdout: '', stderr: `tar: Cannot update compressed archives\n${USAGE}`, exitCode: 2 };
    // GNU appends to a missing archive by creating it.
    if (path && !(await ctx.fs.stat(path).catch(() => null)) && (await ctx.fs.stat(path.replace(/\/[^/]*$/, '') || '/').catch(() => null))) await ctx.fs.writeFile(path, Buffer.alloc(10240));
  }
  const operands = [...p.members, ...listed];
  // GNU stores names without their leading `/` (unless -P), and says so once; with more than one operand it
  // says it of hard link targets too (GNU tar 1.34).
  let notes = '';
  if (operands.some((m) => m.startsWith('/')) && !absoluteNames(t.rest)) {
    o.stripSlash = true;
    notes += "tar: Removing leading `/' from member names\n";
    if (operands.length > 1) notes += "tar: Removing leading `/' from hard link targets\n";
  }
  // The archive file inside a directory being archived is left out, with GNU's warning (a compressor's output is
  // not the file tar opened, so GNU cannot tell it then).
  if (p.op === 'c' && path && !p.compressed) {
    const base = p.chdirs.reduce((d, c) => ctx.fs.resolvePath(d, c), ctx.cwd);
    for (const m of operands) {
      const abs = ctx.fs.resolvePath(base, m);
      if (path !== abs && !path.startsWith(`${abs}/`)) continue;
      const self = path === abs ? m : `${m.replace(/\/+$/, '')}/${path.slice(abs.length + 1)}`;
      if (excludedBefore(p.order, m, self)) continue;
      notes += `tar: ${self.replace(/^\/+/, o.stripSlash ? '' : '/')}: file is the archive; not dumped\n`;
      const kept = o.only;
      o.only = (name) => name !== self && (kept === undefined || kept(name));
    }
  }
  const ran = await inner(t.rest);
  // A line GNU says once may already be there: the engine's tar can run this same line again through the shell.
  notes = notes.split(/(?<=\n)/).filter((l) => !ran.stderr.includes(l)).join('');
  const r = notes ? { ...ran, stderr: notes + ran.stderr } : ran;
  const raw = toStdout ? Buffer.from(latin1FromBytes(stdoutAsBytes(r)), 'latin1') : await ctx.fs.readFileBuffer(path!).then((b) => Buffer.from(b), () => undefined);
  const owners = async (plain: string) => {
    const map = await ownersOf(p.chdirs, ownerOptions(t.rest), ctx.fs, ctx.cwd, plain);
    return withOwners(plain, (name) => map.get(name) ?? { uid: 0, gid: 0, uname: '', gname: '' }) ?? plain;
  };
  const gnu = raw === undefined || raw.length === 0 ? undefined : await rewrite(raw, o, owners);
  if (gnu === undefined) return r;
  if (!toStdout && !gnu.bytes.equals(raw!)) await ctx.fs.writeFile(path!, gnu.bytes);
  const out = toStdout ? withStdoutBytes(r, gnu.bytes.toString('latin1')) : r;
  return verbosity(t.rest) >= 2 && p.op === 'c' ? listedLong(out, gnu.plain, toStdout, t.rest.includes('--numeric-owner')) : out;
}

/**
 * Whether an `--exclude` before `operand` on the command line (the option is positional) leaves out `name`: its
 * pattern matches the whole name or its last component (GNU's default, unanchored).
 */
function excludedBefore(order: TarItem[], operand: string, name: string): boolean {
  const at = order.findIndex((item) => 'member' in item && item.member === operand);
  return order.slice(0, at < 0 ? order.length : at).some((item) => 'option' in item && item.option === '--exclude' && item.value !== undefined && (fnmatch(item.value, name) || fnmatch(item.value, name.replace(/^.*\//, ''))));
}

/** Whether a command line asks to keep absolute names (`-P`, `--absolute-names`). */
function absoluteNames(args: string[]): boolean {
  return args.some((a, i) => a === '--absolute-names' || ((a.startsWith('-') && !a.startsWith('--')) || (i === 0 && !a.startsWith('-')) ? /^-?[^fCTXbKNgVLFHI]*P/.test(a) : false));
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
