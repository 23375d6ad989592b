import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 comm gives them (checked with bash on a GNU/Linux host, LANG=C.UTF-8).
describe('comm', () => {
  it('joins columns with --output-delimiter and counts with --total', async () => {
    const r = await runShell("comm --output-delimiter=: <(printf 'a\\nb\\n') <(printf 'b\\nc\\n'); comm --total <(printf 'a\\nb\\n') <(printf 'b\\nc\\n')");
    expect(r.stdout).toBe('a\n::b\n:c\na\n\t\tb\n\tc\n1\t1\t1\ttotal\n');
  });
  it('compares bytes (uppercase first) and reports unsorted input with exit 1', async () => {
    const r = await runShell("printf 'B\\na\\n' > c1; printf 'a\\nb\\n' > c2; comm c1 c2; printf 'b\\na\\n' > u1; printf 'a\\nc\\n' > u2; comm u1 u2; echo \"s=$?\"");
    expect(r).toEqual({ stdout: 'B\n\t\ta\n\tb\n\ta\nb\na\n\tc\ns=1\n', stderr: 'comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n', exit: 0 });
  });
  it('reports disorder between the lines around it where stdout and stderr meet', async () => {
    const r = await runShell("comm <(printf 'b\\na\\n') <(printf 'a\\nb\\n') 2>&1");
    expect(r.stdout).toBe('\ta\n\t\tb\ncomm: file 1 is not in sorted order\na\ncomm: input is not in sorted order\n');
  });
});
