import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU nl's numbering, as coreutils 9 prints it.
describe('nl', () => {
  it('leaves empty lines unnumbered behind spaces as wide as the number and separator, and numbers blank-looking ones', async () => {
    expect((await runShell("printf 'a\\n\\n  \\nb' | nl -s:")).stdout).toBe('     1:a\n       \n     2:  \n     3:b\n');
  });

  it('numbers by style, format and increment, joining blank lines with -l', async () => {
    const r = await runShell("printf 'a\\n\\n\\n\\nb\\n' | nl -ba -l2; nl -n ln -w3 -s'|' <<< $'x\\ny'; nl -v -1 -i 2 -n rz <<< $'a\\nb'; nl -bpfoo -s' ' <<< $'foo\\nbar'");
    expect(r.stdout).toBe('     1\ta\n       \n     2\t\n       \n     3\tb\n1  |x\n2  |y\n-00001\ta\n000001\tb\n     1 foo\n       bar\n');
  });

  it('restarts the numbers at each section delimiter, written as an empty line, unless -p', async () => {
    const r = await runShell("printf 'a\\n\\\\:\\\\:\\nb\\n\\\\:\\\\:\\\\:\\nh\\n' | nl -ha; printf 'a\\n\\\\:\\\\:\\nb\\n' | nl -p");
    expect(r.stdout).toBe('     1\ta\n\n     1\tb\n\n     1\th\n     1\ta\n\n     2\tb\n');
  });

  it("rejects a bad style or width with GNU's messages", async () => {
    const r = await runShell('nl -bx /dev/null; echo "s=$?"; nl -w0 /dev/null; echo "s=$?"');
    expect(r.stdout).toBe('s=1\ns=1\n');
    expect(r.stderr).toContain("nl: invalid body numbering style: 'x'\n");
  });

  it('reads only the first letter of a, t and n styles, as nl.c does', async () => {
    const r = await runShell("printf 'a\\n\\nb\\n' | nl -bat; printf 'a\\n\\nb\\n' | nl --body-numbering=tq; printf 'a\\n' | nl -bnone");
    expect(r).toEqual({ stdout: '     1\ta\n     2\t\n     3\tb\n     1\ta\n       \n     2\tb\n       a\n', stderr: '', exit: 0 });
  });
});
