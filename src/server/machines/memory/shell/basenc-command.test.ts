import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 9 gives them (checked with bash on a GNU/Linux host).
describe('base64, base32, basenc', () => {
  it('writes what decodes before a fault, then fails with invalid input', async () => {
    const r = await runShell("echo '!!!' | base64 -d; echo \"s=$?\"; base64 -d <<< 'aGVsbG8'; echo \" s=$?\"; base64 -d <<< 'aGV*sbG8='; echo \" s=$?\"; base64 -d -i <<< 'aGV*sbG8='; echo");
    expect(r).toEqual({ stdout: 's=1\nhello s=1\nhe s=1\nhello\n', stderr: 'base64: invalid input\nbase64: invalid input\nbase64: invalid input\n', exit: 0 });
  });
  it('encodes and decodes base32 and basenc alphabets', async () => {
    const r = await runShell("base32 -d <<< 'NBUQU==='; printf hi | base32; echo; basenc --base64url <<< '??>'; printf hi | basenc --base16");
    expect(r.stdout).toBe('hi\nNBUQ====\n\nPz8-Cg==\n6869\n');
  });
});

describe('base64 of a directory', () => {
  it('fails on the read, as GNU: no file name in the message', async () => {
    expect(await runShell('mkdir d; base64 d; echo "st=$?"; base32 nope')).toEqual({ stdout: 'st=1\n', stderr: 'base64: read error: Is a directory\nbase32: nope: No such file or directory\n', exit: 1 });
  });
});
