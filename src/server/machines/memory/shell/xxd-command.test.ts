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
  it('-e dumps little-endian groups as xxd lays them out, short groups right-aligned', async () => {
    const r = await runShell("printf abc | xxd -e; printf abcdefghijklmnopqrstu | xxd -e; printf abcdefghij | xxd -e -c 10; printf abcdefgh | xxd -e -g 8 -c 8");
    expect(r.stdout).toBe(
      '00000000:   636261                             abc\n' +
        '00000000: 64636261 68676665 6c6b6a69 706f6e6d  abcdefghijklmnop\n00000010: 74737271       75                    qrstu\n' +
        // A width that is no multiple of the group: xxd writes the text column over the last hex digits.
        '00000000: 64636261 68676665     6a69cdefghij\n' +
        '00000000: 6867666564636261  abcdefgh\n',
    );
  });
  it('-e refuses a group that is no power of 2; the last of -b/-e/-p/-i chooses the output', async () => {
    expect(await runShell('printf ab | xxd -e -g 3')).toEqual({ stdout: '', stderr: 'xxd: number of octets per group must be a power of 2 with -e.\n', exit: 1 });
    expect((await runShell('printf ab | xxd -e -b; printf ab | xxd -p -i')).stdout).toBe('00000000: 01100001 01100010                                      ab\n  0x61, 0x62\n');
  });
  it('cannot seek past the end of a pipe (exit 4), but may past the end of a file', async () => {
    expect(await runShell('printf ab | xxd -s 5; echo "s=$?"; printf ab > f; xxd -s 5 f; echo "s=$?"')).toEqual({ stdout: 's=4\ns=0\n', stderr: 'xxd: Sorry, cannot seek.\n', exit: 0 });
  });
});
