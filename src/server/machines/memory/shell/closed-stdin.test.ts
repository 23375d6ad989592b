import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU tools with their standard input closed (`<&-`): what each prints and its status, as on a real sprite.
describe('tools reading a closed stdin', () => {
  it('fail with EBADF after doing the rest of their work', async () => {
    const script = 'echo hi > f; cat f - <&-; echo "cat=$?"; tee t <&-; echo "tee=$?"; ls t; tr a b <&-; echo "tr=$?"; grep x <&-; echo "grep=$?"; uniq <&-; echo "uniq=$?"; head -1 <&-; echo "head=$?"';
    const r = await runShell(script);
    expect(r.stdout).toBe('hi\ncat=1\ntee=1\nt\ntr=1\ngrep=2\nuniq=1\nhead=1\n');
    expect(r.stderr).toContain('tee: read error: Bad file descriptor\n');
    expect(r.stderr).toContain('tr: read error: Bad file descriptor\n');
    expect(r.stderr).toContain('grep: (standard input): Bad file descriptor\n');
    expect(r.stderr).toContain('uniq: -: Bad file descriptor\n');
  });

  it('leave a stdin that a later redirection reopened alone', async () => {
    expect(await runShell('echo hi > f; cat <&- < f; tr h H <&- < f; wc -l <&- < f')).toEqual({ stdout: 'hi\nHi\n1\n', stderr: '', exit: 0 });
  });
});
