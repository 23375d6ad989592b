import { describe, expect, it } from 'vitest';
import { engineBash, hostBash, hostHas, type Outcome } from '../../../../../test/support/host-bash.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

// `git` on the shell engine, compared with the host's real git running the same script in a temp dir. Both sides
// get HOME set to that dir (so `--global` writes there), no system config, and fixed author and committer dates, so
// commit ids are the same on both sides; only the temp dir's path differs (the engine's is /tmp/case).

const PRE = 'export HOME=$PWD GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"; ';
const IDENTITY = 'git config --global user.name "Ada L"; git config --global user.email ada@example.com; ';

/** The host's outcome with its temp dir's path written as the engine's. */
function host(script: string): Outcome {
  const o = hostBash(PRE + script);
  const fix = (s: string) => s.replace(/\/tmp\/spritzer-host-[A-Za-z0-9]+/g, '/tmp/case');
  return { stdout: fix(o.stdout), stderr: fix(o.stderr), exit: o.exit };
}
const engine = (script: string) => engineBash(PRE + script);

const SCRIPTS: Array<[string, string]> = [
  ['outside a repository', 'git status; echo "st=$?"; git log; echo "st=$?"; git rev-parse --is-inside-work-tree; echo "st=$?"'],
  ['init (the default-branch hint), init again, init -b', 'git init; git init; git init -b main sub; cat .git/HEAD sub/.git/HEAD'],
  ['status of a new repository, untracked files and directories', 'git init -q; echo a > a; mkdir -p d/e; echo x > d/e/f; mkdir empty; git status; git status -s; git status --porcelain -b'],
  ['.gitignore: ignored files and directories', "git init -q; printf 'node_modules/\\n*.log\\n' > .gitignore; mkdir -p node_modules/x; echo 1 > node_modules/x/i.js; echo l > debug.log; echo m > main.py; git status --porcelain; git status --ignored -s; git add debug.log; echo \"st=$?\"; git add -f debug.log; git status -s"],
  ['add -A, commit (root commit summary), status clean', `${IDENTITY}git init -q; echo hi > a; mkdir -p d/e; echo x > d/e/f; git add -A; git status; git commit -m first; git status; git status -s`],
  ['commit -am, -m -m, an empty commit, nothing to commit', `${IDENTITY}git init -q; echo a > a; git add a; git commit -qm 1; echo b >> a; git commit -am "two" -m "body"; git commit -m again; echo "st=$?"; git commit --allow-empty -m empty; git log --format=%B -2`],
  ['unstaged, staged and untracked changes; diff, diff --cached, diff HEAD', `${IDENTITY}git init -q; printf '1\\n2\\n3\\n' > a; echo b > b; git add .; git commit -qm 1; echo 4 >> a; git rm -q --cached b; echo n > new; git status; git status -s; git diff; git diff --cached; git diff HEAD; git diff --stat; git diff --name-only; git diff --name-status HEAD`],
  ['diff --quiet and --exit-code statuses', `${IDENTITY}git init -q; echo a > a; git add a; git commit -qm 1; git diff --quiet; echo "st=$?"; echo b >> a; git diff --quiet; echo "st=$?"; git diff --exit-code > /dev/null; echo "st=$?"; git add a; git diff --cached --quiet; echo "st=$?"`],
  ['diff: function line in the hunk header, new, deleted, binary and mode changes', `${IDENTITY}git init -q; printf 'def f():\\n' > p.py; for i in 1 2 3 4 5 6 7 8; do echo "    x$i" >> p.py; done; printf '\\0bin' > b.dat; echo x > run.sh; echo gone > g; git add .; git commit -qm 1; sed -i 's/x7/y7/' p.py; printf '\\0bin2' > b.dat; chmod +x run.sh; rm g; : > empty; git add empty; git diff; git diff --cached; git diff --stat`],
  ['log formats', `${IDENTITY}git init -q; for i in 1 2 3; do echo $i > f; git add f; GIT_COMMITTER_DATE="170000000$i +0100" git commit -qm "c$i" -m "body $i"; done; git log; git log --oneline; git log -n 2 --oneline; git log -1 --format='%H|%h|%s|%an|%ae|%ad|%cd|%ci|%cI|%at'; git log --pretty=format:'%h %s'; echo; git log --format='[%B]' -1; git log --reverse --oneline; git log --stat -1; git log --oneline -- f HEAD~1`],
  ['show a commit, its stat, a file at a revision', `${IDENTITY}git init -q; echo a > a; git add a; git commit -qm 1; echo b >> a; echo c > c; git add .; git commit -qm 2; git show; git show --stat HEAD~1; git show HEAD~1:a; git show HEAD:nope; echo "st=$?"`],
  ['branch, checkout, switch, merge (fast-forward and a merge commit)', `${IDENTITY}git init -q -b main; echo a > a; git add a; git commit -qm 1; git branch feature; git branch; git branch --show-current; git checkout feature; echo b >> a; git commit -qam 2; git checkout main; git merge feature; git merge feature; git switch -c other; echo c > c; git add c; git commit -qm 3; git switch main; echo d > d; git add d; GIT_COMMITTER_DATE="1700000100 +0000" git commit -qm 4; GIT_COMMITTER_DATE="1700000200 +0000" git merge other; git log --format='%h %p %s'; git branch -d other; git branch -d main; git checkout -b feature; echo "st=$?"; git branch -v`],
  ['checkout refuses to lose a local change; carries others', `${IDENTITY}git init -q -b main; echo a > a; echo k > k; git add .; git commit -qm 1; git checkout -q -b f; echo b > a; git commit -qam 2; git checkout -q main; echo local > a; git checkout f; echo "st=$?"; git checkout -- a; echo kk > k; git checkout f; cat a k`],
  ['restore a file: checkout --, checkout FILE, restore, restore --staged, reset FILE', `${IDENTITY}git init -q; echo a > a; git add a; git commit -qm 1; echo z > a; git checkout -- a; cat a; echo z > a; git checkout a; cat a; echo z > a; git restore a; cat a; echo z > a; git add a; git restore --staged a; git status -s; git add a; git reset HEAD a; git status -s; git reset -q a; git checkout nope; echo "st=$?"`],
  ['reset --soft, --mixed, --hard', `${IDENTITY}git init -q; echo 1 > f; git add f; git commit -qm 1; echo 2 > f; git commit -qam 2; echo 3 > f; git commit -qam 3; git reset --soft HEAD~1; git status -s; git log --oneline; git reset HEAD~1; git status -s; git reset --hard HEAD; cat f; git reset --hard HEAD~1; cat f; git log --oneline`],
  ['tags', `${IDENTITY}git init -q; echo 1 > f; git add f; git commit -qm 1; echo 2 > f; git commit -qam 2; git tag v1; git tag v0 HEAD~1; git tag -a v2 -m release; git tag; git tag -l 'v[01]'; git rev-parse --short v0 v1; git tag v1; echo "st=$?"; git tag -d v0; git show v2 --format=%s -s`],
  ['rev-parse', `${IDENTITY}git init -q; git rev-parse HEAD; echo "st=$?"; git rev-parse --abbrev-ref HEAD; echo "st=$?"; echo a > a; git add a; git commit -qm 1; git rev-parse HEAD; git rev-parse --short HEAD; git rev-parse --abbrev-ref HEAD; git rev-parse --show-toplevel; git rev-parse --is-inside-work-tree; git rev-parse --git-dir; mkdir -p s/t; cd s/t; git rev-parse --git-dir --show-prefix --show-cdup; git rev-parse --verify nope; echo "st=$?"`],
  ['rm and mv', `${IDENTITY}git init -q; mkdir d; echo 1 > d/1; echo a > a; echo b > b; git add .; git commit -qm 1; git rm nope; echo "st=$?"; echo z >> a; git rm a; echo "st=$?"; git rm d; echo "st=$?"; git rm -r --cached d; git rm -q b; git mv a c; git mv nope x; echo "st=$?"; git status -s; git commit -qm 2; git show --stat --format=%s; ls`],
  ['a subdirectory: relative paths, ls-files', `${IDENTITY}git init -q; mkdir -p src/lib; echo m > src/main.py; echo t > top; git add .; git commit -qm 1; cd src; echo c >> main.py; echo n > lib/new; git status; git status -s; git status --porcelain; git ls-files; cd ..; git ls-files; git ls-files -m; git ls-files -o`],
  ['config: get, set, unset, list, --global', 'git config --global user.name "Jane Doe"; git config --global user.name; git config --global --list; git config nope.key; echo "st=$?"; git init -q; git config core.filemode; git config --list; git config --unset user.name; echo "st=$?"; git config user.email a@b; git config user.email; git config --get user.email; git config badkey; echo "st=$?"'],
  ['clone of a local repository', `${IDENTITY}git init -q r; cd r; echo a > a; git add a; git commit -qm 1; cd ..; git clone r c; cat c/a; git -C c log --oneline; git -C c branch; git -C c remote -v; git -C c status; git clone r c; echo "st=$?"; git clone nope x; echo "st=$?"`],
  ['a blank line between the message and a commit\'s changes (name-only, name-status, summary), format: and tformat:, --format=, --pretty=oneline', `${IDENTITY}git init -q; echo 1 > a; git add a; git commit -qm A; git commit -q --allow-empty -m E; echo 2 > a; echo b > b; git add .; git commit -qm B; git log --name-only --format=%s; git log --name-status; git show --name-only --format=%H%n%s; git log --format=format:%s --name-only; echo .; git log --format= --name-only; git log --summary --format=%s; git log --oneline --name-status; git log --pretty=oneline; git log --oneline --no-abbrev-commit -1; git log --abbrev-commit -1`],
  ['diff: a TAB after a ---/+++ name holding a space', `${IDENTITY}git init -q; echo 1 > 'my file.txt'; echo 1 > plain; git add .; git commit -qm A; echo 2 > 'my file.txt'; echo 2 > plain; echo n > 'new one'; git add 'new one'; git diff; git diff --cached; git show --format=%s; git rm -q 'my file.txt'; git diff --cached`],
  ['%d, %D and --decorate: HEAD -> branch first, then refs in reverse refname order, tags peeled', `${IDENTITY}git init -q -b main; echo 1 > a; git add a; git commit -qm A; echo 2 > a; git commit -qam B; git branch feature; git tag v1; git tag -a v2 -m x HEAD~1; git log --format='%h%d|%D'; git log --oneline --decorate; git log --decorate=full -1; git log --decorate=no --oneline -1; git checkout -q --detach; git log --format='[%D]' -1; git log --decorate=bogus; echo "st=$?"`],
  ['checkout/switch --detach: at HEAD without a revision, no advice; the previous detached position', `${IDENTITY}git init -q -b main; echo 1 > a; git add a; git commit -qm A; git commit -q --allow-empty -m B; git checkout --detach; git checkout main; git checkout HEAD~1; git checkout --detach main; git checkout -q main~1; git switch --detach main; git checkout main; cat .git/HEAD`],
  ['paths quoted in diffs, names and stats; core.quotePath=false (by -c and in the config) keeps non-ASCII names', `${IDENTITY}git init -q; printf '\\0' > 'b in'; echo 1 > é; echo 1 > 'q"t'; echo 1 > 'a b'; git -c core.quotepath=false ls-files; git -c core.quotePath=false status --short; git add .; git commit -qm A; printf '\\0x' > 'b in'; echo 2 > é; echo 2 > 'q"t'; git diff; git diff --stat; git diff --numstat; git -c core.quotepath=off diff --name-only; git commit -qam B; git log --name-status --format=%s; git mv é ü; git commit -qm C; git show --stat --format=; git show --summary --format=; git config core.quotepath false; git show --name-status --format=; git status; git ls-files`],
  ['diff-tree: raw, names, top level without -r, --root, two commits, paths; unknown options refused', `${IDENTITY}git init -q; mkdir src; echo 1 > src/x; echo 1 > top; echo 1 > src.txt; git add .; git commit -qm A; git diff-tree HEAD; echo "st=$?"; git diff-tree --root --no-commit-id HEAD; echo 2 > src/x; echo 2 > top; echo n > src/new; echo 2 > src.txt; git rm -q src.txt; git add .; git commit -qm B; git diff-tree HEAD; git diff-tree -r HEAD; git diff-tree --name-only HEAD; git diff-tree --no-commit-id --name-only -r HEAD; git diff-tree --name-status HEAD~1 HEAD; git diff-tree -p HEAD; git diff-tree --stat HEAD; git diff-tree -r HEAD -- src; git diff-tree --name-only HEAD src; git diff-tree -s HEAD`],
  ['diff forms combined as diff_flush combines them (stat, summary, patch after a blank line, --- in log; names alone; -s silences)', `${IDENTITY}git init -q; mkdir src; echo 1 > src/x; echo 1 > top; git add .; git commit -qm A; echo 2 > src/x; echo n > src/new; git diff --stat --summary -p; git add .; git diff --cached --summary --stat; git diff --cached --name-status --stat; git diff --cached -p --numstat; git commit -qm B; git show --stat --summary --format=%s; git log -p --stat --format=%s -1; git show --name-only --stat --format=%s; git show --stat -s --format=%s; git log --numstat --format=%s; git show --stat --summary; git log --oneline -p --stat -1`],
  ['peel suffixes ^{commit}, ^{}, ^{tree}; rev-parse of an annotated tag names the tag object, as git writes it', `${IDENTITY}git init -q; echo 1 > a; git add a; git commit -qm A; git commit -q --allow-empty -m B; git tag -a v1 -m rel HEAD~1; git tag v0; git rev-parse 'HEAD^{commit}' 'HEAD^{tree}' 'HEAD~1^{}' v1 'v1^{}' 'v1^{tree}' v0 'HEAD^{commit}~1' refs/tags/v1; git log --format=%s 'v1^{}'; git show -s --format=%s 'HEAD^{commit}'; git rev-parse --verify -q 'nope^{commit}'; echo "st=$?"`],
  ['diff --no-index of two files, in and out of a repository (and plain diff of two paths outside one)', `printf 'a\\n' > x; printf 'b\\n' > y; git diff --no-index x y; echo "st=$?"; git diff --no-index x x; echo "st=$?"; git diff --no-index --stat x y; git diff --no-index x nope; echo "st=$?"; git diff x y; echo "st=$?"; chmod +x y; mkdir d; cp x d/x; git diff --no-index d/x y; git init -q r; cd r; git diff --no-index ../x ../y; echo "st=$?"`],
  ['-C and -c', `git init -q r; git -C r status -s; git -C r -c user.name=X -c user.email=x@y commit -q --allow-empty -m e; git -C r log --format='%an %ae %s'`],
];

describe.skipIf(!hostHas('git'))('git on the shell engine, as the host\'s git', () => {
  it.each(SCRIPTS)('%s', async (_name, script) => {
    expect(await engine(script)).toEqual(host(script));
  });
});

describe('git on the shell engine', () => {
  it('reports Ubuntu 24.04\'s git version', async () => {
    expect(await runShell('git --version; git version')).toEqual({ stdout: 'git version 2.43.0\ngit version 2.43.0\n', stderr: '', exit: 0 });
  });
  it('checkout -q of a path restores it without its report', async () => {
    const r = await runShell("cd /tmp && git init -q && echo a > f && git add f && git -c user.name=A -c user.email=a@b commit -qm x && echo b > f && git checkout -q f && cat f && echo c > f && git checkout f");
    expect(r).toEqual({ stdout: 'a\n', stderr: 'Updated 1 path from the index\n', exit: 0 });
  });
  it('is found on PATH, so scripts that probe for it go on', async () => {
    expect((await runShell('command -v git; git --version >/dev/null 2>&1 || echo "git unavailable"')).stdout).toBe('/usr/bin/git\n');
  });
  it('records the engine\'s clock and the zone of TZ when no date is given', async () => {
    const r = await runShell('cd /tmp && git init -q && git config user.name A && git config user.email a@b && git commit -q --allow-empty -m x && git log --format="%ad|%ar" && TZ=Asia/Kolkata git commit -q --allow-empty -m y && git log -1 --format=%ci');
    expect(r.stdout).toBe('Mon Nov 30 09:05:00 2026 +0000|0 seconds ago\n2026-11-30 14:35:00 +0530\n');
  });
  it('honours GIT_AUTHOR_* and GIT_COMMITTER_* over the config', async () => {
    const r = await runShell('cd /tmp && git init -q && git config user.name A && git config user.email a@b && GIT_AUTHOR_NAME=B GIT_AUTHOR_EMAIL=b@c GIT_COMMITTER_NAME=C git commit -q --allow-empty -m x && git log --format="%an <%ae> %cn <%ce>"');
    expect(r.stdout).toBe('B <b@c> C <a@b>\n');
  });
  it('without an identity a commit fails as git does on a sprite (no domain to guess an e-mail from)', async () => {
    const r = await runShell('cd /tmp && git init -q && git commit -q --allow-empty -m x; echo "st=$?"');
    expect(r.stdout).toBe('st=128\n');
    expect(r.stderr).toMatch(/^Author identity unknown\n[\s\S]*fatal: unable to auto-detect email address \(got 'sprite@demo\.\(none\)'\)\n$/);
  });
  it('keeps its repository in the sprite\'s files (a later exec sees the commit)', async () => {
    const r = await runShell('cd /tmp && git init -q && git config user.name A && git config user.email a@b && echo a > a && git add a && git commit -qm 1 && ls .git && cat .git/HEAD');
    expect(r.stdout).toContain('objects\n');
    expect(r.stdout).toContain('ref: refs/heads/master\n');
  });
  it('refuses what needs the network or a real machine, loudly', async () => {
    const r = await runShell('cd /tmp && git init -q; for c in "push origin main" "fetch" "pull" "rebase main" "stash" "submodule update" "clone https://github.com/a/b.git"; do git $c; echo "st=$?"; done');
    expect(r.stdout).toBe('st=2\n'.repeat(7));
    expect(r.stderr.trim().split('\n')).toHaveLength(7);
    for (const line of r.stderr.trim().split('\n')) expect(line).toMatch(/^git: .* is not available in the shell engine; run spritzer with --exec sandbox$/);
  });
  it('sees a rewrite of a tracked file in the same millisecond as its add (it hashes, never trusts stat data)', async () => {
    const r = await runShell('cd /tmp && git init -q && echo a > f && git add f && echo b > f && git status --porcelain');
    expect(r.stdout).toBe('AM f\n');
  });
});

describe('git output where stdout and stderr meet', () => {
  it.skipIf(!hostHas('git'))('gives the stderr hints before the buffered stdout, as git run on a pipe does; an explicit HEAD with no commit is an unknown revision', async () => {
    const script = `${IDENTITY}git init r 2>&1 | cut -c1-24; cd r; git show HEAD 2>&1; echo "st=$?"; git log 2>&1; echo "st=$?"; echo a > a; git add a; git commit -qm 1; git checkout -b side 2>&1; git checkout nope 2>&1`;
    expect(await engine(script)).toEqual(host(script));
  });
});

describe('git add -v, mv -v, merge -q and rm of a newly staged file', () => {
  it.skipIf(!hostHas('git'))('report as git does', async () => {
    const script = `${IDENTITY}git init -q; echo 1 > f; git add f; git rm -q f; echo "rc=$?"; git commit -qm one; echo 2 > g; git add -v g; git mv -v g h; echo 3 >> f; git add -v f h; git checkout -q -b dev; echo y >> f; git commit -qam two; git checkout -q master; git merge -q dev; echo "rc=$?"; git merge -q dev; echo "rc=$?"`;
    expect(await engine(script)).toEqual(host(script));
  });
});

describe('git checkout with combined short options, status of every untracked file', () => {
  it.skipIf(!hostHas('git'))('answers as git does', async () => {
    const script = `${IDENTITY}git init -q; mkdir -p a/b c; echo 1 > a/b/x; echo 2 > a/y; echo 3 > top; touch c/z; git status --porcelain --untracked-files=all; git status -s -uall; git add top; git commit -qm one; git checkout -qb dev; git branch --show-current`;
    expect(await engine(script)).toEqual(host(script));
  });
});

describe('git clean and git check-ignore', () => {
  it.skipIf(!hostHas('git'))('name and remove untracked and ignored paths as git does', async () => {
    const script = `${IDENTITY}git init -q; echo t > tracked; printf 'build/\\n*.log\\n' > .gitignore; git add .; git commit -qm one; mkdir -p newdir/sub build emptyd; echo 1 > newdir/sub/a; echo 2 > top.txt; echo l > x.log; echo b > build/o; git clean; echo "rc=$?"; git clean -n; git clean -nd; git clean -ndx; git clean -ndX; git check-ignore x.log build/o top.txt tracked; echo "rc=$?"; git clean -fd; ls -a`;
    expect(await engine(script)).toEqual(host(script));
  });
});

describe('git describe, rev-list and symbolic-ref', () => {
  it.skipIf(!hostHas('git'))('name commits as git does', async () => {
    const script = `${IDENTITY}git init -q; git describe; echo "rc=$?"; for i in 1 2 3; do echo $i > f; git add f; GIT_COMMITTER_DATE="170000000$i +0000" git commit -qm c$i; done; git tag v1 HEAD~2; git describe; echo "rc=$?"; git describe --tags; GIT_COMMITTER_DATE="1700000005 +0000" git tag -a v2 -m rel HEAD~1; git describe --dirty; echo x >> f; git describe --tags --dirty --abbrev=5; git describe --exact-match; echo "rc=$?"; git rev-list --count HEAD; git rev-list --count v1..HEAD; git symbolic-ref HEAD; git symbolic-ref --short HEAD`;
    expect(await engine(script)).toEqual(host(script));
  });
});

describe('git tag --sort', () => {
  it.skipIf(!hostHas('git'))('orders tags by name or by version, either way, as git does', async () => {
    const script = `${IDENTITY}git init -q; echo a > f; git add f; git commit -qm one; for t in v1.9.0 v1.10.0 v1.2.3 v2.0.0-rc1 v2.0.0 v0.9; do git tag $t; done; git tag --sort=-v:refname; git tag --sort=v:refname; git tag --sort=-refname`;
    expect(await engine(script)).toEqual(host(script));
  });
});
