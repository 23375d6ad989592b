import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as util-linux 2.38 hexdump prints them (checked with bash on a GNU/Linux host).
describe('hexdump', () => {
  it('prints the canonical, default and character formats', async () => {
    const r = await runShell("printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt; hexdump -C nums.txt; hexdump nums.txt; head -c 40 /dev/zero | hexdump -C");
    expect(r.stdout).toBe(
      '00000000  33 0a 31 0a 32 0a 31 30  0a 31 0a                 |3.1.2.10.1.|\n0000000b\n' +
        '0000000 0a33 0a31 0a32 3031 310a 000a          \n000000b\n' +
        '00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000020  00 00 00 00 00 00 00 00                           |........|\n00000028\n',
    );
  });
});
