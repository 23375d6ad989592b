/**
 * The subcommands of the shell engine's `git` that move between states: `init`, `branch`, `checkout`/`switch`,
 * `restore`, `reset`, `tag`, `rev-parse` and `ls-files`. Switching commits rewrites only the paths that differ
 * between the two trees and refuses, as git does, when that would lose a local change or an untracked file.
 * @see https://git-scm.com/docs/git-checkout, git-switch, git-restore, git-reset, git-branch, git-tag, git-rev-parse
 */
import git from 'isomorphic-git';
import { configValue } from './git-config.ts';
import {
  blobId, commitFiles, currentBranch, die, findRepo, GitExit, headCommit, inSpecs, print, readCommit, readIndex, refuse, splitShort,
  quotePath, relative, repoPath, resolveCommit, sortedPaths, workBytes, writeIndex, type Flat, type GitRun, type Repo,
  unknownRevision,
} from './git-repo.ts';
import { snapshot, stagedPairs, unstagedPairs, type Snapshot } from './git-status.ts';
import { specsOf } from './git-work.ts';

const INIT_HINT = `hint: Using 'master' as the name for the initial branch. This default branch name
hint: is subject to change. To configure the initial branch name to use in all
hint: of your new repositories, which will suppress this warning, call:
hint: 
hint: 	git config --global init.defaultBranch <name>
hint: 
hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and
hint: 'development'. The just-created branch can be renamed via this command:
hint: 
hint: 	git branch -m <name>
`;

/** The `.git` files `git init` writes besides objects and refs (git's default template, without the sample hooks). */
const INIT_FILES: Array<[string, string]> = [
  ['config', '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n'],
  ['description', "Unnamed repository; edit this file 'description' to name the repository.\n"],
  ['info/exclude', "# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n# For a project mostly in C, the following would be a good set of\n# exclude patterns (uncomment them if you want to use them):\n# *.[oa]\n# *~\n"],
];

/** `git init [-q] [-b NAME] [DIR]`. */
export async function initCommand(run: GitRun, args: string[]): Promise<number> {
  let quiet = false;
  let branch: string | undefined;
  let target: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-b' || a === '--initial-branch') branch = args[++i] ?? die(`option \`${a.replace(/^-+/, '')}' requires a value`);
    else if (a.startsWith('--initial-branch=')) branch = a.slice(17);
    else if (a.startsWith('-b') && a.length > 2) branch = a.slice(2);
    else if (a === '--bare' || a.startsWith('--template') || a.startsWith('--separate-git-dir') || a.startsWith('--shared')) return refuse(`git init ${a}`);
    else if (a.startsWith('-')) return refuse(`git init ${a}`);
    else target = a;
  }
  const dir = run.fs.resolvePath(run.cwd, target ?? '.');
  await run.fs.mkdir(dir, { recursive: true });
  const gitdir = `${dir === '/' ? '' : dir}/.git`;
  const repo = { dir, gitdir };
  const again = await run.fs.exists(`${gitdir}/HEAD`);
  if (again) {
    if (branch) run.err.push(`warning: re-init: ignored --initial-branch=${branch}\n`);
  } else {
    const configured = await configValue(run, null, 'init.defaultbranch');
    const name = branch ?? configured ?? 'master';
    if (!branch && configured === undefined && !quiet) run.err.push(INIT_HINT);
    if (/(^[-.]|\.\.|[\s~^:?*[\\]|@\{|\/$|\.lock$)/.test(name)) die(`invalid initial branch name: '${name}'`);
    await git.init({ fs: run.gfs, dir, gitdir, defaultBranch: name });
    for (const d of ['branches', 'hooks', 'info', 'refs/heads', 'refs/tags', 'objects/info', 'objects/pack']) await run.fs.mkdir(`${gitdir}/${d}`, { recursive: true });
    for (const [path, text] of INIT_FILES) await run.fs.writeFile(`${gitdir}/${path}`, text);
  }
  if (!quiet) print(run, `${again ? 'Reinitialized existing' : 'Initialized empty'} Git repository in ${gitdir}/\n`);
  return 0;
}

/** Writes `entry`'s blob at work-tree path `path` (parents made, a symlink for mode 120000, x bits for 100755). */
export async function writeWork(run: GitRun, repo: Repo, path: string, entry: { oid: string; mode: string }): Promise<void> {
  const abs = `${repo.dir}/${path}`;
  const { blob } = await git.readBlob({ fs: run.gfs, gitdir: repo.gitdir, oid: entry.oid });
  await run.fs.mkdir(abs.slice(0, abs.lastIndexOf('/')), { recursive: true });
  if (await run.fs.exists(abs).catch(() => false)) await run.fs.rm(abs, { recursive: true, force: true });
  else await run.fs.rm(abs, { force: true }).catch(() => undefined);
  if (entry.mode === '120000') await run.fs.symlink(Buffer.from(blob).toString(), abs);
  else {
    await run.fs.writeFile(abs, blob);
    await run.fs.chmod(abs, entry.mode === '100755' ? 0o755 : 0o644);
  }
}

/** Removes work-tree file `path` and the directories it leaves empty. */
async function removeWork(run: GitRun, repo: Repo, path: string): Promise<void> {
  await run.fs.rm(`${repo.dir}/${path}`, { force: true });
  for (let dir = path.slice(0, path.lastIndexOf('/')); dir; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) {
    try {
      if ((await run.fs.readdir(`${repo.dir}/${dir}`)).length) return;
      await run.fs.rm(`${repo.dir}/${dir}`, { recursive: true });
    } catch {
      return;
    }
  }
}

const same = (x: { oid: string; mode: string } | undefined, y: { oid: string; mode: string } | undefined) => (x && y ? x.oid === y.oid && x.mode === y.mode : x === y);

/**
 * Moves the index and work tree from HEAD's tree to `target`'s (git's two-way merge): paths that differ between
 * the two are rewritten; a path with a local change there, or an untracked file in the way, stops it with git's
 * error (nothing changed). Local changes elsewhere are kept. `force` (`--hard`, `-f`) discards them instead.
 */
export async function switchTrees(run: GitRun, repo: Repo, s: Snapshot, target: Flat, force: boolean, verb: string): Promise<void> {
  const changedWork = new Set((await unstagedPairs(run, repo, s)).map((p) => p.path));
  const index = new Map(s.index);
  const touched = sortedPaths(new Set([...s.headFiles.keys(), ...target.keys(), ...(force ? s.index.keys() : [])]));
  const dirty: string[] = [];
  const untracked: string[] = [];
  for (const p of touched) {
    const h = s.headFiles.get(p);
    const t = target.get(p);
    const i = s.index.get(p);
    if (!force && same(h, t)) continue;
    if (force) continue;
    const local = !same(i, h) || changedWork.has(p);
    if (local && !(same(i, t) && !changedWork.has(p))) dirty.push(p);
    if (!i && !h && t && s.work.has(p)) untracked.push(p);
  }
  if (dirty.length) {
    throw new GitExit(`error: Your local changes to the following files would be overwritten by ${verb}:\n${dirty.map((p) => `\t${p}\n`).join('')}Please commit your changes or stash them before you ${verb === 'checkout' ? 'switch branches' : verb}.\nAborting\n`, 1);
  }
  if (untracked.length) {
    throw new GitExit(`error: The following untracked working tree files would be overwritten by ${verb}:\n${untracked.map((p) => `\t${p}\n`).join('')}Please move or remove them before you ${verb === 'checkout' ? 'switch branches' : verb}.\nAborting\n`, 1);
  }
  for (const p of touched) {
    const t = target.get(p);
    if (!force && same(s.headFiles.get(p), t)) continue;
    if (t) {
      if (force || !same(s.index.get(p), t) || changedWork.has(p) || !s.work.has(p)) await writeWork(run, repo, p, t);
      index.set(p, t);
    } else {
      if (s.work.has(p)) await removeWork(run, repo, p);
      index.delete(p);
    }
  }
  await writeIndex(run, repo, index);
}

/** Points HEAD at branch `name` (or detaches it at `oid`). */
async function setHead(run: GitRun, repo: Repo, to: { branch: string } | { oid: string }): Promise<void> {
  await run.fs.writeFile(`${repo.gitdir}/HEAD`, 'branch' in to ? `ref: refs/heads/${to.branch}\n` : `${to.oid}\n`);
}

/** Moves the current branch (or a detached HEAD) to `oid`. */
export async function moveHead(run: GitRun, repo: Repo, oid: string): Promise<void> {
  const branch = await currentBranch(run, repo);
  if (branch === null) await run.fs.writeFile(`${repo.gitdir}/HEAD`, `${oid}\n`);
  else await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${branch}`, value: oid, force: true });
}

async function branchOid(run: GitRun, repo: Repo, name: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${name}` });
  } catch {
    return null;
  }
}

function checkBranchName(name: string): void {
  if (!name || /(^[-.]|\.\.|[\s~^:?*[\\]|@\{|\/$|\.lock$|\.$|\/\.)/.test(name)) die(`'${name}' is not a valid branch name`);
}

/** Creates branch `name` at `start` (default HEAD), git's errors for an existing name or a missing start. */
async function createBranch(run: GitRun, repo: Repo, name: string, start: string | undefined, force = false): Promise<string> {
  checkBranchName(name);
  if (!force && (await branchOid(run, repo, name))) die(`a branch named '${name}' already exists`);
  const oid = await resolveCommit(run, repo, start ?? 'HEAD');
  if (!oid) die(`not a valid object name: '${start ?? (await currentBranch(run, repo)) ?? 'HEAD'}'`);
  await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${name}`, value: oid!, force: true });
  return oid!;
}

/** `git branch`: list, create, `-d`/`-D`, `-m`/`-M`, `--show-current`, `-v`. */
export async function branchCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const flags = args.filter((a) => a.startsWith('-'));
  const names = args.filter((a) => !a.startsWith('-'));
  const flag = (...f: string[]) => flags.some((x) => f.includes(x));
  for (const f of flags) if (!['-d', '-D', '--delete', '-f', '--force', '-m', '-M', '--move', '--show-current', '-v', '-vv', '--verbose', '-a', '--all', '-l', '--list', '--no-color', '-q', '--quiet'].includes(f)) return refuse(`git branch ${f}`);
  const current = await currentBranch(run, repo);
  if (flag('--show-current')) {
    if (current) print(run, `${current}\n`);
    return 0;
  }
  if (flag('-d', '-D', '--delete')) {
    const force = flag('-D') || flag('-f', '--force');
    let status = 0;
    if (!names.length) die('branch name required');
    for (const name of names) {
      const oid = await branchOid(run, repo, name);
      if (!oid) {
        run.err.push(`error: branch '${name}' not found.\n`);
        status = 1;
        continue;
      }
      if (name === current) {
        run.err.push(`error: Cannot delete branch '${name}' checked out at '${repo.dir}'\n`);
        status = 1;
        continue;
      }
      const head = await headCommit(run, repo);
      if (!force && head && !(oid === head || (await git.isDescendent({ fs: run.gfs, gitdir: repo.gitdir, oid: head, ancestor: oid, depth: -1 })))) {
        run.err.push(`error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`);
        status = 1;
        continue;
      }
      await git.deleteBranch({ fs: run.gfs, gitdir: repo.gitdir, ref: name });
      print(run, `Deleted branch ${name} (was ${oid.slice(0, 7)}).\n`);
    }
    return status;
  }
  if (flag('-m', '-M', '--move')) {
    const [from, to] = names.length >= 2 ? [names[0]!, names[1]!] : [current ?? die('cannot rename the current branch while not on any.'), names[0] ?? die('branch name required')];
    checkBranchName(to!);
    const oid = await branchOid(run, repo, from!);
    if (!oid && from !== current) die(`no branch named '${from}'`);
    if (!flag('-M') && from !== to && (await branchOid(run, repo, to!))) die(`a branch named '${to}' already exists`);
    if (oid) {
      await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${to}`, value: oid, force: true });
      if (from !== to) await git.deleteRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${from}` });
    }
    if (from === current) await setHead(run, repo, { branch: to! });
    return 0;
  }
  if (names.length && !flag('-l', '--list')) {
    await createBranch(run, repo, names[0]!, names[1], flag('-f', '--force'));
    return 0;
  }
  const branches = sortedPaths(await git.listBranches({ fs: run.gfs, gitdir: repo.gitdir }));
  const verbose = flag('-v', '-vv', '--verbose');
  const head = await headCommit(run, repo);
  const rows: Array<[string, string, string | null]> = [];
  if (current === null && head) rows.push(['*', `(HEAD detached at ${head.slice(0, 7)})`, head]);
  for (const b of branches) rows.push([b === current ? '*' : ' ', b, await branchOid(run, repo, b)]);
  const width = Math.max(0, ...rows.map((r) => r[1].length));
  for (const [mark, name, oid] of rows) {
    if (!verbose || !oid) print(run, `${mark} ${name}\n`);
    else {
      const c = await readCommit(run, repo, oid);
      print(run, `${mark} ${name.padEnd(width)} ${oid.slice(0, 7)} ${c.message.split('\n')[0]}\n`);
    }
  }
  return 0;
}

const DETACHED_ADVICE = (target: string) => `Note: switching to '${target}'.

You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

`;

/** The `M\tpath` lines git prints for the local changes a switch carried over. */
async function localChanges(run: GitRun, repo: Repo): Promise<void> {
  const s = await snapshot(run, repo);
  const rows = new Map<string, string>();
  for (const p of stagedPairs(run, repo, s)) rows.set(p.path, p.a ? (p.b ? 'M' : 'D') : 'A');
  for (const p of await unstagedPairs(run, repo, s)) rows.set(p.path, p.b ? 'M' : 'D');
  for (const p of sortedPaths(rows.keys())) print(run, `${rows.get(p)}\t${relative(run, repo, p)}\n`);
}

/** `Previous HEAD position was …` when a detached HEAD (`current` null) at `from` moves to another commit, else ''. */
async function previousPosition(run: GitRun, repo: Repo, current: string | null, from: string | null, to: string): Promise<string> {
  if (current !== null || !from || from === to) return '';
  return `Previous HEAD position was ${from.slice(0, 7)} ${(await readCommit(run, repo, from)).message.split('\n')[0]}\n`;
}

/** Switches to branch `name`, or (`detach`) to commit `rev` with HEAD detached. */
async function switchTo(run: GitRun, repo: Repo, rev: string, opts: { create?: string; force?: boolean; detach?: boolean; quiet?: boolean; verb: 'checkout' | 'switch' }): Promise<number> {
  const say = (text: string) => {
    if (!opts.quiet) run.err.push(text);
  };
  const current = await currentBranch(run, repo);
  const s = await snapshot(run, repo);
  if (opts.create) {
    const start = rev || undefined;
    if (!s.head && !start) {
      checkBranchName(opts.create);
      await setHead(run, repo, { branch: opts.create });
      say(`Switched to a new branch '${opts.create}'\n`);
      return 0;
    }
    checkBranchName(opts.create);
    if (await branchOid(run, repo, opts.create)) die(`a branch named '${opts.create}' already exists`);
    const oid = await resolveCommit(run, repo, start ?? 'HEAD');
    if (!oid) die(opts.verb === 'switch' ? `invalid reference: ${start}` : `'${start}' is not a commit and a branch '${opts.create}' cannot be created from it`);
    await switchTrees(run, repo, s, await commitFiles(run, repo, oid), opts.force === true, 'checkout');
    await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${opts.create}`, value: oid!, force: true });
    await setHead(run, repo, { branch: opts.create });
    if (!opts.quiet) await localChanges(run, repo);
    say(`Switched to a new branch '${opts.create}'\n`);
    return 0;
  }
  const branchTip = opts.detach ? null : await branchOid(run, repo, rev);
  if (branchTip) {
    if (rev === current) {
      if (!opts.quiet) await localChanges(run, repo);
      say(`Already on '${rev}'\n`);
      return 0;
    }
    await switchTrees(run, repo, s, await commitFiles(run, repo, branchTip), opts.force === true, 'checkout');
    await setHead(run, repo, { branch: rev });
    if (!opts.quiet) await localChanges(run, repo);
    say(`${await previousPosition(run, repo, current, s.head, branchTip)}Switched to branch '${rev}'\n`);
    return 0;
  }
  const oid = await resolveCommit(run, repo, rev);
  if (!oid) return -1;
  if (opts.verb === 'switch' && !opts.detach) die('a branch is expected, got commit \'' + rev + '\'');
  await switchTrees(run, repo, s, await commitFiles(run, repo, oid), opts.force === true, 'checkout');
  await setHead(run, repo, { oid });
  if (!opts.quiet) await localChanges(run, repo);
  const c = await readCommit(run, repo, oid);
  const subject = c.message.split('\n')[0];
  // git's checkout.c: the previous position when leaving another detached commit, the advice only when leaving a
  // branch without an explicit `--detach`.
  const previous = await previousPosition(run, repo, current, s.head, oid);
  const advice = current !== null && !opts.detach ? DETACHED_ADVICE(rev) : '';
  say(`${previous}${advice}HEAD is now at ${oid.slice(0, 7)} ${subject}\n`);
  return 0;
}

/** Restores work-tree files (and with `staged` index entries) from the index or `source`. */
async function restorePaths(run: GitRun, repo: Repo, specs: string[], names: string[], o: { source?: string; staged: boolean; worktree: boolean; report?: boolean }): Promise<number> {
  const index = await readIndex(run, repo);
  let from: Flat = index;
  let sourceOid: string | null = null;
  if (o.source !== undefined || o.staged) {
    sourceOid = await resolveCommit(run, repo, o.source ?? 'HEAD');
    if (!sourceOid && o.source !== undefined) die(`could not resolve ${o.source}`);
    from = await commitFiles(run, repo, sourceOid);
  }
  const hits = sortedPaths(new Set([...from.keys(), ...(o.staged ? index.keys() : [])].filter((p) => inSpecs(p, specs))));
  for (let i = 0; i < specs.length; i++) {
    if (!hits.some((p) => inSpecs(p, [specs[i]!]))) throw new GitExit(`error: pathspec '${names[i]}' did not match any file(s) known to git\n`, 1);
  }
  // `checkout REV -- PATH` also sets the index; `restore --source` only with --staged.
  const toIndex = o.staged || (o.report !== undefined && o.source !== undefined);
  if (toIndex) {
    for (const p of hits) {
      const e = from.get(p);
      if (e) index.set(p, e);
      else if (o.staged) index.delete(p);
    }
    await writeIndex(run, repo, index);
  }
  let updated = 0;
  if (o.worktree) {
    for (const p of hits) {
      const e = from.get(p);
      if (e) {
        let current: Uint8Array | null = null;
        try {
          current = await workBytes(run, repo, p);
        } catch {
          current = null;
        }
        if (current && blobId(current) === e.oid) continue;
        await writeWork(run, repo, p, e);
        updated++;
      } else if (o.staged) await removeWork(run, repo, p);
    }
  }
  // git counts the paths it rewrote, unless `--` said the words were paths.
  if (o.report) run.err.push(`Updated ${updated} path${updated === 1 ? '' : 's'} from ${sourceOid && o.source !== undefined ? sourceOid.slice(0, 7) : 'the index'}\n`);
  return 0;
}

/** `git checkout [-b|-B NEW] [-f] [REV]`, `git checkout [REV] -- PATH…`. */
export async function checkoutCommand(run: GitRun, repo: Repo, words0: string[]): Promise<number> {
  // Short options combine (`-qb name`, `-fb name`), as git's parse-options takes them.
  const args = splitShort(words0, 'bB');
  let create: string | undefined;
  let force = false;
  let detach = false;
  let quiet = false;
  const words: string[] = [];
  let paths: string[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      paths = args.slice(i + 1);
      break;
    }
    if (a === '-b' || a === '-B') create = args[++i] ?? die(`switch \`${a.slice(1)}' requires a value`);
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '--detach') detach = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-')) return refuse(`git checkout ${a}`);
    else words.push(a);
  }
  if (paths !== null) {
    if (!paths.length) die('you must specify path(s) to restore');
    const source = words[0];
    return restorePaths(run, repo, specsOf(run, repo, paths), paths, { source, staged: false, worktree: true, report: false });
  }
  if (create) return switchTo(run, repo, words[0] ?? '', { create, force, quiet, verb: 'checkout' });
  // `--detach` alone detaches at the current commit.
  if (!words.length && detach) words.push('HEAD');
  if (!words.length) return 0;
  if (words.length === 1) {
    const r = await switchTo(run, repo, words[0]!, { force, detach, quiet, verb: 'checkout' });
    if (r >= 0) return r;
  }
  const first = words.length > 1 ? await resolveCommit(run, repo, words[0]!) : null;
  const files = first ? words.slice(1) : words;
  for (const f of files) {
    const p = repoPath(run, repo, f);
    const index = await readIndex(run, repo);
    if (p === null || ![...index.keys()].some((k) => inSpecs(k, [p]))) {
      throw new GitExit(`error: pathspec '${f}' did not match any file(s) known to git\n`, 1);
    }
  }
  return restorePaths(run, repo, specsOf(run, repo, files), files, { source: first ? words[0] : undefined, staged: false, worktree: true, report: !quiet });
}

/** `git switch [-c|-C NEW] [--detach] BRANCH`. */
export async function switchCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let create: string | undefined;
  let force = false;
  let detach = false;
  let quiet = false;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C' || a === '--create') create = args[++i] ?? die(`switch \`${a.replace(/^-+/, '')}' requires a value`);
    else if (a === '-f' || a === '--force' || a === '--discard-changes') force = true;
    else if (a === '-d' || a === '--detach') detach = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-')) return refuse(`git switch ${a}`);
    else words.push(a);
  }
  if (create) return switchTo(run, repo, words[0] ?? '', { create, force, quiet, verb: 'switch' });
  if (!words.length && detach) words.push('HEAD');
  if (!words.length) die('missing branch or commit argument');
  const r = await switchTo(run, repo, words[0]!, { force, detach, quiet, verb: 'switch' });
  if (r < 0) die(`invalid reference: ${words[0]}`);
  return r;
}

/** `git restore [--staged] [--worktree] [--source=REV] PATH…`. */
export async function restoreCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let staged = false;
  let worktree = false;
  let source: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') paths.push(...args.slice(i + 1)), (i = args.length);
    else if (a === '-S' || a === '--staged') staged = true;
    else if (a === '-W' || a === '--worktree') worktree = true;
    else if (a === '-s' || a === '--source') source = args[++i];
    else if (a.startsWith('--source=')) source = a.slice(9);
    else if (a === '-q' || a === '--quiet') continue;
    else if (a.startsWith('-')) return refuse(`git restore ${a}`);
    else paths.push(a);
  }
  if (!paths.length) die('you must specify path(s) to restore');
  if (!staged) worktree = true;
  return restorePaths(run, repo, specsOf(run, repo, paths), paths, { source, staged, worktree });
}

/** `git reset [--soft|--mixed|--hard] [REV] [-- PATH…]`. */
export async function resetCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let mode = 'mixed' as 'soft' | 'mixed' | 'hard';
  let quiet = false;
  const words: string[] = [];
  let paths: string[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      paths = args.slice(i + 1);
      break;
    }
    if (a === '--soft' || a === '--mixed' || a === '--hard') mode = a.slice(2) as typeof mode;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-')) return refuse(`git reset ${a}`);
    else words.push(a);
  }
  let rev = 'HEAD';
  if (paths === null && words.length) {
    const first = await resolveCommit(run, repo, words[0]!);
    if (!first && words.length === 1 && !(await run.fs.exists(run.fs.resolvePath(run.cwd, words[0]!)))) {
      throw unknownRevision(words[0]);
    }
    if (first || words.length > 1) rev = words.shift()!;
    paths = words.length ? words : null;
  } else if (words.length) rev = words[0]!;
  const head = await headCommit(run, repo);
  const oid = await resolveCommit(run, repo, rev);
  if (!oid && !(rev === 'HEAD' && !head)) {
    throw unknownRevision(rev);
  }
  const target = await commitFiles(run, repo, oid);
  if (paths) {
    if (mode !== 'mixed') die(`Cannot do ${mode} reset with paths.`);
    const specs = specsOf(run, repo, paths);
    const index = await readIndex(run, repo);
    for (const p of new Set([...index.keys(), ...target.keys()])) {
      if (!inSpecs(p, specs)) continue;
      const t = target.get(p);
      if (t) index.set(p, t);
      else index.delete(p);
    }
    await writeIndex(run, repo, index);
    if (!quiet) await unstagedAfterReset(run, repo);
    return 0;
  }
  const s = await snapshot(run, repo);
  if (mode === 'hard') await switchTrees(run, repo, s, target, true, 'reset');
  else if (mode === 'mixed') await writeIndex(run, repo, target);
  if (oid) await moveHead(run, repo, oid);
  if (mode === 'hard' && !quiet && oid) print(run, `HEAD is now at ${oid.slice(0, 7)} ${(await readCommit(run, repo, oid)).message.split('\n')[0]}\n`);
  if (mode === 'mixed' && !quiet) await unstagedAfterReset(run, repo);
  return 0;
}

async function unstagedAfterReset(run: GitRun, repo: Repo): Promise<void> {
  const s = await snapshot(run, repo);
  const pairs = await unstagedPairs(run, repo, s);
  if (!pairs.length) return;
  print(run, `Unstaged changes after reset:\n${pairs.map((p) => `${p.b ? 'M' : 'D'}\t${relative(run, repo, p.path)}\n`).join('')}`);
}

/**
 * git's version order of two names (versioncmp.c, glibc's strverscmp without suffix rules): runs of digits compare
 * as numbers (a longer run of an integral part is greater), other characters by byte; `v1.10` after `v1.9`.
 */
export function versionCompare(x: string, y: string): number {
  const runs = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const a = runs(x);
  const b = runs(y);
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const p = a[k]!;
    const q = b[k]!;
    if (p === q) continue;
    const digits = /^\d/.test(p) && /^\d/.test(q);
    if (digits && !p.startsWith('0') && !q.startsWith('0') && p.length !== q.length) return p.length - q.length;
    return p < q ? -1 : 1;
  }
  return a.length - b.length;
}

/** `git tag`: list (`-l PATTERN`), create (lightweight, or `-a`/`-m` annotated), `-d`. */
export async function tagCommand(run: GitRun, repo: Repo, args: string[], tagger: () => Promise<{ name: string; email: string; timestamp: number; timezoneOffset: number }>): Promise<number> {
  let del = false;
  let annotate = false;
  let force = false;
  let message: string | undefined;
  let list = false;
  let sort: ((x: string, y: string) => number) | undefined;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--sort=')) {
      const key = a.slice(7);
      const by = key.replace(/^-/, '');
      const order = by === 'refname' ? (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0) : by === 'v:refname' || by === 'version:refname' ? versionCompare : undefined;
      if (!order) return refuse(`git tag --sort=${key}`);
      sort = key.startsWith('-') ? (x, y) => order(y, x) : order;
    } else if (a === '-d' || a === '--delete') del = true;
    else if (a === '-a' || a === '--annotate') annotate = true;
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '-l' || a === '--list') list = true;
    else if (a === '-m' || a === '--message') (message = args[++i] ?? die("switch `m' requires a value")), (annotate = true);
    else if (a.startsWith('-m')) (message = a.slice(2)), (annotate = true);
    else if (a.startsWith('-')) return refuse(`git tag ${a}`);
    else words.push(a);
  }
  if (del) {
    let status = 0;
    for (const name of words) {
      let oid: string;
      try {
        oid = await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}`, depth: 1 });
      } catch {
        run.err.push(`error: tag '${name}' not found.\n`);
        status = 1;
        continue;
      }
      await git.deleteRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}` });
      print(run, `Deleted tag '${name}' (was ${oid.slice(0, 7)})\n`);
    }
    return status;
  }
  if (list || !words.length || sort) {
    const tags = sort ? (await git.listTags({ fs: run.gfs, gitdir: repo.gitdir })).sort(sort) : sortedPaths(await git.listTags({ fs: run.gfs, gitdir: repo.gitdir }));
    const pattern = words[0];
    const re = pattern ? new RegExp(`^${pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`) : null;
    print(run, tags.filter((t) => !re || re.test(t)).map((t) => `${t}\n`).join(''));
    return 0;
  }
  const name = words[0]!;
  if (!name || /(^[-.]|\.\.|[\s~^:?*[\\]|@\{|\/$|\.lock$)/.test(name)) die(`'${name}' is not a valid tag name.`);
  const oid = await resolveCommit(run, repo, words[1] ?? 'HEAD');
  if (!oid) die(`Failed to resolve '${words[1] ?? 'HEAD'}' as a valid ref.`);
  let exists = true;
  try {
    await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}` });
  } catch {
    exists = false;
  }
  if (exists && !force) die(`tag '${name}' already exists`);
  if (annotate) {
    if (message === undefined) return refuse('git tag -a without -m (it opens an editor)');
    // isomorphic-git ends the message with a newline itself; git's object holds exactly one.
    await git.annotatedTag({ fs: run.gfs, gitdir: repo.gitdir, ref: name, object: oid!, message: message.replace(/\n+$/, ''), tagger: await tagger(), force: true });
  } else await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}`, value: oid!, force: true });
  return 0;
}

/** `git rev-parse`: revisions, `--short`, `--abbrev-ref`, `--verify`, `--show-toplevel`, `--git-dir`, `--is-inside-*`. */
export async function revParseCommand(run: GitRun, args: string[]): Promise<number> {
  const repo = await findRepo(run);
  const insideGitDir = run.cwd === repo?.gitdir || (repo !== null && run.cwd.startsWith(`${repo.gitdir}/`));
  let short: number | null = null;
  let abbrevRef = false;
  let verify = false;
  let quiet = false;
  const need = () => repo ?? die('not a git repository (or any of the parent directories): .git');
  // `--short` and `--verify` take exactly one revision.
  const revCount = args.filter((a) => !a.startsWith('-')).length;
  if (revCount > 1 && args.some((a) => a === '--verify' || a.startsWith('--short'))) die('Needed a single revision');
  for (const a of args) {
    if (a === '--is-inside-work-tree') print(run, `${need() && !insideGitDir}\n`);
    else if (a === '--is-inside-git-dir') print(run, `${need() && insideGitDir}\n`);
    else if (a === '--is-bare-repository') print(run, `${need() && false}\n`);
    else if (a === '--show-toplevel') print(run, `${need().dir}\n`);
    else if (a === '--git-dir') print(run, `${need() && (run.cwd === repo!.dir ? '.git' : repo!.gitdir)}\n`);
    else if (a === '--absolute-git-dir') print(run, `${need().gitdir}\n`);
    else if (a === '--show-prefix') print(run, `${need() && (repoPath(run, repo!, '.') ? `${repoPath(run, repo!, '.')}/` : '')}\n`);
    else if (a === '--show-cdup') print(run, `${need() && (repoPath(run, repo!, '.') ? repoPath(run, repo!, '.')!.split('/').map(() => '../').join('') : '')}\n`);
    else if (a === '--short') short = 7;
    else if (/^--short=\d+$/.test(a)) short = Math.max(4, Number(a.slice(8)));
    else if (a === '--abbrev-ref') abbrevRef = true;
    else if (a === '--verify') verify = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--') continue;
    else if (a.startsWith('-')) return refuse(`git rev-parse ${a}`);
    else {
      const r = need();
      if (abbrevRef && (a === 'HEAD' || a === '@')) {
        const b = await currentBranch(run, r);
        if (!(await headCommit(run, r))) {
          print(run, `${a}\n`);
          throw unknownRevision(a);
        }
        print(run, `${b ?? 'HEAD'}\n`);
        continue;
      }
      const oid = await revParseObject(run, r, a);
      if (!oid) {
        if (verify) {
          if (quiet) return 1;
          die('Needed a single revision');
        }
        print(run, `${a}\n`);
        throw unknownRevision(a);
      }
      print(run, `${abbrevRef ? a : short ? oid.slice(0, short) : oid}\n`);
    }
  }
  return 0;
}

/**
 * The object `rev` names for rev-parse: an annotated tag's own id for its bare name (only `^{}` or a step peels it),
 * `REV^{tree}` the commit's tree, else the commit {@link resolveCommit} finds; null when it names none.
 */
async function revParseObject(run: GitRun, repo: Repo, rev: string): Promise<string | null> {
  const tree = /^(.*)\^\{tree\}$/.exec(rev);
  if (tree) {
    const oid = await resolveCommit(run, repo, tree[1]!);
    return oid ? (await readCommit(run, repo, oid)).tree : null;
  }
  if (/^[^~^:@]+$/.test(rev) && !/^[0-9a-f]{4,40}$/.test(rev)) {
    for (const ref of rev.startsWith('refs/') ? [rev] : [`refs/tags/${rev}`]) {
      try {
        const oid = await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref });
        const o = await git.readObject({ fs: run.gfs, gitdir: repo.gitdir, oid, format: 'content' });
        if (o.type === 'tag') return oid;
      } catch {
        // not a tag: resolved as a commit below
      }
    }
  }
  return resolveCommit(run, repo, rev);
}

/** `git ls-files [-c] [-m] [-o] [-d] [-s] [--exclude-standard] [PATH…]`, paths relative to the working directory. */
export async function lsFilesCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const kinds = new Set<string>();
  let stage = false;
  const paths: string[] = [];
  for (const a of args) {
    if (a === '-c' || a === '--cached') kinds.add('c');
    else if (a === '-m' || a === '--modified') kinds.add('m');
    else if (a === '-o' || a === '--others') kinds.add('o');
    else if (a === '-d' || a === '--deleted') kinds.add('d');
    else if (a === '-s' || a === '--stage') stage = true;
    else if (a === '--exclude-standard' || a === '--') continue;
    else if (a === '-z' || a.startsWith('-')) return refuse(`git ls-files ${a}`);
    else paths.push(a);
  }
  if (!kinds.size) kinds.add('c');
  const prefix = repoPath(run, repo, '.') ?? '';
  const specs = paths.length ? specsOf(run, repo, paths) : prefix ? [prefix] : null;
  const s = await snapshot(run, repo);
  const keep = (p: string) => inSpecs(p, specs);
  const out: string[] = [];
  const show = (p: string) => quotePath(relative(run, repo, p), false, run.quoteFully);
  if (kinds.has('c')) for (const p of sortedPaths(s.index.keys())) if (keep(p)) out.push(stage ? `${s.index.get(p)!.mode} ${s.index.get(p)!.oid} 0\t${show(p)}` : show(p));
  if (kinds.has('d') || kinds.has('m')) {
    for (const p of await unstagedPairs(run, repo, s, keep)) {
      if (kinds.has('d') && !p.b) out.push(show(p.path));
      if (kinds.has('m')) out.push(show(p.path));
    }
  }
  if (kinds.has('o')) for (const p of sortedPaths(s.work.keys())) if (!s.index.has(p) && !p.endsWith('/') && keep(p)) out.push(show(p));
  print(run, out.map((l) => `${l}\n`).join(''));
  return 0;
}

