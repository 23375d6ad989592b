import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 cut gives them (checked with bash on a GNU/Linux host).
const csv = "printf 'b,2,x\\na,1,y\\n' > data.csv; printf 'hello world\\n' > a.txt; ";

describe('cut', () => {
  it('selects bytes, complements, and puts --output-delimiter between fields and byte ranges', async () => {
    const r = await runShell(`${csv}cut -d, -f1 --complement data.csv; cut -d, -f1,3 --output-delimiter=' ' data.csv; cut -b1-2 a.txt; cut -b1,3 --output-delimiter=X a.txt; cut -b1-2,2-3 --output-delimiter=X a.txt`);
    expect(r.stdout).toBe('2,x\n1,y\nb x\na y\nhe\nhXl\nhel\n');
  });
  it('prints a line without the delimiter whole, unless -s; a missing field as an empty line', async () => {
    const r = await runShell(`${csv}cut -d' ' -f2 <<< 'only'; cut -d, -f2 -s <<< 'nodelim'; cut -d, -f5 data.csv | od -c`);
    expect(r.stdout).toBe('only\n0000000  \\n  \\n\n0000002\n');
  });
  it("takes an empty -d '' as the NUL byte", async () => {
    expect(await runShell("cut -f1 -d '' <<< 'ab'; printf 'a\\0b\\n' | cut -d '' -f2")).toEqual({ stdout: 'ab\nb\n', stderr: '', exit: 0 });
  });
  it("rejects bad lists with GNU's messages", async () => {
    const r = await runShell(`${csv}cut -d, -f0 data.csv; echo "s=$?"; cut -b 3-1 a.txt; cut -d ab -f1 a.txt`);
    expect(r).toEqual({
      stdout: 's=1\n',
      stderr: "cut: fields are numbered from 1\nTry 'cut --help' for more information.\ncut: invalid decreasing range\nTry 'cut --help' for more information.\ncut: the delimiter must be a single character\nTry 'cut --help' for more information.\n",
      exit: 1,
    });
  });
});
