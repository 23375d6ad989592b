/**
 * Ref decorations of the shell engine's `git log`: the names that point at each commit, as `%d`, `%D` and
 * `--decorate` print them (`HEAD -> main, tag: v1, origin/main, feature`). git loads every branch, remote-tracking
 * branch and tag in refname order, then HEAD, each prepended to its commit's list, so HEAD comes first and the refs
 * follow in reverse refname order; an annotated tag decorates the commit it peels to; the branch HEAD points at is
 * shown as `HEAD -> branch` in HEAD's place.
 * @see git's log-tree.c (load_ref_decorations, add_name_decoration, format_decorations, current_pointed_by_HEAD)
 */
import git from 'isomorphic-git';
import { currentBranch, headCommit, sortedPaths, type GitRun, type Repo } from './git-repo.ts';

/** One name decorating a commit: its full refname (`HEAD` for HEAD) and its kind. */
interface Decoration {
  ref: string;
  kind: 'head' | 'branch' | 'remote' | 'tag';
}

/** `--decorate=short` strips `refs/heads/`, `refs/remotes/`, `refs/tags/`; `full` keeps the refname. */
export type DecorateStyle = 'short' | 'full';

/** Each decorated commit's names, in git's order, by commit id. */
export type Decorations = Map<string, Decoration[]>;

const SPACES: Array<[string, Decoration['kind']]> = [['refs/heads', 'branch'], ['refs/remotes', 'remote'], ['refs/tags', 'tag']];

/** The commit an object id peels to (an annotated tag's target, followed), or null when it is no commit. */
async function peelToCommit(run: GitRun, repo: Repo, oid: string): Promise<string | null> {
  for (let depth = 0; depth < 10; depth++) {
    const o = await git.readObject({ fs: run.gfs, gitdir: repo.gitdir, oid, format: 'parsed' });
    if (o.type === 'commit') return oid;
    if (o.type !== 'tag') return null;
    oid = (o.object as { object: string }).object;
  }
  return null;
}

/** The decorations of every commit a branch, remote-tracking branch, tag or HEAD points at. */
export async function loadDecorations(run: GitRun, repo: Repo): Promise<Decorations> {
  const kinds = new Map<string, Decoration['kind']>();
  for (const [space, kind] of SPACES) {
    let names: string[] = [];
    try {
      names = await git.listRefs({ fs: run.gfs, gitdir: repo.gitdir, filepath: space });
    } catch {
      names = [];
    }
    for (const n of names) kinds.set(`${space}/${n}`, kind);
  }
  const out: Decorations = new Map();
  const add = (oid: string, d: Decoration) => out.set(oid, [d, ...(out.get(oid) ?? [])]);
  for (const ref of sortedPaths(kinds.keys())) {
    let oid: string;
    try {
      oid = await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref });
    } catch {
      continue;
    }
    const commit = await peelToCommit(run, repo, oid).catch(() => null);
    if (commit) add(commit, { ref, kind: kinds.get(ref)! });
  }
  const head = await headCommit(run, repo);
  if (head) add(head, { ref: 'HEAD', kind: 'head' });
  return out;
}

/**
 * The `%D` text of commit `oid` (empty when nothing points at it): names joined by `, `, tags as `tag: NAME`, and
 * `HEAD -> BRANCH` when HEAD is on a branch that points here too (that branch then not repeated).
 */
export async function decorationText(run: GitRun, repo: Repo, all: Decorations, oid: string, style: DecorateStyle = 'short'): Promise<string> {
  const list = all.get(oid);
  if (!list) return '';
  const branch = list.some((d) => d.kind === 'head') ? await currentBranch(run, repo) : null;
  const current = branch === null ? undefined : list.find((d) => d.kind === 'branch' && d.ref === `refs/heads/${branch}`);
  const name = (d: Decoration) => (style === 'full' || d.kind === 'head' ? d.ref : d.ref.replace(/^refs\/(?:heads|remotes|tags)\//, ''));
  const parts: string[] = [];
  for (const d of list) {
    if (d === current) continue;
    let text = `${d.kind === 'tag' ? 'tag: ' : ''}${name(d)}`;
    if (d.kind === 'head' && current) text += ` -> ${name(current)}`;
    parts.push(text);
  }
  return parts.join(', ');
}
