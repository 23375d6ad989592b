import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU csplit (coreutils 9.1) prints them, checked with bash on a GNU/Linux host.
const lines = 'seq -f line%g 12 > l; ';
const pieces = 'for f in xx*; do printf "%s:%s " "$f" "$(tr "\\n" , < "$f")"; done; echo';

describe('csplit', () => {
  it('cuts at line numbers, repeated with {N}, printing each piece\'s size', async () => {
    const r = await runShell(`${lines}csplit l 3 '{2}'; ${pieces}`);
    expect(r).toEqual({ stdout: '12\n18\n18\n27\nxx00:line1,line2, xx01:line3,line4,line5, xx02:line6,line7,line8, xx03:line9,line10,line11,line12, \n', stderr: '', exit: 0 });
  });
  it('looks for a regex from the line after its last match; offsets move the cut; %RE% skips', async () => {
    const r = await runShell(`${lines}csplit l /line1/ /line1/; ${pieces}; rm xx*; csplit -s l '%line3%' '/line6/-1'; ${pieces}`);
    expect(r.stdout).toBe('0\n54\n21\nxx00: xx01:line1,line2,line3,line4,line5,line6,line7,line8,line9, xx02:line10,line11,line12, \nxx00:line3,line4, xx01:line5,line6,line7,line8,line9,line10,line11,line12, \n');
  });
  it('{*} repeats to the end; -z drops empty pieces without using their numbers; --suppress-matched drops the matched lines', async () => {
    const r = await runShell(`${lines}csplit -z l '/line[24]/' '{*}'; ${pieces}; rm xx*; csplit -s --suppress-matched l '/line[36]/' '{*}'; ${pieces}`);
    expect(r.stdout).toBe('6\n12\n57\nxx00:line1, xx01:line2,line3, xx02:line4,line5,line6,line7,line8,line9,line10,line11,line12, \nxx00:line1,line2, xx01:line4,line5, xx02:line7,line8,line9,line10,line11,line12, \n');
  });
  it('on a pattern it cannot satisfy prints the sizes made, removes the pieces (kept with -k) and exits 1', async () => {
    const r = await runShell(`${lines}csplit l 3 '{5}'; echo "s=$?"; ls xx* 2>/dev/null | wc -l; csplit -k l 4 /nomatch/; echo "s=$?"; ${pieces}`);
    expect(r.stdout).toBe('12\n18\n18\n20\n7\ns=1\n0\n18\n57\ns=1\nxx00:line1,line2,line3, xx01:line4,line5,line6,line7,line8,line9,line10,line11,line12, \n');
    expect(r.stderr).toBe("csplit: '3': line number out of range on repetition 4\ncsplit: '/nomatch/': match not found\n");
  });
  it('names pieces with -f and -b, and refuses bad patterns and formats before writing any', async () => {
    const r = await runShell(`${lines}csplit -f part. -b '%03d.txt' l 6 && ls part.*; csplit l 5 3; echo "s=$?"; csplit -b '%s' l 3; echo "s=$?"; csplit l; echo "s=$?"`);
    expect(r.stdout).toBe('30\n45\npart.000.txt\npart.001.txt\ns=1\ns=1\ns=1\n');
    expect(r.stderr).toBe("csplit: line number '3' is smaller than preceding line number, 5\ncsplit: invalid conversion specifier in suffix: s\ncsplit: missing operand after 'l'\nTry 'csplit --help' for more information.\n");
  });
  it('reads stdin for -, and keeps a last line without a newline as it is', async () => {
    const r = await runShell(`printf 'a\\nb\\nc' | csplit - /b/ && od -c xx01 | head -1`);
    expect(r.stdout).toBe('2\n3\n0000000   b  \\n   c\n');
  });
});
