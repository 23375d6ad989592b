import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';
import { dashResult } from './dash-flavour.ts';

// A sprite's `sh` is dash (Ubuntu's /bin/sh), and so is the host's (Debian's): each script is compared with it.
describe('sh as dash words it', () => {
  it.each([
    "sh -c 'nope_cmd_q' 2>&1; echo \"status=$?\"",
    "printf 'echo hi\\nnope2\\n' > s.sh; sh s.sh 2>&1; echo \"s=$?\"",
    "sh -c 'echo \"a\\tb\"; echo \"c\\nd\"'",
    "sh -c 'echo -n x; echo y'",
    "sh -c 'f() { nope3; }; f' 2>&1",
    "x=$(sh -c 'nope4' 2>&1); echo \"$x\"",
    "sh -c 'echo \"a\\\\b\"'",
    'sh -c \'printf "%s\\n" x; exit 3\'; echo $?',
    // `dash` itself, the program /bin/sh links to, words its messages with its own name.
    "dash -c 'echo $0; nope5' 2>&1; echo \"s=$?\"",
    'type dash',
    "dash -c 'echo \"a\\tb\"'; readlink -f /bin/sh",
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });

  it('keeps the order of stdout and stderr runs when it rewords a message', () => {
    const r = dashResult({ stdout: 'ab', stderr: 'sh: line 1: x: command not found\n', exitCode: 127, outputOrder: [1, 33] }, 'sh');
    expect(r).toEqual({ stdout: 'ab', stderr: 'sh: 1: x: not found\n', exitCode: 127, outputOrder: [1, 20] });
  });
});

describe('a shell run by path', () => {
  it.each(["/bin/sh -c 'echo $0'; /usr/bin/dash -c 'echo $0; nope6' 2>&1", "true; /bin/bash -c 'echo $0'; env /bin/sh -c 'echo $0'; (exec -a foo /bin/bash -c 'echo $0')"])(
    'takes the path for $0: %s',
    async (script) => {
      expect(await engineBash(script)).toEqual(hostBash(script));
    },
  );
});
