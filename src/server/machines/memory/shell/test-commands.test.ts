import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

describe('test and [ as programs', () => {
  it('answer by path, through env, find -exec and xargs as coreutils test does, and are listed in /usr/bin', async () => {
    const r = await runShell('/usr/bin/[ 1 -eq 1 ] && echo ok; /usr/bin/test -n x && echo ok2; env test -d / && echo d; find . -maxdepth 0 -exec test -d {} \\; -print; /usr/bin/test -f nope; echo $?; xargs -n1 test -n <<< "a b"; echo $?; ls /usr/bin | grep -cx "\\[\\|test"; type -a test | tail -1');
    expect(r).toEqual({ stdout: 'ok\nok2\nd\n.\n1\n0\n2\ntest is /bin/test\n', stderr: '', exit: 0 });
  });
  it("refuses a [ without its closing ] with coreutils' message, status 2", async () => {
    expect(await runShell('/usr/bin/[ 1 -eq 1; echo "rc=$?"')).toEqual({ stdout: 'rc=2\n', stderr: '[: missing ‘]’\n', exit: 0 });
  });
});
