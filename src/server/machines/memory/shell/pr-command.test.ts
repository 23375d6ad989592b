import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// What GNU coreutils 9.1's pr printed on a GNU/Linux host for the same input.

describe('pr', () => {
  it('fills columns down, balanced on the last page, padded with tabs; -m sets files side by side', async () => {
    expect(await runShell("printf '3\\n1\\n2\\n10\\n1\\n' > n; pr -t -2 n; seq 1 7 | pr -t -3; printf 'x\\n' > f; pr -m -t -n3 f n")).toEqual({
      stdout: '3\t\t\t\t    10\n1\t\t\t\t    1\n2\n1\t\t\t4\t\t\t6\n2\t\t\t5\t\t\t7\n3\n  1\tx\t\t\t\t3\n  2\t\t\t\t\t1\n  3\t\t\t\t\t2\n  4\t\t\t\t\t10\n  5\t\t\t\t\t1\n',
      stderr: '',
      exit: 0,
    });
  });
  it("heads each page with the file's date, its name centred and the page number, and fills out the last page", async () => {
    const r = await runShell("printf 'x\\n' > f1; touch -d '2026-01-02 03:04' f1; pr -h 'My Title' -l 12 -w 40 f1; seq 1 3 | pr -l 5 -d");
    expect(r.stdout).toBe('\n\n2026-01-02 03:04     My Title     Page 1\n\n\nx\n\n\n\n\n\n\n1\n\n2\n\n3\n\n');
  });
  it('-a fills rows across, -s joins columns with a character, -o puts a margin before every line', async () => {
    expect((await runShell("seq 1 7 | pr -t -3 -a; seq 1 7 | pr -t -3 -s,; printf 'a\\nb\\n' > f1; printf 'c\\n' > f2; pr -m -t -s f1 f2; seq 1 4 | pr -t -2 -o 2")).stdout).toBe(
      '1\t\t\t2\t\t\t3\n4\t\t\t5\t\t\t6\n7\n1,4,6\n2,5,7\n3\na\tc\nb\t\n  1\t\t\t\t      3\n  2\t\t\t\t      4\n',
    );
  });
});

describe('pr over UTF-8 text', () => {
  it('gives a byte above 0x7f no column, as GNU pr: such text is never cut and pads as if absent', async () => {
    const r = await runShell("printf '%s\\n' 漢字一 é b c d e | pr -2 -t -w 40; printf '%s\\n' éééééééééééééééééééé z | pr -2 -t -w 30");
    expect(r.stdout).toBe('漢字一\t\t    c\né\t\t    d\nb\t\t    e\néééééééééééééééééééé\t       z\n');
  });
});
