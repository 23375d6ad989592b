/**
 * The commit-printing family of the shell engine's `git`: `log` (the default medium format, `--oneline`,
 * `--pretty=`/`--format=` with git's placeholders, `-n`, `--reverse`, `--stat`/`-p`/`--name-only`/`--name-status`,
 * a revision or `A..B` range, `-- paths`) and `show` (a commit with its diff against its first parent, or
 * `REV:path`'s blob). Dates print in the zone each commit recorded (git-date.ts).
 * @see https://git-scm.com/docs/pretty-formats, https://git-scm.com/docs/git-log
 */
import git from 'isomorphic-git';
import { isDateMode, showDate, type DateMode } from './git-date.ts';
import { decorationText, loadDecorations, type DecorateStyle, type Decorations } from './git-decorate.ts';
import { changedPairs, diffOf, storedSides, type DiffKind, type Pair } from './git-diff.ts';
import {
  bytesOf, commitFiles, die, pathQuoter, print, headCommit, inSpecs, reachableCommits, readCommit, refuse, repoPath, resolveCommit, GitExit,
  type Commit, type GitRun, type Person, type Repo,
  unknownRevision,
} from './git-repo.ts';

/** How a commit is printed. */
interface Pretty {
  kind: 'medium' | 'oneline' | 'short' | 'full' | 'format';
  format?: string;
  /** `format:` separates entries (no newline after the last); `tformat:`/`--format` terminates each. */
  separator?: boolean;
  date: DateMode;
}

/** What follows each commit's message. */

/** The subject: the message's first paragraph, its lines joined by spaces. */
export function subjectOf(message: string): string {
  const para = message.replace(/^\n+/, '').split(/\n\s*\n/)[0] ?? '';
  return para.split('\n').map((l) => l.trim()).join(' ').trim();
}

/** The body: the message after the first paragraph and the blank lines after it. */
function bodyOf(message: string): string {
  const m = /^\n*[^\n]*(?:\n(?!\s*\n)[^\n]*)*\n\s*\n([\s\S]*)$/.exec(message);
  return m ? m[1]!.replace(/^\n+/, '') : '';
}

const zoneEast = (p: Person) => -p.timezoneOffset;
const dateOf = (p: Person, mode: DateMode, now: number) => showDate(p.timestamp, zoneEast(p), mode, now);

/** One `%` placeholder of a pretty format, or null when it is not one (copied as written, as git does). */
function placeholder(c: Commit, spec: string, now: number, mode: DateMode, decor: string): [string, number] | null {
  const two = spec.slice(0, 2);
  const person = two[0] === 'a' ? c.author : two[0] === 'c' ? c.committer : null;
  if (person && two.length === 2) {
    const v: Record<string, string> = {
      n: person.name, N: person.name, e: person.email, E: person.email, l: person.email.split('@')[0]!, L: person.email.split('@')[0]!,
      d: dateOf(person, mode, now), D: dateOf(person, 'rfc', now), r: dateOf(person, 'relative', now), t: String(person.timestamp),
      i: dateOf(person, 'iso', now), I: dateOf(person, 'iso-strict', now), s: dateOf(person, 'short', now),
    };
    if (v[two[1]!] !== undefined) return [v[two[1]!]!, 2];
  }
  const one: Record<string, string> = {
    H: c.oid, h: c.oid.slice(0, 7), T: c.tree, t: c.tree.slice(0, 7), P: c.parent.join(' '), p: c.parent.map((p) => p.slice(0, 7)).join(' '),
    s: subjectOf(c.message), f: subjectOf(c.message).replace(/[^A-Za-z0-9.]+/g, '-').replace(/^[-.]+|[-.]+$/g, ''),
    b: bodyOf(c.message), B: c.message, n: '\n', '%': '%', d: decor ? ` (${decor})` : '', D: decor, e: '',
  };
  if (one[spec[0]!] !== undefined) return [one[spec[0]!]!, 1];
  const hex = /^x([0-9a-fA-F]{2})/.exec(spec);
  if (hex) return [String.fromCharCode(parseInt(hex[1]!, 16)), 3];
  return null;
}

/** A pretty format expanded for `c`; `decor` is its `%D` (the refs pointing at it, git-decorate.ts). */
export function expandFormat(format: string, c: Commit, now: number, mode: DateMode, decor = ''): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') {
      out += format[i];
      continue;
    }
    const hit = placeholder(c, format.slice(i + 1), now, mode, decor);
    if (!hit) out += '%';
    else {
      out += hit[0];
      i += hit[1];
    }
  }
  return out;
}

const indent = (message: string) =>
  message.replace(/\n+$/, '').split('\n').map((l) => (l.trim() ? `    ${l}` : '    ')).join('\n') + '\n';

/** The header and message of `c` in a built-in format (without the diff). */
function header(c: Commit, p: Pretty, now: number, abbrev: boolean, decor: string): string {
  const id = `${abbrev ? c.oid.slice(0, 7) : c.oid}${decor ? ` (${decor})` : ''}`;
  if (p.kind === 'oneline') return `${id} ${subjectOf(c.message)}\n`;
  let out = `commit ${id}\n`;
  if (c.parent.length > 1) out += `Merge: ${c.parent.map((x) => x.slice(0, 7)).join(' ')}\n`;
  out += `Author: ${c.author.name} <${c.author.email}>\n`;
  if (p.kind === 'medium') out += `Date:   ${dateOf(c.author, p.date, now)}\n`;
  if (p.kind === 'full') out += `Commit: ${c.committer.name} <${c.committer.email}>\n`;
  return `${out}\n${p.kind === 'short' ? indent(subjectOf(c.message)) : indent(c.message)}`;
}

/** The paths commit `c` changed against its first parent (a root commit: against the empty tree). */
async function commitPairs(run: GitRun, repo: Repo, c: Commit, specs: string[] | null): Promise<Pair[]> {
  const before = storedSides(run, repo, await commitFiles(run, repo, c.parent[0] ?? null));
  const after = storedSides(run, repo, await commitFiles(run, repo, c.oid));
  return changedPairs(before, after, (p) => inSpecs(p, specs), true);
}


/** Options shared by `log` and `show`. */
interface LogOptions {
  pretty: Pretty;
  /** The diff forms asked for (git-diff.ts's diffOf combines them); `none` alone: no diff. */
  diff: DiffKind[];
  max: number;
  reverse: boolean;
  /** `--abbrev-commit` (set by `--oneline`, which is `--pretty=oneline --abbrev-commit`): 7-digit commit ids. */
  abbrev: boolean;
  /** `--decorate[=short|full]`: the refs pointing at each commit after its id; null: none (`no`, or `auto` off a terminal). */
  decorate: DecorateStyle | null;
  /** `--all`: every branch and tag, and HEAD. */
  all?: boolean;
  revs: string[];
  specs: string[] | null;
}

function parseLog(run: GitRun, repo: Repo, args: string[], show: boolean): LogOptions {
  const o: LogOptions = { pretty: { kind: 'medium', date: 'default' }, diff: [], max: show ? 1 : Infinity, reverse: false, abbrev: false, decorate: null, revs: [], specs: null };
  const specs: string[] = [];
  const setPretty = (v: string) => {
    if (['medium', 'oneline', 'short', 'full'].includes(v)) o.pretty = { kind: v as Pretty['kind'], date: o.pretty.date };
    else if (v.startsWith('format:')) o.pretty = { kind: 'format', format: v.slice(7), separator: true, date: o.pretty.date };
    else if (v.startsWith('tformat:')) o.pretty = { kind: 'format', format: v.slice(8), separator: false, date: o.pretty.date };
    // git's get_commit_format: an empty value or one holding `%` is a `tformat:`.
    else if (v === '' || v.includes('%')) o.pretty = { kind: 'format', format: v, separator: false, date: o.pretty.date };
    else refuse(`--pretty=${v}`);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (name: string) => (a.startsWith(`${name}=`) ? a.slice(name.length + 1) : args[++i] ?? die(`option '${name.replace(/^--/, '')}' requires a value`));
    if (a === '--') {
      specs.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      o.revs.push(a);
      continue;
    }
    if (/^-\d+$/.test(a)) o.max = Number(a.slice(1));
    else if (a === '-n' || a.startsWith('--max-count')) o.max = Number(value(a === '-n' ? '-n' : '--max-count'));
    else if (/^-n\d+$/.test(a)) o.max = Number(a.slice(2));
    else if (a === '--oneline') (o.pretty = { kind: 'oneline', date: o.pretty.date }), (o.abbrev = true);
    else if (a === '--abbrev-commit' || a === '--no-abbrev-commit') o.abbrev = a === '--abbrev-commit';
    else if (a.startsWith('--pretty')) setPretty(a === '--pretty' ? 'medium' : a.slice(9));
    else if (a.startsWith('--format')) setPretty(a.slice(9));
    else if (a.startsWith('--date')) {
      const d = a.slice(7);
      if (!isDateMode(d)) refuse(`--date=${d}`);
      o.pretty.date = d as DateMode;
    } else if (a === '-p' || a === '-u' || a === '--patch') o.diff.push('patch');
    else if (a === '--stat' || a === '--shortstat' || a === '--numstat' || a === '--name-only' || a === '--name-status' || a === '--summary') o.diff.push(a.slice(2) as DiffKind);
    else if (a === '-s' || a === '--no-patch') o.diff.push('none');
    else if (a === '--reverse') o.reverse = true;
    else if (a === '--all') o.all = true;
    else if (a === '--decorate' || a.startsWith('--decorate=') || a === '--no-decorate') o.decorate = decorateStyle(a);
    else if (a === '--no-color' || a === '--first-parent') continue;
    else refuse(`git ${show ? 'show' : 'log'} ${a}`);
  }
  if (!o.diff.length) o.diff.push(show ? 'patch' : 'none');
  if (specs.length) o.specs = specs.map((s) => repoPath(run, repo, s) ?? die(`${s}: '${s}' is outside repository at '${repo.dir}'`));
  return o;
}

/**
 * The style of `--decorate`, `--decorate=short|full|no|auto` or `--no-decorate`. `auto` (and git's default,
 * `log.decorate` unset) decorates only on a terminal.
 * @deviation this `git` never decorates without `--decorate`, even when its output goes to a terminal.
 */
function decorateStyle(a: string): DecorateStyle | null {
  if (a === '--decorate') return 'short';
  if (a === '--no-decorate') return null;
  const v = a.slice('--decorate='.length);
  if (v === 'short' || v === 'full') return v;
  if (v === 'no' || v === 'auto') return null;
  return die(`invalid --decorate option: ${v}`);
}

/** The commits reachable from `start` and not from `exclude`, newest committer date first (git's default order). */
export async function walk(run: GitRun, repo: Repo, start: string[], exclude: string[]): Promise<Commit[]> {
  const hidden = await reachableCommits(run, repo, exclude);
  const out: Commit[] = [];
  const seen = new Set<string>();
  const queue: Commit[] = [];
  for (const s of start) if (!hidden.has(s) && !seen.has(s)) (seen.add(s), queue.push(await readCommit(run, repo, s)));
  while (queue.length) {
    queue.sort((x, y) => y.committer.timestamp - x.committer.timestamp);
    const c = queue.shift()!;
    out.push(c);
    for (const p of c.parent) {
      if (seen.has(p) || hidden.has(p)) continue;
      seen.add(p);
      queue.push(await readCommit(run, repo, p));
    }
  }
  return out;
}

async function needCommit(run: GitRun, repo: Repo, rev: string): Promise<string> {
  const oid = await resolveCommit(run, repo, rev);
  if (oid) return oid;
  throw unknownRevision(rev);
}

/** `git log`. */
export async function logCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const o = parseLog(run, repo, args, false);
  const start: string[] = [];
  const exclude: string[] = [];
  for (const r of o.revs) {
    const range = /^(.*)\.\.(.*)$/.exec(r);
    if (range) {
      exclude.push(await needCommit(run, repo, range[1] || 'HEAD'));
      start.push(await needCommit(run, repo, range[2] || 'HEAD'));
    } else if (r.startsWith('^')) exclude.push(await needCommit(run, repo, r.slice(1)));
    else start.push(await needCommit(run, repo, r));
  }
  if (o.all) {
    for (const b of await git.listBranches({ fs: run.gfs, gitdir: repo.gitdir })) start.push(await needCommit(run, repo, `refs/heads/${b}`));
    for (const t of await git.listTags({ fs: run.gfs, gitdir: repo.gitdir })) start.push(await needCommit(run, repo, `refs/tags/${t}`));
    const head = await headCommit(run, repo);
    if (head) start.push(head);
  }
  if (!o.revs.some((r) => !r.startsWith('^')) && !(o.all && start.length)) {
    const head = await headCommit(run, repo);
    if (!head) await noCommitsYet(run, repo);
    start.push(head!);
  }
  let commits = await walk(run, repo, start, exclude);
  if (o.specs) {
    const touching: Commit[] = [];
    for (const c of commits) if ((await commitPairs(run, repo, c, o.specs)).length) touching.push(c);
    commits = touching;
  }
  commits = commits.slice(0, o.max);
  if (o.reverse) commits.reverse();
  await printCommits(run, repo, commits, o);
  return 0;
}

/**
 * Prints `commits` as git's log_tree_commit does: each commit's header (or format), then, when the commit changed
 * any path, a blank line (none after `--oneline` or an empty `--format=`) and the diff in the chosen form. The blank
 * line follows the commit's changes, not the printed diff: `--summary` of a commit that only modified still gets it.
 * A `format:` pretty separates entries (the newline before the diff ends its line), `tformat:` terminates each.
 */
async function printCommits(run: GitRun, repo: Repo, commits: Commit[], o: LogOptions): Promise<void> {
  const now = Math.floor(run.now() / 1000);
  const p = o.pretty;
  let all: Decorations | null = null;
  const wanted = o.decorate || (p.kind === 'format' && /%[dD]/.test(p.format!));
  const decor = async (oid: string, style: DecorateStyle) => (wanted ? decorationText(run, repo, (all ??= await loadDecorations(run, repo)), oid, style) : '');
  for (let i = 0; i < commits.length; i++) {
    const c = commits[i]!;
    const pairs = o.diff.includes('none') ? [] : await commitPairs(run, repo, c, o.specs);
    const diff = pairs.length ? await diffOf(o.diff, pairs, 3, pathQuoter(run)) : '';
    const empty = p.kind === 'format' && p.format === '';
    // log-tree.c: `---` before the blank line when both a diffstat and a patch follow.
    const dashes = o.diff.includes('stat') && o.diff.includes('patch') && !o.diff.some((k) => k === 'name-only' || k === 'name-status') ? '---' : '';
    const gap = pairs.length && p.kind !== 'oneline' && !empty ? `${dashes}\n` : '';
    if (p.kind === 'format') {
      const text = bytesOf(expandFormat(p.format!, c, now, p.date, await decor(c.oid, 'short')));
      if (p.separator) run.out.push(`${i > 0 ? '\n' : ''}${text}${gap}${diff}`);
      else run.out.push(`${text}${empty ? '' : '\n'}${gap}${diff}`);
      continue;
    }
    if (i > 0 && p.kind !== 'oneline') run.out.push('\n');
    run.out.push(`${bytesOf(header(c, p, now, o.abbrev, o.decorate ? await decor(c.oid, o.decorate) : ''))}${gap}${diff}`);
  }
}

/** git's error for a log or show of HEAD, not named, on a branch with no commit yet (exit 128). */
async function noCommitsYet(run: GitRun, repo: Repo): Promise<never> {
  const branch = (await run.fs.readFile(`${repo.gitdir}/HEAD`)).trim().replace(/^ref: refs\/heads\//, '');
  return die(`your current branch '${branch}' does not have any commits yet`);
}

/** `git show [REV]` (a commit and its diff) or `git show REV:path` (the blob). */
export async function showCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const o = parseLog(run, repo, args, true);
  const revs = o.revs.length ? o.revs : ['HEAD'];
  const commits: Commit[] = [];
  for (const r of revs) {
    const blob = /^([^:]*):(.*)$/.exec(r);
    if (blob) {
      await showBlob(run, repo, blob[1] || 'HEAD', blob[2]!, r);
      continue;
    }
    const tag = await annotatedTag(run, repo, r);
    if (tag) {
      const builtin = o.pretty.kind !== 'format';
      const date = builtin ? `Date:   ${dateOf(tag.tagger, o.pretty.date, Math.floor(run.now() / 1000))}\n` : '';
      print(run, `tag ${tag.tag}\nTagger: ${tag.tagger.name} <${tag.tagger.email}>\n${date}\n${tag.message}${builtin ? '\n' : ''}`);
    }
    // A HEAD named on the command line is a revision like any other (`ambiguous argument 'HEAD'`).
    if (o.revs.length === 0 && !(await headCommit(run, repo))) await noCommitsYet(run, repo);
    commits.push(await readCommit(run, repo, await needCommit(run, repo, r)));
  }
  if (commits.some((c) => c.parent.length > 1) && o.diff.includes('patch') && !o.diff.includes('none')) refuse('git show of a merge commit (its combined diff)');
  await printCommits(run, repo, commits, { ...o, max: Infinity });
  return 0;
}

/** The annotated tag `name` names (`v1`, `refs/tags/v1`), or null. */
async function annotatedTag(run: GitRun, repo: Repo, name: string): Promise<{ tag: string; tagger: Person; message: string } | null> {
  try {
    const oid = await git.resolveRef({ fs: run.gfs, gitdir: repo.gitdir, ref: name.startsWith('refs/') ? name : `refs/tags/${name}`, depth: 2 });
    const t = await git.readTag({ fs: run.gfs, gitdir: repo.gitdir, oid });
    return { tag: t.tag.tag, tagger: t.tag.tagger, message: t.tag.message };
  } catch {
    return null;
  }
}

async function showBlob(run: GitRun, repo: Repo, rev: string, path: string, whole: string): Promise<void> {
  const oid = await needCommit(run, repo, rev);
  const rel = path.startsWith('./') ? repoPath(run, repo, path) ?? path : path.replace(/^\/+/, '');
  const files = await commitFiles(run, repo, oid);
  const e = files.get(rel);
  if (!e) {
    if ([...files.keys()].some((p) => p.startsWith(`${rel}/`)) || rel === '') return refuse(`git show of a tree (${whole})`);
    die(`path '${rel}' does not exist in '${rev}'`);
  }
  const { blob } = await git.readBlob({ fs: run.gfs, gitdir: repo.gitdir, oid: e!.oid });
  run.out.push(Buffer.from(blob).toString('latin1'));
}
