import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

describe('test and [ as programs', () => {
  it('answer by path, through env, find -exec and xargs as coreutils test does, and are listed in /usr/bin', async () => {
    const r = await runShell('/usr/bin/[ 1 -eq 1 ] && echo ok; /usr/bin/test -n x && echo ok2; env test -d / && echo d; find . -maxdepth 0 -exec test -d {} \\; -print; /usr/bin/test -f nope; echo $?; xargs -n1 test -n <<< "a b"; echo $?; ls /usr/bin | grep -cx "\\[\\|test"; type -a test | tail -1');
    expect(r).toEqual({ stdout: 'ok\nok2\nd\n.\n1\n0\n2\ntest is /bin/test\n', stderr: '', exit: 0 });
  });
  it('answer -r/-w/-x with access(2)\'s real ids (euidaccess), not an exec session\'s capabilities, which the builtin counts', async () => {
    // Measured with bash and coreutils 9 as an unprivileged user holding CAP_DAC_OVERRIDE (setpriv --ambient-caps).
    const r = await runShell('echo x > f; chmod 000 f; [ -r f ] && echo builtin-r; /usr/bin/test -r f || echo program-not-r; /usr/bin/[ -w /etc/passwd ] || echo program-not-w; env test -r f || echo env-not-r; sudo /usr/bin/test -r f && echo root-r');
    expect(r).toEqual({ stdout: 'builtin-r\nprogram-not-r\nprogram-not-w\nenv-not-r\nroot-r\n', stderr: '', exit: 0 });
  });
  it("refuses a [ without its closing ] with coreutils' message, status 2", async () => {
    expect(await runShell('/usr/bin/[ 1 -eq 1; echo "rc=$?"')).toEqual({ stdout: 'rc=2\n', stderr: '[: missing ‘]’\n', exit: 0 });
  });
});
