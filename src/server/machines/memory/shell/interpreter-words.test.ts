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

// bash(1) "Reserved Words": `[[` and `]]` are reserved only as the first word of a command; a function body is any
// compound command ("Shell Functions"), `[[ ]]` and `(( ))` included.
describe('[[ outside command position, and as a function body', () => {
  it('is a word as an argument, a keyword to command -v and type', async () => {
    const script = [
      'echo a [[ b; command -v [[; command -v time; type -t [[ time function',
      'echo x [[ y ]]; echo { a }; echo [[; echo [[a; echo a[[ ]]; command -v ]] { } !; type -t ]] { if',
      '[[ a == a ]] && echo yes; if [[ -n x ]]; then echo t; fi; ! [[ a == b ]] && echo neg; x=1 [[ -n 1 ]]; echo $?',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });

  it('is a function body, as (( )) is', async () => {
    const script = [
      'f() [[ $1 == 1 ]]; f 1 && echo f; f 2 || echo nf; declare -f f',
      'g() (( $1 > 2 )); g 3 && echo g; g 1 || echo ng; declare -f g',
      'h() [[ -n $1 ]] >/dev/null; h x && echo h; type h; function k [[ 1 ]]; k && echo k',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Aliases": if an alias value ends in a blank, the next command word is also checked for alias expansion.
describe('an alias whose value ends in a blank', () => {
  it('alias-expands the next word in its own place, and the chain goes on while values end in a blank', async () => {
    const script = [
      'shopt -s expand_aliases',
      "alias e='echo ' w=world q='a b ' v='hello world' n=nope",
      'e w',
      'e e w; e q v x; e n w; e "w" w; e \\w w; e z w',
      "alias r='echo ' o='hi >/dev/null'; eval 'r o'; echo rc=$?",
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Shell Parameter Expansion": for `@`, `*` and `name[@]`, "it is an expansion error if length evaluates to a
// number less than zero" (the line is abandoned, status 1).
describe('a negative substring length of the positional parameters or an array', () => {
  it('is an expansion error named by the length as written; zero and positive lengths and negative offsets still slice', async () => {
    const script = [
      'set -- a b c; echo ${@:1:-1}; echo after',
      'set -- a b c; x=$(echo "${*:2:-2}"); echo "rc=$? [$x]"',
      'a=(x y z); n=-2; echo "${a[@]:1:n}"; echo after',
      'set -- a b c; n=-1; x=${@:1:n}; echo "[$x]"',
      'set -- a b c; x="${*:1:2}"; echo "$x" ${@:2:1}',
      'set -- a b c; echo ${@:1:0}; echo ${@: -2:1}; echo ${@:0:2}; a=(x y z); echo ${a[@]: -1} ${a[@]:1:1}',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash 5.2's assoc_subrange: the manual leaves a slice of an associative array undefined, but bash slices the values
// in the order it lists them; compared with the host's bash.
describe('a substring of an associative array', () => {
  it('slices its values as bash does: offsets from 1 (0 is 1), from the end when negative, a length of 0 is one value', async () => {
    const script = [
      'declare -A m=([k]=v [a]=b [zz]=q [x]=y); for s in 0:0 1:0 2:0 2:2 2:9 -1:0 -2:1 -5:2 -6:1 5:1; do o=${s%:*} l=${s#*:}; echo "$s: [${m[@]:o:l}] [${m[*]:o:l}]"; done',
      'declare -A m=([k]=v [a]=b [zz]=q [x]=y); for o in 0 1 2 5 -1 -5 -6; do echo "$o: [${m[@]:o}]" ${m[@]:o}; done; f() { echo $#; }; f "${m[@]:1:2}"; x=${m[@]:2}; echo "$x"',
      'declare -A e; echo "[${e[@]:0:1}]"; declare -A m=([k]=v); echo "[${m[@]:1:-1}]"; echo after',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Shell Parameter Expansion": a substring's offset and length are expanded before they are evaluated, so a
// `${…}` inside them may hold a colon (`${s%:*}`).
describe('a substring offset or length holding an expansion with a colon', () => {
  it('takes the nested ${…} whole', async () => {
    const script = 's=1:2; x=abcdef; echo "${x:${s%:*}:${s#*:}}" "${x:${s%:*}}"; a=(p q r s); echo "${a[@]:${s%:*}:${s#*:}}"; echo "${x:$(echo 1):2}" "${x: $((1+1)):2}" "${x:1:${#s}}" "${x:(1):2}" "${x:1?2:3:1}"';
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
