/**
 * `grep` as GNU grep runs it, over just-bash's own: the recursion (`-r`/`-R`) is done here, so dotfiles are
 * searched, paths keep the operand as written (`grep -r x .` prints `./a.txt:…`, no operand searches `.` and prints
 * `a.txt:…`), and `--include`/`--exclude`/`--exclude-dir` match as GNU's (basename globs); `-H` forces file names,
 * `-s` drops the messages about unreadable files, several `-e` patterns all count, `--color` is a no-op (output is
 * never a terminal here). The search itself is just-bash's grep over the file list.
 * @see https://www.gnu.org/software/grep/manual/grep.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { nameGlob } from '../../../core/name-glob.ts';

type Run = (args: string[]) => Promise<ExecResult>;

/** Short options of GNU grep that take a value (attached or as the next word). */
const VALUED = new Set(['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D']);
const FILE_ERRORS = /: (No such file or directory|Permission denied|Is a directory)$/;

interface Plan {
  passed: string[];
  patterns: string[];
  operands: string[];
  recursive: boolean;
  withNames: boolean;
  noNames: boolean;
  silent: boolean;
  mode: 'basic' | 'extended' | 'fixed' | 'perl';
  include: string[];
  exclude: string[];
  excludeDir: string[];
}

function plan(args: string[]): Plan {
  const p: Plan = { passed: [], patterns: [], operands: [], recursive: false, withNames: false, noNames: false, silent: false, mode: 'basic', include: [], exclude: [], excludeDir: [] };
  let patternGiven = false;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === '--') {
      options = false;
      continue;
    }
    if (options && a.startsWith('--')) {
      const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--include') p.include.push(value ?? args[++i] ?? '');
      else if (name === '--exclude') p.exclude.push(value ?? args[++i] ?? '');
      else if (name === '--exclude-dir') p.excludeDir.push(value ?? args[++i] ?? '');
      else if (name === '--color' || name === '--colour') continue;
      else if (name === '--recursive' || name === '--dereference-recursive') p.recursive = true;
      else if (name === '--with-filename') p.withNames = true;
      else if (name === '--no-filename') p.noNames = true;
      else if (name === '--no-messages') p.silent = true;
      else if (name === '--regexp') (p.patterns.push(value ?? args[++i] ?? ''), (patternGiven = true));
      else p.passed.push(a);
      continue;
    }
    if (options && a.startsWith('-') && a.length > 1) {
      const kept: string[] = [];
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (VALUED.has(c)) {
          const value = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
          if (c === 'e') {
            p.patterns.push(value);
            patternGiven = true;
          } else {
            if (c === 'f') patternGiven = true;
            p.passed.push(`-${kept.join('')}${c}`.replace(/^-$/, ''), value);
            kept.length = 0;
          }
          break;
        }
        if (c === 'r' || c === 'R') p.recursive = true;
        else if (c === 'H') p.withNames = true;
        else if (c === 'h') p.noNames = true;
        else if (c === 's') p.silent = true;
        else {
          if (c === 'E') p.mode = 'extended';
          if (c === 'F') p.mode = 'fixed';
          if (c === 'P') p.mode = 'perl';
          if (c === 'G') p.mode = 'basic';
          kept.push(c);
        }
      }
      if (kept.length > 0) p.passed.push(`-${kept.join('')}`);
      continue;
    }
    if (!patternGiven) {
      p.patterns.push(a);
      patternGiven = true;
    } else p.operands.push(a);
  }
  p.passed = p.passed.filter((x) => x !== '');
  return p;
}

/** The files below `dir` (dotfiles included, symlinks not followed, as `grep -r`), as `prefix/…` paths. */
async function walk(fs: IFileSystem, abs: string, shown: string, p: Plan, out: string[]): Promise<void> {
  let names: string[];
  try {
    names = (await fs.readdir(abs)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const childAbs = `${abs === '/' ? '' : abs}/${name}`;
    const childShown = shown === '' ? name : `${shown.replace(/\/+$/, '')}/${name}`;
    const st = await fs.lstat(childAbs).catch(() => null);
    if (!st || st.isSymbolicLink) continue;
    if (st.isDirectory) {
      if (!p.excludeDir.some((g) => nameGlob(g)(name))) await walk(fs, childAbs, childShown, p, out);
    } else if (selected(name, p)) out.push(childShown);
  }
}

const selected = (name: string, p: Plan) => (p.include.length === 0 || p.include.some((g) => nameGlob(g)(name))) && !p.exclude.some((g) => nameGlob(g)(name));

async function grep(args: string[], fs: IFileSystem, cwd: string, run: Run): Promise<ExecResult> {
  const p = plan(args);
  if (p.patterns.length === 0) return run(args);
  let pattern = p.patterns[0]!;
  if (p.patterns.length > 1) {
    if (p.mode === 'fixed' || p.mode === 'perl') {
      return { stdout: '', stderr: `grep: option -e given more than once with -${p.mode === 'fixed' ? 'F' : 'P'} is not available in the shell engine; run spritzer with --exec sandbox\n`, exitCode: 2 };
    }
    pattern = p.patterns.join(p.mode === 'extended' ? '|' : '\\|');
  }
  // GNU's BRE `\+` and `\?` (extensions just-bash's BRE lacks) are the intervals `\{1,\}` and `\{0,1\}`.
  if (p.mode === 'basic') pattern = pattern.replace(/(^|[^\\])((?:\\\\)*)\\([+?])/g, (_, pre: string, pairs: string, op: string) => `${pre}${pairs}\\{${op === '+' ? '1,' : '0,1'}\\}`);
  let files = p.operands;
  if (p.recursive) {
    files = [];
    const operands = p.operands.length > 0 ? p.operands : [''];
    for (const o of operands) {
      const abs = fs.resolvePath(cwd, o === '' ? '.' : o);
      const st = await fs.stat(abs).catch(() => null);
      if (st?.isDirectory) await walk(fs, abs, o, p, files);
      else files.push(o);
    }
    if (files.length === 0) return { stdout: '', stderr: '', exitCode: 1 };
  }
  const names = !p.noNames && (p.withNames || p.recursive || files.length > 1);
  // just-bash names files only when there are several: /dev/null as a second operand makes it name one.
  const padded = names && files.length === 1;
  const argv = [...p.passed, ...(p.noNames ? ['-h'] : []), '-e', pattern, '--', ...files, ...(padded ? ['/dev/null'] : [])];
  const r = await run(argv);
  let { stdout, stderr } = r;
  if (padded) stdout = stdout.split('\n').filter((l) => l !== '/dev/null' && !l.startsWith('/dev/null:')).join('\n');
  if (p.silent) stderr = stderr.split('\n').filter((l) => !FILE_ERRORS.test(l)).join('\n');
  return { ...r, stdout, stderr };
}

/** `grep` (and `egrep`/`fgrep` keep just-bash's own) for just-bash's `customCommands`. */
export function grepCommands(): CustomCommand[] {
  return [defineCommand('grep', (args, ctx) => grep(args, ctx.fs, ctx.cwd, (a) => ctx.origCommand!(a)))];
}
