import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU ed 1.19 gives them (checked with bash on a GNU/Linux host).
describe('ed', () => {
  it('prints ? for an error and goes on, exits 1 after one, and 2 when the script ends on an unwritten change', async () => {
    const script = String.raw`printf 'one\ntwo\nthree\n' > f; printf '2d\nq\n' | ed -s f; echo "s=$?"; printf '9p\n,p\n' | ed -s f; echo "s=$?"; printf 'v/o/d\n,p\n' | ed -s f; echo "s=$?"; cat f`;
    expect(await runShell(script)).toEqual({ stdout: '?\ns=1\n?\none\ntwo\nthree\ns=1\none\ntwo\n?\ns=2\none\ntwo\nthree\n', stderr: '', exit: 0 });
  });
  it('moves, undoes, copies, deletes by relative addresses, numbers, marks and substitutes', async () => {
    const script = String.raw`printf 'a\nb\nc\nd\n' > g; printf '2,3m0\n,p\nu\n1,2t$\n$-1,$d\n,n\nka\n1p\n'"'"'ap\ns/a/A/p\nwq\n' | ed -s g; cat g`;
    expect((await runShell(script)).stdout).toBe('b\nc\na\nd\n1\ta\n2\tb\n3\tc\n4\td\na\nd\n?\na\nb\nc\nd\n');
  });
  it('runs s under g, with groups and an escaped &, prints byte counts without -s, and explains errors after H', async () => {
    const script = String.raw`printf 'x=1\ny=2\nx=3\n' > h; printf 'g/^x/s/=/ := /\n/^y/s/\\(2\\)/[\\1\\&]/\nw\nq\n' | ed h; cat h; printf 'abc abc abc\n' > k; printf 's/abc/X/2\ns/b/Y/gp\nH\n,s/q/z/\nfoo\nQ\n' | ed -s k`;
    expect((await runShell(script)).stdout).toBe('12\n21\nx := 1\ny=[2&]\nx := 3\naYc X aYc\n?\nNo match\n?\nUnexpected command suffix\n');
  });
  it('inserts text after a pattern address and writes it back', async () => {
    const r = await runShell(String.raw`printf 'one\ntwo\nthree\n' > f; printf '%s\n' '/two/a' 'inserted' '.' 'w' 'q' | ed -s f; echo "s=$?"; cat f; printf 'a\nnew\n.\nw\n' | ed -s nofile; cat nofile`);
    expect(r).toEqual({ stdout: 's=0\none\ntwo\ninserted\nthree\nnew\n', stderr: 'nofile: No such file or directory\n', exit: 0 });
  });
  it('refuses a shell escape loudly', async () => {
    const r = await runShell(String.raw`printf '!ls\n' | ed -s; echo "s=$?"`);
    expect(r.stdout).toBe('s=2\n');
    expect(r.stderr).toContain('--exec sandbox');
  });
});
