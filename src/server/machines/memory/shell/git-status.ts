/**
 * `git status` of the shell engine: the long format (branch line, "No commits yet", staged, unstaged and untracked
 * sections with git's hints and closing line), `-s`/`--short`, `--porcelain[=v1]` and `-b`, with untracked
 * directories collapsed to `dir/` and paths quoted as git's `core.quotePath` does. It also owns the work-tree
 * snapshot other subcommands compare against (commit -a, add -A, diff).
 * @see https://git-scm.com/docs/git-status (Short Format, Porcelain Format Version 1)
 */
import { configValue } from './git-config.ts';
import { changedPairs, storedSides, workSides, type Pair, type Side } from './git-diff.ts';
import {
  commitFiles, currentBranch, print, quotePath, reachableCommits, readCommit, resolveCommit, die, headCommit, inSpecs, readIndex, refuse, relative, repoPath, sortedPaths, walkWorkTree,
  type Flat, type GitRun, type Repo, type WorkFile,
} from './git-repo.ts';

/** The three trees of a repository at one moment. */
export interface Snapshot {
  head: string | null;
  branch: string | null;
  headFiles: Flat;
  index: Flat;
  work: Map<string, WorkFile>;
  ignored: string[];
}

/** Reads HEAD's files, the index and the work tree (`withIgnored`: list ignored paths; `includeIgnored`: walk them as files). */
export async function snapshot(run: GitRun, repo: Repo, withIgnored = false, includeIgnored = false): Promise<Snapshot> {
  const head = await headCommit(run, repo);
  const index = await readIndex(run, repo);
  const { files, ignored } = await walkWorkTree(run, repo, new Set(index.keys()), withIgnored, includeIgnored);
  return { head, branch: await currentBranch(run, repo), headFiles: await commitFiles(run, repo, head), index, work: files, ignored };
}

/** The index's changes against HEAD (exact renames paired). */
export function stagedPairs(run: GitRun, repo: Repo, s: Snapshot, keep: (p: string) => boolean = () => true): Pair[] {
  return changedPairs(storedSides(run, repo, s.headFiles), storedSides(run, repo, s.index), keep, true);
}

/** The work tree's changes against the index, tracked paths only. */
export async function unstagedPairs(run: GitRun, repo: Repo, s: Snapshot, keep: (p: string) => boolean = () => true): Promise<Pair[]> {
  const tracked = new Map([...s.work].filter(([p]) => s.index.has(p) && keep(p)));
  const work: Map<string, Side> = await workSides(tracked);
  return changedPairs(storedSides(run, repo, s.index), work, keep);
}

/**
 * Untracked paths, a directory holding no tracked path shown once as `dir/`; with `all` (`-uall`) every untracked
 * file on its own.
 */
export function untrackedPaths(s: Snapshot, keep: (p: string) => boolean = () => true, all = false): string[] {
  const trackedDirs = new Set<string>();
  for (const p of s.index.keys()) for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) trackedDirs.add(p.slice(0, i));
  const out = new Set<string>();
  for (const p of s.work.keys()) {
    if (s.index.has(p) || !keep(p.replace(/\/$/, ''))) continue;
    let shown = p;
    if (all && p.endsWith('/')) continue;
    for (let i = p.indexOf('/'); !all && i >= 0 && i < p.length - 1; i = p.indexOf('/', i + 1)) {
      if (!trackedDirs.has(p.slice(0, i))) {
        shown = `${p.slice(0, i)}/`;
        break;
      }
    }
    out.add(shown);
  }
  return sortedPaths(out);
}

/** The branch's upstream (`origin/main`) and how many commits each side has that the other lacks, or null. */
export async function tracking(run: GitRun, repo: Repo, s: Snapshot): Promise<{ upstream: string; ahead: number; behind: number } | null> {
  if (!s.branch || !s.head) return null;
  const remote = await configValue(run, repo, `branch.${s.branch}.remote`);
  const merge = await configValue(run, repo, `branch.${s.branch}.merge`);
  if (!remote || !merge?.startsWith('refs/heads/')) return null;
  const upstream = `${remote}/${merge.slice('refs/heads/'.length)}`;
  const tip = await resolveCommit(run, repo, `refs/remotes/${upstream}`);
  if (!tip) return null;
  const mine = await reachableCommits(run, repo, [s.head]);
  const theirs = await reachableCommits(run, repo, [tip]);
  return { upstream, ahead: [...mine].filter((o) => !theirs.has(o)).length, behind: [...theirs].filter((o) => !mine.has(o)).length };
}

const commits = (n: number) => `${n} commit${n === 1 ? '' : 's'}`;

/** The long status's lines on the upstream, as git 2.43 words them (with the blank line after). */
function trackingText(t: { upstream: string; ahead: number; behind: number }): string {
  const u = `'${t.upstream}'`;
  if (!t.ahead && !t.behind) return `Your branch is up to date with ${u}.\n\n`;
  if (!t.behind) return `Your branch is ahead of ${u} by ${commits(t.ahead)}.\n  (use "git push" to publish your local commits)\n\n`;
  if (!t.ahead) return `Your branch is behind ${u} by ${commits(t.behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)\n\n`;
  return `Your branch and ${u} have diverged,\nand have ${t.ahead} and ${t.behind} different commits each, respectively.\n  (use "git pull" to merge the remote branch into yours)\n\n`;
}

const LABELS: Record<string, string> = { A: 'new file:', M: 'modified:', D: 'deleted:', R: 'renamed:', T: 'typechange:' };
const letterOf = (p: Pair) => (p.from ? 'R' : !p.a ? 'A' : !p.b ? 'D' : (p.a.mode === '120000') !== (p.b.mode === '120000') ? 'T' : 'M');

/** Options of `git status`. */
interface StatusOptions {
  format: 'long' | 'short' | 'porcelain';
  branch: boolean;
  untracked: boolean;
  /** `-uall`: each untracked file, not its directory. */
  allUntracked?: boolean;
  ignored: boolean;
  specs: string[] | null;
}

function parseStatus(run: GitRun, repo: Repo, args: string[]): StatusOptions {
  const o: StatusOptions = { format: 'long', branch: false, untracked: true, ignored: false, specs: null };
  const specs: string[] = [];
  let dashdash = false;
  for (const a of args) {
    if (dashdash || !a.startsWith('-')) specs.push(a);
    else if (a === '--') dashdash = true;
    else if (a === '-s' || a === '--short') o.format = 'short';
    else if (a === '--porcelain' || a === '--porcelain=v1') o.format = 'porcelain';
    else if (a === '--long') o.format = 'long';
    else if (a === '-b' || a === '--branch') o.branch = true;
    else if (a === '-sb' || a === '-bs') (o.format = 'short'), (o.branch = true);
    else if (a === '-uno' || a === '--untracked-files=no') o.untracked = false;
    else if (a === '-u' || a === '-unormal' || a === '--untracked-files' || a === '--untracked-files=normal') o.untracked = true;
    else if (a === '-uall' || a === '--untracked-files=all') (o.untracked = true), (o.allUntracked = true);
    else if (a === '--ignored') o.ignored = true;
    else return refuse(`git status ${a}`);
  }
  if (specs.length) {
    o.specs = specs.map((s) => repoPath(run, repo, s) ?? die(`${s}: '${s}' is outside repository at '${repo.dir}'`));
  }
  return o;
}

/** `git status [options] [pathspec…]`. */
export async function statusCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const o = parseStatus(run, repo, args);
  const s = await snapshot(run, repo, o.ignored);
  const keep = (p: string) => inSpecs(p, o.specs);
  const staged = stagedPairs(run, repo, s, keep);
  const unstaged = await unstagedPairs(run, repo, s, keep);
  const untracked = o.untracked ? untrackedPaths(s, keep, o.allUntracked) : [];
  const ignored = o.ignored ? sortedPaths(s.ignored.filter((p) => keep(p.replace(/\/$/, '')))) : [];
  const t = await tracking(run, repo, s);
  if (o.format === 'long') print(run, longFormat(run, repo, s, staged, unstaged, untracked, ignored, o.untracked, false, t));
  else print(run, shortFormat(run, repo, s, staged, unstaged, untracked, ignored, o, t));
  return 0;
}

function shortFormat(run: GitRun, repo: Repo, s: Snapshot, staged: Pair[], unstaged: Pair[], untracked: string[], ignored: string[], o: StatusOptions, t: Tracking): string {
  const show = (p: string) => quotePath(o.format === 'porcelain' ? p : relative(run, repo, p), true, run.quoteFully);
  let out = '';
  if (o.branch) {
    const counts = t && (t.ahead || t.behind) ? ` [${[t.ahead ? `ahead ${t.ahead}` : '', t.behind ? `behind ${t.behind}` : ''].filter(Boolean).join(', ')}]` : '';
    out += `## ${s.branch === null ? 'HEAD (no branch)' : s.head ? `${s.branch}${t ? `...${t.upstream}${counts}` : ''}` : `No commits yet on ${s.branch}`}\n`;
  }
  const rows = new Map<string, { x: string; y: string; from?: string }>();
  for (const p of staged) rows.set(p.path, { x: letterOf(p), y: ' ', from: p.from });
  for (const p of unstaged) {
    const row = rows.get(p.path) ?? { x: ' ', y: ' ' };
    row.y = letterOf(p);
    rows.set(p.path, row);
  }
  for (const path of sortedPaths(rows.keys())) {
    const r = rows.get(path)!;
    out += `${r.x}${r.y} ${r.from ? `${show(r.from)} -> ` : ''}${show(path)}\n`;
  }
  for (const p of untracked) out += `?? ${show(p)}\n`;
  for (const p of ignored) out += `!! ${show(p)}\n`;
  return out;
}

/** The long status of `s` (whole tree), as `git commit` prints it when there is nothing to commit ("Initial commit"). */
export async function longStatus(run: GitRun, repo: Repo, s: Snapshot, forCommit: boolean): Promise<string> {
  return longFormat(run, repo, s, stagedPairs(run, repo, s), await unstagedPairs(run, repo, s), untrackedPaths(s), [], true, forCommit, await tracking(run, repo, s));
}

type Tracking = Awaited<ReturnType<typeof tracking>>;

function longFormat(run: GitRun, repo: Repo, s: Snapshot, staged: Pair[], unstaged: Pair[], untracked: string[], ignored: string[], showUntracked: boolean, forCommit = false, t: Tracking = null): string {
  const show = (p: string) => quotePath(relative(run, repo, p), false, run.quoteFully);
  const line = (p: Pair) => {
    const label = LABELS[letterOf(p)]!.padEnd(12);
    return `\t${label}${p.from ? `${show(p.from)} -> ` : ''}${show(p.path)}\n`;
  };
  let out = s.branch === null ? `HEAD detached at ${s.head!.slice(0, 7)}\n` : `On branch ${s.branch}\n`;
  if (t) out += trackingText(t);
  if (!s.head) out += forCommit ? '\nInitial commit\n\n' : '\nNo commits yet\n\n';
  if (staged.length) {
    out += `Changes to be committed:\n${s.head ? '  (use "git restore --staged <file>..." to unstage)\n' : '  (use "git rm --cached <file>..." to unstage)\n'}`;
    out += `${staged.map(line).join('')}\n`;
  }
  if (unstaged.length) {
    const deleted = unstaged.some((p) => !p.b);
    out += `Changes not staged for commit:\n  (use "git add${deleted ? '/rm' : ''} <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n`;
    out += `${unstaged.map(line).join('')}\n`;
  }
  if (untracked.length) {
    out += 'Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n';
    out += `${untracked.map((p) => `\t${show(p)}\n`).join('')}\n`;
  }
  if (ignored.length) {
    out += 'Ignored files:\n  (use "git add -f <file>..." to include in what will be committed)\n';
    out += `${ignored.map((p) => `\t${show(p)}\n`).join('')}\n`;
  }
  if (!showUntracked && (staged.length || unstaged.length)) out += 'Untracked files not listed (use -u option to show untracked files)\n';
  if (staged.length) return out;
  if (unstaged.length) return `${out}no changes added to commit (use "git add" and/or "git commit -a")\n`;
  if (untracked.length) return `${out}nothing added to commit but untracked files present (use "git add" to track)\n`;
  if (!showUntracked) return `${out}nothing to commit (use -u to show untracked files)\n`;
  if (!s.head) return `${out}nothing to commit (create/copy files and use "git add" to track)\n`;
  return `${out}nothing to commit, working tree clean\n`;
}
