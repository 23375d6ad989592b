/**
 * `git clean` and `git check-ignore` of the shell engine: the untracked (and, with `-x`/`-X`, ignored) paths of the
 * work tree as `git status` sees them, removed or named as git 2.43 does.
 * @see https://git-scm.com/docs/git-clean, https://git-scm.com/docs/git-check-ignore
 */
import { configValue } from './git-config.ts';
import { GitExit, isIgnored, print, refuse, relative, repoPath, sortedPaths, splitShort, die, type GitRun, type Repo } from './git-repo.ts';
import { snapshot, untrackedPaths } from './git-status.ts';


/**
 * `git clean [-n] [-f] [-d] [-x | -X] [-q]`: names (`Would remove P`) or removes (`Removing P`) the untracked files;
 * an untracked directory only with `-d`; ignored paths too with `-x`, only them with `-X`. Without `-n` or `-f` git
 * refuses (clean.requireForce), exit 128. Pathspecs and `-i`/`-e` are refused loudly.
 */
export async function cleanCommand(run: GitRun, repo: Repo, words: string[]): Promise<number> {
  let dryRun = false;
  let force = false;
  let dirs = false;
  let ignored: 'no' | 'also' | 'only' = 'no';
  let quiet = false;
  for (const a of splitShort(words, '')) {
    if (a === '-n' || a === '--dry-run') dryRun = true;
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '-d') dirs = true;
    else if (a === '-x') ignored = 'also';
    else if (a === '-X') ignored = 'only';
    else if (a === '-q' || a === '--quiet') quiet = true;
    else return refuse(`git clean ${a}`);
  }
  const requireForce = (await configValue(run, repo, 'clean.requireForce')) !== 'false';
  if (!dryRun && !force && requireForce) throw new GitExit('fatal: clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean\n', 128);
  const s = await snapshot(run, repo, ignored !== 'no');
  const files = [...(ignored === 'only' ? [] : untrackedPaths(s)), ...(ignored === 'no' ? [] : s.ignored)].filter((p) => !p.endsWith('/'));
  const tracked = [...s.index.keys()];
  // Without a pathspec git cleans the directory it runs in.
  const here = repoPath(run, repo, '.') ?? '';
  const inHere = (p: string) => here === '' || p === `${here}/` || p.startsWith(`${here}/`);
  const chosen = sortedPaths(new Set([...files, ...(dirs ? await untrackedDirs(run, repo, tracked, ignored) : [])].filter(inHere)));
  for (const p of chosen) {
    const shown = relative(run, repo, p);
    if (dryRun) print(run, `Would remove ${shown}\n`);
    else {
      if (!quiet) print(run, `Removing ${shown}\n`);
      await run.fs.rm(`${repo.dir}/${p.replace(/\/$/, '')}`, { recursive: true, force: true });
    }
  }
  return 0;
}

/**
 * `git check-ignore [-q] PATH…`: each path an exclude rule ignores (itself or a directory above it), as given; tracked
 * paths are never reported. Exit 0 when one is, 1 when none. `-v` (the matching rule) is refused loudly.
 */
export async function checkIgnoreCommand(run: GitRun, repo: Repo, words: string[]): Promise<number> {
  let quiet = false;
  const paths: string[] = [];
  for (const a of words) {
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-') && a !== '-') return refuse(`git check-ignore ${a}`);
    else paths.push(a);
  }
  if (!paths.length) die('no path specified');
  const s = await snapshot(run, repo);
  let any = false;
  for (const arg of paths) {
    const p = repoPath(run, repo, arg) ?? die(`${arg}: '${arg}' is outside repository at '${repo.dir}'`);
    if (s.index.has(p)) continue;
    let hit = false;
    const parts = p.split('/');
    for (let i = 1; i <= parts.length && !hit; i++) {
      const prefix = parts.slice(0, i).join('/');
      const dir = i < parts.length || (await run.fs.stat(`${repo.dir}/${p}`).then((st) => st.isDirectory, () => false));
      hit = await isIgnored(run, repo, dir ? `${prefix}/` : prefix);
    }
    if (!hit) continue;
    any = true;
    if (!quiet) print(run, `${arg}\n`);
  }
  return any ? 0 : 1;
}

/**
 * The topmost directories `git clean -d` removes whole (`dir/`): no tracked path under them; an ignored one only
 * with `-x`/`-X`, an untracked one only without `-X` and, without `-x`, only when nothing under it is ignored
 * (git keeps ignored files; the untracked files beside them are named one by one).
 */
async function untrackedDirs(run: GitRun, repo: Repo, tracked: string[], ignored: 'no' | 'also' | 'only'): Promise<string[]> {
  const out: string[] = [];
  const holdsIgnored = async (rel: string): Promise<boolean> => {
    for (const name of await run.fs.readdir(`${repo.dir}/${rel}`)) {
      const path = `${rel}/${name}`;
      const dir = (await run.fs.lstat(`${repo.dir}/${path}`)).isDirectory;
      if (await isIgnored(run, repo, dir ? `${path}/` : path)) return true;
      if (dir && (await holdsIgnored(path))) return true;
    }
    return false;
  };
  const visit = async (rel: string): Promise<void> => {
    for (const name of (await run.fs.readdir(rel ? `${repo.dir}/${rel}` : repo.dir)).sort()) {
      if (!rel && name === '.git') continue;
      const path = rel ? `${rel}/${name}` : name;
      if (!(await run.fs.lstat(`${repo.dir}/${path}`)).isDirectory) continue;
      const hasTracked = tracked.some((t) => t.startsWith(`${path}/`));
      if (hasTracked) {
        await visit(path);
        continue;
      }
      if (await isIgnored(run, repo, `${path}/`)) {
        if (ignored !== 'no') out.push(`${path}/`);
      } else if (ignored === 'also' || (ignored === 'no' && !(await holdsIgnored(path)))) out.push(`${path}/`);
      else await visit(path);
    }
  };
  await visit('');
  return out;
}
