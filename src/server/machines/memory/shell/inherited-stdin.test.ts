import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// The stdin a script's commands share (bash(1) REDIRECTION, POSIX 2.9.1): what one command reads is gone for the
// next (patches/just-bash/used-stdin-is-consumed.mjs, inherited-stdin.ts).
describe('a stdin shared by the commands of a script, group or loop', () => {
  it('is consumed by a command that reads it, as under bash', async () => {
    const r = await runShell(`printf 'x1\\nx2\\nx3\\n' | bash -c 'read -r a; cat > rest.txt; wc -l < rest.txt; read -r b; echo "a=$a b=[$b] rc=$?"'`);
    expect(r.stdout).toBe('2\na=x1 b=[] rc=1\n');
  });

  it('ends a read loop whose body reads the loop\'s stdin', async () => {
    const script = `printf 'l1\\nl2\\nl3\\n' > app.log; while read -r line; do echo "got: $line"; cat >/dev/null; done < app.log; printf 'a\\nb\\nc\\n' | while read -r x; do echo "$x"; sed -n 1p; done`;
    expect((await runShell(script)).stdout).toBe('got: l1\na\nb\n');
  });

  it('is consumed through a pipeline\'s first stage, a subshell, a command substitution, a child shell and a script', async () => {
    const script = [
      'seq 5 | { cat | wc -l; read x; echo "pipe=[$x]"; }',
      'seq 3 | { (read a; echo "sub=$a"); read x; echo "after=[$x]"; }',
      'seq 3 | { v=$(head -n1); read x; echo "subst=$v next=[$x]"; }',
      'seq 3 | { bash -c "read z; echo child=\\$z"; read x; echo "next=[$x]"; }',
      'printf "read q; echo script=\\$q\\n" > s.sh; chmod +x s.sh; seq 3 | { ./s.sh; read x; echo "next=[$x]"; }',
      'f() { read -r a; echo "fn=$a"; }; seq 3 | { f; f; read x; echo "next=[$x]"; }',
    ].join('; ');
    expect((await runShell(script)).stdout).toBe('5\npipe=[]\nsub=1\nafter=[2]\nsubst=1 next=[]\nchild=1\nnext=[2]\nscript=1\nnext=[2]\nfn=1\nfn=2\nnext=[3]\n');
  });

  it('is left in place by commands that do not read it', async () => {
    const cmds = ['echo hi', 'printf x', 'true', 'ls', 'mkdir -p d', 'cat f', 'sed -n 1p f', 'sed -i s/a/b/ f', "awk '{print}' f", 'grep a f', 'wc -l f', 'sort f', 'diff f f', 'cp f g', 'mv g h', 'rm -f h', 'ln -sf f l', 'env echo hi', 'nohup echo hi', 'find . -name f -exec cat {} \\;', 'tar -cf t.tar f', 'tar -tf t.tar', 'factor 6', 'head -n0', 'dd if=f status=none'];
    const script = `printf 'a\\n' > f; ${cmds.map((c) => `printf 'L1\\nL2\\n' | { ${c} >/dev/null 2>&1; read -r x; printf '%s ' "$x"; }`).join('; ')}`;
    expect((await runShell(script)).stdout).toBe('L1 '.repeat(cmds.length));
  });

  it('is not read by a command with a stdin of its own, even an empty one', async () => {
    expect((await runShell('printf "a\\n" | { cat < /dev/null; read x; echo "x=[$x]"; }')).stdout).toBe('x=[a]\n');
  });
});

describe('what a command that stops early takes of a shared stdin', () => {
  it('head: a regular file is left just after the lines printed; a short pipe is read whole', async () => {
    const script = 'seq 10 > n; { head -n2; read x; echo "file=[$x]"; } < n; seq 10 | { head -n2 >/dev/null; read x; echo "pipe=[$x]"; }; { head -c 3; read x; echo "bytes=[$x]"; } < n; { head -n -2 >/dev/null; read x; echo "elide=[$x]"; } < n';
    expect((await runShell(script)).stdout).toBe('1\n2\nfile=[3]\npipe=[]\n1\n2bytes=[]\nelide=[9]\n');
  });

  it('grep -m: a regular file is left just after the last selected line, whatever context followed it', async () => {
    const script = 'seq 10 > n; { grep -m1 -A1 5; read x; echo "next=[$x]"; } < n; seq 10 | { grep -m1 5; read x; echo "pipe=[$x]"; }';
    expect((await runShell(script)).stdout).toBe('5\n6\nnext=[6]\n5\npipe=[]\n');
  });

  it('dd: exactly skip= and count= blocks', async () => {
    expect((await runShell('seq 10 | { dd bs=2 count=1 status=none; read x; echo "next=[$x]"; }')).stdout).toBe('1\nnext=[2]\n');
  });
});
