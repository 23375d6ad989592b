import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// bash(1) "Bash Variables" POSIXLY_CORRECT and "Bash POSIX Mode": setting the variable turns posix mode on, unsetting
// it turns it off, `set -o posix` sets it to y; in posix mode a function name must be an identifier. Each case is
// compared with the host's bash running the same script.
describe('POSIXLY_CORRECT and posix mode', () => {
  it('go together, in the shell, a function, a subshell and a child bash', async () => {
    const script = [
      'set -o posix; echo "[${POSIXLY_CORRECT-unset}]"; set +o posix; echo "[${POSIXLY_CORRECT-unset}]"',
      'POSIXLY_CORRECT=1; shopt -oq posix; echo $?; unset POSIXLY_CORRECT; shopt -oq posix; echo $?',
      'f() { local POSIXLY_CORRECT=1; shopt -oq posix; echo in $?; }; f; shopt -oq posix; echo $?',
      '(set -o posix; echo "${POSIXLY_CORRECT-unset}"); echo "${POSIXLY_CORRECT-unset}"',
      'POSIXLY_CORRECT=1 bash -c \'shopt -oq posix; echo $?\'; POSIXLY_CORRECT=1 true; shopt -oq posix; echo $?',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });

  it('refuses a function name that is not an identifier, fatally', async () => {
    for (const script of ['f-1() { :; }; echo ok; set -o posix; g.x() { :; }; echo rc=$?', 'POSIXLY_CORRECT=; f-1() { :; }; echo no']) {
      expect(await engineBash(script)).toEqual(hostBash(script));
    }
  });
});
