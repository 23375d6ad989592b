import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as git 2.43 gives them (checked with bash on a GNU/Linux host).
describe('git apply', () => {
  it("applies at the nearest line a hunk fits, says so under -v, refuses a patch that no longer fits, and reverses with -R", async () => {
    const script = String.raw`seq 1 20 > s; printf -- '--- a/s\n+++ b/s\n@@ -5,3 +5,3 @@\n 5\n-6\n+six\n 7\n@@ -15,3 +15,3 @@\n 15\n-16\n+sixteen\n 17\n' > ps; sed -i '1i\0' s; git apply -v ps; echo "s=$?"; sed -n '7p;17p' s; git apply ps; echo "s=$?"; git apply -R ps && sed -n 7p s`;
    expect(await runShell(script)).toEqual({ stdout: "s=0\nsix\nsixteen\ns=1\n6\n", stderr: "Checking patch s...\nHunk #1 succeeded at 6 (offset 1 line).\nHunk #2 succeeded at 16 (offset 1 line).\nApplied patch s cleanly.\nerror: patch failed: s:5\nerror: s: patch does not apply\n", exit: 0 });
  });
  it("creates a file (warning of trailing whitespace it adds), refuses one that exists, deletes it with -R, exits 128 on a patch with no diff", async () => {
    const script = String.raw`printf -- '--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+n \n' > p3; git apply p3; echo "s=$?"; cat new; git apply --check p3; echo "s=$?"; git apply -R p3; ls new; echo "s=$?"; printf 'x\n' | git apply; echo "s=$?"`;
    expect(await runShell(script)).toEqual({ stdout: "s=0\nn \ns=1\ns=2\ns=128\n", stderr: "p3:4: trailing whitespace.\nn \nwarning: 1 line adds whitespace errors.\nerror: new: already exists in working directory\nls: cannot access 'new': No such file or directory\nerror: No valid patches in input (allow with \"--allow-empty\")\n", exit: 0 });
  });
  it("applies nothing when a hunk does not fit; --reject applies what fits and saves the rest to FILE.rej", async () => {
    const script = String.raw`printf 'x\ny\n' > h; printf -- '--- a/h\n+++ b/h\n@@ -1 +1 @@\n-x\n+X\n@@ -2 +2 @@\n-q\n+z\n' > p; git apply p; echo "s=$?"; cat h; git apply --reject p; echo "s=$?"; cat h h.rej`;
    expect(await runShell(script)).toEqual({ stdout: "s=1\nx\ny\ns=1\nx\ny\ndiff a/h b/h\t(rejected hunks)\n@@ -1 +1 @@\n-x\n+X\n@@ -2 +2 @@\n-q\n+z\n", stderr: "error: patch failed: h:1\nerror: h: patch does not apply\nChecking patch h...\nerror: while searching for:\nx\n\nerror: patch failed: h:1\nerror: while searching for:\nq\n\nerror: patch failed: h:2\nApplying patch h with 2 rejects...\nRejected hunk #1.\nRejected hunk #2.\n", exit: 0 });
  });
  it('refuses a rename or a mode change loudly', async () => {
    const r = await runShell(String.raw`printf 'diff --git a/x b/y\nsimilarity index 100%%\nrename from x\nrename to y\n' | git apply; echo "s=$?"`);
    expect(r.stdout).toBe('s=2\n');
    expect(r.stderr).toContain('--exec sandbox');
  });
});
