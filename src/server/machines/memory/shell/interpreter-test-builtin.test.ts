import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// bash's test.c: a malformed expression is a syntax error, status 2, worded through the shell's error prefix; each
// case is compared with the host's bash running the same script.
describe('test and [ with a malformed expression', () => {
  it.each([
    ['[ a b c ]', 'three arguments without a binary operator'],
    ['[ 1 -lt 2 -a ]', 'an operator missing its argument'],
    ['[ 1 -eq 1 -a x -lt 2 ]', 'a word that is no integer in a longer expression'],
    ['[ \\( a = a ]', 'a ( left open'],
    ['[ a = a -z ]', 'an operator left over'],
    ['test a b c d e', 'arguments left over'],
    ['[ a', 'a [ without its ]'],
  ])('%s (%s)', async (script) => {
    const full = `${script}; echo "rc=$?"`;
    expect(await engineBash(full)).toEqual(hostBash(full));
  });
});

// bash(1) "COMMAND EXECUTION": a command not found runs command_not_found_handle when it is defined.
describe('command_not_found_handle', () => {
  it('runs with the command and its arguments; its status is the command\'s', async () => {
    const script = `command_not_found_handle() { echo "missing $1 ($#)"; return 5; }; nosuch a b; echo "rc=$?"; x=$(frobnicate); echo "[$x]"`;
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Bash Conditional Expressions": `-o optname` is true if the shell option optname (a `set -o` name) is on.
describe('test -o and [[ -o ]]', () => {
  it('look up every set -o option by its long name', async () => {
    const script = [
      'set -o noglob; [ -o noglob ]; echo $?; test -o noglob; echo $?; [ -o nosuch ]; echo $?; set +o noglob; [ -o noglob ]; echo $?',
      '[[ -o hashall ]]; echo $?; [ -o braceexpand ]; echo $?; [ -o posix ]; echo $?; set -o posix; [ -o posix ]; echo $?',
      'set -f; [[ -o noglob ]]; echo $?; [ -o e ]; echo $?; [ ! -o noclobber ]; echo $?; set -C; [ -o noclobber ]; echo $?',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
