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
});
