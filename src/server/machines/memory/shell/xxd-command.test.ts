import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as xxd (vim 9) prints them (checked with bash on a GNU/Linux host).
const nums = "printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt; ";

describe('xxd', () => {
  it('dumps with groups, columns, plain hex and C arrays', async () => {
    const r = await runShell(`${nums}xxd nums.txt; xxd -c 4 nums.txt; xxd -p nums.txt; xxd -i <<< 'hi'; xxd -g 4 -u nums.txt`);
    expect(r.stdout).toBe(
      '00000000: 330a 310a 320a 3130 0a31 0a              3.1.2.10.1.\n' +
        '00000000: 330a 310a  3.1.\n00000004: 320a 3130  2.10\n00000008: 0a31 0a    .1.\n' +
        '330a310a320a31300a310a\n  0x68, 0x69, 0x0a\n00000000: 330A310A 320A3130 0A310A             3.1.2.10.1.\n',
    );
  });
  it('seeks from the end with a negative -s, and cannot seek back in a pipe or before the start', async () => {
    const r = await runShell(`printf 'hello world\\n' > x; xxd -s -4 x; xxd -s -12 -l 2 x; xxd -s -20 x; echo "s=$?"; printf 'hello' | xxd -s -2; echo "s=$?"; xxd -s 2 -o 0x10 -l 3 x`);
    expect(r).toEqual({ stdout: '00000008: 726c 640a                                rld.\n00000000: 6865                                     he\ns=4\ns=4\n00000012: 6c6c 6f                                  llo\n', stderr: 'xxd: Sorry, cannot seek.\n'.repeat(2), exit: 0 });
  });
  it('reverts a dump and plain hex to bytes', async () => {
    const r = await runShell(`${nums}xxd -r -p <<< '68690a'; xxd nums.txt | xxd -r | cmp - nums.txt && echo same`);
    expect(r.stdout).toBe('hi\nsame\n');
  });
});
