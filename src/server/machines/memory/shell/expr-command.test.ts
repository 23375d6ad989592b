import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 expr gives them (checked with bash on a GNU/Linux host).
describe('expr', () => {
  it('matches anchored BREs, giving the group or the length', async () => {
    const r = await runShell("expr abc : 'a\\(.\\)'; expr hello : '.*'; expr abc : 'x'; echo \"s=$?\"");
    expect(r.stdout).toBe('b\n5\n0\ns=1\n');
  });
  it('computes with any size of integer and fails on bad operands with exit 2', async () => {
    const r = await runShell('expr 99999999999999999999 + 1; expr \\( 2 + 3 \\) \\* 4; expr 1 + a; echo "s=$?"; expr 10 / 0; echo "s=$?"; expr 3 + 4 5; echo "s=$?"');
    expect(r).toEqual({ stdout: '100000000000000000000\n20\ns=2\ns=2\ns=2\n', stderr: 'expr: non-integer argument\nexpr: division by zero\nexpr: syntax error: unexpected argument ‘5’\n', exit: 0 });
  });
  it('takes the operands of length, match, index and substr as unary expressions: + quotes a keyword, ( ) groups', async () => {
    const r = await runShell("expr length + length; expr length length abc; expr length '(' abc ')'; expr substr + substr 2 3; expr index + index + d; expr substr abcdef length ab 2; expr length length; echo \"s=$?\"; expr ')'; echo \"s=$?\"");
    expect(r).toEqual({ stdout: '6\n1\n3\nubs\n3\nbc\ns=2\ns=2\n', stderr: "expr: syntax error: missing argument after ‘length’\nexpr: syntax error: unexpected ')'\n", exit: 0 });
  });
});
