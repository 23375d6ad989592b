/**
 * GNU `dd` for the shell engine: `if=`, `of=`, `bs=`, `ibs=`, `obs=`, `count=`, `skip=`, `seek=`, `conv=` (notrunc,
 * ucase, lcase, swab, sync, noerror, excl, nocreat, fsync, fdatasync), `iflag=`/`oflag=` (count_bytes, skip_bytes,
 * seek_bytes, fullblock, append), `status=` (none, noxfer, progress); sizes with GNU's suffixes and `x` products.
 * `/dev/zero` and `/dev/urandom` give as many bytes as asked. The transfer summary on stderr is GNU's, with this
 * run's own time and rate.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/dd-invocation.html
 */
import { randomBytes } from 'node:crypto';
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { localeQuote } from './gnu-quote.ts';

const HINT = 'run spritzer with --exec sandbox';
/** xstrtoumax's suffix letters dd accepts, each a power of the base (b, c and w are fixed sizes). */
const SUFFIX_POWER: Record<string, number> = { k: 1, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6, Z: 7, Y: 8 };
const SUFFIX_FIXED: Record<string, bigint> = { b: 512n, c: 1n, w: 2n };
const INTMAX = 2n ** 63n - 1n;

/** One xstrtoumax reading: the number, where the text after it starts, and how it ended. */
interface Reading {
  n: bigint;
  rest: string;
  error?: 'invalid' | 'suffix' | 'overflow';
}

/**
 * gnulib's xstrtoumax with dd's suffixes (`bcEGkKMPTwYZ` and the optional second suffix: `B`/`D` for powers of 1000,
 * `iB` for powers of 1024): leading blanks and `+` allowed, a bare suffix counts as 1 (`M` is 1048576).
 */
function xstrtoumax(text: string): Reading {
  const m = /^\s*(\+?)(\d*)/.exec(text)!;
  const digits = m[2]!;
  let rest = text.slice(m[0].length);
  if (/^\s*-/.test(text)) return { n: 0n, rest, error: 'invalid' };
  const valid = (c: string | undefined) => c !== undefined && (c in SUFFIX_POWER || c in SUFFIX_FIXED);
  if (!digits && (m[1] || !valid(rest[0]))) return { n: 0n, rest, error: 'invalid' };
  let n = digits ? BigInt(digits) : 1n;
  let overflow = n > 2n ** 64n - 1n;
  if (!rest) return { n, rest, error: overflow ? 'overflow' : undefined };
  if (!valid(rest[0])) return { n, rest, error: overflow ? 'overflow' : 'suffix' };
  const c = rest[0]!;
  let base = 1024n;
  let len = 1;
  // Only the power suffixes take a second one (`1bB` is `1b` then dd's own `B`).
  if (c in SUFFIX_POWER && rest[1] === 'i' && rest[2] === 'B') len = 3;
  else if (c in SUFFIX_POWER && (rest[1] === 'B' || rest[1] === 'D')) (base = 1000n), (len = 2);
  n *= c in SUFFIX_FIXED ? SUFFIX_FIXED[c]! : base ** BigInt(SUFFIX_POWER[c]!);
  overflow ||= n > 2n ** 64n - 1n;
  rest = rest.slice(len);
  return { n, rest, error: rest ? 'suffix' : overflow ? 'overflow' : undefined };
}

/**
 * A dd number (`512`, `1k`, `1M`, `1kB`, `1KiB`, `2x512`, `4B`), as coreutils' dd parse_integer reads it: one
 * xstrtoumax, then a trailing `B` meaning bytes, then at most one `x` product. `overflow` when above INTMAX_MAX
 * (dd says "Value too large for defined data type"); `warn` is the zero-multiplier warning of `0x…`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/dd-invocation.html
 */
export function ddNumber(text: string): { n?: number; overflow?: boolean; warn?: boolean } {
  let r = xstrtoumax(text);
  let at = text.length - r.rest.length;
  if (r.error === 'suffix' && text[at - 1] !== 'B' && r.rest[0] === 'B') {
    r = { ...r, rest: r.rest.slice(1), error: r.rest.length === 1 ? undefined : 'suffix' };
    at++;
  }
  let n = r.n;
  let warn = false;
  if (r.error === 'suffix' && r.rest[0] === 'x' && !(text[at - 1] === 'B' && r.rest.slice(1).includes('B'))) {
    const f = xstrtoumax(r.rest.slice(1));
    if (f.error === 'invalid' || f.error === 'suffix') return {};
    n *= f.n;
    if (n === 0n && text.startsWith('0x')) warn = true;
    if (n > INTMAX || (n !== 0n && f.error === 'overflow')) return { overflow: true };
    return { n: Number(n), warn };
  }
  if (r.error === 'invalid' || r.error === 'suffix') return {};
  if (r.error === 'overflow' || n > INTMAX) return { overflow: true };
  return { n: Number(n) };
}

/** `1.0 MB, 1.0 MiB`-style amounts, as GNU's human_readable prints them in dd's summary. */
function human(n: number, base: 1000 | 1024): string {
  const units = base === 1000 ? ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] : ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n;
  let u = 0;
  while (v >= base && u < units.length - 1) {
    v /= base;
    u++;
  }
  return `${v < 100 ? (Math.round(v * 10) / 10).toFixed(1) : Math.round(v).toFixed(0)} ${units[u]}`;
}

/** GNU's summary: records in and out, then bytes, time and rate (unless `status=noxfer`). */
function summary(inFull: number, inPart: number, outFull: number, outPart: number, bytes: number, seconds: number, noxfer: boolean): string {
  let s = `${inFull}+${inPart} records in\n${outFull}+${outPart} records out\n`;
  if (noxfer) return s;
  const amount = bytes >= 1000 ? `${bytes} bytes (${human(bytes, 1000)}, ${human(bytes, 1024)}) copied` : `${bytes} byte${bytes === 1 ? '' : 's'} copied`;
  const secs = seconds < 1e-4 ? seconds.toExponential(4).replace(/\.?0+e/, 'e').replace(/e([+-])(\d)$/, 'e$10$2') : String(Number(seconds.toPrecision(6)));
  // The rate is never shown below kB/s (`0.0 kB/s`).
  const rate = seconds > 0 ? bytes / seconds : 0;
  s += `${amount}, ${secs} s, ${rate < 1000 ? `${(Math.ceil(rate / 100) / 10).toFixed(1)} kB` : human(rate, 1000)}/s\n`;
  return s;
}

async function dd(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const started = performance.now();
  const o: Record<string, string> = {};
  const fail = (msg: string, code = 1): ExecResult => ({ stdout: '', stderr: msg, exitCode: code });
  for (const a of args) {
    const eq = a.indexOf('=');
    const key = eq < 0 ? '' : a.slice(0, eq);
    if (!['if', 'of', 'bs', 'ibs', 'obs', 'count', 'skip', 'iseek', 'seek', 'oseek', 'conv', 'iflag', 'oflag', 'status', 'cbs'].includes(key)) {
      return fail(`dd: unrecognized operand ${localeQuote(ctx.env, a)}\nTry 'dd --help' for more information.\n`);
    }
    o[key === 'iseek' ? 'skip' : key === 'oseek' ? 'seek' : key] = a.slice(eq + 1);
  }
  const conv = new Set((o.conv ?? '').split(',').filter(Boolean));
  const iflag = new Set((o.iflag ?? '').split(',').filter(Boolean));
  const oflag = new Set((o.oflag ?? '').split(',').filter(Boolean));
  for (const c of conv) if (!['notrunc', 'ucase', 'lcase', 'sync', 'noerror', 'excl', 'nocreat', 'fsync', 'fdatasync', 'swab'].includes(c)) return fail(`dd: conv=${c} is not available in the shell engine; ${HINT}\n`, 2);
  for (const f of iflag) if (!['count_bytes', 'skip_bytes', 'fullblock'].includes(f)) return fail(`dd: iflag=${f} is not available in the shell engine; ${HINT}\n`, 2);
  for (const f of oflag) if (!['seek_bytes', 'append'].includes(f)) return fail(`dd: oflag=${f} is not available in the shell engine; ${HINT}\n`, 2);
  if (o.status !== undefined && !['none', 'noxfer', 'progress'].includes(o.status)) return fail(`dd: invalid status level: ${localeQuote(ctx.env, o.status)}\nTry 'dd --help' for more information.\n`);
  let warnings = '';
  const num = (k: string, dflt: number): number | ExecResult => {
    if (o[k] === undefined) return dflt;
    const v = ddNumber(o[k]!);
    if (v.warn) warnings += `dd: warning: ${localeQuote(ctx.env, '0x')} is a zero multiplier; use ${localeQuote(ctx.env, '00x')} if that is intended\n`;
    if (v.n !== undefined && !(v.n === 0 && /bs$/.test(k))) return v.n;
    const res = fail(`dd: invalid number: ${localeQuote(ctx.env, o[k]!)}${v.overflow ? ': Value too large for defined data type' : ''}\n`);
    return { ...res, stderr: warnings + res.stderr };
  };
  const bs = num('bs', 0);
  const ibsN = num('ibs', 512);
  const obsN = num('obs', 512);
  const countN = num('count', Infinity);
  const skipN = num('skip', 0);
  const seekN = num('seek', 0);
  for (const v of [bs, ibsN, obsN, countN, skipN, seekN]) if (typeof v !== 'number') return v;
  const ibs = (bs as number) || (ibsN as number);
  const obs = (bs as number) || (obsN as number);
  const countBytes = iflag.has('count_bytes') ? (countN as number) : (countN as number) * ibs;
  const skipBytes = iflag.has('skip_bytes') ? (skipN as number) : (skipN as number) * ibs;
  const seekBytes = oflag.has('seek_bytes') ? (seekN as number) : (seekN as number) * obs;

  // The input: a device that never ends, a file, or stdin.
  let input: Buffer;
  const device = o.if === '/dev/zero' || o.if === '/dev/urandom' || o.if === '/dev/random';
  if (device) {
    if (!Number.isFinite(countBytes)) return fail(`dd: reading ${o.if} without count= would never end in the shell engine; ${HINT}\n`, 2);
    input = o.if === '/dev/zero' ? Buffer.alloc(countBytes) : randomBytes(countBytes);
  } else if (o.if !== undefined) {
    try {
      const b = await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, o.if));
      input = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    } catch {
      return fail(`dd: failed to open '${o.if}': No such file or directory\n`);
    }
  } else input = Buffer.from(String(ctx.stdin ?? ''), 'latin1');
  let data = device ? input : input.subarray(Math.min(skipBytes, input.length));
  if (Number.isFinite(countBytes)) data = data.subarray(0, countBytes);
  // Records in: full input blocks and a partial last one; `sync` pads each to ibs with NULs.
  const inFull = Math.floor(data.length / ibs);
  const inPart = data.length % ibs ? 1 : 0;
  if (conv.has('sync') && inPart) data = Buffer.concat([data, Buffer.alloc(ibs - (data.length % ibs))]);
  if (conv.has('ucase')) data = Buffer.from(data.toString('latin1').toUpperCase(), 'latin1');
  if (conv.has('lcase')) data = Buffer.from(data.toString('latin1').toLowerCase(), 'latin1');
  // swab swaps each pair of bytes across the whole input (GNU carries an odd block's last byte over to the next
  // read), so only an odd total leaves its last byte as it is.
  if (conv.has('swab')) {
    data = Buffer.from(data);
    for (let i = 0; i + 1 < data.length; i += 2) [data[i], data[i + 1]] = [data[i + 1]!, data[i]!];
  }
  const outFull = Math.floor(data.length / obs);
  const outPart = data.length % obs ? 1 : 0;
  let stdout: ReturnType<typeof bytesOutput> | undefined;
  if (o.of !== undefined) {
    const abs = ctx.fs.resolvePath(ctx.cwd, o.of);
    const old = await ctx.fs.readFileBuffer(abs).then((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)).catch(() => undefined);
    if (old && conv.has('excl')) return fail(`dd: failed to open '${o.of}': File exists\n`);
    if (!old && conv.has('nocreat')) return fail(`dd: failed to open '${o.of}': No such file or directory\n`);
    const base = old ?? Buffer.alloc(0);
    const at = oflag.has('append') ? base.length : seekBytes;
    const head = base.length >= at ? base.subarray(0, at) : Buffer.concat([base, Buffer.alloc(at - base.length)]);
    const tail = conv.has('notrunc') || oflag.has('append') ? base.subarray(Math.min(base.length, at + data.length)) : Buffer.alloc(0);
    try {
      await ctx.fs.writeFile(abs, Buffer.concat([head, data, tail]));
    } catch {
      return fail(`dd: failed to open '${o.of}': No such file or directory\n`);
    }
  } else stdout = bytesOutput(unsafeBytesFromLatin1(data.toString('latin1')));
  const stderr = warnings + (o.status === 'none' ? '' : summary(inFull, inPart, outFull, outPart, data.length, (performance.now() - started) / 1000, o.status === 'noxfer'));
  // dd reads stdin ibs bytes at a time and stops after skip= and count=: the commands sharing that stdin read on.
  const taken = o.if === undefined && Number.isFinite(countBytes) ? { internalStdinConsumed: Math.min(input.length, skipBytes + countBytes) } : {};
  return { stdout: '', ...stdout, stderr, exitCode: 0, ...taken };
}

/** GNU `dd`, for just-bash's `customCommands`. */
export function ddCommand(): CustomCommand {
  return defineCommand('dd', (args, ctx) => dd(args, ctx));
}
