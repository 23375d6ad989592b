import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU tr (coreutils 8.32/9) prints them (checked with bash on a GNU/Linux host).

describe('tr', () => {
  it('translates and deletes NUL bytes', async () => {
    expect((await runShell("printf 'a\\0b' | tr '\\0' x; printf 'a\\nb\\n' | tr '\\n' '\\0' | tr '\\0' ,")).stdout).toBe('axba,b,');
  });
  it('pads SET2 with its last byte, or truncates SET1 with -t; fills [c*]', async () => {
    expect((await runShell("tr 'abc' 'xy' <<< abcd; tr -t 'abc' 'xy' <<< abc; tr 'a-c' '[x*]' <<< abcd; tr 'abcdef' '[x*2]y' <<< abcdef")).stdout).toBe('xyyd\nxyc\nxxxd\nxxyyyy\n');
  });
  it('complements, squeezes, and deletes then squeezes', async () => {
    expect((await runShell("tr -cd '[:digit:]\\n' <<< a1b2c3; tr -s ' ' <<< 'a   b  c'; tr -ds l o <<< 'hello  oo'")).stdout).toBe('123\na b c\nheo  o\n');
  });
});
