/**
 * `sed -i SUFFIX` as GNU sed runs it: `-i.bak` (the suffix attached) and `--in-place=.bak` keep each edited file's
 * original as FILE.bak; just-bash's sed edits in place but writes no backup. The editing is just-bash's. A suffix
 * with `*` (GNU's basename template) fails loudly.
 * @see https://www.gnu.org/software/sed/manual/sed.html#index-_002di
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';

/** Options of sed that take the next word as their value. */
const VALUED = new Set(['-e', '-f', '--expression', '--file', '-l', '--line-length']);

async function sed(args: string[], fs: IFileSystem, cwd: string, run: (a: string[]) => Promise<ExecResult>): Promise<ExecResult> {
  let suffix: string | undefined;
  let scriptGiven = false;
  const passed: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--in-place=')) {
      suffix = a.slice(11);
      passed.push('-i');
    } else if (a.startsWith('-i') && a.length > 2) {
      suffix = a.slice(2);
      passed.push('-i');
    } else if (VALUED.has(a)) {
      if (a === '-e' || a === '-f' || a === '--expression' || a === '--file') scriptGiven = true;
      passed.push(a, args[++i] ?? '');
    } else if (a.startsWith('-') && a.length > 1) {
      if (/^-[a-zA-Z]*[ef]/.test(a) && !a.startsWith('--')) scriptGiven = true;
      passed.push(a);
    } else if (!scriptGiven) {
      scriptGiven = true;
      passed.push(a);
    } else {
      passed.push(a);
      operands.push(a);
    }
  }
  if (suffix === undefined || suffix === '') return run(suffix === '' ? passed : args);
  if (suffix.includes('*') || suffix.includes('/')) {
    return { stdout: '', stderr: `sed: the backup name '${suffix}' (a template or a directory) is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
  }
  const originals = new Map<string, Uint8Array>();
  for (const f of operands) {
    const p = fs.resolvePath(cwd, f);
    const bytes = await fs.readFileBuffer(p).catch(() => null);
    if (bytes) originals.set(p, bytes);
  }
  const r = await run(passed);
  // GNU writes each backup as it starts on the file: a script that does not parse leaves none.
  if (r.exitCode === 0 || !/unknown command|invalid command|unterminated|unknown option/.test(r.stderr)) {
    for (const [p, bytes] of originals) await fs.writeFile(`${p}${suffix}`, bytes);
  }
  return r;
}

/** `sed` for just-bash's `customCommands` (the editing is just-bash's own). */
export function sedCommands(): CustomCommand[] {
  return [defineCommand('sed', (args, ctx) => sed(args, ctx.fs, ctx.cwd, (a) => ctx.origCommand!(a)))];
}
