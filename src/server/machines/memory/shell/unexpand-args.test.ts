import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// As GNU unexpand (coreutils 9.1) converts, checked with bash on a GNU/Linux host.
describe('unexpand', () => {
  it('converts every run of blanks under -t, only the leading ones under --first-only', async () => {
    const r = await runShell("printf '        a    b\\n' > f; unexpand -t 4 f | od -An -c; unexpand -a --first-only -t 4 f | od -An -c; unexpand f | od -An -c");
    expect(r.stdout).toBe('  \\t  \\t   a  \\t       b  \\n\n  \\t  \\t   a                   b  \\n\n  \\t   a                   b  \\n\n');
  });
});
