/**
 * `git describe`, `git rev-list` (counting and listing commits) and `git symbolic-ref` of the shell engine, as git 2.43
 * answers them: the names build scripts read (`git describe --tags --always --dirty`, `git rev-list --count HEAD`,
 * `git symbolic-ref --short HEAD`).
 * @see https://git-scm.com/docs/git-describe, https://git-scm.com/docs/git-rev-list, https://git-scm.com/docs/git-symbolic-ref
 */
import git from 'isomorphic-git';
import { walk } from './git-log.ts';
import { currentBranch, die, GitExit, headCommit, print, readCommit, refuse, resolveCommit, unknownRevision, type GitRun, type Repo } from './git-repo.ts';
import { snapshot, stagedPairs, unstagedPairs } from './git-status.ts';

/** The tags on each commit: name and whether it is annotated. */
async function tagsByCommit(run: GitRun, repo: Repo): Promise<Map<string, Array<{ name: string; annotated: boolean }>>> {
  const byCommit = new Map<string, Array<{ name: string; annotated: boolean }>>();
  for (const name of (await git.listTags({ fs: run.gfs, gitdir: repo.gitdir })).sort()) {
    const direct = await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: `refs/tags/${name}`, depth: 2 });
    const annotated = await git.readTag({ fs: run.gfs, gitdir: repo.gitdir, oid: direct }).then(() => true, () => false);
    const commit = await resolveCommit(run, repo, `refs/tags/${name}`);
    if (!commit) continue;
    const list = byCommit.get(commit) ?? [];
    list.push({ name, annotated });
    byCommit.set(commit, list);
  }
  return byCommit;
}

/**
 * `git describe [--tags] [--always] [--long] [--abbrev=N] [--dirty[=MARK]] [--exact-match] [REV]`: the nearest tag
 * (annotated only, unless `--tags`) reachable from REV (HEAD), then `-N-gHASH` with N the commits since it, unless REV
 * is the tagged commit; git's errors (exit 128) when no tag fits.
 */
export async function describeCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let tags = false;
  let always = false;
  let long = false;
  let exact = false;
  let abbrev = 7;
  let dirty: string | undefined;
  const revs: string[] = [];
  for (const a of args) {
    if (a === '--tags') tags = true;
    else if (a === '--always') always = true;
    else if (a === '--long') long = true;
    else if (a === '--exact-match') exact = true;
    else if (/^--abbrev=\d+$/.test(a)) abbrev = Number(a.slice(9));
    else if (a === '--dirty') dirty = '-dirty';
    else if (a.startsWith('--dirty=')) dirty = a.slice(8);
    else if (a.startsWith('-')) return refuse(`git describe ${a}`);
    else revs.push(a);
  }
  if (dirty !== undefined && revs.length) die('option --dirty is incompatible with commit-ishes');
  const rev = revs[0] ?? 'HEAD';
  const target = rev === 'HEAD' ? await headCommit(run, repo) : await resolveCommit(run, repo, rev);
  const byCommit = await tagsByCommit(run, repo);
  const usable = (oid: string) => (byCommit.get(oid) ?? []).filter((t) => tags || t.annotated).sort((x, y) => Number(y.annotated) - Number(x.annotated));
  if (!target) throw new GitExit(rev === 'HEAD' && !always ? 'fatal: No names found, cannot describe anything.\n' : `fatal: Not a valid object name ${rev}\n`, 128);
  let mark = '';
  if (dirty !== undefined) {
    const s = await snapshot(run, repo);
    if (stagedPairs(run, repo, s).length || (await unstagedPairs(run, repo, s)).length) mark = dirty;
  }
  // Breadth first from the commit: the first tagged commit met is the nearest.
  const order: string[] = [];
  const seen = new Set<string>([target]);
  for (let i = 0, queue = [target]; i < queue.length; i++) {
    const oid = queue[i]!;
    order.push(oid);
    if (usable(oid).length) break;
    for (const p of (await readCommit(run, repo, oid)).parent) if (!seen.has(p)) (seen.add(p), queue.push(p));
  }
  const found = order.find((oid) => usable(oid).length);
  const short = target.slice(0, Math.max(4, abbrev));
  if (!found || (exact && found !== target)) {
    if (exact) die(`no tag exactly matches '${target}'`);
    if (always) return (print(run, `${short}${mark}\n`), 0);
    if (byCommit.size === 0) throw new GitExit('fatal: No names found, cannot describe anything.\n', 128);
    throw new GitExit(`fatal: No annotated tags can describe '${target}'.\nHowever, there were unannotated tags: try --tags.\n`, 128);
  }
  const name = usable(found)[0]!.name;
  if (found === target && !long) return (print(run, `${name}${mark}\n`), 0);
  const since = (await walk(run, repo, [target], [found])).length;
  print(run, abbrev === 0 ? `${name}${mark}\n` : `${name}-${since}-g${short}${mark}\n`);
  return 0;
}

/**
 * `git rev-list [--count] [-n N | --max-count=N] REV | A..B | ^A B`: the commits reachable from the positive revisions
 * and not from the negative ones, newest commit date first (or their number).
 */
export async function revListCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let count = false;
  let max = Infinity;
  const include: string[] = [];
  const exclude: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--count') count = true;
    else if (a === '-n') max = Number(args[++i]);
    else if (/^--max-count=\d+$/.test(a)) max = Number(a.slice(12));
    else if (/^-\d+$/.test(a)) max = Number(a.slice(1));
    else if (a.startsWith('-')) return refuse(`git rev-list ${a}`);
    else if (a.includes('..')) {
      const [x, y] = a.split('..');
      exclude.push(x || 'HEAD');
      include.push(y || 'HEAD');
    } else if (a.startsWith('^')) exclude.push(a.slice(1));
    else include.push(a);
  }
  if (!include.length) throw new GitExit('usage: git rev-list [<options>] <commit>... [--] [<path>...]\n', 129);
  const oidOf = async (r: string) => (await resolveCommit(run, repo, r)) ?? (() => { throw unknownRevision(r); })();
  const oids = async (revs: string[]) => Promise.all(revs.map(oidOf));
  // git log's walk: newest committer date first.
  const list = (await walk(run, repo, await oids(include), await oids(exclude))).slice(0, max);
  print(run, count ? `${list.length}\n` : list.map((c) => `${c.oid}\n`).join(''));
  return 0;
}

/** `git symbolic-ref [-q] [--short] HEAD`: the branch HEAD names; exit 128 (1 with -q, silent) when HEAD is detached. */
export async function symbolicRefCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const quiet = args.includes('-q') || args.includes('--quiet');
  const short = args.includes('--short');
  const names = args.filter((a) => !['-q', '--quiet', '--short'].includes(a));
  if (names.some((a) => a.startsWith('-')) || names.length !== 1 || names[0] !== 'HEAD') return refuse(`git symbolic-ref ${args.join(' ')}`);
  const branch = await currentBranch(run, repo);
  if (branch === null) {
    if (quiet) return 1;
    die('ref HEAD is not a symbolic ref');
  }
  print(run, short ? `${branch}\n` : `refs/heads/${branch}\n`);
  return 0;
}
