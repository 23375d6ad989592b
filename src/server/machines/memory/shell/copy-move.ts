/**
 * `cp` and `mv` as GNU coreutils runs them, over just-bash's own: the checks GNU makes before it touches a file
 * (a destination ending in `/` must be a directory, `mv a a` is the same file, `-T` treats the destination as a
 * file), the options just-bash lacks that change nothing here (`-f`: a sprite user owns the files it may replace),
 * `-T`/`-a`/`-P` done with just-bash's plain copy, and `-i` (GNU's question on stderr, the answer read from stdin).
 * Everything else goes to just-bash's command unchanged; an option neither knows fails loudly (loud-options.ts).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/cp-invocation.html, mv-invocation.html
 */
import { accessTime } from './file-time.ts';
import { decodeBytesToUtf8, defineCommand, type CustomCommand, type ExecResult, type IFileSystem } from 'just-bash';
import { missingOperand, needsPerFile, notDirectoryTarget, perFile, takePerFileOptions } from './copy-options.ts';
import { sameFile } from './devices.ts';
import type { OrderedResult } from './output-order.ts';
import { SANDBOX_HINT } from './world.ts';
import { AnswerLines } from './inherited-stdin.ts';

type Run = (args: string[]) => Promise<ExecResult>;
const fail = (stderr: string): ExecResult => ({ stdout: '', stderr, exitCode: 1 });

interface Parsed {
  /** Single-letter flags, in order (long ones mapped to their letters). */
  flags: Set<string>;
  /** The arguments to hand on (options kept, except the ones handled here). */
  passed: string[];
  operands: string[];
}

const LONG: Record<string, string> = {
  '--force': 'f',
  '--no-target-directory': 'T',
  '--archive': 'a',
  '--no-dereference': 'P',
  '--recursive': 'r',
  '--no-clobber': 'n',
  '--verbose': 'v',
  '--preserve': 'p',
  '--interactive': 'i',
};

/** Splits the arguments; `handled` letters are taken out of what is handed on. */
function parse(args: string[], handled: string): Parsed {
  const flags = new Set<string>();
  const passed: string[] = [];
  const operands: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') {
      options = false;
      continue;
    }
    if (options && a.startsWith('--')) {
      const letter = LONG[a];
      if (letter) flags.add(letter);
      if (!letter || !handled.includes(letter)) passed.push(a);
    } else if (options && a.startsWith('-') && a.length > 1) {
      const kept = [...a.slice(1)].filter((c) => (flags.add(c), !handled.includes(c)));
      if (kept.length > 0) passed.push(`-${kept.join('')}`);
    } else operands.push(a);
  }
  return { flags, passed, operands };
}

/** Options then operands, with `--` between them when an operand looks like an option. */
const argv = (opts: string[], operands: string[]) => [...opts, ...(operands.some((o) => o.startsWith('-')) ? ['--'] : []), ...operands];

async function lstatOrNull(fs: IFileSystem, p: string) {
  try {
    return await fs.lstat(p);
  } catch {
    return null;
  }
}
async function statOrNull(fs: IFileSystem, p: string) {
  try {
    return await fs.stat(p);
  } catch {
    return null;
  }
}

/**
 * `cp SRC DEST` / `mv SRC DEST` where DEST is not an existing directory: GNU's message naming DEST, before anything is
 * touched (just-bash blamed the source or printed the filesystem's errno text). By GNU copy.c's checks:
 * - DEST an existing non-directory: written as `DEST/`, `cannot stat 'DEST/': Not a directory`; a directory SRC,
 *   `cannot overwrite non-directory 'DEST' with directory 'SRC'`;
 * - DEST missing, its parent missing: `cp: cannot create regular file|directory 'DEST': No such file or directory`,
 *   `mv: cannot move 'SRC' to 'DEST': No such file or directory`; its parent a file: `cannot stat 'DEST': Not a
 *   directory`;
 * - DEST missing, written as `DEST/`, SRC a file: `cp: cannot create regular file 'DEST/': Not a directory` (`mv:
 *   cannot move 'SRC' to 'DEST/': …`); a directory SRC makes DEST.
 * Several sources need a directory DEST (`notDirectoryTarget`), unless `noTarget` (-T, which refuses them itself).
 * `recursive` is cp's -r (without it just-bash's `-r not specified` stands). Returns null where the copy goes ahead.
 */
async function destinationProblem(cmd: 'cp' | 'mv', fs: IFileSystem, cwd: string, operands: string[], recursive: boolean, noTarget: boolean): Promise<ExecResult | null> {
  if (operands.length > 2 && !noTarget) {
    const target = operands[operands.length - 1]!;
    const st = await statOrNull(fs, fs.resolvePath(cwd, target));
    return st?.isDirectory ? null : notDirectoryTarget(cmd, target, st !== null || (await lstatOrNull(fs, fs.resolvePath(cwd, target))) !== null);
  }
  if (operands.length !== 2) return null;
  const [src, dest] = operands as [string, string];
  const srcSt = await (cmd === 'mv' ? lstatOrNull : statOrNull)(fs, fs.resolvePath(cwd, src));
  if (!srcSt) return dest.endsWith('/') ? fail(`${cmd}: cannot stat '${src}': No such file or directory\n`) : null;
  if (cmd === 'cp' && srcSt.isDirectory && !recursive) return null;
  const slash = dest.endsWith('/');
  const destAbs = fs.resolvePath(cwd, dest.replace(/(.)\/+$/, '$1'));
  const destSt = await statOrNull(fs, destAbs);
  if (destSt?.isDirectory) return null;
  if (destSt || (await lstatOrNull(fs, destAbs))) {
    if (slash) return fail(`${cmd}: cannot stat '${dest}': Not a directory\n`);
    return srcSt.isDirectory ? fail(`${cmd}: cannot overwrite non-directory '${dest}' with directory '${src}'\n`) : null;
  }
  const parent = await statOrNull(fs, destAbs.slice(0, destAbs.lastIndexOf('/')) || '/');
  if (parent && !parent.isDirectory) return fail(`${cmd}: cannot stat '${dest}': Not a directory\n`);
  // /proc is procfs, where no new entry can be made: mv's rename fails across filesystems (EXDEV), so it copies,
  // and creating the copy fails as cp's does.
  if (parent && destAbs.startsWith('/proc/')) return fail(`${cmd}: cannot create ${srcSt.isDirectory ? 'directory' : 'regular file'} '${dest}': No such file or directory\n`);
  const why = parent ? 'Not a directory' : 'No such file or directory';
  if (parent && (srcSt.isDirectory || !slash)) return null;
  if (cmd === 'mv') return fail(`mv: cannot move '${src}' to '${dest}': ${why}\n`);
  return fail(`cp: cannot create ${srcSt.isDirectory ? 'directory' : 'regular file'} '${dest}': ${why}\n`);
}

/**
 * `cp -r DIR DEST` where the copy would land inside DIR (`cp -r src src/new`, `cp -r src src`): GNU copies the tree as
 * it stood before the copy began (the new directory is not copied into itself), then says `cp: cannot copy a
 * directory, 'src', into itself, 'src/new'` and exits 1. The copy is made beside DIR and moved into place. Null when
 * the copy does not land inside its source.
 */
async function copyIntoItself(fs: IFileSystem, cwd: string, operands: string[], opts: string[], run: Run): Promise<ExecResult | null> {
  if (operands.length !== 2) return null;
  const [src, dest] = operands as [string, string];
  const srcAbs = fs.resolvePath(cwd, src);
  if (!(await statOrNull(fs, srcAbs))?.isDirectory) return null;
  const into = (await statOrNull(fs, fs.resolvePath(cwd, dest)))?.isDirectory === true;
  const target = into ? `${dest.replace(/\/+$/, '')}/${src.replace(/\/+$/, '').split('/').pop()}` : dest;
  const targetAbs = fs.resolvePath(cwd, target);
  if (targetAbs !== srcAbs && !targetAbs.startsWith(`${srcAbs}/`)) return null;
  const aside = `${srcAbs}.spritzer-copy-${Date.now().toString(36)}`;
  const r = await run(argv(opts, [src, aside]));
  if (r.exitCode === 0) await fs.mv(aside, targetAbs);
  else await fs.rm(aside, { recursive: true, force: true });
  return { stdout: r.stdout, stderr: `${r.stderr}cp: cannot copy a directory, '${src}', into itself, '${target}'\n`, exitCode: 1 };
}

/**
 * `cp -f`: an existing destination file the user may not open for writing is removed first, so the copy makes a new
 * one (GNU: "if an existing destination file cannot be opened, remove it and try again"). Only a file of the user's
 * own `access` denies writing (the shell engine's filesystem answers), and a removal the directory forbids is left
 * for the copy to report.
 */
async function removeUnwritable(fs: IFileSystem, cwd: string, operands: string[]): Promise<void> {
  const access = (fs as { access?: (path: string, want: 2) => Promise<boolean> }).access?.bind(fs);
  if (!access || operands.length < 2) return;
  const dest = fs.resolvePath(cwd, operands[operands.length - 1]!);
  const into = (await statOrNull(fs, dest))?.isDirectory === true;
  for (const src of operands.slice(0, -1)) {
    const target = into ? `${dest.replace(/\/+$/, '')}/${src.replace(/\/+$/, '').split('/').pop()}` : dest;
    const st = await lstatOrNull(fs, target);
    if (st?.isFile && !(await access(target, 2))) await fs.rm(target).catch(() => undefined);
  }
}

/** The message of a permission error (or a directory in the way that is not empty) as strerror words it. */
const PERMISSION_TEXT: Record<string, string> = { EACCES: 'Permission denied', EPERM: 'Operation not permitted', ENOTEMPTY: 'Directory not empty' };

/**
 * just-bash's cp and mv print a permission error as the filesystem words it (`mv: cannot move 'f': EACCES: permission
 * denied, rename '/usr/f'`); GNU names the destination as the user wrote it: `mv: cannot move 'f' to '/usr/f':
 * Permission denied` (and `mv: cannot move 'a' to 'b/a': Directory not empty` for a directory in the way), `cp: cannot create regular file '/etc/x': Permission denied`. `dest` is the last operand.
 */
async function permissionMessages(cmd: 'cp' | 'mv', r: ExecResult, fs: IFileSystem, cwd: string, dest: string): Promise<ExecResult> {
  if (!/EACCES|EPERM|ENOTEMPTY/.test(r.stderr)) return r;
  const destAbs = fs.resolvePath(cwd, dest);
  const destIsDir = (await statOrNull(fs, destAbs))?.isDirectory === true;
  const named = (abs: string, src: string): string => {
    if (abs === destAbs) return dest;
    if (abs.startsWith(`${destAbs}/`)) return `${dest.replace(/\/+$/, '')}/${abs.slice(destAbs.length + 1)}`;
    return destIsDir ? `${dest.replace(/\/+$/, '')}/${src.replace(/\/+$/, '').split('/').pop()}` : dest;
  };
  // A copy the filesystem could not read part of names each such source path on a line of its own after the first.
  let src = '';
  const lines = await Promise.all(
    r.stderr.split(/(?<=\n)/).map(async (line) => {
      const m = /^(?:(cp|mv): cannot (?:copy|move) '(.*)': )?(EACCES|EPERM|ENOTEMPTY): [^,]*, (\w+) '(.*)'\n$/.exec(line);
      if (!m || (m[1] === undefined && !src)) return line;
      if (m[2] !== undefined) src = m[2];
      const [, , , code, syscall, abs] = m as unknown as [string, string, string, string, string, string];
      const why = PERMISSION_TEXT[code]!;
      const srcAbs = fs.resolvePath(cwd, src);
      // mv refused at its source (a directory the user may not write) names where it was to go.
      const landing = destIsDir ? `${dest.replace(/\/+$/, '')}/${src.replace(/\/+$/, '').split('/').pop()}` : dest;
      if (cmd === 'mv') return `mv: cannot move '${src}' to '${abs === srcAbs ? landing : named(abs, src)}': ${why}\n`;
      if (abs === srcAbs || abs.startsWith(`${srcAbs}/`)) return unreadableSource(`${src.replace(/(.)\/+$/, '$1')}${abs.slice(srcAbs.length)}`, syscall, why);
      const dir = (await statOrNull(fs, srcAbs))?.isDirectory;
      return `cp: cannot create ${dir ? 'directory' : 'regular file'} '${named(abs, src)}': ${why}\n`;
    }),
  );
  return { ...r, stderr: lines.join('') };
}

/** GNU cp's line for a source it may not read: a file it cannot open, a directory it cannot list or search. */
function unreadableSource(name: string, syscall: string, why: string): string {
  if (syscall === 'scandir') return `cp: cannot open directory '${name}': ${why}\n`;
  if (syscall === 'stat') return `cp: cannot access '${name}': ${why}\n`;
  return `cp: cannot open '${name}' for reading: ${why}\n`;
}

/**
 * `cp a b` / `mv a b` where `b` is another name of `a`'s file (a hard link): GNU's "are the same file", exit 1,
 * nothing touched. cp compares the files the names lead to; mv the names themselves.
 */
async function sameFileOperands(cmd: 'cp' | 'mv', fs: IFileSystem, cwd: string, operands: string[]): Promise<ExecResult | null> {
  if (operands.length !== 2) return null;
  const look = cmd === 'mv' ? lstatOrNull : statOrNull;
  const [a, b] = await Promise.all(operands.map((o) => look(fs, fs.resolvePath(cwd, o))));
  if (!a || !b || b.isDirectory || a.isDirectory || a.ino === undefined || !sameFile(a, b)) return null;
  return fail(`${cmd}: '${operands[0]}' and '${operands[1]}' are the same file\n`);
}

/**
 * Whether `-i` is in force: the last of `-i` and `-n` given (for mv also `-f`, which cancels `-i` there and not in
 * cp), as GNU takes them.
 */
function interactive(cmd: 'cp' | 'mv', args: string[]): boolean {
  return lastOverwriteChoice(args, cmd === 'mv' ? 'inf' : 'in') === 'i';
}

/** The last of the overwrite options `choices` (letters of `i`, `n`, `f`, long forms too) given in `args`. */
function lastOverwriteChoice(args: string[], choices: string): string | undefined {
  let last: string | undefined;
  for (const a of args) {
    if (a === '--') break;
    const letters = a.startsWith('--') ? (LONG[a] ?? '') : a.startsWith('-') ? a.slice(1) : '';
    for (const c of letters) if (choices.includes(c)) last = c;
  }
  return last;
}

/**
 * `-i`: for each source whose destination exists, GNU's question on stderr (`cp: overwrite 'b'? `) and one line of
 * stdin read as the answer; a line starting with `y` or `Y` keeps the source, anything else (end of input too)
 * skips it, with status 0. The operands left (the destination last) and the questions asked; a directory source
 * over an existing destination (one question per file inside) is refused loudly.
 */
async function askOverwrite(cmd: 'cp' | 'mv', operands: string[], noTarget: boolean, fs: IFileSystem, cwd: string, stdin: () => string): Promise<{ operands: string[]; asked: string } | ExecResult> {
  if (operands.length < 2) return { operands, asked: '' };
  const dest = operands[operands.length - 1]!;
  const intoDir = !noTarget && (await statOrNull(fs, fs.resolvePath(cwd, dest)))?.isDirectory === true;
  const answers = new AnswerLines(stdin, true);
  const kept: string[] = [];
  let asked = '';
  for (const src of operands.slice(0, -1)) {
    const target = intoDir ? `${dest.replace(/\/+$/, '')}/${src.replace(/\/+$/, '').split('/').pop()}` : dest;
    const existing = await lstatOrNull(fs, fs.resolvePath(cwd, target));
    const source = await lstatOrNull(fs, fs.resolvePath(cwd, src));
    // GNU finds a copy onto its own file before it would ask: that is an error, not a question.
    if (!existing || !source || (source.ino !== undefined && sameFile(source, existing))) {
      kept.push(src);
      continue;
    }
    if (existing.isDirectory) return { stdout: '', stderr: `${cmd}: option -i over an existing directory is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
    asked += `${cmd}: overwrite '${target}'? `;
    if (/^[yY]/.test(answers.shift() ?? '')) kept.push(src);
  }
  return { operands: kept.length > 0 ? [...kept, dest] : [], asked };
}

/** Runs `go` on the operands `-i` keeps, with its questions before the command's own output and messages. */
async function withQuestions(cmd: 'cp' | 'mv', args: string[], operands: string[], noTarget: boolean, fs: IFileSystem, cwd: string, stdin: () => string, go: (operands: string[]) => Promise<ExecResult>): Promise<OrderedResult> {
  if (!interactive(cmd, args)) return go(operands);
  const a = await askOverwrite(cmd, operands, noTarget, fs, cwd, stdin);
  if ('exitCode' in a) return a;
  if (a.operands.length === 0) return { stdout: '', stderr: a.asked, exitCode: 0 };
  const r: OrderedResult = await go(a.operands);
  // The questions were all asked before anything was copied: they come first where stdout and stderr meet.
  const order = r.outputOrder ?? [r.stdout.length, r.stderr.length];
  return { ...r, stderr: a.asked + r.stderr, outputOrder: [0, a.asked.length, ...order] };
}

const PRESERVABLE = ['mode', 'timestamps', 'ownership', 'links', 'context', 'xattr', 'all'];

/**
 * cp's `--preserve=LIST` (GNU's attribute list, comma-separated): `timestamps` keeps the times, `mode` the mode (a
 * copy otherwise gets the source's mode less the umask), `all` both, as `-p` does; ownership,
 * links, context and xattr change nothing for a sprite's one user. An item GNU does not know is its argmatch error,
 * exit 1. Returns the arguments with the lists taken out and what they keep.
 */
function preserveLists(args: string[]): { args: string[]; mode: boolean; times: boolean } | ExecResult {
  let mode = false;
  let times = false;
  const rest: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    if (!a.startsWith('--preserve=')) continue;
    for (const item of a.slice('--preserve='.length).split(',')) {
      if (!PRESERVABLE.includes(item)) {
        const valid = PRESERVABLE.map((v) => `  - ‘${v}’\n`).join('');
        return { stdout: '', stderr: `cp: invalid argument ‘${item}’ for ‘--preserve’\nValid arguments are:\n${valid}Try 'cp --help' for more information.\n`, exitCode: 1 };
      }
      if (item === 'timestamps' || item === 'all') times = true;
      if (item === 'mode' || item === 'all') mode = true;
    }
  }
  let options = true;
  for (const a of args) {
    if (a === '--') options = false;
    if (!options || !a.startsWith('--preserve=')) rest.push(a);
  }
  return { args: rest, mode, times };
}

async function cp(given: string[], fs: IFileSystem, cwd: string, run: Run, stdin: () => string, env: Record<string, string | undefined>): Promise<ExecResult> {
  const lists = preserveLists(given);
  if ('exitCode' in lists) return lists;
  const { o, rest: args, error } = takePerFileOptions(lists.args, env);
  if (error) return fail(`cp: ${error}Try 'cp --help' for more information.\n`);
  const { flags, passed, operands: named } = parse(args, 'fTaPi');
  if (lists.mode) flags.add('preserve-mode');
  if (lists.times) flags.add('preserve-times');
  return withQuestions('cp', args, named, flags.has('T'), fs, cwd, stdin, (operands) => copyAs(o, flags, passed, operands, fs, cwd, run));
}

async function copyAs(o: ReturnType<typeof takePerFileOptions>['o'], flags: Set<string>, passed: string[], operands: string[], fs: IFileSystem, cwd: string, run: Run): Promise<ExecResult> {
  if (flags.has('f')) await removeUnwritable(fs, cwd, operands);
  // A copy gets its source's mode less the shell's umask (the filesystem applies it); `-p` and `-a` keep the mode.
  const carrier = fs as { umask?: number };
  const umask = carrier.umask;
  const keepMode = flags.has('p') || flags.has('a') || flags.has('preserve-mode');
  const keepTime = flags.has('p') || flags.has('a') || flags.has('preserve-times');
  if (!keepMode && !keepTime) return copy(o, flags, passed, operands, fs, cwd, run);
  // -p and -a keep the times too: where each source lands is settled before the copy makes the destination.
  const all = o.target !== undefined ? [...operands, o.target] : operands;
  const dest = all[all.length - 1];
  const intoDir = o.target !== undefined || (!flags.has('T') && dest !== undefined && (await statOrNull(fs, fs.resolvePath(cwd, dest)))?.isDirectory === true);
  if (typeof umask === 'number' && keepMode) carrier.umask = 0;
  try {
    const r = await copy(o, flags, passed, operands, fs, cwd, run);
    if (dest !== undefined && keepTime) {
      for (const src of all.slice(0, -1)) {
        const to = intoDir ? `${dest.replace(/\/+$/, '')}/${o.parents ? src.replace(/^\/+/, '') : src.replace(/\/+$/, '').split('/').pop()}` : dest;
        await keepTimes(fs, fs.resolvePath(cwd, src), fs.resolvePath(cwd, to));
      }
    }
    return r;
  } finally {
    if (typeof umask === 'number') carrier.umask = umask;
  }
}

/**
 * GNU cp's `-p` (and `-a`) timestamps: the copy at `to` of each file under `from` gets its source's modification
 * time, a directory after its contents. Symlinks (their own times) and copies that are not there are skipped.
 */
async function keepTimes(fs: IFileSystem, from: string, to: string): Promise<void> {
  const st = await lstatOrNull(fs, from);
  const copied = await lstatOrNull(fs, to);
  if (!st || !copied || st.isSymbolicLink || copied.isSymbolicLink || st.isDirectory !== copied.isDirectory || from === to) return;
  if (st.isDirectory) for (const e of await fs.readdir(from)) await keepTimes(fs, `${from}/${e}`, `${to}/${e}`);
  await fs.utimes(to, accessTime(st), st.mtime);
}

async function copy(o: ReturnType<typeof takePerFileOptions>['o'], flags: Set<string>, passed: string[], operands: string[], fs: IFileSystem, cwd: string, run: Run): Promise<ExecResult> {
  const recursive = flags.has('r') || flags.has('R') || flags.has('a');
  const linkOperand = recursive && (await Promise.all(operands.slice(0, -1).map((x) => lstatOrNull(fs, fs.resolvePath(cwd, x))))).some((st) => st?.isSymbolicLink);
  // -L copies what the links in a tree point at; the recursive copy here copies links as links.
  if (recursive && o.dereference) {
    for (const src of operands.slice(0, -1)) {
      if (await holdsSymlink(fs, fs.resolvePath(cwd, src))) return { stdout: '', stderr: `cp: -L over a tree that holds symbolic links is not available in the shell engine; ${SANDBOX_HINT}\n`, exitCode: 2 };
    }
  }
  const missing = o.target === undefined ? missingOperand('cp', operands) : null;
  if (missing) return missing;
  if (needsPerFile(o, operands) || (linkOperand && !flags.has('T'))) {
    return perFile('cp', o, [...passed, ...(flags.has('a') ? ['-r', '-p'] : [])], operands, fs, cwd, run);
  }
  const early = (await destinationProblem('cp', fs, cwd, operands, recursive, flags.has('T'))) ?? (await sameFileOperands('cp', fs, cwd, operands));
  if (early) return early;
  const opts = [...passed, ...(flags.has('a') ? ['-r', '-p'] : [])];
  const noDeref = flags.has('P') || flags.has('a');
  if (noDeref) {
    // Symlinks are copied as links: one operand that is a link is made here; links in a tree are copied as links
    // by the recursive copy.
    if (operands.length === 2) {
      const st = await lstatOrNull(fs, fs.resolvePath(cwd, operands[0]!));
      if (st?.isSymbolicLink) {
        const destSt = await statOrNull(fs, fs.resolvePath(cwd, operands[1]!));
        const to = destSt?.isDirectory ? `${operands[1]!.replace(/\/+$/, '')}/${operands[0]!.split('/').pop()}` : operands[1]!;
        if (await lstatOrNull(fs, fs.resolvePath(cwd, to))) await fs.rm(fs.resolvePath(cwd, to));
        await fs.symlink(await fs.readlink(fs.resolvePath(cwd, operands[0]!)), fs.resolvePath(cwd, to));
        return { stdout: '', stderr: '', exitCode: 0 };
      }
    }
  }
  if (flags.has('T')) return noTargetDirectory('cp', fs, cwd, operands, opts, run);
  if (recursive) {
    const itself = await copyIntoItself(fs, cwd, operands, opts, run);
    if (itself) return itself;
  }
  return run(argv(opts, operands));
}

/** Whether the tree at `p` is or holds a symbolic link. */
async function holdsSymlink(fs: IFileSystem, p: string): Promise<boolean> {
  const st = await lstatOrNull(fs, p);
  if (!st) return false;
  if (st.isSymbolicLink) return true;
  if (!st.isDirectory) return false;
  for (const e of await fs.readdir(p)) if (await holdsSymlink(fs, `${p}/${e}`)) return true;
  return false;
}

/**
 * `-T`: DEST is never a directory to copy or move into. A missing DEST is the plain case; an existing directory
 * DEST takes SRC's contents (cp -rT) or is replaced when empty (mv -T); a type mismatch is GNU's error.
 */
async function noTargetDirectory(cmd: 'cp' | 'mv', fs: IFileSystem, cwd: string, operands: string[], opts: string[], run: Run): Promise<ExecResult> {
  if (operands.length !== 2) {
    return missingOperand(cmd, operands) ?? fail(`${cmd}: extra operand '${operands[2]}'\nTry '${cmd} --help' for more information.\n`);
  }
  const [src, dest] = operands as [string, string];
  const srcSt = await statOrNull(fs, fs.resolvePath(cwd, src));
  const destSt = await statOrNull(fs, fs.resolvePath(cwd, dest));
  if (!srcSt) return fail(`${cmd}: cannot stat '${src}': No such file or directory\n`);
  if (!destSt) return run(argv(opts, [src, dest]));
  if (destSt.isDirectory && !srcSt.isDirectory) return fail(`${cmd}: cannot overwrite directory '${dest}' with non-directory\n`);
  if (!destSt.isDirectory && srcSt.isDirectory) return fail(`${cmd}: cannot overwrite non-directory '${dest}' with directory '${src}'\n`);
  if (!destSt.isDirectory) return run(argv(opts, [src, dest]));
  const children = await fs.readdir(fs.resolvePath(cwd, src));
  if (cmd === 'mv') {
    if ((await fs.readdir(fs.resolvePath(cwd, dest))).length > 0) return fail(`mv: cannot move '${src}' to '${dest}': Directory not empty\n`);
    await fs.rm(fs.resolvePath(cwd, dest), { recursive: true });
    return run(argv(opts, [src, dest]));
  }
  if (!opts.some((o) => /^-[a-zA-Z]*[rR]/.test(o) || o === '--recursive')) return fail(`cp: -r not specified; omitting directory '${src}'\n`);
  if (children.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  return run(argv(opts, [...children.map((c) => `${src.replace(/\/+$/, '')}/${c}`), dest]));
}

async function mv(all: string[], fs: IFileSystem, cwd: string, run: Run, stdin: () => string, env: Record<string, string | undefined>): Promise<ExecResult> {
  const { o, rest: args, error } = takePerFileOptions(all, env);
  if (error) return fail(`mv: ${error}Try 'mv --help' for more information.\n`);
  // mv takes the last of -f, -i and -n (coreutils mv.c): -n before -f or -i does not hold
  o.noClobber = lastOverwriteChoice(all, 'inf') === 'n';
  if (o.symlink || o.hardlink || o.dereference || o.parents) {
    const bad = all.find((a) => /^-[a-zA-Z]*[slL]/.test(a) || a === '--parents') ?? '';
    return fail(bad.startsWith('--') ? `mv: unrecognized option '${bad}'\nTry 'mv --help' for more information.\n` : `mv: invalid option -- '${bad.match(/[slL]/)?.[0] ?? ''}'\nTry 'mv --help' for more information.\n`);
  }
  const { flags, passed, operands: named } = parse(args, 'fTi');
  return withQuestions('mv', args, named, flags.has('T'), fs, cwd, stdin, (operands) => move(o, flags, passed, operands, fs, cwd, run));
}

async function move(o: ReturnType<typeof takePerFileOptions>['o'], flags: Set<string>, passed: string[], operands: string[], fs: IFileSystem, cwd: string, run: Run): Promise<ExecResult> {
  const missing = o.target === undefined ? missingOperand('mv', operands) : null;
  if (missing) return missing;
  if (needsPerFile(o, operands)) return perFile('mv', o, passed, operands, fs, cwd, run);
  const early = await destinationProblem('mv', fs, cwd, operands, true, flags.has('T'));
  if (early) return early;
  // GNU mv looks at -n before anything else about an existing destination: the same file named twice is left
  // alone without a word, status 0 (coreutils 9.1).
  if (operands.length === 2 && o.noClobber && (await lstatOrNull(fs, fs.resolvePath(cwd, operands[1]!)))) {
    const [a, b] = await Promise.all(operands.map((x) => lstatOrNull(fs, fs.resolvePath(cwd, x))));
    if (a && b && !b.isDirectory && (fs.resolvePath(cwd, operands[0]!) === fs.resolvePath(cwd, operands[1]!) || sameFile(a, b))) return { stdout: '', stderr: '', exitCode: 0 };
  }
  if (operands.length === 2 && fs.resolvePath(cwd, operands[0]!) === fs.resolvePath(cwd, operands[1]!) && (await lstatOrNull(fs, fs.resolvePath(cwd, operands[0]!)))) {
    return fail(`mv: '${operands[0]}' and '${operands[1]}' are the same file\n`);
  }
  const same = await sameFileOperands('mv', fs, cwd, operands);
  if (same) return same;
  if (flags.has('T')) return noTargetDirectory('mv', fs, cwd, operands, passed, run);
  return run(argv(passed, operands));
}

/** Names of this module's commands. */
export const COPY_MOVE_COMMAND_NAMES: readonly string[] = ['cp', 'mv'];

/** `cp` and `mv` for just-bash's `customCommands` (each hands the rest to just-bash's own). */
export function copyMoveCommands(): CustomCommand[] {
  return [
    defineCommand('cp', (args, ctx) => cp(args, ctx.fs, ctx.cwd, async (a) => permissionMessages('cp', await ctx.origCommand!(a), ctx.fs, ctx.cwd, a[a.length - 1] ?? ''), () => decodeBytesToUtf8(ctx.stdin), ctx.exportedEnv ?? Object.fromEntries(ctx.env))),
    defineCommand('mv', (args, ctx) => mv(args, ctx.fs, ctx.cwd, async (a) => permissionMessages('mv', await ctx.origCommand!(a), ctx.fs, ctx.cwd, a[a.length - 1] ?? ''), () => decodeBytesToUtf8(ctx.stdin), ctx.exportedEnv ?? Object.fromEntries(ctx.env))),
  ];
}
