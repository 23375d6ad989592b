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

/**
 * The result of `tar args` when zstd is involved (`--zstd`, or an archive to read that is zstd data), or undefined
 * when it is not, or comes through a form this does not take apart (`-I zstd`, `-a`): the caller's tar then runs.
 */
export async function tarWithZstd(args: string[], ctx: CommandContext): Promise<ExecResult | undefined> {
  const p = tarPlan(args);
  const flagged = p.zstd && args.includes('--zstd');
  if (p.zstd && !flagged) return undefined;
  const plain = args.filter((a) => a !== '--zstd');
  const runTar = (a: string[], stdin: string) =>
    ctx.exec!(['tar', ...a].map(shellQuote).join(' '), { cwd: ctx.cwd, stdin, stdinKind: 'bytes', signal: ctx.signal });
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
  const temp = `/tmp/.spritzer-zstd-${randomBytes(6).toString('hex')}.tar`;
  await ctx.fs.writeFile(temp, tarBytes);
  try {
    const r = await runTar([...plain, `--file=${temp}`], latin1FromBytes(ctx.stdin));
    return { ...r, stderr: r.stderr.split(temp).join(p.archive!) };
  } finally {
    await ctx.fs.rm(temp, { force: true });
  }
}
