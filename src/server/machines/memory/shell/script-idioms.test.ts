import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Idioms of helper scripts and bash libraries (patches/just-bash/): each expectation is what real bash 5.2 prints
// for the same script.

describe('base constants from expansions', () => {
  it('reads 10#$v and 16#${v}f with the expanded digits', async () => {
    expect(await runShell('x=08; a=(1 09); echo $(( 10#$x + 1 )) $(( 10#${a[1]} )) $(( 16#${x}f ))')).toEqual({ stdout: '9 9 143\n', stderr: '', exit: 0 });
  });
});

describe('array operations through a nameref', () => {
  it('counts, lists, slices, reads and writes the referenced array', async () => {
    const script = 'f() { local -n r=$1; echo "${#r[@]} ${!r[*]} ${r[*]:1} $(( r[1] + 1 ))"; (( r[0] = 9 )); }; arr=(4 5 6); f arr; echo "${arr[*]}"\ndeclare -A m=([x]=1); g() { local -n h=$1; echo "${!h[@]} ${#h[@]}"; }; g m';
    expect(await runShell(script)).toEqual({ stdout: '3 0 1 2 5 6 6\n9 5 6\nx 1\n', stderr: '', exit: 0 });
  });
});

describe('call-stack subscripts', () => {
  it('evaluates ${FUNCNAME[i]} and ${BASH_LINENO[i]} with a variable index', async () => {
    const script = 'st() { local i; for (( i=0; i<${#FUNCNAME[@]}; i++ )); do echo "${FUNCNAME[i]}:${BASH_LINENO[i]}"; done; }\na() { st; }\na';
    expect(await runShell(script)).toEqual({ stdout: 'st:2\na:3\n', stderr: '', exit: 0 });
  });
});

describe('words shaped like assignments', () => {
  it('are case words, case patterns and for words', async () => {
    const script = 'for a in --name=x a=b -v; do case $a in --*=*|a=*) echo "kv $a";; *) echo "other $a";; esac; done; case k=v in k=*) echo yes;; esac';
    expect(await runShell(script)).toEqual({ stdout: 'kv --name=x\nkv a=b\nother -v\nyes\n', stderr: '', exit: 0 });
  });
});

describe('readonly names', () => {
  it('belong to the shell that declared them, not to later or child shells', async () => {
    const script = `bash -c 'readonly P=1; echo "P=$P"'; bash -c 'P=2; echo "P=$P"'; readonly Q=1; bash -c 'Q=3; echo "Q=$Q"'; (Q=4) 2>/dev/null || echo "Q kept $Q"`;
    expect(await runShell(script)).toEqual({ stdout: 'P=1\nP=2\nQ=3\nQ kept 1\n', stderr: '', exit: 0 });
  });
});

describe('subscripts with parameter operators', () => {
  it('expand ${v%%=*} and ${i#x} inside a subscript', async () => {
    const script = 'declare -A o=([--a]=v); arg=--a=1; echo "${o[${arg%%=*}]}"; o[${arg%%=*}]+=x; echo "${o[--a]}"; a=(p q); i=x1; echo "${a[${i#x}]}"';
    expect(await runShell(script)).toEqual({ stdout: 'v\nvx\nq\n', stderr: '', exit: 0 });
  });
});

describe('quoted blanks in declare and local array words', () => {
  it("keep $'a\\nb' and $'c d' whole", async () => {
    const script = `declare -A m=([k]=$'a\\nb' [s]=$'c d'); printf '<%s>' "\${m[k]}" "\${m[s]}"; echo; f() { local -a w=($'x\\ty' z); echo "\${#w[@]}"; }; f`;
    expect(await runShell(script)).toEqual({ stdout: '<a\nb><c d>\n2\n', stderr: '', exit: 0 });
  });
});

describe('local -', () => {
  it('restores the set options when the function returns', async () => {
    const script = 'f() { local -; set -u; set -o pipefail; echo "in: ${-//[^u]/}"; }; f; echo "out: [${-//[^u]/}]"; shopt -qo pipefail || echo "pipefail off"';
    expect(await runShell(script)).toEqual({ stdout: 'in: u\nout: []\npipefail off\n', stderr: '', exit: 0 });
  });
});

describe('local arrays assigned by subscript', () => {
  it('put [SUB]=value at SUB and the next plain element after it', async () => {
    const script = 'f() { local -a w=([3]=rs [5]="a b" c); declare -p w; local v=([1+1]=x y); declare -p v; }; f';
    expect(await runShell(script)).toEqual({ stdout: 'declare -a w=([3]="rs" [5]="a b" [6]="c")\ndeclare -a v=([2]="x" [3]="y")\n', stderr: '', exit: 0 });
  });
});
