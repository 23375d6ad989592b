import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { compareLines } from './diff-engine.ts';

// Outputs as GNU diffutils 3.8 prints them (checked with bash on a GNU/Linux host).

describe('diff formats', () => {
  it('writes the normal format by default, with exit 1 on a difference', async () => {
    expect(await runShell("printf '1\\n2\\n3\\n4\\n' > x && printf '1\\nX\\n3\\nY\\n' > y && diff x y")).toEqual({ stdout: '2c2\n< 2\n---\n> X\n4c4\n< 4\n---\n> Y\n', stderr: '', exit: 1 });
    expect((await runShell("printf 'a\\nb\\nc\\n' > x && printf 'a\\nc\\n' > y && diff x y; diff y x; diff /dev/null y")).stdout).toBe('2d1\n< b\n1a2\n> b\n0a1,2\n> a\n> c\n');
    expect((await runShell("printf 'a' > x && printf 'b' > y && diff x y")).stdout).toBe('1c1\n< a\n\\ No newline at end of file\n---\n> b\n\\ No newline at end of file\n');
  });
  it('writes unified and context hunks under GNU headers, and ed scripts', async () => {
    const seq = "printf '1\\n2\\n3\\n4\\n5\\n6\\n7\\n8\\n9\\n' > x && sed 's/^5$/five/' x > y && ";
    expect((await runShell(`${seq}diff -u x y | tail -n +3; diff -U1 x y | tail -n +3`)).stdout).toBe('@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6\n');
    expect((await runShell(`${seq}diff -u x y | head -2 | grep -c '^--- x\t[0-9-]* [0-9:]*\\.[0-9]\\{9\\} +0000$'`)).stdout).toBe('1\n');
    expect((await runShell("printf 'a\\nb\\n' > x && printf 'a\\nc\\n' > y && diff -c x y | tail -n +3; diff -e x y")).stdout).toBe('***************\n*** 1,2 ****\n  a\n! b\n--- 1,2 ----\n  a\n! c\n2c\nc\n.\n');
    expect((await runShell("echo x > x && echo y > y && diff -u --label old --label new x y")).stdout).toBe('--- old\n+++ new\n@@ -1 +1 @@\n-x\n+y\n');
  });
  it('writes side by side (-y): tab stops, GNU\'s column widths, the gutter marks, -W, --suppress-common-lines, --left-column', async () => {
    const two = "printf 'a\\nb\\nsame\\n\\tx\\n' > x && printf 'a\\nc\\nsame\\nnew\\nmore\\n' > y && ";
    expect(await runShell(`${two}diff -y -W 40 x y`)).toEqual({ stdout: 'a\t\t\ta\nb\t\t   |\tc\nsame\t\t\tsame\n\tx\t   |\tnew\n\t\t   >\tmore\n', stderr: '', exit: 1 });
    expect((await runShell(`${two}diff --side-by-side --suppress-common-lines --width=30 y x; diff -y --left-column -W 20 x y | head -1`)).stdout).toBe('c\t      |\tb\nnew\t      |\t\tx\nmore\t      <\na     (\n');
    // A changed pair of which one side lacks its last newline is marked \ or /; identical files print every line.
    expect((await runShell("printf 'a\\nb' > p; printf 'a\\nc\\n' > q; diff -y -W 30 p q; diff -y -W 20 q q; echo $?")).stdout).toBe('a\t\ta\nb\t      \\\tc\na\ta\nc\tc\n0\n');
  });
  it('under -b and -w a last line without its newline matches one with it', async () => {
    expect((await runShell("printf 'a\\n' > p; printf 'a' > q; diff -b p q; echo \"s=$?\"; diff -w p q; echo \"s=$?\"; diff -i p q | head -1; printf 'x\\n  sp\\n' > p; printf 'x\\n  sp' > q; diff -y -W 20 -b p q")).stdout).toBe(
      's=0\ns=0\n1c1\nx\tx\n  sp\t  sp\n',
    );
  });
  it('sets aside only byte-identical first and last lines before the search, whatever -b makes equal', async () => {
    const r = await runShell("printf '%s' $'c\\ndd\\n\\nlong\\nc\\n  sp\\n  sp\\nb\\n  sp\\n' > x; printf '%s' $'c\\na\\nx\\nlong\\nc\\n  sp\\nb\\n  sp' > y; diff -b x y");
    expect(r.stdout).toBe('2,3c2,3\n< dd\n< \n---\n> a\n> x\n7d6\n<   sp\n');
  });
  it('picks the same lines as GNU among equally short edits', async () => {
    expect((await runShell("printf 'a\\nb\\na\\nb\\na\\n' > p && printf 'b\\na\\nb\\n' > q && diff p q; printf 'x\\n\\ny\\n\\nz\\n' > r && printf 'x\\n\\ny\\n\\nNEW\\n\\nz\\n' > s && diff r s")).stdout).toBe('1d0\n< a\n5d3\n< a\n4a5,6\n> NEW\n> \n');
    const a = 'aaaaaaaaaaaaaaaaaaaaaaaaaaabaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.split('');
    const b = 'aaaaaaaaaaaaaaaabaaaaaaaaaaaaaaa'.split('');
    const n = (s: string) => (s === 'a' ? 1 : 2);
    expect(compareLines(a.map(n), b.map(n), 2)).toEqual([
      { line0: 16, line1: 16, deleted: 11, inserted: 0 },
      { line0: 30, line1: 19, deleted: 31, inserted: 0 },
    ]);
  });
});

describe('diff options and operands', () => {
  it('ignores whitespace (-w) and blank lines (-B); -q and -s report whole files', async () => {
    expect((await runShell("printf 'a b\\n' > x && printf 'ab\\n' > y && diff -w x y; echo $?; printf 'a\\n\\nb\\n' > x && printf 'a\\nb\\n' > y && diff -B x y; echo $?; diff -q x y; echo $?; diff -s x x")).stdout).toBe('0\n0\nFiles x and y differ\n1\nFiles x and x are identical\n');
  });
  it('compares directories (-r, -N) and a file with its namesake in a directory', async () => {
    const r = await runShell('mkdir d1 d2 && echo a > d1/f && echo b > d2/f && echo c > d1/only && diff -r d1 d2; echo $?; diff -ru d1 d2 | grep -v "^[-+][-+][-+]"; rm d2/f; diff -rN d1 d2 | head -2');
    expect(r.stdout).toBe('diff -r d1/f d2/f\n1c1\n< a\n---\n> b\nOnly in d1: only\n1\ndiff -ru d1/f d2/f\n@@ -1 +1 @@\n-a\n+b\nOnly in d1: only\ndiff -rN d1/f d2/f\n1d0\n');
    expect(await runShell('echo a > f && mkdir src && diff f src')).toEqual({ stdout: '', stderr: 'diff: src/f: No such file or directory\n', exit: 2 });
  });
  it('reads stdin as -, and fails with 2 on a missing file or operand', async () => {
    expect((await runShell("echo a > f && printf 'a\\nb\\n' | diff - f")).stdout).toBe('2d1\n< b\n');
    expect(await runShell('diff f')).toEqual({ stdout: '', stderr: "diff: missing operand after 'f'\ndiff: Try 'diff --help' for more information.\n", exit: 2 });
    expect((await runShell('echo a > f; diff f nope; echo $?')).stdout).toBe('2\n');
  });
});

describe('diff -N over directories, output styles, sdiff', () => {
  it('-rN compares each file of a directory on one side only with an empty file', async () => {
    const r = await runShell('mkdir -p t1 t2/only/deep && echo y > t2/only/deep/z.txt; diff -rN t1 t2; echo "s=$?"; diff -r --brief --new-file t2 t1');
    expect(r.stdout).toBe('diff -rN t1/only/deep/z.txt t2/only/deep/z.txt\n0a1\n> y\ns=1\nFiles t2/only/deep/z.txt and t1/only/deep/z.txt differ\n');
  });
  it('-y cuts a column at display width: a wide character takes two columns', async () => {
    const r = await runShell("printf '漢字漢字漢字漢字\\nb\\n' > c1; printf 'x\\nb\\n' > c2; diff -y -W 30 c1 c2");
    expect(r.stdout).toBe('漢字漢字漢字  |\tx\nb\t\tb\n');
  });
  it('-N without -r names a directory on one side only as a common subdirectory', async () => {
    expect((await runShell('mkdir -p t1/o t2; diff -N t1 t2; echo "s=$?"')).stdout).toBe('Common subdirectories: t1/o and t2/o\ns=0\n');
  });
  it('refuses two different output styles as GNU does', async () => {
    expect(await runShell('echo a > f; diff --normal -u f f; diff -u -U 2 f f; echo "s=$?"')).toEqual({
      stdout: 's=0\n',
      stderr: "diff: conflicting output style options\ndiff: Try 'diff --help' for more information.\n",
      exit: 0,
    });
  });
  it('sdiff is diff -y with sdiff\'s option letters (-w is the width), -o refused loudly', async () => {
    const r = await runShell("printf 'a\\nb\\n' > x; printf 'a\\nB\\n' > y; sdiff -w 40 x y; sdiff -s -w 40 x y; sdiff -o m x y; echo \"s=$?\"");
    expect(r.stdout).toBe('a\t\t\ta\nb\t\t   |\tB\nb\t\t   |\tB\ns=2\n');
    expect(r.stderr).toMatch(/--exec sandbox/);
  });
});

// GNU diff's context and unified headers print the file's modification time with its nanoseconds.
describe('diff -u headers', () => {
  it('carry all nine digits of a time set with nanoseconds', async () => {
    const got = await runShell("printf 'a\\n' > x; printf 'b\\n' > y; touch -d '2024-01-01 00:00:05.123456789' x y; diff -u x y | head -2");
    expect(got.stdout).toBe('--- x\t2024-01-01 00:00:05.123456789 +0000\n+++ y\t2024-01-01 00:00:05.123456789 +0000\n');
  });
});
