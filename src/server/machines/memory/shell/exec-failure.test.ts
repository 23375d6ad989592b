import { describe, expect, it } from 'vitest';
import { runShell, runShellJoined } from '../../../../../test/support/shell-run.ts';
import { execFailure } from './exec-failure.ts';

// Each wrapper's own execvp failure, worded as GNU coreutils, findutils, util-linux and sudo word it (checked with
// bash 5.2 and those tools on Debian).

describe('execFailure', () => {
  it('is the shell failing to run the named program, not a program that ran and failed', () => {
    expect(execFailure({ stdout: '', stderr: 'bash: line 2: x: command not found\n', exitCode: 127 }, 'x')).toBe('ENOENT');
    expect(execFailure({ stdout: '', stderr: 'bash: line 1: /etc: Is a directory\n', exitCode: 126 }, '/etc')).toBe('EACCES');
    expect(execFailure({ stdout: '', stderr: 'bash: line 1: x: command not found\n', exitCode: 127 }, 'bash')).toBeNull();
    expect(execFailure({ stdout: '', stderr: 'bash: line 1: x: command not found\n', exitCode: 1 }, 'x')).toBeNull();
  });
});

describe('wrappers that exec a program', () => {
  it('report a missing program or a directory in their own words and statuses', async () => {
    const r = await runShell(
      'export LANG=C.UTF-8; env /etc; echo $?; nice nosuch; echo $?; nohup /etc; echo $?; stdbuf -oL nosuch; echo $?; setsid /etc; echo $?; ' +
        'sudo nosuch; echo $?; echo x | xargs /etc; echo $?; find /etc -maxdepth 0 -exec nosuch {} \\; ; echo $?; timeout 1 /etc; echo $?',
    );
    expect(r.stdout).toBe('126\n127\n126\n127\n126\n1\n126\n0\n126\n');
    expect(r.stderr).toBe(
      [
        'env: ‘/etc’: Permission denied',
        'nice: ‘nosuch’: No such file or directory',
        "nohup: failed to run command '/etc': Permission denied",
        'stdbuf: failed to run command ‘nosuch’: No such file or directory',
        'setsid: failed to execute /etc: Permission denied',
        'sudo: nosuch: command not found',
        'xargs: /etc: Permission denied',
        'find: ‘nosuch’: No such file or directory',
        'timeout: failed to run command ‘/etc’: Permission denied',
        '',
      ].join('\n'),
    );
  });
  it('a program that ran and failed keeps its own message', async () => {
    const r = await runShell("env bash -c 'nosuch'; echo $?");
    expect(r).toEqual({ stdout: '127\n', stderr: 'bash: line 1: nosuch: command not found\n', exit: 0 });
  });
  it("nice's warning comes before its command's output; env -C quotes the directory always", async () => {
    const r = await runShellJoined("export LANG=C.UTF-8; nice -n -5 echo x 2>&1; env -C /nonexist pwd; echo $?");
    expect(r.stdout).toBe('nice: cannot set niceness: Permission denied\nx\n125\n');
    expect(r.stderr).toBe("env: cannot change directory to '/nonexist': No such file or directory\n");
  });
  it('stdbuf checks each mode: L (not for stdin) or a size', async () => {
    const r = await runShell('export LANG=C.UTF-8; stdbuf -oX true; echo $?; stdbuf -iL true; echo $?; stdbuf -o1KiB -e0 true; echo $?; stdbuf -o 99999999999999999999999 true; echo $?');
    expect(r.stdout).toBe('125\n125\n0\n125\n');
    expect(r.stderr).toBe(
      "stdbuf: invalid mode ‘X’\nstdbuf: line buffering stdin is meaningless\nTry 'stdbuf --help' for more information.\nstdbuf: invalid mode ‘99999999999999999999999’: Value too large for defined data type\n",
    );
  });
  it('run programs only: a builtin with no program of its name, or a function, is not found; echo and pwd are programs', async () => {
    const r = await runShell(
      "export LANG=C.UTF-8; env cd /; echo $?; nice cd /; echo $?; timeout 1 cd /; echo $?; f() { :; }; env f; echo $?; echo x | xargs cd; echo $?; sudo cd; echo $?; env echo hi; nice -n 5 -- /etc; echo $?",
    );
    expect(r.stdout).toBe('127\n127\n127\n127\n127\n1\nhi\n126\n');
    expect(r.stderr).toBe(
      [
        'env: ‘cd’: No such file or directory',
        'nice: ‘cd’: No such file or directory',
        'timeout: failed to run command ‘cd’: No such file or directory',
        'env: ‘f’: No such file or directory',
        'xargs: cd: No such file or directory',
        'sudo: cd: command not found',
        'nice: ‘/etc’: Permission denied',
        '',
      ].join('\n'),
    );
  });
});
