/**
 * GNU tar's positional options when creating an archive: `-C DIR`, `--exclude`, `--no-recursion`… act only on the
 * members after them, so `tar -cf a.tar -C src main.py -C ../docs README.md` takes each member from its own
 * directory (each `-C` relative to the one before), and such an option after the last member has no effect: GNU
 * still writes the archive, then complains and exits 2. The shell engine's tar knows one directory and one set of
 * excludes per run, so a line that changes them between members runs once per group of members (into a temporary
 * archive) and the groups' members are joined into the one archive asked for.
 * @see https://www.gnu.org/software/tar/manual/html_node/Position_002dSensitive-Options.html
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { bytesOutput, latin1FromBytes, stdoutAsBytes, unsafeBytesFromLatin1, type CommandContext, type ExecResult } from 'just-bash';
import { tarMembers } from './tar-archive.ts';
import { tarPlan, type TarItem } from './tar-plan.ts';
import { tarThroughShell } from './tar-zstd.ts';
import { SANDBOX_HINT } from './world.ts';

const FAILED = 'tar: Exiting with failure status due to previous errors\n';
const REARRANGE =
  'tar: The following options were used after any non-optional arguments in archive create or update mode.  These options are positional and affect only arguments that follow them.  Please, rearrange them properly.\n';

type Option = Extract<TarItem, { option: string }>;
const isOption = (item: TarItem): item is Option => 'option' in item;

/** GNU's `OPTION ‘VALUE’ has no effect` line of an option left after the last member. */
const noEffect = (o: Option) => `tar: ${o.option}${o.value === undefined ? '' : ` ‘${o.value}’`} has no effect\n`;

/** An option as a word the engine's tar reads (long form, `=` value). */
const asWord = (o: Option) => (o.value === undefined ? o.option : `${o.option === '-C' ? '--directory' : o.option}=${o.value}`);

/** A plain tar archive's members (without its end blocks), or undefined when `bytes` are not tar or gzip'd tar. */
function membersOf(bytes: Buffer): string | undefined {
  let b = bytes;
  if (b[0] === 0x1f && b[1] === 0x8b) {
    try {
      b = gunzipSync(b);
    } catch {
      return undefined;
    }
  }
  const text = b.toString('latin1');
  const members = tarMembers(text);
  return text.slice(0, members.length ? members[members.length - 1]!.end : 0);
}

/** Plain tar members closed as GNU closes an archive: two zero blocks, padded to its 10240-byte record. */
const closed = (members: string) => {
  const end = members.length + 1024;
  return members + '\0'.repeat(Math.ceil(end / 10240) * 10240 - members.length);
};

/**
 * Extracting or listing: options after the last member are dropped without a word (GNU warns only when creating);
 * `-C` or `--exclude` between members makes one run per group of members over the same archive (and stdin).
 */
async function readInGroups(args: string[], order: TarItem[], at: { lastMember: number; trailing: Option[]; between: boolean }, ctx: CommandContext): Promise<ExecResult | undefined> {
  const runTar = tarThroughShell(ctx);
  const stdin = latin1FromBytes(ctx.stdin);
  if (!at.between) {
    if (at.trailing.length === 0) return undefined;
    const kept = new Set(at.trailing.flatMap((o) => o.words));
    return runTar(args.filter((_, i) => !kept.has(i)), stdin);
  }
  const options = order.filter(isOption);
  const optionWords = new Set(options.flatMap((o) => o.words));
  const memberWords = membersAt(args, order, optionWords);
  if (memberWords === undefined) return undefined;
  const globals = args.filter((_, i) => !optionWords.has(i) && !memberWords.has(i));
  // Each -C is relative to the one before: the directory goes in resolved, the other options as they came.
  let dir: string | undefined;
  let positional: string[] = [];
  let group: string[] = [];
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const flush = async () => {
    if (group.length === 0) return;
    const r = await runTar([...globals, ...(dir === undefined ? [] : [`--directory=${dir}`]), ...positional, '--', ...group], stdin);
    group = [];
    stdout += latin1FromBytes(stdoutAsBytes(r));
    stderr += r.stderr.replace(FAILED, '');
    exitCode = Math.max(exitCode, r.exitCode);
  };
  for (const item of order.slice(0, at.lastMember + 1)) {
    if (!isOption(item)) group.push(item.member);
    else {
      await flush();
      if (item.option === '-C') dir = ctx.fs.resolvePath(dir ?? ctx.cwd, item.value ?? '');
      else positional = [...positional, asWord(item)];
    }
  }
  await flush();
  return { ...bytesOutput(unsafeBytesFromLatin1(stdout)), stderr: exitCode ? `${stderr}${FAILED}` : stderr, exitCode };
}

/** The indexes in `args` of the member operands of `order`: the words no option took, matched from the end. */
function membersAt(args: string[], order: TarItem[], optionWords: Set<number>): Set<number> | undefined {
  const names = order.flatMap((item) => (isOption(item) ? [] : [item.member]));
  const at = new Set<number>();
  for (let i = args.length - 1, n = names.length - 1; i >= 0 && n >= 0; i--) {
    if (!optionWords.has(i) && args[i] === names[n]) at.add(i), n--;
  }
  return at.size === names.length ? at : undefined;
}

/**
 * The result of `tar args` when it creates, extracts or lists with a positional option between or after its
 * members (or creates with several `-C` before them), or undefined otherwise (the caller's tar then runs the line as it is).
 */
export async function tarWithPositional(args: string[], ctx: CommandContext): Promise<ExecResult | undefined> {
  const p = tarPlan(args);
  if (p.op !== 'c' && p.op !== 'x' && p.op !== 't') return undefined;
  const firstMember = p.order.findIndex((item) => !isOption(item));
  const lastMember = p.order.length - 1 - [...p.order].reverse().findIndex((item) => !isOption(item));
  if (firstMember < 0) return undefined;
  const trailing = p.order.slice(lastMember + 1).filter(isOption);
  const between = p.order.slice(firstMember, lastMember).some(isOption);
  const chdirs = p.order.slice(0, firstMember).filter((item) => isOption(item) && item.option === '-C').length;
  if (trailing.length === 0 && !between && chdirs < 2) return undefined;
  const options = p.order.filter(isOption);
  if (options.some((o) => o.cluster)) return undefined;
  const drop = new Set(options.flatMap((o) => o.words));
  if (p.op !== 'c') return readInGroups(args, p.order, { lastMember, trailing, between }, ctx);
  const warnings = trailing.length ? `${REARRANGE}${trailing.map(noEffect).join('')}` : '';
  const runTar = tarThroughShell(ctx);
  if (!between && chdirs < 2) {
    // Only options after the last member: the line runs without them, then GNU's complaint.
    const kept = new Set(trailing.flatMap((o) => o.words));
    const r = await runTar(args.filter((_, i) => !kept.has(i)), '');
    return { ...r, stderr: `${r.stderr.replace(FAILED, '')}${warnings}${FAILED}`, exitCode: 2 };
  }
  if (p.compressed && !p.gzip) return { stdout: '', stderr: `tar: -C or --exclude between members with this compression is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
  // Everything but the members and the positional options: the archive, the compressor, -v, -h, owners…
  const memberWords = membersAt(args, p.order, drop);
  if (memberWords === undefined) return undefined;
  const globals = args.filter((_, i) => !drop.has(i) && !memberWords.has(i));
  let dir = ctx.cwd;
  let excludes: string[] = [];
  let archive = '';
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  let group: string[] = [];
  const temp = `/tmp/.spritzer-tar-${randomBytes(6).toString('hex')}.tar`;
  const flush = async () => {
    if (group.length === 0) return;
    const r = await runTar([...globals, `--directory=${dir}`, ...excludes, `--file=${temp}`, '--', ...group], '');
    group = [];
    stdout += r.stdout;
    stderr += r.stderr.replace(FAILED, '');
    exitCode = Math.max(exitCode, r.exitCode);
    const written = await ctx.fs.readFileBuffer(temp).then(Buffer.from, () => undefined);
    archive += (written && membersOf(written)) ?? '';
  };
  try {
    for (const item of p.order.slice(0, lastMember + 1)) {
      if (!isOption(item)) group.push(item.member);
      else {
        await flush();
        if (item.option === '-C') dir = ctx.fs.resolvePath(dir, item.value ?? '');
        else excludes = [...excludes, asWord(item)];
      }
    }
    await flush();
  } finally {
    await ctx.fs.rm(temp, { force: true });
  }
  const plain = Buffer.from(closed(archive), 'latin1');
  const bytes = p.gzip ? gzipSync(plain) : plain;
  if (trailing.length) exitCode = 2;
  const tail = exitCode !== 0 ? `${warnings}${FAILED}` : '';
  if (p.archive === undefined || p.archive === '-') {
    // The archive is stdout: the -v listing goes to stderr, as GNU's does.
    return { stderr: `${stdout}${stderr}${tail}`, exitCode, ...bytesOutput(unsafeBytesFromLatin1(bytes.toString('latin1'))) };
  }
  await ctx.fs.writeFile(ctx.fs.resolvePath(ctx.cwd, p.archive), bytes);
  return { stdout, stderr: `${stderr}${tail}`, exitCode };
}
