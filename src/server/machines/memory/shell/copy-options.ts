/**
 * The `cp`/`mv` options that decide per file what happens, done one source at a time over just-bash's plain copy:
 * `-t DIR`, `-u` (only when the source is newer), `-b`/`-S` (keep the replaced file as `NAME~`), `-v` (GNU's
 * lines, one per file copied), `--parents`, `cp -s` (symlinks) and `cp -l` (hard links), `cp -r` copying a symlink
 * operand as a link, `cp --attributes-only`, and `/dev/null` as source or destination. copy-move.ts decides when to come here.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/cp-invocation.html, mv-invocation.html
 */
import type { ExecResult, FsStat, IFileSystem } from 'just-bash';
import { OrderedOutput } from './output-order.ts';
import { localeQuote } from './gnu-quote.ts';

type Run = (args: string[]) => Promise<ExecResult>;

/** What this module takes out of a `cp`/`mv` command line. */
export interface PerFileOptions {
  target?: string;
  update: boolean;
  /** `-n`/`--no-clobber`: an existing destination is left alone, silently (GNU 9.1 prints nothing even with -v). */
  noClobber: boolean;
  backup: boolean;
  /** GNU's version control: `simple` (`F~`), `numbered` (`F.~N~`), `existing` (numbered when F has such backups). */
  control: 'simple' | 'numbered' | 'existing';
  suffix: string;
  verbose: boolean;
  parents: boolean;
  symlink: boolean;
  hardlink: boolean;
  dereference: boolean;
  /** `cp --attributes-only`: files get the source's attributes, never its data (new ones are empty). */
  attributesOnly: boolean;
}

/**
 * The suffix of the backup `cp -b`/`mv -b` makes of `abs`: `.~N~` one past the highest numbered backup when the
 * control is `numbered`, or `existing` and such a backup exists; else the simple suffix (`~`, `-S`).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Backup-options.html
 */
export async function backupSuffix(fs: IFileSystem, abs: string, o: Pick<PerFileOptions, 'control' | 'suffix'>): Promise<string> {
  if (o.control === 'simple') return o.suffix;
  const slash = abs.lastIndexOf('/');
  const name = abs.slice(slash + 1);
  const names = await fs.readdir(abs.slice(0, slash) || '/').catch(() => [] as string[]);
  let highest = 0;
  for (const n of names) {
    const m = n.startsWith(`${name}.~`) ? /^\.~(\d+)~$/.exec(n.slice(name.length)) : null;
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  return o.control === 'numbered' || highest > 0 ? `.~${highest + 1}~` : o.suffix;
}

const CONTROLS: Array<[string, PerFileOptions['control'] | 'none']> = [
  ['none', 'none'], ['off', 'none'], ['simple', 'simple'], ['never', 'simple'], ['existing', 'existing'], ['nil', 'existing'], ['numbered', 'numbered'], ['t', 'numbered'],
];

/**
 * GNU's version control named by `word` (`--backup=WORD` or `$VERSION_CONTROL`; `context` names which in an error):
 * its names or an unambiguous abbreviation of them (argmatch), `existing` when `word` is empty or absent; `none`
 * makes no backup. An unknown or ambiguous word is GNU's error text (lines for stderr, then the usage hint).
 * @see https://www.gnu.org/software/coreutils/manual/html_node/Backup-options.html; gnulib backupfile.c, argmatch.c
 */
export function versionControl(word: string | undefined, context: string, env: Record<string, string | undefined> = {}): { control: PerFileOptions['control'] | 'none' } | { error: string } {
  if (!word) return { control: 'existing' };
  const exact = CONTROLS.find(([name]) => name === word);
  if (exact) return { control: exact[1] };
  const found = new Set(CONTROLS.filter(([name]) => name.startsWith(word)).map(([, c]) => c));
  if (found.size === 1) return { control: [...found][0]! };
  // The locale's quotes (‘’ in a UTF-8 one), as gnulib's quote().
  const q = (t: string) => localeQuote(new Map(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)), t);
  const list = `Valid arguments are:\n  - ${q('none')}, ${q('off')}\n  - ${q('simple')}, ${q('never')}\n  - ${q('existing')}, ${q('nil')}\n  - ${q('numbered')}, ${q('t')}\n`;
  return { error: `${found.size === 0 ? 'invalid' : 'ambiguous'} argument ${q(word)} for ${q(context)}\n${list}` };
}

/** The simple backup suffix: `-S`'s, else `$SIMPLE_BACKUP_SUFFIX` when it is a plain name, else `~` (gnulib). */
export function simpleSuffix(given: string | undefined, env: Record<string, string | undefined>): string {
  const s = given ?? env.SIMPLE_BACKUP_SUFFIX;
  return s && !s.includes('/') ? s : '~';
}

/**
 * Options of `args` this module handles, and the rest (options and operands, in order); `env` gives
 * `$VERSION_CONTROL` and `$SIMPLE_BACKUP_SUFFIX` to -b. `error` is GNU's text for a bad backup control (lines for stderr).
 */
export function takePerFileOptions(args: string[], env: Record<string, string | undefined> = {}): { o: PerFileOptions; rest: string[]; error?: string } {
  let controlWord: string | undefined;
  let suffix: string | undefined;
  const o: PerFileOptions = { update: false, noClobber: false, backup: false, control: 'existing', suffix: '~', verbose: false, parents: false, symlink: false, hardlink: false, dereference: false, attributesOnly: false };
  const rest: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!options || a === '-' || !a.startsWith('-')) {
      rest.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      rest.push(a);
    } else if (a === '--target-directory' || a.startsWith('--target-directory=')) o.target = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
    else if (a === '--update' || a.startsWith('--update=')) o.update = a !== '--update=all';
    else if (a === '--backup' || a.startsWith('--backup=')) {
      o.backup = true;
      if (a.includes('=')) controlWord = a.slice(a.indexOf('=') + 1);
    }
    else if (a.startsWith('--suffix=')) (suffix = a.slice(9)), (o.backup = true);
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--no-clobber') (o.noClobber = true), rest.push(a);
    else if (a === '--parents') o.parents = true;
    else if (a === '--symbolic-link') o.symlink = true;
    else if (a === '--link') o.hardlink = true;
    else if (a === '--dereference') o.dereference = true;
    else if (a === '--attributes-only') o.attributesOnly = true;
    else if (a.startsWith('--')) rest.push(a);
    else {
      let kept = '';
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 't' || c === 'S') {
          const v = a.slice(j + 1) || args[++i];
          if (c === 't') o.target = v;
          else (suffix = v), (o.backup = true);
          break;
        }
        if (c === 'u') o.update = true;
        else if (c === 'n') (o.noClobber = true), (kept += c);
        else if (c === 'b') o.backup = true;
        else if (c === 'v') o.verbose = true;
        else if (c === 's') o.symlink = true;
        else if (c === 'l') o.hardlink = true;
        else if (c === 'L') o.dereference = true;
        else if (c === 'd') kept += 'P';
        else kept += c;
      }
      if (kept) rest.push(`-${kept}`);
    }
  }
  if (o.backup) {
    const vc = versionControl(controlWord ?? env.VERSION_CONTROL, controlWord !== undefined ? 'backup type' : '$VERSION_CONTROL', env);
    if ('error' in vc) return { o, rest, error: vc.error };
    if (vc.control === 'none') o.backup = false;
    else o.control = vc.control;
    o.suffix = simpleSuffix(suffix, env);
  }
  return { o, rest };
}

/** Whether the command line needs this module (else just-bash's command runs it whole). */
export function needsPerFile(o: PerFileOptions, operands: string[]): boolean {
  return o.target !== undefined || o.update || o.backup || o.verbose || o.parents || o.symlink || o.hardlink || o.dereference || o.attributesOnly || operands.includes('/dev/null');
}

const safe = async <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);
const base = (p: string) => p.replace(/\/+$/, '').slice(p.replace(/\/+$/, '').lastIndexOf('/') + 1);

/** GNU's `-v` lines of a copy of `src` to `dest`: the operand, then with -r every file below it. */
async function verboseLines(fs: IFileSystem, cwd: string, src: string, dest: string, st: FsStat, recursive: boolean): Promise<string> {
  let out = `'${src}' -> '${dest}'\n`;
  if (!st.isDirectory || !recursive) return out;
  for (const name of await fs.readdir(fs.resolvePath(cwd, src))) {
    const child = `${src.replace(/\/+$/, '')}/${name}`;
    const cst = await safe(fs.lstat(fs.resolvePath(cwd, child)));
    if (cst) out += await verboseLines(fs, cwd, child, `${dest.replace(/\/+$/, '')}/${name}`, cst, true);
  }
  return out;
}

/**
 * GNU's refusal of fewer than two operands, `operands` being the sources and destination (a `-t` directory not
 * among them): `cp: missing file operand` with none, `cp: missing destination file operand after 'a'` with one,
 * then the `Try` line; status 1. Null when there are two or more.
 */
export function missingOperand(cmd: 'cp' | 'mv', operands: string[]): ExecResult | null {
  if (operands.length >= 2) return null;
  const what = operands.length === 0 ? 'missing file operand' : `missing destination file operand after '${operands[0]}'`;
  return { stdout: '', stderr: `${cmd}: ${what}\nTry '${cmd} --help' for more information.\n`, exitCode: 1 };
}

/**
 * The refusal of several sources whose last operand is not a directory, as GNU coreutils 9 words it (its
 * target_directory_operand): `cp: target 'd/': No such file or directory` when DEST is missing, `…: Not a directory`
 * when it is a file (coreutils 8 and just-bash said `target 'd' is not a directory` for both). Status 1.
 */
export function notDirectoryTarget(cmd: 'cp' | 'mv', dest: string, exists: boolean): ExecResult {
  return { stdout: '', stderr: `${cmd}: target '${dest}': ${exists ? 'Not a directory' : 'No such file or directory'}\n`, exitCode: 1 };
}

/**
 * Runs `cmd` one source at a time: `opts` are the options still for just-bash's command (`-r`, `-p`, `-P`…),
 * `operands` the sources and destination (the `-t` directory already appended).
 */
export async function perFile(cmd: 'cp' | 'mv', o: PerFileOptions, opts: string[], operands: string[], fs: IFileSystem, cwd: string, run: Run): Promise<ExecResult> {
  const all = o.target !== undefined ? [...operands, o.target] : operands;
  if (all.length < 2) return missingOperand(cmd, operands.length === 0 ? [] : all)!;
  const dest = all[all.length - 1]!;
  const sources = all.slice(0, -1);
  const destSt = await safe(fs.stat(fs.resolvePath(cwd, dest)));
  const intoDir = destSt?.isDirectory === true && dest !== '/dev/null';
  if (o.target !== undefined && !intoDir) {
    return { stdout: '', stderr: `${cmd}: target directory '${o.target}': ${destSt ? 'Not a directory' : 'No such file or directory'}\n`, exitCode: 1 };
  }
  if (!intoDir && (sources.length > 1 || o.parents)) {
    return o.parents && sources.length === 1 ? { stdout: '', stderr: `${cmd}: with --parents, the destination must be a directory\nTry '${cmd} --help' for more information.\n`, exitCode: 1 } : notDirectoryTarget(cmd, dest, destSt !== null);
  }
  const recursive = opts.some((x) => /^-[a-zA-Z]*[rRa]/.test(x) || x === '--recursive' || x === '--archive');
  // GNU cp and mv report through error(), which flushes what -v printed so far: program order.
  const text = new OrderedOutput();
  for (const src of sources) {
    const to = !intoDir ? dest : `${dest.replace(/\/+$/, '')}/${o.parents ? src.replace(/^\/+/, '') : base(src)}`;
    const srcAbs = fs.resolvePath(cwd, src);
    const toAbs = fs.resolvePath(cwd, to);
    const srcSt = src === '/dev/null' ? null : await safe(cmd === 'mv' || (!o.dereference && recursive) ? fs.lstat(srcAbs) : fs.stat(srcAbs));
    if (!srcSt && src !== '/dev/null') {
      text.err(`${cmd}: cannot stat '${src}': No such file or directory\n`);
      continue;
    }
    if (to === '/dev/null') continue; // written to the null device: nothing kept
    const old = await safe(fs.lstat(toAbs));
    if (o.noClobber && old) continue;
    if (o.update && old && srcSt && old.mtime.getTime() >= srcSt.mtime.getTime()) continue;
    let backup = '';
    if (o.backup && old && !old.isDirectory) {
      const suffix = await backupSuffix(fs, toAbs, o);
      await fs.mv(toAbs, `${toAbs}${suffix}`);
      backup = ` (backup: '${to}${suffix}')`;
    }
    if (o.parents) await fs.mkdir(toAbs.slice(0, toAbs.lastIndexOf('/')) || '/', { recursive: true });
    let r: ExecResult;
    if (src === '/dev/null') {
      await fs.writeFile(toAbs, new Uint8Array(0));
      r = { stdout: '', stderr: '', exitCode: 0 };
    } else if (cmd === 'cp' && o.hardlink && srcSt!.isDirectory && !recursive) {
      r = { stdout: '', stderr: `cp: -r not specified; omitting directory '${src}'\n`, exitCode: 1 };
    } else if (cmd === 'cp' && (o.symlink || o.hardlink)) {
      r = await linkInstead(fs, cwd, src, to, o.symlink, !!old && !o.backup);
    } else if (cmd === 'cp' && srcSt!.isSymbolicLink && !o.dereference) {
      // -r (and -P, -d) copy a symlink operand as a link.
      if (old && !o.backup) await fs.rm(toAbs);
      await fs.symlink(await fs.readlink(srcAbs), toAbs);
      r = { stdout: '', stderr: '', exitCode: 0 };
    } else {
      const before = o.attributesOnly ? await regularFiles(fs, toAbs) : undefined;
      r = await run([...opts, ...(src.startsWith('-') || to.startsWith('-') ? ['--'] : []), src, to]);
      if (before) await keepData(fs, toAbs, before, opts.some((x) => /^-[a-zA-Z]*[pa]/.test(x) || x === '--archive' || x.startsWith('--preserve')));
    }
    text.err(r.stderr);
    if (r.exitCode !== 0) continue;
    if (o.verbose) text.out(cmd === 'mv' ? `renamed '${src}' -> '${to}'${backup}\n` : (await verboseLines(fs, cwd, src, to, srcSt ?? ({ isDirectory: false } as FsStat), recursive)).replace(/\n$/, `${backup}\n`));
  }
  return text.result(text.stderr ? 1 : 0, 'before-errors');
}

/** `cp -s` / `cp -l`: a symlink (an absolute or same-directory source) or a hard link instead of a copy. */
async function linkInstead(fs: IFileSystem, cwd: string, src: string, to: string, symbolic: boolean, replace: boolean): Promise<ExecResult> {
  const toAbs = fs.resolvePath(cwd, to);
  const kind = symbolic ? 'symbolic link' : 'hard link';
  if (await safe(fs.lstat(toAbs))) {
    if (!replace) return { stdout: '', stderr: `cp: cannot create ${kind} '${to}' to '${src}': File exists\n`, exitCode: 1 };
    await fs.rm(toAbs);
  }
  if (symbolic) {
    if (!src.startsWith('/') && to.includes('/')) return { stdout: '', stderr: `cp: ${to}: can make relative symbolic links only in current directory\n`, exitCode: 1 };
    await fs.symlink(src, toAbs);
  } else await linkTree(fs, fs.resolvePath(cwd, src), toAbs);
  return { stdout: '', stderr: '', exitCode: 0 };
}

/**
 * `cp -l` (with `-r`/`-a` for a directory): each directory is made anew (with its source's mode, as `cp -a` keeps
 * it), everything else becomes another name of its source (a symlink inside is linked itself, as `-P` copies it).
 */
async function linkTree(fs: IFileSystem, src: string, dest: string): Promise<void> {
  const st = await fs.lstat(src);
  if (!st.isDirectory) {
    await fs.link(src, dest);
    return;
  }
  await fs.mkdir(dest);
  for (const name of await fs.readdir(src)) await linkTree(fs, `${src.replace(/\/+$/, '')}/${name}`, `${dest}/${name}`);
  await fs.chmod(dest, st.mode & 0o7777);
}

/** The regular files at or below `abs` (not following links), with their data and modification time. */
async function regularFiles(fs: IFileSystem, abs: string, into = new Map<string, { data: Uint8Array; mtime: Date }>()): Promise<Map<string, { data: Uint8Array; mtime: Date }>> {
  const st = await safe(fs.lstat(abs));
  if (st?.isFile) into.set(abs, { data: await fs.readFileBuffer(abs), mtime: st.mtime });
  else if (st?.isDirectory) for (const name of await fs.readdir(abs)) await regularFiles(fs, `${abs.replace(/\/+$/, '')}/${name}`, into);
  return into;
}

/**
 * After a copy to `abs` under `cp --attributes-only`: each regular file there gets back the data it had `before`
 * the copy, or none if the copy made it. GNU never writes the data, so a file that existed keeps its modification
 * time too, unless the copy preserved the source's (`-p`, `-a`); a new one keeps the time the copy gave it.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/cp-invocation.html (`--attributes-only`)
 */
async function keepData(fs: IFileSystem, abs: string, before: Map<string, { data: Uint8Array; mtime: Date }>, preserved: boolean): Promise<void> {
  for (const [path, now] of await regularFiles(fs, abs)) {
    const old = before.get(path);
    await fs.writeFile(path, old?.data ?? new Uint8Array(0));
    const mtime = old && !preserved ? old.mtime : now.mtime;
    await fs.utimes(path, mtime, mtime);
  }
}
