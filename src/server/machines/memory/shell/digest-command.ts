/**
 * `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum` and `b2sum` as GNU coreutils runs them:
 * sums of files and stdin (`--tag`, `-b`, `-z`), errors on stderr, and `-c` with its per-file lines on stdout and
 * its WARNING lines on stderr (`--quiet`, `--status`, `--ignore-missing`, `-w`, `--strict`).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/md5sum-invocation.html
 */
import { createHash } from 'node:crypto';
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, type InputCtx } from './text-input.ts';
import { OrderedOutput } from './output-order.ts';

/** Each command's node:crypto algorithm and the name GNU prints (`--tag`, messages). */
const ALGORITHMS: Record<string, { hash: string; tag: string }> = {
  md5sum: { hash: 'md5', tag: 'MD5' },
  sha1sum: { hash: 'sha1', tag: 'SHA1' },
  sha224sum: { hash: 'sha224', tag: 'SHA224' },
  sha256sum: { hash: 'sha256', tag: 'SHA256' },
  sha384sum: { hash: 'sha384', tag: 'SHA384' },
  sha512sum: { hash: 'sha512', tag: 'SHA512' },
  b2sum: { hash: 'blake2b512', tag: 'BLAKE2b' },
};

const FLAGS: Record<string, string> = {
  '-c': 'check', '--check': 'check', '-b': 'binary', '--binary': 'binary', '-t': 'text', '--text': 'text', '--tag': 'tag',
  '--quiet': 'quiet', '--status': 'status', '--ignore-missing': 'ignoreMissing', '-w': 'warn', '--warn': 'warn', '--strict': 'strict',
  '-z': 'zero', '--zero': 'zero',
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

async function digest(cmd: string, args: string[], ctx: InputCtx): Promise<ExecResult> {
  const alg = ALGORITHMS[cmd]!;
  const f = new Set<string>();
  const names: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (options && a.startsWith('-') && a.length > 1) {
      const words = a.startsWith('--') ? [a] : [...a.slice(1)].map((c) => `-${c}`);
      for (const w of words) {
        if (!FLAGS[w]) return unsupported(cmd, w);
        f.add(FLAGS[w]!);
      }
    } else names.push(a);
  }
  if (names.length === 0) names.push('-');
  const sum = (bytes: string) => createHash(alg.hash).update(Buffer.from(bytes, 'latin1')).digest('hex');
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  if (!f.has('check')) {
    // GNU's sums report through error(), which flushes the lines printed so far: program order.
    const text = new OrderedOutput();
    for (const name of names) {
      const r = await readOperand(ctx, name);
      if ('error' in r) {
        text.err(`${cmd}: ${name}: ${r.error}\n`);
        exitCode = 1;
        continue;
      }
      const hex = sum(r.bytes);
      const escape = !f.has('zero') && /[\\\n]/.test(name);
      const shown = escape ? name.replace(/\\/g, '\\\\').replace(/\n/g, '\\n') : name;
      text.out(`${escape ? '\\' : ''}${f.has('tag') ? `${alg.tag} (${shown}) = ${hex}` : `${hex} ${f.has('binary') ? '*' : ' '}${shown}`}${f.has('zero') ? '\0' : '\n'}`);
    }
    return text.result(exitCode, 'before-errors');
  }
  const hexLength = sum('').length;
  const untagged = new RegExp(`^\\\\?([0-9a-fA-F]{${hexLength}}) [ *](.+)$`);
  const tagged = new RegExp(`^\\\\?${alg.tag} \\((.+)\\) = ([0-9a-fA-F]{${hexLength}})$`);
  const loud = !f.has('status');
  for (const list of names) {
    const r = await readOperand(ctx, list);
    if ('error' in r) {
      stderr += `${cmd}: ${list}: ${r.error}\n`;
      exitCode = 1;
      continue;
    }
    // GNU names a checksum list read from stdin `standard input`, quoted as quotef quotes a name with a space.
    const shown = list === '-' ? "'standard input'" : list;
    let misformatted = 0;
    let unreadable = 0;
    let mismatched = 0;
    let verified = 0;
    let wellFormed = 0;
    const lines = r.bytes.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const [i, raw] of lines.entries()) {
      if (raw.startsWith('#')) continue;
      const line = raw.replace(/\r$/, '');
      const t = tagged.exec(line);
      const u = t ? null : untagged.exec(line);
      const [expected, file] = t ? [t[2]!, t[1]!] : u ? [u[1]!, u[2]!] : [undefined, undefined];
      if (expected === undefined || file === undefined) {
        misformatted++;
        if (f.has('warn')) stderr += `${cmd}: ${shown}: ${i + 1}: improperly formatted ${alg.tag} checksum line\n`;
        continue;
      }
      wellFormed++;
      const input = await readOperand(ctx, file);
      if ('error' in input) {
        if (f.has('ignoreMissing') && input.error === 'No such file or directory') continue;
        unreadable++;
        stderr += `${cmd}: ${file}: ${input.error}\n`;
        if (loud) stdout += `${file}: FAILED open or read\n`;
        continue;
      }
      verified++;
      const good = sum(input.bytes) === expected.toLowerCase();
      if (!good) mismatched++;
      if (loud && (!good || !f.has('quiet'))) stdout += `${file}: ${good ? 'OK' : 'FAILED'}\n`;
    }
    if (wellFormed === 0) {
      stderr += `${cmd}: ${shown}: no properly formatted checksum lines found\n`;
      exitCode = 1;
      continue;
    }
    if (loud) {
      if (misformatted) stderr += `${cmd}: WARNING: ${plural(misformatted, 'line is', 'lines are')} improperly formatted\n`;
      if (unreadable) stderr += `${cmd}: WARNING: ${plural(unreadable, 'listed file', 'listed files')} could not be read\n`;
      if (mismatched) stderr += `${cmd}: WARNING: ${plural(mismatched, 'computed checksum', 'computed checksums')} did NOT match\n`;
    }
    if (f.has('ignoreMissing') && verified === 0) stderr += `${cmd}: ${shown}: no file was verified\n`;
    if (mismatched || unreadable || (f.has('strict') && misformatted) || (f.has('ignoreMissing') && verified === 0)) exitCode = 1;
  }
  return { stdout, stderr, exitCode };
}

/** Names of the commands of {@link digestCommands}. */
export const DIGEST_COMMAND_NAMES: readonly string[] = Object.keys(ALGORITHMS);

/** The checksum commands, for just-bash's `customCommands`. */
export function digestCommands(): CustomCommand[] {
  return DIGEST_COMMAND_NAMES.map((name) => defineCommand(name, (args, ctx) => digest(name, args, ctx)));
}
