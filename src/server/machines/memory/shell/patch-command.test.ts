import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU patch 2.7 gives them (checked with bash on a GNU/Linux host).
const seven = "printf 'a\\nb\\nc\\nd\\ne\\nf\\ng\\n' > p1; printf 'a\\nB\\nc\\nd\\ne\\nF\\ng\\n' > p2; diff -u p1 p2 > u.diff; ";

describe('patch', () => {
  it('applies normal and unified diffs, by operand or by the names in the diff', async () => {
    const r = await runShell("printf 'a\\nb\\n' > x && printf 'a\\nc\\n' > y && diff x y > p.diff; cp x z && patch z < p.diff && cat z; diff -u x y | patch -p0 --dry-run; diff -u x y | patch -s x && cat x");
    expect(r).toEqual({ stdout: 'patching file z\na\nc\nchecking file x\na\nc\n', stderr: '', exit: 0 });
  });
  it('finds a hunk at an offset, reverses with -R, writes -o elsewhere', async () => {
    const r = await runShell(`${seven}printf 'x\\ny\\n' > p3; cat p1 >> p3; patch p3 < u.diff; cat p3 | tr '\\n' ' '; echo; patch -o out.txt p1 < u.diff; patch -R out.txt < u.diff; cmp out.txt p1 && echo same`);
    expect(r.stdout).toBe('patching file p3\nHunk #1 succeeded at 3 (offset 2 lines).\nx y a B c d e F g \npatching file out.txt (read from p1)\npatching file out.txt\nsame\n');
  });
  it('saves a failed hunk to .rej and the original to .orig, exit 1', async () => {
    const r = await runShell(`${seven}printf 'q\\nq\\n' > p4; patch p4 < u.diff; echo "s=$?"; ls p4*`);
    expect(r.stdout).toBe('patching file p4\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file p4.rej\ns=1\np4\np4.orig\np4.rej\n');
  });
  it('retries a hunk with fuzz, keeps the file\'s context lines, reports every hunk after an offset, backs up a mismatch', async () => {
    const made = "seq 1 30 > f && sed 's/^5$/five/; s/^20$/twenty/' f > g && diff -u f g > p; sed -i '1i\\zero' f; ";
    const r = await runShell(`${made}sed -i 's/^3$/THREE/; s/^18$/E/' f; patch f < p; sed -n '4,5p;19p' f; ls f*`);
    expect(r.stdout).toBe('patching file f\nHunk #1 succeeded at 3 with fuzz 2 (offset 1 line).\nHunk #2 succeeded at 18 with fuzz 2 (offset 1 line).\nTHREE\n4\nE\nf\nf.orig\n');
  });
  it('needs fuzz for a hunk with context on one side only, away from that end of the file; reads an empty patch as none', async () => {
    const diff = "printf -- '--- a/m\\n+++ b/m\\n@@ -1,2 +1,2 @@\\n x\\n-y\\n+Y\\n' > d; printf 'x\\ny\\nz\\n' > m; ";
    const r = await runShell(`${diff}patch -F0 m < d; echo "s=$?"; patch m < d; echo "s=$?"; cat m; patch m < /dev/null; echo "s=$?"`);
    expect(r.stdout).toBe('patching file m\nHunk #1 FAILED at 1.\n1 out of 1 hunk FAILED -- saving rejects to file m.rej\ns=1\npatching file m\nHunk #1 succeeded at 1 with fuzz 1.\ns=0\nx\nY\nz\ns=0\n');
  });
  it('detects a patch already applied: asks (no answer in a script, so skips), -N skips, -t reverses it; -R the other way', async () => {
    const made = "printf 'a\\nb\\nc\\n' > f; printf 'a\\nB\\nc\\n' > g; diff -u --label f --label f f g > p; cp g f; ";
    const r = await runShell(`${made}patch f < p; echo "s=$?"; ls; patch -N f < p; patch -t f < p; echo "s=$?"; cat f; patch -R f < p; cat f.rej`);
    expect(r.stdout).toBe(
      'patching file f\nReversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\ns=1\nf\nf.rej\ng\np\n' +
        'patching file f\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\n' +
        'patching file f\nReversed (or previously applied) patch detected!  Assuming -R.\ns=0\na\nb\nc\n' +
        'patching file f\nUnreversed patch detected!  Ignore -R? [n] \nApply anyway? [n] \nSkipping patch.\n1 out of 1 hunk ignored -- saving rejects to file f.rej\n' +
        '--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-B\n+b\n c\n',
    );
  });
  it('creates and deletes the files diff -N dates at the epoch; -o makes its new file mode 600', async () => {
    const made = "mkdir a b && printf '1\\n' > a/x && printf 'n\\n' > b/new && printf 'gone\\n' > a/old && cp a/x b/x && echo 2 >> b/x; diff -ruN a b > d.patch; cp -r a c; ";
    const r = await runShell(`${made}cd c && patch -p1 < ../d.patch && ls && patch -R -p1 < ../d.patch > /dev/null && ls && patch -o ../out x < ../d.patch > /dev/null; stat -c %a ../out`);
    expect(r.stdout).toBe('patching file new\npatching file old\npatching file x\nnew\nx\nold\nx\n600\n');
  });
  it('names backups with -z SUFFIX and -V numbered or existing', async () => {
    const made = "printf 'a\\nb\\nc\\n' > f; printf -- '--- f\\n+++ f\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B\\n c\\n' > p; cp f f0; ";
    const r = await runShell(`${made}patch -s -b -z .bak f < p; cp f0 f; patch -s -V numbered -b f < p; cp f0 f; patch -s -V numbered -b f < p; cp f0 f; patch -s --backup --version-control=existing f < p; ls f*`);
    expect(r.stdout).toBe('f\nf.bak\nf.~1~\nf.~2~\nf.~3~\nf0\n');
  });
});
