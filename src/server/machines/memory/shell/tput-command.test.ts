import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { expandParameters } from './tput-command.ts';

// Each expectation is ncurses 6.4's tput (Debian) on the same line, with stdout and stdin not a terminal.
describe('tput', () => {
  it('without a terminal type fails as tput does: bash\'s own TERM=dumb is not exported', async () => {
    expect(await runShell("bash -c 'tput cols; echo \"rc=$?\"'")).toEqual({ stdout: 'rc=2\n', stderr: 'tput: No value for $TERM and no -T specified\n', exit: 0 });
  });

  it('answers numbers, flags and strings of the terminal, with parameters', async () => {
    const r = await runShell('export TERM=xterm-256color; tput cols; tput lines; tput colors; tput setaf 1 | od -An -c; tput setaf 100 | od -An -c; tput cup 5 10 | od -An -c; tput am; echo "am=$?"; COLUMNS=120 tput cols; tput -T xterm colors');
    expect(r.stdout.replace(/ +/g, ' ')).toBe('80\n24\n256\n 033 [ 3 1 m\n 033 [ 3 8 ; 5 ; 1 0 0 m\n 033 [ 6 ; 1 1 H\nam=0\n120\n8\n');
  });

  it('a capability the terminal lacks prints nothing and exits 1 (-1 for a number); clear erases the scrollback too', async () => {
    const r = await runShell('export TERM=dumb; tput setaf 1; echo "rc=$?"; tput colors; tput lines; TERM=xterm tput clear | od -An -c; TERM=xterm tput -x clear | od -An -c');
    expect(r.stdout.replace(/ +/g, ' ')).toBe('rc=1\n-1\n24\n 033 [ H 033 [ 2 J 033 [ 3 J\n 033 [ H 033 [ 2 J\n');
  });

  it('refuses loudly a terminal or a capability it has no entry for', async () => {
    const r = await runShell('TERM=wyse50 tput cols; echo "rc=$?"; TERM=xterm tput kf63; echo "rc=$?"');
    expect(r.stdout).toBe('rc=3\nrc=4\n');
    expect(r.stderr.split('\n').filter((l) => l.includes('--exec sandbox'))).toHaveLength(2);
  });

  it('expands terminfo\'s parameter language', () => {
    const setaf = '\x1b[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m';
    expect([2, 9, 200].map((n) => expandParameters(setaf, [n]))).toEqual(['\x1b[32m', '\x1b[91m', '\x1b[38;5;200m']);
    expect(expandParameters('\x1b[%i%p1%d;%p2%dH', [0, 0])).toBe('\x1b[1;1H');
  });
});
