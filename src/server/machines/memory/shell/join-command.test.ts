import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU join's merges, formats and order reports, as coreutils 9 prints them.
describe('join', () => {
  it('joins every pair of lines with equal keys, with -a and -v for the unpaired', async () => {
    const r = await runShell("join <(printf '1 a\\n1 b\\n2 c\\n') <(printf '1 x\\n1 y\\n3 z\\n'); join -a1 -a2 <(printf '1 a\\n2 b\\n') <(printf '1 x\\n3 y\\n'); join -v2 <(printf '1 a\\n') <(printf '1 x\\n3 y\\n')");
    expect(r).toEqual({ stdout: '1 a x\n1 a y\n1 b x\n1 b y\n1 a x\n2 b\n3 y\n3 y\n', stderr: '', exit: 0 });
  });

  it('formats with -o (0 is the key) and -e, -o auto, --header, -i keeping file 1 key', async () => {
    const r = await runShell("join -e NA -o 0,1.2,2.2 -a1 <(printf '1 a\\n2 b\\n') <(printf '1 x\\n'); join -o auto -e - -a2 <(printf '1 a b\\n') <(printf '1 x\\n2 y\\n'); join --header -t, <(printf 'k,v\\n1,a\\n') <(printf 'k,w\\n1,b\\n'); join -i <(printf 'A 1\\n') <(printf 'a 2\\n')");
    expect(r).toEqual({ stdout: '1 a x\n2 b NA\n1 a b x\n2 - - y\nk,v,w\n1,a,b\nA 1 2\n', stderr: '', exit: 0 });
  });

  it('reports input that is not sorted once a line went unpaired, and fails', async () => {
    const r = await runShell("join <(printf '2 b\\n1 a\\n') <(printf '1 x\\n2 y\\n'); echo \"s=$?\"; join <(printf '2\\n1\\n') <(printf '2\\n1\\n'); echo \"s=$?\"");
    expect(r.stdout).toBe('2 b y\ns=1\n2\n1\ns=0\n');
    expect(r.stderr).toBe('join: /dev/fd/63:2: is not sorted: 1 a\njoin: input is not in sorted order\n');
  });
});
