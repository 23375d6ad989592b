import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU touch's date errors (checked with coreutils 9 on a GNU/Linux host).

describe('touch', () => {
  it('dies at a date it cannot read, -dash being -d ash, naming it in the locale\'s quotes', async () => {
    expect(await runShell('touch -dash x; echo "s=$?"; LANG=C.UTF-8 touch -d ash x; touch -t 99 x; ls x')).toEqual({
      stdout: 's=1\n',
      stderr: "touch: invalid date format 'ash'\ntouch: invalid date format ‘ash’\ntouch: invalid date format '99'\nls: cannot access 'x': No such file or directory\n",
      exit: 2,
    });
  });
});
