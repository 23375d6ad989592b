/**
 * GNU `rm` over the sprite's filesystem: links removed themselves, `-r`, `-d`, `-f`, `-v`, `-i`/`-I` with their
 * prompts answered from stdin, `--preserve-root`. Messages as GNU rm's.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/rm-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult, type IFileSystem, type FsStat } from 'just-bash';
import { strerror } from './errno-text.ts';
import { unsupported } from './gnu-commands.ts';
import { OrderedOutput } from './output-order.ts';
import { AnswerLines } from './inherited-stdin.ts';

const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr, exitCode });

/** `rm` for just-bash's `customCommands`: its prompts read the command's stdin a line per answer. */
export function rmCommand(): CustomCommand {
  return defineCommand('rm', (args, ctx) => rm(args, ctx.fs, ctx.cwd, () => String(ctx.stdin ?? '')));
}

/** How GNU rm names a file in a prompt: `regular file`, `regular empty file`, `directory`, `symbolic link`. */
function kindOf(st: FsStat): string {
  return st.isSymbolicLink ? 'symbolic link' : st.isDirectory ? 'directory' : st.size === 0 ? 'regular empty file' : 'regular file';
}

/**
 * What became of an entry `rm -ri` walked: `gone`; `declined` (the user said no to removing it: its directory is
 * still asked about, and then cannot go); `kept` (it, or something below it, stays for good: a descent or an empty
 * directory declined, or a removal that failed), so no directory above it is asked about. GNU rm's remove.c
 * (prompt, excise, mark_ancestor_dirs).
 */
type Walked = 'gone' | 'declined' | 'kept';

/**
 * `rm -ri` of `path` (shown as `name`), asking as GNU rm asks while fts walks the tree: `descend into directory 'd'?`
 * for a directory that is not empty, `remove directory 'd'?` for an empty one, `remove regular file 'f'?` (and the
 * other kinds) for the rest, and `remove directory 'd'?` again once a directory's entries are done, unless one was
 * kept. `walk.failed` is set when a removal failed (rm then exits 1). Entries are walked in name order.
 */
/**
 * The name GNU rm reports for a refused removal: the entry below the operand that the filesystem refused (`rm -r d`
 * in a 0555 `d`: `cannot remove 'd/f'`), as the operand was written, else the operand.
 */
function refusedName(err: unknown, abs: string, name: string): string {
  const at = (err as { path?: string }).path;
  if (typeof at !== 'string' || !at.startsWith(`${abs.replace(/\/+$/, '')}/`)) return name;
  return `${name.replace(/\/+$/, '')}${at.slice(abs.replace(/\/+$/, '').length)}`;
}

async function removeAsking(
  fs: IFileSystem,
  path: string,
  name: string,
  ask: () => boolean,
  text: OrderedOutput,
  verbose: boolean,
  walk: { failed: boolean },
): Promise<Walked> {
  const st = await fs.lstat(path);
  const entries = st.isDirectory ? [...(await fs.readdir(path))].sort() : [];
  if (entries.length > 0) {
    text.prompt(`rm: descend into directory '${name}'? `);
    if (!ask()) return 'kept';
    let kept = false;
    for (const entry of entries) {
      kept = (await removeAsking(fs, `${path}/${entry}`, `${name.replace(/\/+$/, '')}/${entry}`, ask, text, verbose, walk)) === 'kept' || kept;
    }
    if (kept) return 'kept';
  }
  text.prompt(`rm: remove ${kindOf(st)} '${name}'? `);
  if (!ask()) return st.isDirectory && entries.length === 0 ? 'kept' : 'declined';
  try {
    await fs.rm(path, { recursive: false, force: false });
  } catch (err) {
    text.err(`rm: cannot remove '${name}': ${strerror(err)}\n`);
    walk.failed = true;
    return 'kept';
  }
  if (verbose) text.out(`removed ${st.isDirectory ? 'directory ' : ''}'${name}'\n`);
  return 'gone';
}

/**
 * `rm -r` of the tree at `path` (shown as `name`) as GNU rm's fts walk does it: each entry in name order (a sprite's
 * readdir order is the filesystem's; name order is the one every run repeats), a directory after its contents. An
 * entry that cannot be removed is reported and the walk goes on with the rest; the directories above it are then
 * left alone (they cannot be empty: GNU's mark_ancestor_dirs), so each failure is reported once. Symlinks are not
 * followed. `-v` names every entry removed, as it goes. Returns whether anything was kept.
 */
async function removeTree(fs: IFileSystem, path: string, name: string, text: OrderedOutput, verbose: boolean): Promise<boolean> {
  const st = await fs.lstat(path);
  let kept = false;
  if (st.isDirectory) {
    let entries: string[];
    try {
      entries = [...(await fs.readdir(path))].sort();
    } catch (err) {
      // A directory it cannot read is removed all the same when it is empty (fts's FTS_DNR: rmdir is tried); when
      // that fails too, the read's error is the one reported.
      try {
        await fs.rm(path, { recursive: false, force: false });
      } catch {
        text.err(`rm: cannot remove '${name}': ${strerror(err)}\n`);
        return true;
      }
      if (verbose) text.out(`removed directory '${name}'\n`);
      return false;
    }
    for (const entry of entries) kept = (await removeTree(fs, `${path}/${entry}`, `${name.replace(/\/+$/, '')}/${entry}`, text, verbose)) || kept;
    if (kept) return true;
  }
  try {
    await fs.rm(path, { recursive: false, force: false });
  } catch (err) {
    text.err(`rm: cannot remove '${name}': ${strerror(err)}\n`);
    return true;
  }
  if (verbose) text.out(`removed ${st.isDirectory ? 'directory ' : ''}'${name}'\n`);
  return false;
}

/**
 * `rm [-rRfvdiI] [--] FILE…` over `fs`: a symlink operand is removed itself (lstat, never followed), a directory
 * needs `-r` (or `-d` when empty), a missing operand is an error unless `-f`. `-i` asks on stderr before each
 * operand and `-I` once (over three operands, or with `-r`), reading one line of stdin per answer (no stdin: no). Messages as GNU rm's; exit 1 on any
 * failure, after trying every operand.
 */
async function rm(args: string[], fs: IFileSystem, cwd: string, stdin: () => string): Promise<ExecResult> {
  let recursive = false;
  let prompt: 'never' | 'each' | 'once' = 'never';
  const answers = new AnswerLines(stdin);
  // An answer is one line of stdin; yes when it starts with y or Y (none left: no).
  const ask = () => /^[yY]/.test(answers.shift() ?? '');
  let force = false;
  let verbose = false;
  let emptyDirs = false;
  let preserveRoot = true;
  const operands: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (options && a.startsWith('--')) {
      if (a === '--recursive') recursive = true;
      else if (a === '--force') force = true;
      else if (a === '--verbose') verbose = true;
      else if (a === '--dir') emptyDirs = true;
      else if (a === '--preserve-root') preserveRoot = true;
      else if (a === '--no-preserve-root') preserveRoot = false;
      else if (a === '--interactive' || a === '--interactive=always') prompt = 'each';
      else if (a === '--interactive=once') prompt = 'once';
      else if (a === '--interactive=never') prompt = 'never';
      else return fail(`rm: unrecognized option '${a}'\n`);
    } else if (options && a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (c === 'r' || c === 'R') recursive = true;
        else if (c === 'f') force = true;
        else if (c === 'v') verbose = true;
        else if (c === 'd') emptyDirs = true;
        else if (c === 'i') prompt = 'each';
        else if (c === 'I') prompt = 'once';
        else return fail(`rm: invalid option -- '${c}'\n`);
      }
    } else operands.push(a);
  }
  if (operands.length === 0) return force ? ok('') : fail("rm: missing operand\nTry 'rm --help' for more information.\n");
  // GNU rm reports through error(), which flushes what -v printed so far: program order.
  const text = new OrderedOutput();
  let exitCode = 0;
  if (force && prompt === 'each') prompt = 'never';
  if (prompt === 'once' && (operands.length > 3 || recursive)) {
    const n = operands.length;
    text.prompt(`rm: remove ${n} argument${n === 1 ? '' : 's'}${recursive ? ' recursively' : ''}? `);
    if (!ask()) return text.result(exitCode, 'before-errors');
  }
  for (const name of operands) {
    if (prompt === 'each') {
      const st = await fs.lstat(fs.resolvePath(cwd, name)).catch(() => null);
      if (st?.isDirectory && recursive && !/(^|\/)\.\.?\/*$/.test(name)) {
        const walk = { failed: false };
        await removeAsking(fs, fs.resolvePath(cwd, name), name, ask, text, verbose, walk);
        if (walk.failed) exitCode = 1;
        continue;
      }
      if (st) {
        text.prompt(`rm: remove ${kindOf(st)} '${name}'? `);
        if (!ask()) continue;
      }
    }
    // GNU rm: with -r it refuses `.` and `..` as the last component, and `/` unless --no-preserve-root.
    if (recursive && /(^|\/)\.\.?\/*$/.test(name)) {
      text.err(`rm: refusing to remove '.' or '..' directory: skipping '${name}'\n`);
      exitCode = 1;
      continue;
    }
    if (name !== '' && fs.resolvePath(cwd, name) === '/' && recursive) {
      if (!preserveRoot) return unsupported('rm', "--no-preserve-root of '/'");
      text.err(`rm: it is dangerous to operate recursively on '${name}'\nrm: use --no-preserve-root to override this failsafe\n`);
      exitCode = 1;
      continue;
    }
    try {
      // An empty operand names no file (bash passes it on; resolving it would name the working directory).
      if (name === '') throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      const p = fs.resolvePath(cwd, name);
      // The entry itself, even where `name/` would follow a symlink: the slash is weighed just below.
      const st = await fs.lstat(p.replace(/([^/])\/+$/, '$1'));
      // `name/` goes through a symlink (or needs a directory): a link to a directory is a directory rm refuses
      // without -r, and whose contents -r removes before failing on the link itself, as GNU's unlinkat does.
      if (/[^/]\/+$/.test(name) && (st.isSymbolicLink || !st.isDirectory)) {
        const target = st.isSymbolicLink ? await fs.stat(p).catch(() => null) : st;
        const notDir = () => Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
        if (!target?.isDirectory) throw notDir();
        if (!recursive) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
        for (const e of await fs.readdir(p)) await fs.rm(`${p}/${e}`, { recursive: true, force: true });
        throw notDir();
      }
      if (st.isDirectory && !recursive) {
        // -d removes a directory as rmdir(2) does: one that is not empty is ENOTEMPTY (GNU rm's unlinkat AT_REMOVEDIR).
        if (!emptyDirs) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
        if ((await fs.readdir(p)).length > 0) throw Object.assign(new Error('directory not empty'), { code: 'ENOTEMPTY' });
      }
      if (st.isDirectory && recursive) {
        if (await removeTree(fs, p, name, text, verbose)) exitCode = 1;
        continue;
      }
      await fs.rm(p, { recursive: false, force });
      if (verbose) text.out(`removed ${st.isDirectory ? 'directory ' : ''}'${name}'\n`);
    } catch (err) {
      // -f takes a name that names nothing as GNU's does: missing (ENOENT), or `f/` after a file (ENOTDIR).
      const code = (err as { code?: string }).code;
      if (force && (code === 'ENOENT' || code === 'ENOTDIR')) continue;
      text.err(`rm: cannot remove '${refusedName(err, name === '' ? '' : fs.resolvePath(cwd, name), name)}': ${strerror(err)}\n`);
      exitCode = 1;
    }
  }
  return text.result(exitCode, 'before-errors');
}
