import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// As util-linux 2.38's rev answers in C.UTF-8, checked with bash on a GNU/Linux host.
describe('rev over input that is not UTF-8', () => {
  it('stops a file at a line that is not UTF-8, naming it and the lines read before, and goes on (status 1)', async () => {
    expect(await runShell("printf 'ok\\nbad\\351\\nmore\\n' > r.txt; printf 'ab\\n' > a; rev a r.txt a; echo \"s=$?\"; printf 'x\\377\\n' | rev")).toEqual({
      stdout: 'ba\nko\nba\ns=1\n',
      stderr: 'rev: r.txt: 1: Invalid or incomplete multibyte or wide character\nrev: stdin: 0: Invalid or incomplete multibyte or wide character\n',
      exit: 1,
    });
  });
});
