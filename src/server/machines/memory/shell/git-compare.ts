/**
 * `git diff` of the shell engine: the index against the work tree (no revision), `--cached`/`--staged` (a commit,
 * HEAD by default, against the index), one revision against the work tree, two revisions (`A B`, `A..B`), limited
 * by pathspecs after `--`; printed as a patch (`-U N`), `--stat`, `--shortstat`, `--numstat`, `--name-only`,
 * `--name-status` or `--summary`; `--quiet`/`--exit-code` exit 1 when anything differs; `--no-index` of two files.
 * @see https://git-scm.com/docs/git-diff
 */
import { changedPairs, diffOf, storedSides, workSides, type DiffKind, type Pair, type Side } from './git-diff.ts';
import { blobId, bytesOf, commitFiles, GitExit, headCommit, inSpecs, pathQuoter, refuse, resolveCommit, unknownRevision, type GitRun, type Repo} from './git-repo.ts';
import { snapshot } from './git-status.ts';
import { specsOf } from './git-work.ts';

const NO_REPO = 'warning: Not a git repository. Use --no-index to compare two paths outside a working tree\nusage: git diff --no-index [<options>] <path> <path>\n';

/**
 * `git diff --no-index A B` of two files (in or out of a repository): the patch from A to B under their names as
 * given (`--stat`, `-U N`, `--quiet`), exit 1 when they differ. Directories, stdin and other options are refused.
 */
export async function diffNoIndex(run: GitRun, args: string[]): Promise<number> {
  const output: Output[] = [];
  let quiet = false;
  let context = 3;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      paths.push(...args.slice(i + 1));
      break;
    }
    if (a === '--no-index' || a === '--exit-code' || a === '--no-color' || a === '--color=never') continue;
    else if (a === '--stat' || a === '--shortstat' || a === '--numstat') output.push(a.slice(2) as Output);
    else if (a === '-p' || a === '-u' || a === '--patch') output.push('patch');
    else if (a === '--quiet') quiet = true;
    else if (/^-U\d+$/.test(a)) context = Number(a.slice(2));
    else if (/^--unified=\d+$/.test(a)) context = Number(a.slice(10));
    else if (a.startsWith('-') && a !== '-') return refuse(`git diff --no-index ${a}`);
    else paths.push(a);
  }
  if (paths.length !== 2) throw diffOutsideRepo();
  const sides: Side[] = [];
  for (const p of paths) {
    if (p === '-') return refuse('git diff --no-index of stdin');
    const abs = run.fs.resolvePath(run.cwd, p);
    let st;
    try {
      st = await run.fs.lstat(abs);
    } catch {
      throw new GitExit(`error: Could not access '${p}'\n`, 1);
    }
    if (st.isDirectory) return refuse('git diff --no-index of directories');
    const bytes = st.isSymbolicLink ? Buffer.from(await run.fs.readlink(abs)) : await run.fs.readFileBuffer(abs);
    sides.push({ oid: blobId(bytes), mode: st.isSymbolicLink ? '120000' : st.mode & 0o111 ? '100755' : '100644', read: async () => bytes });
  }
  const [x, y] = sides as [Side, Side];
  if (x.oid === y.oid && x.mode === y.mode) return 0;
  const name = (p: string) => p.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  const pair: Pair = { path: name(paths[1]!), from: name(paths[0]!), labels: true, a: x, b: y };
  if (!quiet) run.out.push(await diffOf(output.length ? output : ['patch'], [pair], context, pathQuoter(run)));
  return 1;
}

/** The usage error git gives `git diff` outside a repository (exit 129). */
export const diffOutsideRepo = () => new GitExit(NO_REPO, 129);

type Output = DiffKind;

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

