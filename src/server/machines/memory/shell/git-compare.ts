/**
 * `git diff` of the shell engine: the index against the work tree (no revision), `--cached`/`--staged` (a commit,
 * HEAD by default, against the index), one revision against the work tree, two revisions (`A B`, `A..B`), limited
 * by pathspecs after `--`; printed as a patch (`-U N`), `--stat`, `--shortstat`, `--numstat`, `--name-only`,
 * `--name-status` or `--summary`; `--quiet`/`--exit-code` exit 1 when anything differs.
 * @see https://git-scm.com/docs/git-diff
 */
import { changedPairs, diffOf, storedSides, workSides, type DiffKind, type Pair } from './git-diff.ts';
import { bytesOf, commitFiles, GitExit, headCommit, inSpecs, pathQuoter, refuse, resolveCommit, type GitRun, type Repo } from './git-repo.ts';
import { snapshot } from './git-status.ts';
import { specsOf } from './git-work.ts';

const NO_REPO = 'warning: Not a git repository. Use --no-index to compare two paths outside a working tree\nusage: git diff --no-index [<options>] <path> <path>\n';

/** The usage error git gives `git diff` outside a repository (exit 129). */
export const diffOutsideRepo = () => new GitExit(NO_REPO, 129);

type Output = DiffKind;

const unknownRevision = (rev: string) =>
  new GitExit(`fatal: ambiguous argument '${rev}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n`, 128);

/** `git diff [options] [--cached] [REV [REV]] [-- PATH…]`. */
export async function diffCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let cached = false;
  const output: Output[] = [];
  let exitCode = false;
  let quiet = false;
  let context = 3;
  const revs: string[] = [];
  let paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      paths = args.slice(i + 1);
      break;
    }
    if (a === '--cached' || a === '--staged') cached = true;
    else if (a === '--stat' || a === '--shortstat' || a === '--numstat' || a === '--name-only' || a === '--name-status' || a === '--summary') output.push(a.slice(2) as Output);
    else if (a === '-p' || a === '-u' || a === '--patch') output.push('patch');
    else if (a === '-s' || a === '--no-patch') output.push('none');
    else if (a === '--exit-code') exitCode = true;
    else if (a === '--quiet') (quiet = true), (exitCode = true);
    else if (/^-U\d+$/.test(a)) context = Number(a.slice(2));
    else if (/^--unified=\d+$/.test(a)) context = Number(a.slice(10));
    else if (a === '--no-color' || a === '--color=never' || a === '--no-ext-diff' || a === '-M' || a === '--find-renames') continue;
    else if (a.startsWith('-')) return refuse(`git diff ${a}`);
    else if (paths.length || (revs.length >= 2)) paths.push(a);
    else {
      const range = /^(.*?)\.\.\.?(.*)$/.exec(a);
      if (range) {
        if (a.includes('...')) return refuse('git diff A...B (a merge base)');
        revs.push(range[1] || 'HEAD', range[2] || 'HEAD');
      } else if (await resolveCommit(run, repo, a)) revs.push(a);
      else if (await run.fs.exists(run.fs.resolvePath(run.cwd, a))) paths.push(a);
      else throw unknownRevision(a);
    }
  }
  const specs = paths.length ? specsOf(run, repo, paths) : null;
  const keep = (p: string) => inSpecs(p, specs);
  const commitSides = async (rev: string) => {
    const oid = await resolveCommit(run, repo, rev);
    if (!oid) throw unknownRevision(rev);
    return storedSides(run, repo, await commitFiles(run, repo, oid));
  };
  let pairs: Pair[];
  if (revs.length >= 2) pairs = changedPairs(await commitSides(revs[0]!), await commitSides(revs[1]!), keep, true);
  else {
    const s = await snapshot(run, repo);
    if (cached) {
      const base = revs.length ? await commitSides(revs[0]!) : storedSides(run, repo, await commitFiles(run, repo, await headCommit(run, repo)));
      pairs = changedPairs(base, storedSides(run, repo, s.index), keep, true);
    } else if (revs.length) {
      const base = await commitSides(revs[0]!);
      // Work-tree files count only where the index tracks them (git's `diff REV` reads the work tree through it).
      const tracked = new Map([...s.work].filter(([p]) => s.index.has(p) && keep(p)));
      pairs = changedPairs(base, await workSides(tracked), keep, true);
    } else {
      const tracked = new Map([...s.work].filter(([p]) => s.index.has(p) && keep(p)));
      pairs = changedPairs(storedSides(run, repo, s.index), await workSides(tracked), keep);
    }
  }
  // The forms combine as git's diff_flush combines them; none given: the patch.
  if (!quiet) run.out.push(await diffOf(output.length ? output : ['patch'], pairs, context, pathQuoter(run)));
  return exitCode && pairs.length ? 1 : 0;
}

