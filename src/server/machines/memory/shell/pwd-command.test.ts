import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU coreutils 9 on a sprite: each expected output is what it printed on a real machine.

describe('the pwd program', () => {
  it('is physical by default, logical with -L or POSIXLY_CORRECT', async () => {
    expect((await runShell('mkdir real; ln -s real lnk; cd lnk; /bin/pwd; /bin/pwd -L; /bin/pwd --logical --physical; POSIXLY_CORRECT=1 /bin/pwd; POSIXLY_CORRECT=1 /bin/pwd -P')).stdout).toBe(
      '/home/sprite/real\n/home/sprite/lnk\n/home/sprite/real\n/home/sprite/lnk\n/home/sprite/real\n',
    );
  });
  it('-L falls back to the physical name when $PWD is relative, has . or .., or names another directory', async () => {
    const r = await runShell('mkdir real; ln -s real lnk; cd lnk; for p in real /nonexistent /home/sprite/lnk/. /home/sprite/real/../lnk /home/sprite; do PWD=$p /bin/pwd -L; done');
    expect(r.stdout).toBe('/home/sprite/real\n'.repeat(5));
  });
  it('warns about operands and goes on', async () => {
    expect(await runShell('cd /tmp; /bin/pwd a b')).toEqual({ stdout: '/tmp\n', stderr: 'pwd: ignoring non-option arguments\n', exit: 0 });
  });
  it('takes abbreviated long options and rejects others with GNU\'s words', async () => {
    expect(await runShell('cd /tmp; /bin/pwd --phys --log; /bin/pwd -x; echo "s=$?"; /bin/pwd --nope; echo "s=$?"')).toEqual({
      stdout: '/tmp\ns=1\ns=1\n',
      stderr: "pwd: invalid option -- 'x'\nTry 'pwd --help' for more information.\npwd: unrecognized option '--nope'\nTry 'pwd --help' for more information.\n",
      exit: 0,
    });
  });
});
