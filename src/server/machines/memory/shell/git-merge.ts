/**
 * Joining histories in the shell engine's `git`: `merge` (already up to date, fast-forward, or a merge commit when
 * isomorphic-git merges the trees without a conflict; a conflicted merge is refused loudly, nothing changed) and
 * `clone` of a repository on the sprite's own disk (objects copied, `origin` and its tracking branch configured,
 * the default branch checked out). Network remotes are refused loudly.
 * @see https://git-scm.com/docs/git-merge, https://git-scm.com/docs/git-clone
 */
import git from 'isomorphic-git';
import { identity } from './git-config.ts';
import { zoneAt } from './git-date.ts';
import { changedPairs, statText, storedSides, summaryText } from './git-diff.ts';
import {
  bytesOf, commitFiles, currentBranch, die, findRepo, GitExit, headCommit, pathQuoter, print, refuse, resolveCommit, sortedPaths, writeIndex,
  type GitRun, type Repo,
} from './git-repo.ts';
import { moveHead, switchTrees, writeWork } from './git-refs.ts';
import { snapshot } from './git-status.ts';

/** `git merge [--no-ff|--ff-only] [-m MSG] [--no-edit] REV`. */
export async function mergeCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let noFf = false;
  let ffOnly = false;
  let quiet = false;
  let message: string | undefined;
  const revs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--no-ff') noFf = true;
    else if (a === '--ff-only') ffOnly = true;
    else if (a === '--ff') noFf = false;
    else if (a === '-m') message = args[++i] ?? die("switch `m' requires a value");
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--no-edit' || a === '--no-verify') continue;
    else if (a === '--abort' || a === '--continue') throw new GitExit('fatal: There is no merge to abort (MERGE_HEAD missing).\n', 128);
    else if (a.startsWith('-')) return refuse(`git merge ${a}`);
    else revs.push(a);
  }
  if (revs.length !== 1) return refuse(revs.length ? 'git merge of several commits (an octopus merge)' : 'git merge without a commit (its upstream)');
  const theirs = await resolveCommit(run, repo, revs[0]!);
  if (!theirs) die(`${revs[0]} - not something we can merge`);
  const head = await headCommit(run, repo);
  if (!head) return refuse('git merge into an unborn branch');
  const s = await snapshot(run, repo);
  const isAncestor = (oid: string, of: string) => git.isDescendent({ fs: run.gfs, gitdir: repo.gitdir, oid: of, ancestor: oid, depth: -1 });
  if (theirs === head || (await isAncestor(theirs!, head!))) {
    if (!quiet) print(run, 'Already up to date.\n');
    return 0;
  }
  const before = storedSides(run, repo, s.headFiles);
  if (!noFf && (await isAncestor(head!, theirs!))) {
    const target = await commitFiles(run, repo, theirs);
    await switchTrees(run, repo, s, target, false, 'merge');
    await moveHead(run, repo, theirs!);
    const pairs = changedPairs(before, storedSides(run, repo, target), () => true, true);
    // -q: nothing on stdout (the summary lines and the diffstat).
    if (!quiet) run.out.push(bytesOf(`Updating ${head!.slice(0, 7)}..${theirs!.slice(0, 7)}\nFast-forward\n${await statText(pairs, 80, pathQuoter(run))}${summaryText(pairs, pathQuoter(run))}`));
    return 0;
  }
  if (ffOnly) die('Not possible to fast-forward, aborting.');
  const branch = await currentBranch(run, repo);
  const tz = zoneAt(run.env.TZ);
  const author = await identity(run, repo, 'author', tz);
  const committer = await identity(run, repo, 'committer', tz);
  const into = branch && !['master', 'main'].includes(branch) ? ` into ${branch}` : '';
  const what = revs[0]!.startsWith('refs/') || /^[0-9a-f]{7,40}$/.test(revs[0]!) ? `commit '${revs[0]}'` : `branch '${revs[0]}'`;
  let merged: string;
  try {
    const r = await git.merge({
      fs: run.gfs, dir: repo.dir, gitdir: repo.gitdir, ours: head!, theirs: theirs!, fastForward: false, noUpdateBranch: true,
      abortOnConflict: true, author, committer, message: message ?? `Merge ${what}${into}\n`,
    });
    merged = r.oid!;
  } catch (err) {
    if ((err as { code?: string }).code === 'MergeConflictError' || (err as { code?: string }).code === 'MergeNotSupportedError') return refuse('git merge with conflicts');
    throw err;
  }
  const target = await commitFiles(run, repo, merged);
  await switchTrees(run, repo, s, target, false, 'merge');
  await moveHead(run, repo, merged);
  const pairs = changedPairs(before, storedSides(run, repo, target), () => true, true);
  if (!quiet) run.out.push(bytesOf(`Merge made by the 'ort' strategy.\n${await statText(pairs, 80, pathQuoter(run))}${summaryText(pairs, pathQuoter(run))}`));
  return 0;
}

/** Whether a clone source names a network remote (`scheme://`, `host:path`), which only a real machine can reach. */
const isRemote = (src: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(src) || /^[^/]*:/.test(src);

/** Copies directory `from` to `to` recursively (files and symlinks). */
async function copyTree(run: GitRun, from: string, to: string): Promise<void> {
  await run.fs.mkdir(to, { recursive: true });
  for (const name of await run.fs.readdir(from)) {
    const s = await run.fs.lstat(`${from}/${name}`);
    if (s.isDirectory) await copyTree(run, `${from}/${name}`, `${to}/${name}`);
    else if (s.isSymbolicLink) await run.fs.symlink(await run.fs.readlink(`${from}/${name}`), `${to}/${name}`);
    else await run.fs.writeFile(`${to}/${name}`, await run.fs.readFileBuffer(`${from}/${name}`));
  }
}

/** `git clone [-q] [-b BRANCH] SRC [DIR]` of a repository on the sprite. */
export async function cloneCommand(run: GitRun, args: string[]): Promise<number> {
  let quiet = false;
  let branch: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-b' || a === '--branch') branch = args[++i];
    else if (a === '--no-hardlinks' || a === '-l' || a === '--local') continue;
    else if (a.startsWith('-')) return refuse(`git clone ${a}`);
    else words.push(a);
  }
  if (!words.length) throw new GitExit('fatal: You must specify a repository to clone.\n', 129);
  const src = words[0]!;
  if (isRemote(src) && !src.startsWith('file://')) return refuse(`git clone of a network repository (${src})`);
  const srcPath = run.fs.resolvePath(run.cwd, src.replace(/^file:\/\//, ''));
  const from = (await findRepo(run, srcPath)) as Repo | null;
  const source = from && (from.dir === srcPath || from.gitdir === srcPath) ? from : (await run.fs.exists(`${srcPath}/HEAD`)) && (await run.fs.exists(`${srcPath}/objects`)) ? { dir: srcPath, gitdir: srcPath } : null;
  if (!source) die(`repository '${src}' does not exist`);
  const name = words[1] ?? src.replace(/\/+$/, '').replace(/\/\.git$/, '').replace(/\.git$/, '').split('/').pop()!;
  const dir = run.fs.resolvePath(run.cwd, name);
  if ((await run.fs.exists(dir)) && (await run.fs.readdir(dir).catch(() => ['x'])).length) die(`destination path '${name}' already exists and is not an empty directory.`);
  if (!quiet) run.err.push(`Cloning into '${name}'...\n`);
  const repo: Repo = { dir, gitdir: `${dir}/.git` };
  await run.fs.mkdir(repo.gitdir, { recursive: true });
  for (const d of ['branches', 'hooks', 'info', 'refs/heads', 'refs/tags', 'refs/remotes/origin']) await run.fs.mkdir(`${repo.gitdir}/${d}`, { recursive: true });
  await copyTree(run, `${source!.gitdir}/objects`, `${repo.gitdir}/objects`);
  const branches = await git.listBranches({ fs: run.gfs, gitdir: source!.gitdir });
  for (const b of branches) {
    const oid = await git.resolveRef({ fs: run.gfs, gitdir: source!.gitdir, ref: `refs/heads/${b}` });
    await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/remotes/origin/${b}`, value: oid, force: true });
  }
  for (const t of await git.listTags({ fs: run.gfs, gitdir: source!.gitdir })) {
    const oid = await git.resolveRef({ fs: run.gfs, gitdir: source!.gitdir, ref: `refs/tags/${t}`, depth: 1 });
    await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/tags/${t}`, value: oid, force: true });
  }
  const head = (await run.fs.readFile(`${source!.gitdir}/HEAD`)).trim();
  const sourceBranch = head.startsWith('ref: refs/heads/') ? head.slice(16) : null;
  const checkout = branch ?? sourceBranch ?? 'master';
  if (branch && !branches.includes(branch)) {
    await run.fs.rm(dir, { recursive: true, force: true });
    throw new GitExit(`${quiet ? '' : ''}fatal: Remote branch ${branch} not found in upstream origin\n`, 128);
  }
  const absSource = source!.dir === source!.gitdir ? source!.gitdir : source!.dir;
  let config = `[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = ${absSource}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;
  const tip = branches.includes(checkout) ? await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/remotes/origin/${checkout}` }) : null;
  if (tip) config += `[branch "${checkout}"]\n\tremote = origin\n\tmerge = refs/heads/${checkout}\n`;
  await run.fs.writeFile(`${repo.gitdir}/config`, config);
  await run.fs.writeFile(`${repo.gitdir}/HEAD`, `ref: refs/heads/${checkout}\n`);
  await run.fs.writeFile(`${repo.gitdir}/description`, "Unnamed repository; edit this file 'description' to name the repository.\n");
  if (sourceBranch && branches.includes(sourceBranch)) await run.fs.writeFile(`${repo.gitdir}/refs/remotes/origin/HEAD`, `ref: refs/remotes/origin/${sourceBranch}\n`);
  if (!tip) {
    run.err.push('warning: You appear to have cloned an empty repository.\n');
  } else {
    await git.writeRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/heads/${checkout}`, value: tip, force: true });
    const files = await commitFiles(run, repo, tip);
    for (const p of sortedPaths(files.keys())) await writeWork(run, repo, p, files.get(p)!);
    await writeIndex(run, repo, files);
  }
  if (!quiet) run.err.push('done.\n');
  return 0;
}
