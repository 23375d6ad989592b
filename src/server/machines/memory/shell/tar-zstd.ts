/**
 * `tar --zstd` (and reading a zstd-compressed archive, which GNU tar recognises by its magic) over the shell
 * engine's tar: the same command line without `--zstd` runs on the plain archive, and the codec (zstd-codec.ts)
 * compresses what it wrote or decompresses what it reads. A compressed archive file is read through a
 * decompressed copy in /tmp named by a later `--file` (GNU tar, like the engine's, takes the last one); an archive
 * on stdin or stdout goes through the engine's own shell (ctx.exec) with the plain bytes.
 * @see https://www.gnu.org/software/tar/manual/html_node/gzip.html
 */
import { randomBytes } from 'node:crypto';
import { bytesOutput, latin1FromBytes, stdoutAsBytes, unsafeBytesFromLatin1, type CommandContext, type ExecResult } from 'just-bash';
import { shellQuote } from '../argv.ts';
import { tarPlan } from './tar-plan.ts';
import { ZSTD_MAGIC, zstdCompress, zstdDecompress, zstdFailure } from './zstd-codec.ts';

const FAILED = 'tar: Child returned status 1\ntar: Error is not recoverable: exiting now\n';

/** Runs the engine's tar on `args` through its own shell, with `stdin` (bytes as latin1 text). */
export const tarThroughShell = (ctx: CommandContext) => (args: string[], stdin: string) =>
  ctx.exec!(['tar', ...args].map(shellQuote).join(' '), { cwd: ctx.cwd, stdin, stdinKind: 'bytes', signal: ctx.signal });

/**
 * The engine's tar run on `args` with `--file=` a temporary copy of `bytes` in /tmp (`suffix` its name's end),
 * removed after; the copy's name in messages reads as `archive`.
 */
export async function tarOnCopy(ctx: CommandContext, args: string[], bytes: Buffer, suffix: string, archive: string): Promise<ExecResult> {
  const temp = `/tmp/.spritzer-tar-${randomBytes(6).toString('hex')}${suffix}`;
  await ctx.fs.writeFile(temp, bytes);
  try {
    const r = await tarThroughShell(ctx)([...args, `--file=${temp}`], latin1FromBytes(ctx.stdin));
    return { ...r, stderr: r.stderr.split(temp).join(archive) };
  } finally {
    await ctx.fs.rm(temp, { force: true });
  }
}

/** Short tar options that take a value (the rest of their cluster, or the next word). */
const VALUED = 'fCTXbKNgVLFHI';

/**
 * `args` without what asks for zstd: `--zstd`, `-I`/`--use-compress-program` naming zstd (its level changes only
 * the bytes), `-a`/`--auto-compress` (the archive's `.zst`/`.tzst` name); undefined for a form not taken apart.
 */
function withoutZstd(args: string[]): string[] | undefined {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (a === '--zstd' || a === '--auto-compress') continue;
    if (a === '--use-compress-program' || a === '-I') {
      i++;
      continue;
    }
    if (a.startsWith('--use-compress-program=')) continue;
    if (/^-[^-]/.test(a) || (i === 0 && !a.startsWith('-'))) {
      // A cluster: `a` dropped, `I PROGRAM` dropped with its value (the rest of the cluster or the next word).
      let kept = '';
      let j = a.startsWith('-') ? 1 : 0;
      for (; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'I') {
          if (j + 1 === a.length) i++;
          j = a.length;
          break;
        }
        if (c !== 'a') kept += c;
        if (VALUED.includes(c)) {
          kept += a.slice(j + 1);
          break;
        }
      }
      if (!a.startsWith('-')) return undefined; // old-style clusters take their values from later words
      if (kept !== '') out.push(`-${kept}`);
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * The result of `tar args` when zstd is involved (`--zstd`, `-I zstd`, `-a` with a `.zst` name, or an archive to
 * read that is zstd data), or undefined when it is not (or is asked for in an old-style cluster): the caller's tar
 * then runs.
 */
export async function tarWithZstd(args: string[], ctx: CommandContext): Promise<ExecResult | undefined> {
  const p = tarPlan(args);
  const plain = p.zstd ? withoutZstd(args) : args;
  if (plain === undefined) return undefined;
  const flagged = p.zstd;
  const runTar = tarThroughShell(ctx);
  const toStdio = p.archive === undefined || p.archive === '-';
  if (p.op === 'c' && flagged) {
    const r = await runTar(plain, '');
    if (toStdio) return { stderr: r.stderr, exitCode: r.exitCode, ...bytesOutput(unsafeBytesFromLatin1((await zstdCompress(Buffer.from(latin1FromBytes(stdoutAsBytes(r)), 'latin1'), 3)).toString('latin1'))) };
    const path = ctx.fs.resolvePath(ctx.cwd, p.archive!);
    const written = await ctx.fs.readFileBuffer(path).catch(() => undefined);
    if (written) await ctx.fs.writeFile(path, await zstdCompress(written, 3));
    return r;
  }
  if (p.op !== 'x' && p.op !== 't' && p.op !== 'd') return flagged ? { stdout: '', stderr: 'tar: Cannot update compressed archives\ntar: Error is not recoverable: exiting now\n', exitCode: 2 } : undefined;
  const raw = toStdio ? Buffer.from(latin1FromBytes(ctx.stdin), 'latin1') : await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, p.archive!)).then(Buffer.from, () => undefined);
  if (raw === undefined || !raw.subarray(0, 4).equals(ZSTD_MAGIC)) {
    if (!flagged || raw === undefined) return flagged ? runTar(plain, latin1FromBytes(ctx.stdin)) : undefined;
    // GNU tar runs `zstd -d` on whatever it was given: not zstd data is zstd's complaint, then tar's.
    return { stdout: '', stderr: `zstd: /*stdin*\\: unsupported format \ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 };
  }
  let tarBytes: Buffer;
  try {
    tarBytes = zstdDecompress(raw);
  } catch (err) {
    return { stdout: '', stderr: `${zstdFailure('/*stdin*\\', err)}${FAILED}`, exitCode: 2 };
  }
  if (toStdio) return runTar(plain, tarBytes.toString('latin1'));
  return tarOnCopy(ctx, plain, tarBytes, '.tar', p.archive!);
}
