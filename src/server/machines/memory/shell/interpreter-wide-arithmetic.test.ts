import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// bash(1) "Shell Arithmetic": evaluation is done in fixed-width (64-bit) integers with no check for overflow; each
// case is compared with the host's bash running the same script.
describe('64-bit arithmetic', () => {
  it('keeps every digit past 2^53: literals, variables, command substitutions, let, declare -i, ++', async () => {
    const script = [
      'echo $(( 9007199254740993 )); x=9007199254740993; echo $((x)) $((x+2)); declare -i y=9007199254740993; echo $y',
      'a=9007199254740993; b=$((a*3)); let c=a+1; declare -i d=a-1; echo $b $c $d; ((e=a, e+=a)); echo $e',
      'echo $(( $(echo 9007199254740993) + 0 )) $(( ${q:-9007199254740993} )) $(( 9007199254740993 & 0xff )) $(( ~9007199254740993 ))',
      'echo $(( 9007199254740993 > 9007199254740992 )) $(( 9007199254740993 == 9007199254740992 )); for ((i=9007199254740990; i<9007199254740993; i++)); do echo $i; done',
      '[[ 9007199254740993 -gt 9007199254740992 ]]; echo $?; [ 9007199254740993 -gt 9007199254740992 ]; echo $?; [ 9223372036854775808 -lt 0 ] 2>&1; echo $?',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });

  it('wraps in two\'s complement at both ends, and divides INT64_MIN by -1 as bash does', async () => {
    const script = [
      'echo $(( -9223372036854775807 - 2 )) $(( -(2**63) )) $(( 9223372036854775807 * 2 )) $(( -9223372036854775808 - 1 ))',
      'x=9223372036854775807; echo $((x+1)) $((++x)) $x $((x--)) $x; y=-9223372036854775808; echo $((y-1)) $((-y)) $((y/-1)) $((y%-1))',
      'echo $(( 2**63 )) $(( 2**64 )) $(( 3**40 )) $(( (-3)**39 )) $(( 10**18 * 10 )) $(( 1 << 63 )) $(( 3 << 62 )) $(( -1 >> 63 ))',
      'echo $(( 0x7fffffffffffffff )) $(( 0xffffffffffffffff )) $(( 99999999999999999999 )) $(( -7 / 2 )) $(( -7 % 2 )) $(( 7 % -2 ))',
      'declare -i n=9223372036854775807; n+=1; echo $n; n=n*2; echo $n; s=abcdef; echo ${s:$((2**64+2))}',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Arithmetic Expansion": `$[expr]` is the old form of `$((expr))`, also nested in an expression.
describe('$[expr] in arithmetic', () => {
  it('is a nested expression, in $(( )), $[ ] and subscripts', async () => {
    const script = [
      'echo $(( $[1] )) $(( $[1+1] * 3 )) $(( 2 + $[ 2 * $[3] ] )); echo $[ $[2] + 1 ]',
      'a=(1 2 3); echo ${a[$[1]]} ${a[$[1+1]]}',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
