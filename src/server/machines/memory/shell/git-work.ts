/**
 * The subcommands of the shell engine's `git` that record work: `add` (paths, `.`, `-A`, `-u`, `-f`), `rm`
 * (`--cached`, `-r`, `-f`, `-q`), `mv`, and `commit` (`-m`, `-F`, `-a`, `--allow-empty`, `--amend`, `--author`,
 * `-q`) with git's summary lines, its "nothing to commit" status and its identity errors. The index and objects are
 * written by isomorphic-git over the sprite's files.
 * @see https://git-scm.com/docs/git-add, git-rm, git-mv, git-commit
 */
import git from 'isomorphic-git';
import { identity } from './git-config.ts';
import { subjectOf } from './git-log.ts';
import { showDate, zoneAt } from './git-date.ts';
import { changedPairs, shortstatLine, lineCounts, storedSides, summaryText } from './git-diff.ts';
import {
  bytesOf, commitFiles, die, GitExit, inSpecs, pathQuoter, print, readCommit, readIndex, refuse, repoPath, sortedPaths, splitShort, writeBlob, writeIndex,
  type GitRun, type Repo,
} from './git-repo.ts';
import { longStatus, snapshot, stagedPairs, unstagedPairs, type Snapshot } from './git-status.ts';

/** Pathspecs given on the command line, relative to the work tree; git's fatal for one outside it. */
export function specsOf(run: GitRun, repo: Repo, args: string[]): string[] {
  return args.map((a) => repoPath(run, repo, a) ?? die(`${a}: '${a}' is outside repository at '${repo.dir}'`));
}

/** Whether `spec` names anything in the work tree or the index. */
const matches = (s: Snapshot, spec: string) => [...s.work.keys(), ...s.index.keys()].some((p) => inSpecs(p.replace(/\/$/, ''), [spec]));

/**
 * Stages the work tree's state of the paths `keep` accepts: new and changed files are added (untracked ones only
 * when `untracked`), files gone from the work tree are removed from the index.
 */
export async function stage(run: GitRun, repo: Repo, s: Snapshot, keep: (p: string) => boolean, untracked: boolean): Promise<string[]> {
  const index = new Map(s.index);
  const changes: string[] = [];
  for (const p of index.keys()) {
    if (keep(p) && !s.work.has(p)) {
      index.delete(p);
      changes.push(`remove '${p}'`);
    }
  }
  for (const [p, f] of s.work) {
    if (p.endsWith('/') || !keep(p) || (!untracked && !s.index.has(p))) continue;
    const entry = { oid: await writeBlob(run, repo, await f.read()), mode: f.mode };
    const old = s.index.get(p);
    if (!old || old.oid !== entry.oid || old.mode !== entry.mode) changes.push(`add '${p}'`);
    index.set(p, entry);
  }
  await writeIndex(run, repo, index);
  // In index (path) order, as `git add -v` reports them.
  return changes.sort((x, y) => (x.slice(x.indexOf("'")) < y.slice(y.indexOf("'")) ? -1 : 1));
}

/** `git add`; `-v` names each path it adds or removes (`add 'f'`, `remove 'g'`). */
export async function addCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  let all = false;
  let update = false;
  let force = false;
  let verbose = false;
  const paths: string[] = [];
  let dashdash = false;
  for (const a of args) {
    if (dashdash || !a.startsWith('-') || a === '-') paths.push(a);
    else if (a === '--') dashdash = true;
    else if (a === '-A' || a === '--all') all = true;
    else if (a === '-u' || a === '--update') update = true;
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '-v' || a === '--verbose') verbose = true;
    else if (a === '-q') continue;
    else return refuse(`git add ${a}`);
  }
  if (!paths.length && !all && !update) {
    run.err.push('Nothing specified, nothing added.\nhint: Maybe you wanted to say \'git add .\'?\nhint: Turn this message off by running\nhint: "git config advice.addEmptyPathspec false"\n');
    return 0;
  }
  const specs = paths.length ? specsOf(run, repo, paths) : null;
  const s = await snapshot(run, repo, true);
  if (specs) {
    const ignoredHits: string[] = [];
    const forced: string[] = [];
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]!;
      if (matches(s, spec)) continue;
      const ignored = s.ignored.some((p) => inSpecs(p.replace(/\/$/, ''), [spec]) || spec.startsWith(p));
      if (!ignored) die(`pathspec '${paths[i]}' did not match any files`);
      if (force) forced.push(spec);
      else ignoredHits.push(paths[i]!);
    }
    // `-f` adds ignored files too: the work tree is read again without the exclude files.
    const changes = await stage(run, repo, forced.length ? await snapshot(run, repo, false, true) : s, (p) => inSpecs(p, specs), !update);
    if (verbose) print(run, changes.map((c) => `${c}\n`).join(''));
    if (!ignoredHits.length) return 0;
    run.err.push(`The following paths are ignored by one of your .gitignore files:\n${ignoredHits.map((p) => `${p}\n`).join('')}hint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"\n`);
    return 1;
  }
  const changes = await stage(run, repo, s, () => true, !update);
  if (verbose) print(run, changes.map((c) => `${c}\n`).join(''));
  return 0;
}

/** `git rm`. */
export async function rmCommand(run: GitRun, repo: Repo, words: string[]): Promise<number> {
  const args = splitShort(words, '');
  let cached = false;
  let recursive = false;
  let force = false;
  let quiet = false;
  const paths: string[] = [];
  let dashdash = false;
  for (const a of args) {
    if (dashdash || !a.startsWith('-')) paths.push(a);
    else if (a === '--') dashdash = true;
    else if (a === '--cached') cached = true;
    else if (a === '-r') recursive = true;
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else return refuse(`git rm ${a}`);
  }
  if (!paths.length) throw new GitExit('usage: git rm [-f | --force] [-n] [-q] [--cached] [-r] [--ignore-unmatch]\n', 129);
  const specs = specsOf(run, repo, paths);
  const s = await snapshot(run, repo);
  const chosen: string[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const hits = [...s.index.keys()].filter((p) => inSpecs(p, [spec]));
    if (!hits.length) die(`pathspec '${paths[i]}' did not match any files`);
    if (!recursive && !hits.includes(spec)) die(`not removing '${paths[i]}' recursively without -r`);
    chosen.push(...hits);
  }
  const files = sortedPaths(new Set(chosen));
  if (!force) {
    const staged = new Set(stagedPairs(run, repo, s).map((p) => p.path));
    const local = new Set((await unstagedPairs(run, repo, s)).filter((p) => p.b).map((p) => p.path));
    const both = files.filter((p) => staged.has(p) && local.has(p));
    // A file not in HEAD counts as staged (git's rm.c: before the first commit everything staged is a change).
    const stagedOnly = cached ? [] : files.filter((p) => staged.has(p) && !local.has(p));
    const localOnly = cached ? [] : files.filter((p) => local.has(p) && !staged.has(p));
    const problem = (what: string, list: string[], hint: string) =>
      `error: the following ${list.length === 1 ? 'file has' : 'files have'} ${what}:\n${list.map((p) => `    ${p}\n`).join('')}${hint}\n`;
    let msg = '';
    if (both.length) msg += problem('staged content different from both the\nfile and the HEAD', both, '(use -f to force removal)');
    if (stagedOnly.length) msg += problem('changes staged in the index', stagedOnly, '(use --cached to keep the file, or -f to force removal)');
    if (localOnly.length) msg += problem('local modifications', localOnly, '(use --cached to keep the file, or -f to force removal)');
    if (msg) throw new GitExit(msg, 1);
  }
  const index = new Map(s.index);
  for (const p of files) {
    if (!quiet) print(run, `rm '${p}'\n`);
    index.delete(p);
    if (!cached) await run.fs.rm(`${repo.dir}/${p}`, { force: true });
  }
  await writeIndex(run, repo, index);
  if (!cached) for (const p of files) await pruneEmptyParents(run, repo, p);
  return 0;
}

/** Removes the now-empty directories above a removed file, as git does. */
async function pruneEmptyParents(run: GitRun, repo: Repo, path: string): Promise<void> {
  for (let dir = path.slice(0, path.lastIndexOf('/')); dir; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) {
    const abs = `${repo.dir}/${dir}`;
    try {
      if ((await run.fs.readdir(abs)).length) return;
      await run.fs.rm(abs, { recursive: true });
    } catch {
      return;
    }
  }
}

/** `git mv SRC… DEST`; `-v` says `Renaming SRC to DEST` for each. */
export async function mvCommand(run: GitRun, repo: Repo, args: string[]): Promise<number> {
  const verbose = args.includes('-v') || args.includes('--verbose');
  const paths = args.filter((a) => a !== '--' && !(a === '-f' || a === '-k' || a === '-v' || a === '--verbose'));
  if (args.some((a) => a.startsWith('-') && !['--', '-f', '-k', '-v', '--verbose'].includes(a))) return refuse(`git mv ${args.find((a) => a.startsWith('-'))}`);
  if (paths.length < 2) throw new GitExit('usage: git mv [<options>] <source>... <destination>\n', 129);
  const s = await snapshot(run, repo);
  const destArg = paths.pop()!;
  const dest = specsOf(run, repo, [destArg])[0]!;
  const destAbs = `${repo.dir}/${dest}`;
  const destIsDir = (await run.fs.exists(destAbs)) && (await run.fs.stat(destAbs)).isDirectory;
  if (paths.length > 1 && !destIsDir) die(`destination '${destArg}' is not a directory`);
  const index = new Map(s.index);
  for (const srcArg of paths) {
    const src = specsOf(run, repo, [srcArg])[0]!;
    const target = destIsDir ? `${dest ? `${dest}/` : ''}${src.slice(src.lastIndexOf('/') + 1)}` : dest;
    const where = `source=${srcArg}, destination=${destIsDir ? `${destArg.replace(/\/$/, '')}/${src.slice(src.lastIndexOf('/') + 1)}` : destArg}`;
    const tracked = [...s.index.keys()].filter((p) => p === src || p.startsWith(`${src}/`));
    if (!(await run.fs.exists(`${repo.dir}/${src}`))) die(`bad source, ${where}`);
    if (!tracked.length) die(`not under version control, ${where}`);
    if (await run.fs.exists(`${repo.dir}/${target}`)) die(`destination exists, ${where}`);
    if (verbose) print(run, `Renaming ${src} to ${target}\n`);
    await run.fs.mv(`${repo.dir}/${src}`, `${repo.dir}/${target}`);
    for (const p of tracked) {
      index.set(target + p.slice(src.length), index.get(p)!);
      index.delete(p);
    }
  }
  await writeIndex(run, repo, index);
  return 0;
}

/** git's `whitespace` cleanup of a message: trailing spaces cut, blank runs folded, leading/trailing blank lines dropped. */
export function cleanMessage(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  const out: string[] = [];
  for (const l of lines) {
    if (l === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(l);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.length ? `${out.join('\n')}\n` : '';
}

/** `git commit`. */
export async function commitCommand(run: GitRun, repo: Repo, words: string[]): Promise<number> {
  const args = splitShort(words, 'mFCc');
  const messages: string[] = [];
  let all = false;
  let allowEmpty = false;
  let amend = false;
  let quiet = false;
  let author: string | undefined;
  let noEdit = false;
  let allowEmptyMessage = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => args[++i] ?? die(`switch \`${a.replace(/^-+/, '')}' requires a value`);
    if (a === '-m' || a === '--message') messages.push(value());
    else if (a.startsWith('--message=')) messages.push(a.slice(10));
    else if (a === '-a' || a === '--all') all = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-F' || a === '--file' || a.startsWith('--file=')) {
      const f = a.startsWith('--file=') ? a.slice(7) : value();
      try {
        if (f === '-') return refuse('git commit -F - (a message on stdin)');
        messages.push(await run.fs.readFile(run.fs.resolvePath(run.cwd, f)));
      } catch {
        die(`could not read log file '${f}': No such file or directory`);
      }
    } else if (a === '--allow-empty') allowEmpty = true;
    else if (a === '--allow-empty-message') allowEmptyMessage = true;
    else if (a === '--amend') amend = true;
    else if (a === '--no-edit') noEdit = true;
    else if (a === '--no-verify' || a === '-n' || a === '--no-gpg-sign' || a === '-v' || a === '--verbose') continue;
    else if (a.startsWith('--author=')) author = a.slice(9);
    else if (a === '--author') author = value();
    else return refuse(`git commit ${a}`);
  }
  if (!messages.length && !(amend && noEdit)) return refuse('git commit without -m or -F (it opens an editor)');
  const tz = zoneAt(run.env.TZ);
  let authorPerson = await identity(run, repo, 'author', tz);
  const committer = await identity(run, repo, 'committer', tz);
  let s = await snapshot(run, repo);
  if (all) {
    await stage(run, repo, s, () => true, false);
    s = await snapshot(run, repo);
  }
  const head = s.head;
  const headCommit = head ? await readCommit(run, repo, head) : null;
  if (amend && !headCommit) die('You have nothing to amend.');
  if (author) {
    const m = /^(.*?)\s*<(.*)>$/.exec(author);
    if (!m) die(`--author '${author}' is not 'Name <email>' and matches no existing author`);
    authorPerson = { ...authorPerson, name: m![1]!, email: m![2]! };
  } else if (amend) authorPerson = headCommit!.author;
  const staged = stagedPairs(run, repo, s);
  const baseFiles = amend ? await commitFiles(run, repo, headCommit!.parent[0] ?? null) : s.headFiles;
  if (!staged.length && !allowEmpty && !amend) {
    print(run, await longStatus(run, repo, s, true));
    return 1;
  }
  const message = messages.length ? cleanMessage(messages.join('\n\n')) : headCommit!.message;
  if (!message && !allowEmptyMessage) throw new GitExit('Aborting commit due to empty commit message.\n', 1);
  const oid = await git.commit({
    fs: run.gfs, dir: repo.dir, gitdir: repo.gitdir, message: message || '\n', author: authorPerson, committer, amend,
  });
  if (quiet) return 0;
  const pairs = changedPairs(storedSides(run, repo, baseFiles), storedSides(run, repo, await commitFiles(run, repo, oid)), () => true, true);
  const subject = subjectOf(message);
  const where = s.branch === null ? 'detached HEAD' : s.branch;
  const root = (amend ? headCommit!.parent.length : head ? 1 : 0) === 0 ? ' (root-commit)' : '';
  let out = `[${where}${root} ${oid.slice(0, 7)}] ${subject}\n`;
  if (amend) out += ` Date: ${showDate(authorPerson.timestamp, -authorPerson.timezoneOffset, 'default', 0)}\n`;
  let added = 0;
  let deleted = 0;
  for (const p of pairs) {
    const c = await lineCounts(p);
    added += c.added;
    deleted += c.deleted;
  }
  if (pairs.length) out += shortstatLine(pairs.length, added, deleted) + summaryText(pairs, pathQuoter(run));
  run.out.push(bytesOf(out));
  return 0;
}

