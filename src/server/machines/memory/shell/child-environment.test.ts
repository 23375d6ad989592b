import { describe, it, expect } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// bash(1) "COMMAND EXECUTION ENVIRONMENT": a program gets the shell's exports as it is started, prefix assignments
// included; a program that starts another hands that environment on (execve(2)).
describe('a program a command starts gets that command environment', () => {
  it('timeout, nice, nohup, xargs and find -exec hand on the current exports and prefix assignments, nothing else', async () => {
    const got = await runShell(
      [
        'export FOO=1; v=2',
        "timeout 5 printenv FOO; timeout 5 sh -c 'echo t$FOO$v'; nice sh -c 'echo n$FOO'; nohup sh -c 'echo h$FOO' 2>/dev/null",
        "echo x | xargs sh -c 'echo x$FOO'; find /etc -maxdepth 0 -exec printenv FOO \\;",
        'Q=5 timeout 5 printenv Q; Q=6 xargs printenv Q < /dev/null',
        "unset HOME; timeout 5 sh -c 'echo home=${HOME-unset}'",
      ].join('\n'),
    );
    expect(got).toEqual({ stdout: '1\nt1\nn1\nh1\nx1\n1\n5\n6\nhome=unset\n', stderr: '', exit: 0 });
  }, 60_000);

  it('a function exported with export -f reaches a bash started through timeout or env', async () => {
    const got = await runShell(`f() { echo "in f $A"; }; export -f f; export A=1; timeout 5 bash -c f; env bash -c f; sudo -E sh -c 'echo "sudo $A"'`);
    expect(got).toEqual({ stdout: 'in f 1\nin f 1\nsudo 1\n', stderr: '', exit: 0 });
  }, 60_000);
});
