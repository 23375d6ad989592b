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

// bash(1) "Arrays": a scalar given a subscript becomes an array whose element 0 is its value (arrayfunc.c
// convert_var_to_array), by an element assignment, `declare -a`/`-A` or `read -a`.
describe('a scalar made an array', () => {
  it('keeps its value as element (key) 0', async () => {
    const script = [
      'a=1; a[1]=2; declare -p a; echo "${a[@]} $a"',
      'b=x; echo ${b[0]} ${#b[@]}; b[3]=y; declare -p b; c=1; c+=(2); declare -p c',
      'd=1; declare -a d; declare -p d; e=5; declare -A e; declare -p e; g=q; read -a g <<< "m n"; declare -p g',
      'h=1; h=([3]=x); declare -p h; i=1; unset i; i[1]=2; declare -p i; declare -a j; declare -p j',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Shell Parameter Expansion": ${name[@]@K} and @A write an associative array's keys quoted as
// `declare -p` does.
describe('@K and @A on an associative array', () => {
  it('quote the keys that need it', async () => {
    const script = [
      'declare -A h=([a b]=c [d]=e [\'$z\']=2 [-]=5 [a~]=6); echo "${h[@]@K}"; echo "${h[@]@A}"',
      'declare -A h; h[\'x"y\']=1; h[\'a`b\']=2; echo "${h[@]@K}"; echo "${h[@]@A}"; a=(x "y z"); echo "${a[@]@K}"',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Arrays": a subscript undergoes arithmetic expansion with the other expansions.
describe('an arithmetic expansion in a subscript', () => {
  it('is expanded, in reads, writes and operators, for indexed and associative arrays', async () => {
    const script = [
      'a=(1 2 3); i=1; echo ${a[$((i+1))]} ${a[$(( (i) ))]} "${a[$((i*2))]}" ${a[$(( 1 + 1 ))]:-x} ${#a[$((0))]}',
      'a=(1 2 3); i=1; a[$((i+1))]=z; echo ${a[@]}; echo ${a[$((i)) + 1]} ${a[$( (echo 1) )]}',
      'declare -A m=([2]=two [k]=v); echo ${m[$((1+1))]} ${m[$((1))]-none}; m[$((3))]=three; declare -p m',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Arrays": in `declare -A h=([key]=value)` the key is the text up to its `]`, expanded as a word.
describe('declare -A with [key]=value elements', () => {
  it('keeps = in a key and takes backslashes as quoting', async () => {
    const script = [
      'declare -A h=([q=r]=3 [a=b=c]=4); declare -p h',
      'declare -A h=([\\*]=6 [x\\ y]=7 ["?"]=5); declare -p h',
      "declare -A h=(['a\\b']=1 [c\\\\d]=2 ['*']=3); declare -p h",
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Arrays": in `name=([subscript]=value …)` the subscript may be quoted or hold expansions; it is expanded
// (and, for an indexed array, evaluated arithmetically).
describe('keyed elements of a compound assignment', () => {
  it('take quoted keys and keys with expansions', async () => {
    const script = [
      'declare -A h; k=kk; h=(["a"]=5 ["b c"]+=6 ["$k"]=7 ["$k x"]=8 ["?"]=9 ["x\\"y"]=1 ["a]b"]=2); declare -p h; h+=(["a"]+=x); declare -p h',
      'i=2; k=kk; a=(["$i"]=x [$i+1]=y [${k}x]=z [a$k]=w [1]=q); declare -p a',
      "declare -A g; g=([$k]=1 [${k}x]=2 [a$k]+=3 [a\"$k\"]=4 ['$k']=5); declare -p g",
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Double Quotes" and "Arrays": the elements of `declare`/`local`/`readonly name=(…)` keep their quoting.
describe('compound assignments given to declare, local and readonly', () => {
  it('keep escaped characters in double quotes and backslashes in single quotes', async () => {
    const script = [
      'touch f1; declare -a a=("x\\"y\\$" \\* "a\\b" "c\\\\d" "`echo q`" "e f"); declare -p a',
      'declare -A h=(["x\\"y"]=1 [\'$z\']=2 ["k"]="v\\"w"); declare -p h; echo "${h[@]@K}"',
      'f() { local a=("x\\"y" "\\$q"); declare -p a; }; f; readonly r=("a\\"b"); declare -p r',
      "declare -a c=('a\\b' \"e\\\\f\" g\\h 'i\"j'); declare -p c",
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Shell Functions": local makes a new variable that hides the global one, an array included, until the
// function returns.
describe('local over a global array', () => {
  it('hides it, takes the function\'s changes, and gives the global back on return', async () => {
    const script = [
      'a=1; f(){ local a; a[1]=2; declare -p a; }; f; declare -p a',
      'a=(1 2); f(){ local a; echo "[${a[@]}] ${#a[@]}"; a+=(q); a[3]=r; declare -p a; }; f; declare -p a',
      'a=(1 2); f(){ local a=x; declare -p a; echo "${a[@]}"; }; f; declare -p a',
      'declare -A m=([k]=v); f(){ local m; m[z]=1; declare -p m; }; f; declare -p m',
      'a=(1 2); g(){ a[5]=5; }; f(){ local a; g; declare -p a; }; f; declare -p a',
      'shopt -s localvar_inherit; a=(1 2); f(){ local a; a[2]=3; declare -p a; }; f; declare -p a',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Bash Builtins" declare/local: `local -a name` without a value has the attribute and no value yet.
describe('local -a without a value', () => {
  it('is declared but unset until an element is assigned', async () => {
    const script = [
      'f(){ local -a d; declare -p d; d[1]=x; declare -p d; }; d=1; f; f',
      'f(){ local -a d; echo "${#d[@]} [${d[@]}]"; [[ -v d ]]; echo $?; declare -a | grep " d"; local -A m; declare -p m; }; f',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

// bash(1) "Arrays" and "Shell Parameters" (namerefs): a scalar read as an array is its element 0, also through a
// nameref, whatever the whole-array form.
describe('whole-array forms on a scalar or through a nameref', () => {
  it('read the target scalar as element 0', async () => {
    const script = [
      'declare -n nr=arr; echo "${#nr[@]} [${nr[@]}] [${nr[0]}] [${#nr}] [$nr]"; nr+=(s); echo "${arr[*]}"',
      'declare -n nr=arr; arr=x; echo "${#nr[@]} [${nr[@]}] [${nr[0]}] ${nr[*]} ${nr[@]^^} ${nr[@]:0:1} ${nr[@]#x}"; arr=(a b); echo "${#nr[@]} [${nr[@]}] [${nr[1]}]"',
      'x=5; echo "${x[@]:0:1}|${x[@]:0}"; declare -n r=x; echo "${r[@]:0:1}|${r[@]:0}|${r[*]:0}"',
      'f(){ local -n r=$1; echo "${#r[@]} ${r[@]}"; }; s=q; f s; a=(1 2); f a; f unset_name',
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
