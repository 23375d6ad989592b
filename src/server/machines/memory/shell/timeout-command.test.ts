import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU timeout's statuses and messages (checked with bash on a GNU/Linux host).

describe('timeout', () => {
  it('a timed-out command is 124, or with --preserve-status 128+N of the signal sent; -v names the signal', async () => {
    const r = await runShell('export LANG=C.UTF-8; timeout 0.2 sleep 5; echo "s=$?"; timeout --preserve-status 0.2 sleep 5; echo "s=$?"; timeout -v --preserve-status -s INT 0.2 sleep 5; echo "s=$?"; timeout 1 sh -c "exit 3"; echo "s=$?"');
    expect(r).toEqual({ stdout: 's=124\ns=143\ns=130\ns=3\n', stderr: 'timeout: sending signal INT to command ‘sleep’\n', exit: 0 });
  });
  it('KILL ends timeout too (137, which bash reports), but for --foreground; an unknown signal is status 125', async () => {
    const r = await runShell('export LANG=C.UTF-8; timeout --foreground -s KILL 0.2 sleep 5; echo "s=$?"; timeout -s KILL 0.2 sleep 5; echo "s=$?"; timeout -s FOO 1 true; echo "s=$?"');
    expect(r.stdout).toBe('s=137\ns=137\ns=125\n');
    expect(r.stderr).toMatch(/^bash: line 1: +\d+ Killed {18}timeout -s KILL 0\.2 sleep 5\ntimeout: ‘FOO’: invalid signal\nTry 'timeout --help' for more information\.\n$/);
  });
  it('usage errors are status 125 with GNU\'s words; a command that cannot run is 127 or 126, named by timeout', async () => {
    const r = await runShell('export LANG=C.UTF-8; timeout 5; echo "s=$?"; timeout abc true; echo "s=$?"; timeout --bogus 1 true; echo "s=$?"; timeout 1 nope_q; echo "s=$?"; timeout -- 1e1 echo ok; timeout 0 echo zero');
    expect(r).toEqual({
      stdout: 's=125\ns=125\ns=125\ns=127\nok\nzero\n',
      stderr:
        "Try 'timeout --help' for more information.\ntimeout: invalid time interval ‘abc’\nTry 'timeout --help' for more information.\n" +
        "timeout: unrecognized option '--bogus'\nTry 'timeout --help' for more information.\ntimeout: failed to run command ‘nope_q’: No such file or directory\n",
      exit: 0,
    });
  });
  it('sends its signal to a shell, which runs its trap for it and goes on, or its EXIT trap and dies; what it wrote is kept', async () => {
    const r = await runShell(
      "timeout 0.2 bash -c 'trap \"echo caught\" TERM; sleep 2; echo after'; echo \"s=$?\"; timeout 0.2 bash -c 'echo start; trap \"echo bye\" EXIT; sleep 2; echo no'; echo \"s=$?\"; " +
        "timeout -s INT 0.2 bash -c 'trap \"echo int\" INT; sleep 2'; timeout -s HUP --preserve-status 0.2 bash -c 'trap \"echo hup; exit 5\" HUP; sleep 2'; echo \"s=$?\"",
    );
    expect(r).toEqual({ stdout: 'caught\nafter\ns=124\nstart\nbye\ns=124\nint\nhup\ns=5\n', stderr: 'Terminated\nHangup\n', exit: 0 });
  });
  it('ends a shell busy in a loop of builtins, which runs its EXIT trap', async () => {
    const r = await runShell("timeout 0.2 bash -c 'echo a; while :; do :; done'; echo \"s=$?\"; timeout 0.2 bash -c 'trap \"echo bye\" EXIT; i=0; while :; do i=$((i+1)); done'; echo \"s=$?\"");
    expect(r).toEqual({ stdout: 'a\ns=124\nbye\ns=124\n', stderr: '', exit: 0 });
  });
  it('lets a shell that ignores the signal go on, and one that traps it report the child that the signal killed', async () => {
    const r = await runShell("timeout 0.2 bash -c 'trap \"\" TERM; sleep 1; echo after'; echo \"s=$?\"; timeout 0.2 bash -c 'trap \"echo t\" TERM; sh -c \"sleep 2\"; echo x'");
    expect(r).toEqual({ stdout: 'after\ns=124\nt\nx\n', stderr: 'Terminated\n', exit: 124 });
  });
  it('ends a shell whose foreground job is a subshell or a pipeline, as the signal reaches them all', async () => {
    const r = await runShell("timeout 0.2 bash -c '(sleep 2); echo x'; echo \"s=$?\"; timeout 0.2 bash -c 'sleep 2 | cat; echo x'; echo \"s=$?\"; timeout 0.2 bash -c 'trap \"echo bye\" EXIT; (sleep 2); echo x'");
    expect(r).toEqual({ stdout: 's=124\ns=124\nbye\n', stderr: '', exit: 124 });
  });
  it('with KILL, the shell reports timeout killed at its own line, and not for a -c script\'s last command, which it execs', async () => {
    const r = await runShell('true\ntimeout -s KILL 0.1 sleep 1\necho "s=$?"; bash -c \'timeout -s KILL 0.1 sleep 1\'; echo "s=$?"');
    expect(r.stdout).toBe('s=137\ns=137\n');
    expect(r.stderr).toMatch(/^bash: line 2: +\d+ Killed {18}timeout -s KILL 0\.1 sleep 1\nbash: line 3: +\d+ Killed {18}bash -c 'timeout -s KILL 0\.1 sleep 1'\n$/);
  });
});
