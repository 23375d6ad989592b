import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// debianutils' which, as a sprite's Ubuntu runs it (checked with bash on a Debian host).

describe('which', () => {
  it('prints a name with a slash as given when it is executable, and the first PATH match of any other (all with -a)', async () => {
    const r = await runShell('printf "echo hi\\n" > run.sh; chmod +x run.sh; which ./run.sh; which run.sh; echo "s=$?"; which -a sh; which ls nope; echo "s=$?"; PATH=/usr/bin: which run.sh; which; echo "s=$?"');
    expect(r).toEqual({ stdout: './run.sh\ns=1\n/usr/bin/sh\n/bin/sh\n/usr/bin/ls\ns=1\n./run.sh\ns=1\n', stderr: '', exit: 0 });
  });
  it('knows -a alone: any other option is illegal (dash\'s getopts message, then the usage line), status 2', async () => {
    const r = await runShell('which -s ls 2>&1; echo "s=$?"; which --skip-alias ls 2>&1; which -- ls');
    expect(r).toEqual({ stdout: 'Illegal option -s\nUsage: /usr/bin/which [-a] args\ns=2\nIllegal option --\nUsage: /usr/bin/which [-a] args\n/usr/bin/ls\n', stderr: '', exit: 0 });
  });
});
