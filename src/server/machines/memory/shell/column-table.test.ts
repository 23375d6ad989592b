import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as util-linux 2.38's column prints them, checked with bash on a GNU/Linux host.
describe('column -t', () => {
  it('keeps the empty cells -s makes, and pads every column but the last, short rows included', async () => {
    const r = await runShell("printf 'a,b,c\\n1,,3\\n' | column -t -s,; printf 'a b\\nc\\n' | column -t | od -c | head -1; printf ',a,b,\\n' | column -t -s, -o '|'");
    expect(r.stdout).toBe('a  b  c\n1     3\n0000000   a           b  \\n   c          \\n\n|a|b|\n');
  });
  it('splits at runs of blanks by default, drops empty lines unless -L, and limits the columns with -l', async () => {
    const r = await runShell("printf '  a \\t b\\n\\nccc d e f\\n' | column -t; printf 'a b\\n\\nc d\\n' | column -t -L; printf 'a b c d\\n' | column -t -l 2");
    expect(r.stdout).toBe('a    b     \nccc  d  e  f\na  b\n   \nc  d\na  b c d\n');
  });
  it('names columns with -N (hidden by -d) and right-aligns, hides and orders them by name or number', async () => {
    const r = await runShell("printf 'foo 10 x\\nbarbaz 200 y\\n' > t; column -t -N name,size,k -R size -H k t; column -t -N a,b,c -O c,1 -d t; column -t -H 9x t; echo \"s=$?\"");
    expect(r.stdout).toBe('name    size\nfoo       10\nbarbaz   200\nx  foo     10\ny  barbaz  200\ns=1\n');
    expect(r.stderr).toBe("column: undefined column name '9x'\n");
  });
  it('measures cells in display columns, and refuses -J and truncating a table wider than the output', async () => {
    const r = await runShell("printf 'héllo b\\nx y\\n' | column -t; printf 'a b\\n' | column -t -J; echo \"s=$?\"; printf '%s %s\\n' $(seq -s '' 50) x | column -t -T 1; echo \"s=$?\"; printf 'ab c\\n' | column -t -T 1");
    expect(r.stdout).toBe('héllo  b\nx      y\ns=2\ns=2\nab  c\n');
    expect(r.stderr).toContain('column: option -J is not available in the shell engine');
  });
});
