import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 seq prints them (checked with bash on a GNU/Linux host).
describe('seq', () => {
  it('formats with -f, joins with -s, pads with -w, keeps the decimals of its arguments', async () => {
    const r = await runShell("seq -f '%03g' 3; seq -s, 3; seq -w 8 10; seq 1 0.5 2; seq -w -3 2 | tr '\\n' ' '");
    expect(r.stdout).toBe('001\n002\n003\n1,2,3\n08\n09\n10\n1.0\n1.5\n2.0\n-3 -2 -1 00 01 02 ');
  });
  it("rejects bad arguments with GNU's messages", async () => {
    const r = await runShell('seq a; echo "s=$?"; seq 1 0 3; echo "s=$?"');
    expect(r).toEqual({ stdout: 's=1\ns=1\n', stderr: "seq: invalid floating point argument: ‘a’\nTry 'seq --help' for more information.\nseq: invalid Zero increment value: ‘0’\nTry 'seq --help' for more information.\n", exit: 0 });
  });
  it('takes only a floating-point conversion in -f, with the \' flag and L accepted', async () => {
    const r = await runShell(`seq -f '%x' 1 2; echo "s=$?"; seq -f 'n%d' 1; echo "s=$?"; seq -f "%'g|" 1 1; seq -f '%Lf' 1 1`);
    expect(r).toEqual({ stdout: 's=1\ns=1\n1|\n1.000000\n', stderr: 'seq: format ‘%x’ has unknown %x directive\nseq: format ‘n%d’ has unknown %d directive\n', exit: 0 });
  });
  it('reads hexadecimal numbers as strtold does: whole ones count as integers (fast, from FIRST rounded), a `.` or `p` prints with %g; -w gives them no width', async () => {
    const r = await runShell('seq 0x10 0x11; seq 1 0x2 5; seq 0x1p1; seq -w 0x8 0xA; seq 0x1.8p1 5 | head -1; seq 0xF4240 0xF4241 | head -1; seq 0x1P-1 2; seq 1 0.5 0x2; seq -w 0x8 010 | head -1; seq 0x; echo "s=$?"');
    expect(r).toEqual({ stdout: '16\n17\n1\n3\n5\n1\n2\n8\n9\n10\n3\n1000000\n0\n1\n2\n1.0\n1.5\n2.0\n008\ns=1\n', stderr: "seq: invalid floating point argument: ‘0x’\nTry 'seq --help' for more information.\n", exit: 0 });
  });
});
