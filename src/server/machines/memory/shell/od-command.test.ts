import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 od prints them (checked with bash on a GNU/Linux host).
const nums = "printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt; printf 'hello world\\n' > a.txt; ";

describe('od', () => {
  it('prints GNU columns for -c, -x and -t d1, and honours -w, -N, -A', async () => {
    const r = await runShell(`${nums}od -c -w4 nums.txt | head -2; od -x nums.txt; od -An -tx1 -N4 a.txt; od -An -td1 <<< A`);
    expect(r.stdout).toBe('0000000   3  \\n   1  \\n\n0000004   2  \\n   1   0\n0000000 0a33 0a31 0a32 3031 310a 000a\n0000013\n 68 65 6c 6c\n   65   10\n');
  });
  it('prints floats (-t f4, f8, -f) as the shortest %g that reads back, with inf and a signed nan', async () => {
    const r = await runShell(`printf '\\x00\\x00\\xc0\\x3f\\xcd\\xcc\\xcc\\x3d\\x00\\x00\\x80\\x7f\\x00\\x00\\xc0\\xff' | od -t f4; printf '\\x9a\\x99\\x99\\x99\\x99\\x99\\xb9\\x3f' | od -An -t f; printf 'hello world!' | od -An -f; od -t f4x4 -N 4 /dev/zero`);
    expect(r.stdout).toBe('0000000             1.5             0.1             inf            -nan\n0000020\n                      0.1\n   1.1431415e+27   7.6482007e+28    7.739293e-19\n0000000               0\n               00000000\n0000004\n');
  });
  it('lines several types up in shared columns and prints the z text column', async () => {
    const r = await runShell("printf 'abcdefg' | od -t o2 -t c; printf 'hello' | od -A x -t x1z");
    expect(r.stdout).toBe('0000000  061141  062143  063145  000147\n          a   b   c   d   e   f   g\n0000007\n000000 68 65 6c 6c 6f                                   >hello<\n000005\n');
  });
  it('stars repeated lines, and cannot skip past the end', async () => {
    const r = await runShell('head -c 64 /dev/zero | od; printf ab | od -j 5; echo "s=$?"');
    expect(r).toEqual({ stdout: '0000000 000000 000000 000000 000000 000000 000000 000000 000000\n*\n0000100\ns=1\n', stderr: 'od: cannot skip past end of combined input\n', exit: 0 });
  });
});
