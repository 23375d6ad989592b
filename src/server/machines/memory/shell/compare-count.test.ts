import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU diffutils 3.8 / coreutils 9 print them (checked with bash on a GNU/Linux host, LANG=C.UTF-8).
const files = "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt; printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt; printf abc > x; printf abd > y; printf abcd > z; ";

describe('cmp', () => {
  it('reports the first difference, sameness and trouble by exit status', async () => {
    const r = await runShell(`${files}cmp a.txt nums.txt; echo "s=$?"; cmp a.txt a.txt; echo "s=$?"; cmp -s a.txt nums.txt; echo "s=$?"; cmp a.txt nope; echo "s=$?"`);
    expect(r).toEqual({ stdout: 'a.txt nums.txt differ: byte 1, line 1\ns=1\ns=0\ns=1\ns=2\n', stderr: 'cmp: nope: No such file or directory\n', exit: 0 });
  });
  it('lists bytes with -l and -b, reports EOF on the shorter file, skips with -i', async () => {
    const r = await runShell(`${files}cmp -l x y; cmp -b x y; cmp x z; echo "s=$?"; cmp -i 1 x y; printf 'abc\\n' | cmp - z; cmp -bl x y`);
    expect(r.stdout).toBe('3 143 144\nx y differ: byte 3, line 1 is 143 c 144 d\ns=1\nx y differ: byte 2, line 1\n- z differ: byte 4, line 1\n3 143 c    144 d\n');
    expect(r.stderr).toBe('cmp: EOF on x after byte 3, in line 1\n');
  });
  it('sizes the -l offsets for pipes, process substitutions included, as for an unknown size', async () => {
    expect((await runShell("cmp -l <(printf abc) <(printf abd)")).stdout).toBe(`${' '.repeat(18)}3 143 144\n`);
  });
});

describe('shuf', () => {
  it('permutes a range or words, and rejects a backwards range', async () => {
    const r = await runShell("shuf -i 1-5 | sort -n | tr '\\n' ' '; shuf -n 2 -e a b c | wc -l; shuf -i 5-1; echo \"s=$?\"");
    expect(r).toEqual({ stdout: '1 2 3 4 5 2\ns=1\n', stderr: 'shuf: invalid input range: ‘5-1’\n', exit: 0 });
  });
  it('gives the same order for the same --random-source', async () => {
    const r = await runShell('seq 50 > s; head -c 64 /dev/zero > seed; shuf --random-source=seed s > o1; shuf --random-source=seed s > o2; cmp o1 o2 && sort -n o1 | cmp - s && echo same');
    expect(r.stdout).toBe('same\n');
  });
});

describe('cksum and sum', () => {
  it('print the POSIX CRC, the BSD and the System V sums', async () => {
    const r = await runShell(`${files}cksum a.txt; cksum < nums.txt; sum a.txt; sum -s nums.txt; cksum nope; echo "s=$?"`);
    expect(r).toEqual({ stdout: '1270885958 32 a.txt\n1130288461 11\n08854     1 a.txt\n346 1 nums.txt\ns=1\n', stderr: 'cksum: nope: No such file or directory\n', exit: 0 });
  });
});

describe('numfmt', () => {
  it('--format takes printf\'s 0 (digits zero-padded, the unit after them), blanks and \' in any order, a - width; --padding and auto-padding when it gives no width', async () => {
    const r = await runShell("numfmt --format='%08.2f' 3.14159; numfmt --format='%08.1f' --to=si 12345; numfmt --format='%08f' -- -3; numfmt --format=\"% 0'5f|\" 3; numfmt --format='%0-5f|' 3; numfmt --format='%05f|' --padding=-8 3; printf '1  22\\n' | numfmt --field=2 --format='%f|'; printf '1 22\\n' | numfmt --field=2 --padding=5");
    expect(r.stdout).toBe('00003.15\n000012.4K\n-0000003\n00003|\n3    |\n00003   |\n1  22|\n1    22\n');
  });
  it("rounds to a format's precision from zero, as --round says, and takes a negative number for an option", async () => {
    const r = await runShell('numfmt --to=iec --format=%.1f 1075; numfmt --format=%.2f --to=iec 123456; numfmt --to=iec --round=down --format=%.1f 1075; numfmt --format=%.1f 1.04; numfmt 1 -1.04; echo "s=$?"');
    expect(r).toEqual({ stdout: '1.1K\n120.57K\n1.0K\n1.1\ns=1\n', stderr: "numfmt: invalid option -- '1'\nTry 'numfmt --help' for more information.\n", exit: 0 });
  });
  it('scales to and from SI and IEC units, rounding as GNU', async () => {
    const r = await runShell('numfmt --to=iec 1048576 1000 1023.9 10000; numfmt --to=si 1500 999; numfmt --from=iec 2M; numfmt --to=iec-i --suffix=B 2048; echo "a 2048 b" | numfmt --field 2 --to=iec; numfmt 1K; echo "s=$?"');
    expect(r).toEqual({ stdout: '1.0M\n1000\n1.0K\n9.8K\n1.5K\n999\n2097152\n2.0KiB\na 2.0K b\ns=2\n', stderr: 'numfmt: rejecting suffix in input: ‘1K’ (consider using --from)\n', exit: 0 });
  });
  it('reads a unit\'s i only under --from=iec-i or auto, and --invalid copies what it cannot read', async () => {
    const r = await runShell('numfmt --from=iec 1Ki; echo "s=$?"; numfmt --from=auto 1Ki 1K; numfmt --invalid=fail abc 10; echo "s=$?"; numfmt --invalid=ignore x 2K; echo "s=$?"; printf "a 1K\\nb x\\n" | numfmt --invalid=warn --field=2 --from=iec');
    expect(r.stdout).toBe('s=2\n1024\n1000\nabc\n10\ns=2\nx\n2K\ns=0\na 1024\nb x\n');
    expect(r.stderr).toBe('numfmt: invalid suffix in input ‘1Ki’: ‘i’\nnumfmt: invalid number: ‘abc’\nnumfmt: invalid number: ‘x’\n');
  });
  it('keeps a separator before a later field, pads to the blanks before it, and stops after writing what came before a bad one', async () => {
    const r = await runShell('echo "a 1K" | numfmt --field=2 --from=iec --to=si; echo "a    100000" | numfmt --field 2 --to=si; echo "   1K" | numfmt --from=iec; echo "1 x" | numfmt --field=2; echo "a,x" | numfmt -d, --field=2');
    expect(r.stdout).toBe('a 1.1K\na      100K\n 1024\n1 a,');
  });
});
