import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU head and tail (coreutils 9) print them (checked with bash on a GNU/Linux host).
const files = "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt; seq 12 > n.txt; ";

describe('head and tail', () => {
  it('tail takes the obsolete -N only before one file: with more, -N is an option out of place and +N a file name', async () => {
    const r = await runShell("echo a > a; tail -1 a; tail -1 a a; echo \"s=$?\"; tail -q -2 a a; tail +1 a a; echo \"s=$?\"; head -1 a a | wc -l");
    expect(r).toEqual({
      stdout: 'a\ns=1\n==> a <==\na\n\n==> a <==\na\ns=1\n5\n',
      stderr: "tail: option used in invalid context -- 1\ntail: option used in invalid context -- 2\ntail: cannot open '+1' for reading: No such file or directory\n",
      exit: 0,
    });
  });
  it('head -c N takes all N bytes of a device that never ends', async () => {
    const r = await runShell('head -c 200000 /dev/zero | wc -c; head -c 70000 /dev/urandom | wc -c; cat /dev/zero | head -c 131073 | wc -c');
    expect(r.stdout).toBe('200000\n70000\n131073\n');
  });
  it('take negative and suffixed counts', async () => {
    expect((await runShell(`${files}head -n -10 n.txt; head -c -5 a.txt; echo; head -c 1k n.txt | wc -c`)).stdout).toBe('1\n2\nhello world\nfoo bar\nHello a\n27\n');
  });
  it('tail starts at +N bytes or lines', async () => {
    expect((await runShell(`${files}tail -c +5 a.txt | head -1; tail -n +11 n.txt`)).stdout).toBe('o world\n11\n12\n');
  });
  it('word a missing file as GNU does and go on', async () => {
    expect(await runShell(`${files}head -1 n.txt nope`)).toEqual({ stdout: '==> n.txt <==\n1\n', stderr: "head: cannot open 'nope' for reading: No such file or directory\n", exit: 1 });
  });
  it('head leaving more than a pipe of its input unread stops the writer with SIGPIPE (141); a little, or a file, does not', async () => {
    const r = await runShell('seq 1 100000 | head -1; echo "${PIPESTATUS[@]}"; seq 1 1000 | head -1; echo "${PIPESTATUS[@]}"; seq 1 100000 > big; head -1 < big; cat big | tail -1; echo "${PIPESTATUS[@]}"; set -o pipefail; seq 1 100000 | head -c 3; echo " s=$?"');
    expect(r.stdout).toBe('1\n141 0\n1\n0 0\n1\n100000\n0 0\n1\n2 s=141\n');
    expect((await runShell('set -euo pipefail; seq 1 100000 | head -2; echo "not reached"'))).toEqual({ stdout: '1\n2\n', stderr: '', exit: 141 });
  });
  it("names a bad count as GNU does: quoted in the locale's quotes, without a leading '-', too large past 2^64-1; accepts m, kB, KiB", async () => {
    const r = await runShell("export LANG=C.UTF-8; printf 'abc\\n' > a; head -n abc a; tail -n +x a; head -n -1x a; tail -c 99999999999999999999999 a; echo \"s=$?\"; LANG=C head -c '' a; head -c 1m a; tail -c 1kB a; head -c 1KiB a; head -n ' 2' a");
    expect(r).toEqual({
      stdout: 's=1\nabc\nabc\nabc\nabc\n',
      stderr: "head: invalid number of lines: ‘abc’\ntail: invalid number of lines: ‘+x’\nhead: invalid number of lines: ‘1x’\ntail: invalid number of bytes: ‘99999999999999999999999’: Value too large for defined data type\nhead: invalid number of bytes: ''\n",
      exit: 0,
    });
  });
});

describe('head and tail headers', () => {
  it('name a file beyond ASCII with its UTF-8 bytes', async () => {
    const r = await runShell("printf 'a\\n' > naïve.txt && printf 'b\\n' > z.txt && head -n1 naïve.txt z.txt && tail -qn1 z.txt && tail -vn1 naïve.txt");
    expect(r).toEqual({ stdout: '==> naïve.txt <==\na\n\n==> z.txt <==\nb\nb\n==> naïve.txt <==\na\n', stderr: '', exit: 0 });
  });
});
