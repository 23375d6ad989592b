import { describe, expect, it } from 'vitest';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';
import { OrderedOutput, STDIO_BUFFER, orderOf } from './output-order.ts';

// Each expectation is what GNU coreutils, grep and mawk print with `2>&1` into a pipe (checked against real bash).

describe('the order of a command\'s output and messages', () => {
  it('a program that flushes before each message keeps program order; a buffered one delivers whole blocks first', () => {
    const text = new OrderedOutput();
    text.out('a'.repeat(5000));
    text.err('E1\n');
    text.out('b');
    text.err('E2\n');
    expect(text.order('before-errors')).toEqual([5000, 3, 1, 3]);
    // Buffered: only the first 4096-byte block has gone out when the messages are written.
    expect(text.order('buffered')).toEqual([STDIO_BUFFER, 3, 0, 3]);
    expect(orderOf([[0, 4]], 'buffered')).toEqual([0, 4]);
  });

  it('a prompt flushes nothing, even in a program that flushes before its messages (rm -iv)', async () => {
    const text = new OrderedOutput();
    text.out('removed x\n');
    text.prompt('rm: remove y? ');
    text.err('rm: cannot remove y\n');
    expect(text.order('before-errors')).toEqual([0, 14, 10, 20]);
    const out = (await runShell(': > a; : > b; printf "y\\ny\\n" | rm -iv a b 2>&1')).stdout;
    expect(out).toBe("rm: remove regular empty file 'a'? rm: remove regular empty file 'b'? removed 'a'\nremoved 'b'\n");
  });

  it('GNU commands that report through error() put each message between the outputs around it', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p w/src && printf "hello world\\nfoo bar\\nbaz qux quux\\n" > w/a.txt', ctx);
    const run = async (script: string) => (await runShell(`cd w && ${script} 2>&1`, ctx)).stdout;
    const a = 'hello world\nfoo bar\nbaz qux quux\n';
    expect(await run('cat a.txt nope a.txt')).toBe(`${a}cat: nope: No such file or directory\n${a}`);
    expect(await run('cat a.txt src')).toBe(`${a}cat: src: Is a directory\n`);
    expect(await run('head -n1 a.txt nope a.txt')).toBe("==> a.txt <==\nhello world\nhead: cannot open 'nope' for reading: No such file or directory\n\n==> a.txt <==\nhello world\n");
    expect(await run('grep o a.txt nope a.txt')).toBe('a.txt:hello world\na.txt:foo bar\ngrep: nope: No such file or directory\na.txt:hello world\na.txt:foo bar\n');
    expect(await run('md5sum a.txt nope a.txt')).toBe('ef8db7c125172e1176d27c0b1c6213ec  a.txt\nmd5sum: nope: No such file or directory\nef8db7c125172e1176d27c0b1c6213ec  a.txt\n');
    expect(await run('cut -c1 a.txt nope a.txt')).toBe('h\nf\nb\ncut: nope: No such file or directory\nh\nf\nb\n');
    expect(await run('stat -c %n a.txt nope a.txt')).toBe("a.txt\nstat: cannot statx 'nope': No such file or directory\na.txt\n");
  });

  it('tee, which opens every file first, reports the ones it cannot open before its output; zcat in program order', async () => {
    const ctx = testSprite();
    await runShell('mkdir w && printf "x\\n" > w/a.txt && gzip -c w/a.txt > w/a.gz', ctx);
    expect((await runShell('cd w && echo hi | tee /nope/x f 2>&1; cat f; zcat a.gz nope a.gz 2>&1', ctx)).stdout).toBe(
      'tee: /nope/x: No such file or directory\nhi\nhi\nx\ngzip: nope: No such file or directory\nx\n',
    );
  });

  it('tac and awk, which only buffer their output, let their messages go first', async () => {
    const ctx = testSprite();
    await runShell('mkdir w && printf "hello world\\nfoo bar\\n" > w/a.txt', ctx);
    expect(await runShell('cd w && tac a.txt nope 2>&1; echo "s=$?"; awk 1 a.txt nope 2>&1', ctx)).toEqual({
      stdout: "tac: failed to open 'nope' for reading: No such file or directory\nfoo bar\nhello world\ns=1\nawk: cannot open nope (No such file or directory)\nhello world\nfoo bar\n",
      stderr: '',
      exit: 2,
    });
  });

  it('xargs and a nested shell pass on each child\'s output in the order it was written', async () => {
    const ctx = testSprite();
    await runShell('mkdir w && printf "x\\n" > w/a.txt', ctx);
    expect((await runShell('cd w && xargs -n1 ls <<< "nope a.txt" 2>&1; xargs -t -n1 echo <<< "a b" 2>&1', ctx)).stdout).toBe(
      "ls: cannot access 'nope': No such file or directory\na.txt\necho a\na\necho b\nb\n",
    );
    expect((await runShell('cd w && sh -c "echo a; ls nope; echo b" 2>&1 | cat', ctx)).stdout).toBe("a\nls: cannot access 'nope': No such file or directory\nb\n");
  });

  it('rm, mkdir, rmdir and mv with -v, du and find put each message where GNU does', async () => {
    const ctx = testSprite();
    await runShell('mkdir -p w/src && printf "x\\n" > w/a.txt', ctx);
    const out = async (script: string) => (await runShell(`cd w && ${script} 2>&1`, ctx)).stdout;
    expect(await out('rm -v nope a.txt')).toBe("rm: cannot remove 'nope': No such file or directory\nremoved 'a.txt'\n");
    expect(await out('mkdir -v x x y')).toBe("mkdir: created directory 'x'\nmkdir: cannot create directory 'x': File exists\nmkdir: created directory 'y'\n");
    // rmdir -v names each directory before it tries it.
    expect(await out('rmdir -v nope x')).toBe("rmdir: removing directory, 'nope'\nrmdir: failed to remove 'nope': No such file or directory\nrmdir: removing directory, 'x'\n");
    expect(await out('touch b.txt; mv -v nope b.txt src/')).toBe("mv: cannot stat 'nope': No such file or directory\nrenamed 'b.txt' -> 'src/b.txt'\n");
    expect(await out('touch c.txt; du -s c.txt nope src/b.txt')).toBe("0\tc.txt\ndu: cannot access 'nope': No such file or directory\n0\tsrc/b.txt\n");
    expect(await out('find nope src -name "*.txt"')).toBe("find: 'nope': No such file or directory\nsrc/b.txt\n");
  });
});
