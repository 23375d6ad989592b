import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Each expectation is GNU gettext 0.21's envsubst on the same line.
describe('envsubst', () => {
  it('replaces $NAME and ${NAME} of exported variables, empty when unset, and copies everything else', async () => {
    const r = await runShell("export A=1 U=é; x=local; echo '$A ${A} $x $$ $1 ${B:-x} $ {A} \\$A ${A $U $NOPE.' | envsubst");
    expect(r).toEqual({ stdout: '1 1  $$ $1 ${B:-x} $ {A} \\1 ${A é .\n', stderr: '', exit: 0 });
  });

  it('with SHELL-FORMAT replaces only the names it holds; -v lists them; bytes pass through', async () => {
    const r = await runShell("export A=1 B=2; echo '$A $B' | envsubst '$B'; envsubst -v '$A ${B} $A'; printf '\\377 $A' | envsubst | od -An -tx1; envsubst a b; echo \"rc=$?\"");
    expect(r.stdout).toBe('$A 2\nA\nB\nA\n ff 20 31\nrc=1\n');
    expect(r.stderr).toBe('envsubst: too many arguments\n');
  });
});
