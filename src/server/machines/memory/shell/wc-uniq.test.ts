import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils 8.32/9 print them (checked with bash on a GNU/Linux host).
const files = "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt; printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt; ";

describe('wc', () => {
  it('sizes its columns from the operands it could stat, wherever one it could not stands', async () => {
    const r = await runShell("printf 'hello world\\n' > a; wc nope a; wc -l nope a");
    expect(r.stdout).toBe(' 1  2 12 a\n 1  2 12 total\n 1 a\n 1 total\n');
    expect(r.stderr).toBe('wc: nope: No such file or directory\nwc: nope: No such file or directory\n');
  });
  it('sizes its columns at least 7 wide when a device (/dev/null) is counted, as for a pipe', async () => {
    const r = await runShell("printf 'a b\\n' > f; wc -l /dev/null f; wc -c f");
    expect(r).toEqual({ stdout: '      0 /dev/null\n      1 f\n      1 total\n4 f\n', stderr: '', exit: 0 });
  });
  it('sizes its columns as GNU does', async () => {
    expect((await runShell(`${files}wc -l a.txt nums.txt; wc -c a.txt; printf '' | wc; echo hi | wc -l`)).stdout).toBe(' 3 a.txt\n 5 nums.txt\n 8 total\n32 a.txt\n      0       0       0\n1\n');
    expect(await runShell(`${files}mkdir d; wc d a.txt`)).toEqual({ stdout: '      0       0       0 d\n      3       6      32 a.txt\n      3       6      32 total\n', stderr: 'wc: d: Is a directory\n', exit: 1 });
  });
  it("sizes its columns from the file's size when stdin is redirected from a regular file, as GNU's fstat tells it", async () => {
    const r = await runShell(`${files}wc < a.txt; wc -lw < a.txt; f() { wc -c; }; f < a.txt; cat a.txt | wc; wc < /dev/null`);
    expect(r.stdout).toBe(' 3  6 32\n 3  6\n32\n      3       6      32\n      0       0       0\n');
  });
  it('prints the longest line with -L', async () => {
    expect((await runShell(`${files}wc -L a.txt; printf 'a\\tb\\n' | wc -L`)).stdout).toBe('11 a.txt\n9\n');
  });
});

describe('wc -L in UTF-8, as wcwidth measures a character', () => {
  it('gives a combining mark no column, a CJK or fullwidth character two, an invalid byte or code point none', async () => {
    const r = await runShell("export LC_ALL=C.UTF-8; printf 'e\\u0301e\\u0301\\n' | wc -L; printf '\\u4e2d\\u6587ab\\n' | wc -L; printf '\\uff21\\U0001F600\\n' | wc -L; printf 'a\\u200bb\\n' | wc -L; printf '\\xff\\xfeab\\n' | wc -L; printf '\\xf4\\x90\\x80\\x80x\\xed\\xa0\\x80y\\n' | wc -L; head -c 70000 /dev/urandom | wc -c");
    expect(r).toEqual({ stdout: '2\n6\n4\n2\n2\n2\n70000\n', stderr: '', exit: 0 });
  });
});

describe('wc in the C locale', () => {
  it('counts a byte as a character, and a byte above 0x7f as no width, as under LC_ALL=C', async () => {
    expect(await runShell('printf "é\\n" > e; wc -m < e; LC_ALL=C wc -m < e; LANG=C wc -L < e; LC_ALL=C.UTF-8 wc -L < e')).toEqual({ stdout: '2\n3\n0\n1\n', stderr: '', exit: 0 });
  });
});

describe('wc --files0-from', () => {
  it('counts the files a NUL-separated list names (a file or stdin), with a total, and refuses operands besides', async () => {
    const r = await runShell("printf 'hello world\\nfoo\\n' > a.txt; printf 'a.txt\\0nope\\0\\0' > l; wc --files0-from l; echo \"s=$?\"; printf 'a.txt\\0' | wc -c --files0-from=-; wc --files0-from=l a.txt; echo \"s=$?\"");
    expect(r.stdout).toBe(' 2  3 16 a.txt\n 2  3 16 total\ns=1\n16 a.txt\ns=1\n');
    expect(r.stderr).toBe("wc: nope: No such file or directory\nwc: l:3: invalid zero-length file name\nwc: extra operand 'a.txt'\nfile operands cannot be combined with --files0-from\nTry 'wc --help' for more information.\n");
  });
});

describe('uniq', () => {
  it('counts in a 7-wide column', async () => {
    expect((await runShell(`${files}sort nums.txt | uniq -c`)).stdout).toBe('      2 1\n      1 10\n      1 2\n      1 3\n');
  });
  it('--group puts an empty line between groups, and before the first or after the last as the method says', async () => {
    const r = await runShell("for m in separate prepend append both; do printf 'a\\na\\nb\\n' | uniq --group=$m | tr '\\n' .; echo; done");
    expect(r.stdout).toBe('a.a..b.\n.a.a..b.\na.a..b..\n.a.a..b..\n');
  });
  it('skips fields and chars, compares a width, ignores case, groups', async () => {
    const r = await runShell("uniq -f1 <<< $'x a\\ny a\\nz b'; uniq -s1 <<< $'xa\\nya\\nzb'; uniq -w1 <<< $'ab\\nac\\nbd'; uniq -i <<< $'a\\nA\\nb'; uniq --group <<< $'a\\na\\nb'");
    expect(r.stdout).toBe('x a\nz b\nxa\nzb\nab\nbd\na\nb\na\na\n\nb\n');
    expect((await runShell("printf 'a\\na\\nb\\nc\\nc\\n' | uniq --all-repeated=separate; printf 'a\\na\\nb\\n' | uniq -u")).stdout).toBe('a\na\n\nc\nc\nb\n');
  });
  it('writes its second operand', async () => {
    expect((await runShell(`${files}uniq nums.txt out.txt && cat out.txt`)).stdout).toBe('3\n1\n2\n10\n1\n');
  });
});
