import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// bash(1) "Arrays": an associative array's subscript undergoes parameter expansion like any word; each case is
// compared with the host's bash running the same script.
describe("an associative array's subscript", () => {
  it('expands positional and special parameters: $1, ${1}, $#, $*, $@, in reads, -v tests and += writes', async () => {
    const script = [
      'declare -A g=([a]=1 [b]=2 [1]=one ["a b"]=ab)',
      'set -- a; echo "[${g[$1]}] ${g[$1]:-d} ${#g[$1]} ${g[${1}]} ${g[$#]}"',
      'port_for() { echo "${g[$1]:-unknown}"; }; port_for b; port_for zz',
      'set -- a b; echo "${g[$*]}"',
      'declare -A c; set -- k; c[$1]+=x; c[$1]+="${c[$1]:+ }y"; echo "${c[k]}"; [[ -v g[$1] ]] || echo "k unset"',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "declare": in a function, declare and typeset make each name local, as with the local command.
describe('declare without a value in a function', () => {
  it('starts a new unset local (scalar, -a, -A, -i) and the global comes back on return; a name already local keeps its value', async () => {
    const script = [
      'arr=(1 2); f() { declare -a arr; echo ${#arr[@]}; arr+=(z); echo "${arr[@]}"; }; f; echo "${arr[@]}"',
      'declare -A m=([a]=1); g() { declare -A m; echo ${#m[@]}; m[q]=2; }; g; echo "${!m[@]}"',
      'x=1; h() { declare x; echo "[$x]"; x=2; typeset -i n; echo "[$n]"; }; n=5; h; echo "$x $n"',
      'k() { local y=1; declare y; echo "[$y]"; declare -g z; }; z=3; k; echo $z; declare w=4; declare w; echo $w',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
