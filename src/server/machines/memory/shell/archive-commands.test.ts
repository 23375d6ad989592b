import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU tar 1.34 and gzip 1.12 print them (checked with bash on a GNU/Linux host).

describe('tar and gzip reporting', () => {
  it('tar -v lists members on stdout, and on stderr when the archive is stdout', async () => {
    expect(await runShell('echo a > a.txt; tar -cvf a.tar a.txt')).toEqual({ stdout: 'a.txt\n', stderr: '', exit: 0 });
    expect(await runShell('echo a > a.txt; tar -cvf - a.txt | tar -tf -')).toEqual({ stdout: 'a.txt\n', stderr: 'a.txt\n', exit: 0 });
  });
  it('gzip -d of a name without .gz warns and exits 2', async () => {
    expect(await runShell('echo a > a.txt; gzip -d a.txt')).toEqual({ stdout: '', stderr: 'gzip: a.txt: unknown suffix -- ignored\n', exit: 2 });
  });
});
