/**
 * `git diff-tree` of the shell engine: the changes of one commit against its first parent (preceded by the commit's
 * id unless `--no-commit-id`; a root commit only with `--root`), or between two commits, in git's raw form
 * (`:100644 100644 OLD NEW M\tpath`, full ids), `--name-only`, `--name-status`, `-p`, `--stat`, `--numstat` or
 * `--summary`. Without `-r` the raw and name forms stop at the top level (a changed directory is one `040000`
 * entry); the patch and stat forms always recurse, as git's diff_setup_done makes them. As plumbing, it pairs no
 * renames. Other options are refused loudly.
 * @see https://git-scm.com/docs/git-diff-tree, git's builtin/diff-tree.c and log-tree.c (diff_tree_commit)
 */
import git from 'isomorphic-git';
import { changedPairs, diffOf, statusLetter, storedSides, type DiffKind, type Pair } from './git-diff.ts';
import {
  bytesOf, commitFiles, GitExit, inSpecs, pathQuoter, readCommit, refuse, repoPath, resolveCommit, sortedPaths, type GitRun, type Repo,
  unknownRevision,
} from './git-repo.ts';

const ZERO = '0'.repeat(40);

interface TreeOptions {
  recursive: boolean;
  commitId: boolean;
  root: boolean;
  kind: DiffKind | 'raw';
  /** The words before `--`: one or two commits, then paths. */
  revs: string[];
  specs: string[] | null;
}

function parseTree(run: GitRun, repo: Repo, args: string[]): TreeOptions {
  const o: TreeOptions = { recursive: false, commitId: true, root: false, kind: 'raw', revs: [], specs: null };
  const kinds: Record<string, TreeOptions['kind']> = {
    '--raw': 'raw', '-p': 'patch', '-u': 'patch', '--patch': 'patch', '--stat': 'stat', '--numstat': 'numstat', '--shortstat': 'shortstat',
    '--name-only': 'name-only', '--name-status': 'name-status', '--summary': 'summary', '-s': 'none', '--no-patch': 'none',
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      o.specs = args.slice(i + 1).map((s) => repoPath(run, repo, s) ?? s);
      break;
    }
    if (a === '-r') o.recursive = true;
    else if (a === '--no-commit-id') o.commitId = false;
    else if (a === '--root') o.root = true;
    else if (kinds[a] !== undefined) o.kind = kinds[a]!;
    else if (a.startsWith('-')) refuse(`git diff-tree ${a}`);
    else o.revs.push(a);
  }
  if (!o.revs.length) refuse('git diff-tree without a commit (--stdin)');
  return o;
}

async function need(run: GitRun, repo: Repo, rev: string): Promise<string> {
  const oid = await resolveCommit(run, repo, rev);
  if (oid) return oid;
  throw unknownRevision(rev);
}

/** The id of the tree at `dir` in commit `oid`, or null when it has none there. */
async function treeAt(run: GitRun, repo: Repo, oid: string | null, dir: string): Promise<string | null> {
  if (!oid) return null;
  try {
    return (await git.readTree({ fs: run.gfs, gitdir: repo.gitdir, oid, filepath: dir })).oid;
  } catch {
    return null;
  }
}

/** One raw line: `:OLDMODE NEWMODE OLD NEW STATUS\tpath`. */
function rawLine(oldMode: string, newMode: string, oldId: string, newId: string, status: string, path: string): string {
  return `:${oldMode} ${newMode} ${oldId} ${newId} ${status}\t${path}\n`;
}

/** The raw or name lines of `pairs` cut at the top level: a directory that changed is one tree entry. */
async function topLevel(run: GitRun, repo: Repo, pairs: Pair[], from: string | null, to: string, kind: 'raw' | 'name-only' | 'name-status'): Promise<string> {
  const q = pathQuoter(run);
  const rows = new Map<string, string>();
  for (const p of pairs) {
    const slash = p.path.indexOf('/');
    const status = statusLetter(p);
    if (slash < 0) {
      rows.set(p.path, kind === 'raw'
        ? rawLine(p.a?.mode ?? '000000', p.b?.mode ?? '000000', p.a?.oid ?? ZERO, p.b?.oid ?? ZERO, status, q(p.path))
        : kind === 'name-only' ? `${q(p.path)}\n` : `${status}\t${q(p.path)}\n`);
      continue;
    }
    const dir = p.path.slice(0, slash);
    if (rows.has(`${dir}/`)) continue;
    const a = await treeAt(run, repo, from, dir);
    const b = await treeAt(run, repo, to, dir);
    const s = !a ? 'A' : !b ? 'D' : 'M';
    rows.set(`${dir}/`, kind === 'raw'
      ? rawLine(a ? '040000' : '000000', b ? '040000' : '000000', a ?? ZERO, b ?? ZERO, s, q(dir))
      : kind === 'name-only' ? `${q(dir)}\n` : `${s}\t${q(dir)}\n`);
  }
  return bytesOf(sortedPaths(rows.keys()).map((k) => rows.get(k)!).join(''));
}

/** `git diff-tree`. */
export async function diffTreeCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const o = parseTree(run, repo, args);
  // The words: a commit, then a second one if it names one, then paths (git's diff-tree reads them so).
  const words = o.revs;
  o.revs = words.slice(0, words.length > 1 && (await resolveCommit(run, repo, words[1]!)) ? 2 : 1);
  const paths = words.slice(o.revs.length).map((w) => repoPath(run, repo, w) ?? w);
  if (paths.length) o.specs = [...(o.specs ?? []), ...paths];
  const to = await need(run, repo, o.revs[o.revs.length - 1]!);
  let from: string | null;
  let header = '';
  if (o.revs.length === 2) from = await need(run, repo, o.revs[0]!);
  else {
    const c = await readCommit(run, repo, to);
    if (c.parent.length > 1) refuse('git diff-tree of a merge commit');
    if (!c.parent.length && !o.root) return 0;
    from = c.parent[0] ?? null;
    if (o.commitId) header = `${to}\n`;
  }
  const before = storedSides(run, repo, await commitFiles(run, repo, from));
  const after = storedSides(run, repo, await commitFiles(run, repo, to));
  const pairs = changedPairs(before, after, (p) => inSpecs(p, o.specs), false);
  if (!pairs.length) return 0;
  let body: string;
  if (o.kind === 'raw' || o.kind === 'name-only' || o.kind === 'name-status') {
    if (o.recursive) {
      body = o.kind === 'raw'
        ? bytesOf(pairs.map((p) => rawLine(p.a?.mode ?? '000000', p.b?.mode ?? '000000', p.a?.oid ?? ZERO, p.b?.oid ?? ZERO, statusLetter(p), pathQuoter(run)(p.path))).join(''))
        : await diffOf(o.kind, pairs, 3, pathQuoter(run));
    } else body = await topLevel(run, repo, pairs, from, to, o.kind);
  } else body = await diffOf(o.kind, pairs, 3, pathQuoter(run));
  run.out.push(header + body);
  return 0;
}
