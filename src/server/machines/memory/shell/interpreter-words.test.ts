import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// bash(1) "Special Parameters": "$@" expands to one word per positional parameter, also when it is the word of a
// ${p-word} / ${p+word} operator (the portable `${1+"$@"}` idiom); each case is compared with the host's bash.
describe('"$@" and "${a[@]}" in the word of a parameter operator', () => {
  it('give one word per element in ${p+word}, ${p:+word}, ${p-word}, ${p:-word}, quoted or not, with text around', async () => {
    const script = [
      'set -- "a b" c; printf \'<%s>\' ${1+"$@"} ${1:+"$@"} ${unset-"$@"} ${nope:-"$@"}; echo',
      'f() { echo $#; }; set -- "a b" c; f ${1+"$@"}; f "${1+"$@"}"; f ${1+pre"$@"post}',
      'set -- "a b" c; printf \'<%s>\' "${@:-x}" ${@+"$@"}; echo; set --; printf \'<%s>\' "${@:-x}" ${@+"$@"} ${1+"$@"}; echo',
      'a=("x y" z); printf \'<%s>\' ${a+"${a[@]}"} ${a:+"${a[@]}"} "${a[@]:-q}"; a=(); printf \'<%s>\' "${a[@]:-q}"; echo',
      'set -- "a b" c; for w in ${1+"$@"}; do echo "[$w]"; done; arr=(${1+"$@"}); echo ${#arr[@]}',
      'set -- "a b"; x=1; printf \'<%s>\' ${x+$1} "${x+$1}" ${x+\'$1\'}; echo',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
