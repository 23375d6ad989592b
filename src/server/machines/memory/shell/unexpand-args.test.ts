import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// As GNU unexpand (coreutils 9.1) converts, checked with bash on a GNU/Linux host.
describe('unexpand', () => {
  it('converts every run of blanks under -t, only the leading ones under --first-only', async () => {
    const r = await runShell("printf '        a    b\\n' > f; unexpand -t 4 f | od -An -c; unexpand -a --first-only -t 4 f | od -An -c; unexpand f | od -An -c");
    expect(r.stdout).toBe('  \\t  \\t   a  \\t       b  \\n\n  \\t  \\t   a                   b  \\n\n  \\t   a                   b  \\n\n');
  });
});

describe('expand and unexpand columns', () => {
  it('count a column per byte, as GNU (no multibyte support), and a tab inside a run of blanks joins the run', async () => {
    const r = await runShell("expand -t 4 <<< $'é\\ty' | od -An -c; unexpand -a <<< 'é       x' | od -An -c; unexpand -t 8 <<< $' \\tx' | od -An -c");
    expect(r.stdout).toBe(' 303 251           y  \\n\n 303 251  \\t       x  \\n\n  \\t   x  \\n\n');
  });
});
