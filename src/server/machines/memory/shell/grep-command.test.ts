import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU grep 3 prints them (checked with bash on a GNU/Linux host, LANG=C.UTF-8).
const files = [
  "mkdir -p src/lib docs; printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt; printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt",
  "printf 'line1\\nline2\\nline3\\nline4\\nline5\\nline6\\nline7\\nline8\\nline9\\nline10\\nline11\\nline12\\n' > lines.txt",
  "printf 'export const x = 1;\\n// TODO fix\\n' > src/lib/util.ts; printf 'Some TODO here\\n' > docs/README.md; ln -s a.txt link.txt; ",
].join('; ');

describe('grep --exclude-from', () => {
  it('skips the files whose names match a glob of the file, a line each, also for command-line files', async () => {
    const r = await runShell("mkdir w && cd w && echo TODO > a.md && echo TODO > b.txt && printf '*.md\\n\\n' > ex; grep -r --exclude-from=ex TODO . | sort; grep --exclude-from ex TODO a.md b.txt; grep -rl --exclude-from=<(echo '*.txt') TODO . | sort");
    expect(r.stdout).toBe('./b.txt:TODO\nb.txt:TODO\n./a.md\n');
  });
  it('a missing file fails with exit 2 before searching', async () => {
    expect(await runShell('echo TODO > a; grep --exclude-from=nope TODO a')).toEqual({ stdout: '', stderr: 'grep: nope: No such file or directory\n', exit: 2 });
  });
});

describe('grep --exclude-dir', () => {
  it('skips a command-line directory whose name, or a part of it after a slash, matches', async () => {
    const r = await runShell('mkdir -p w/src/lib && cd w && echo TODO > src/lib/u.ts && echo TODO > t; grep -r TODO --exclude-dir=".*" .; echo "s=$?"; grep -r TODO --exclude-dir=lib src/lib; echo "s=$?"; grep -r TODO --exclude-dir=".*" | sort; grep -r TODO --exclude-dir=lib src/lib/');
    expect(r).toEqual({ stdout: 's=1\ns=1\nsrc/lib/u.ts:TODO\nt:TODO\nsrc/lib/u.ts:TODO\n', stderr: '', exit: 0 });
  });
});

describe('grep patterns', () => {
  it('matches every -e pattern, anchors included, and -F -x lists', async () => {
    expect((await runShell(`${files}grep -e '^line1$' -e '^line2$' lines.txt; grep -F -x -e 1 -e 3 nums.txt`)).stdout).toBe('line1\nline2\n3\n1\n1\n');
  });
  it('knows word boundaries, Perl lookbehind and back-references', async () => {
    const r = await runShell(`${files}grep '\\<foo\\>' a.txt; grep -P '(?<=line)1\\d' lines.txt; printf 'abb\\ncdd\\n' | grep -E -e 'a(b)\\1' -e 'c(d)\\1'; grep -w 'line1' lines.txt`);
    expect(r.stdout).toBe('foo bar\nline10\nline11\nline12\nabb\ncdd\nline1\n');
  });
  it('-P \\K keeps what came before it out of the match -o prints, and a match ending at \\K still selects the line', async () => {
    const r = await runShell(`printf 'line1\\nline12\\nfoo=bar x=1\\n' > l.txt; grep -oP 'line\\K\\d+' l.txt; grep -oP '\\w+=\\K\\w+' l.txt; grep -P 'foo\\K' l.txt; grep -oP 'foo\\K' l.txt; echo "s=$?"; grep -cP 'x\\\\K' l.txt`);
    expect(r).toEqual({ stdout: '1\n12\nbar\n1\nfoo=bar x=1\ns=0\n0\n', stderr: '', exit: 1 });
  });
  it('-P spells PCRE code points, scripts, atomic groups and possessive quantifiers for JavaScript', async () => {
    const r = await runShell(
      "echo café | grep -P 'caf\\x{e9}'; echo café | grep -cP 'caf\\N{U+00E9}'; printf '漢字 カタカナ abc\\n' > k; grep -oP '\\p{Han}+' k; " +
        "grep -oP '\\p{Katakana}+' k; grep -oP '[\\x{3000}-\\x{9fff}]+' k | wc -l; echo aaab | grep -cP 'a++b'; echo aaa | grep -cP 'a++a'; " +
        "echo foobar | grep -cP '(?>foo|foob)ar'; echo xx | grep -cP '(?P<n>x)(?P=n)'",
    );
    expect(r).toEqual({ stdout: 'café\n1\n漢字\nカタカナ\n2\n1\n0\n0\n1\n', stderr: '', exit: 0 });
  });
  it('. matches no byte that is no part of a UTF-8 character, and matches a carriage return', async () => {
    const r = await runShell("printf 'a\\377b\\n' > bin; grep -ac 'a.b' bin; grep -ao '.' bin | od -An -tx1; printf 'a\\rb\\n' | grep -c 'a.b'");
    expect(r.stdout).toBe('0\n 61 0a 62 0a\n1\n');
  });
  it('-P refuses what JavaScript cannot say, with status 2 and the sandbox named', async () => {
    const r = await runShell("echo x | grep -P '(?R)'; echo \"s=$?\"");
    expect(r.stdout).toBe('s=2\n');
    expect(r.stderr).toMatch(/--exec sandbox/);
  });
  it('-P takes a leading (?i) as case-insensitive matching for the whole pattern', async () => {
    expect(await runShell(`printf 'Hello\\nhello\\nbye\\n' > h.txt; grep -P '(?i)HELLO' h.txt; grep -cP '(?i)^h' h.txt`)).toEqual({ stdout: 'Hello\nhello\n2\n', stderr: '', exit: 0 });
  });
  it("fails on a malformed pattern with GNU's messages and status 2", async () => {
    const r = await runShell(`${files}grep '[' a.txt; echo "s=$?"; grep '\\(a' a.txt; grep -E 'a{2,1}' a.txt; echo "s=$?"`);
    expect(r).toEqual({ stdout: 's=2\ns=2\n', stderr: 'grep: Invalid regular expression\ngrep: Unmatched ( or \\(\ngrep: Invalid content of \\{\\}\n', exit: 0 });
  });
});

describe('grep output', () => {
  it('names stdin as (standard input) or --label', async () => {
    expect((await runShell('echo hello | grep -H hello; echo hello | grep --label=in -H hello')).stdout).toBe('(standard input):hello\nin:hello\n');
  });
  it('prints byte offsets, tab-aligned numbers, NUL after names', async () => {
    const r = await runShell(`${files}grep -ob o a.txt; grep -T -n hello a.txt; grep -Z -l hello a.txt | tr '\\0' '|'`);
    expect(r.stdout).toBe('4:o\n7:o\n13:o\n14:o\n24:o\n 1:\thello world\na.txt|');
  });
  it('prints context with separators, and -m stops after its lines but keeps the trailing context', async () => {
    const r = await runShell(`${files}grep -n -C1 -e line3 -e line7 lines.txt; grep -A1 -m1 -n o a.txt; grep -B1 line1 lines.txt --group-separator=XX`);
    expect(r.stdout).toBe('2-line2\n3:line3\n4-line4\n--\n6-line6\n7:line7\n8-line8\n1:hello world\n2-foo bar\nline1\nXX\nline9\nline10\nline11\nline12\n');
  });
  it('separates non-adjacent groups under a context of 0 lines too (-A0, -C0, --context=0), adjacent ones not', async () => {
    const r = await runShell("printf 'a\\nb\\nc\\nb\\nb\\n' > f; grep -A0 b f; grep --context=0 -n b f; grep b f");
    expect(r.stdout).toBe('b\n--\nb\nb\n2:b\n--\n4:b\n5:b\nb\nb\nb\n');
  });
  it('colours matches with --color=always', async () => {
    expect((await runShell(`${files}grep --color=always foo a.txt`)).stdout).toBe('\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K bar\n');
  });
});

describe('grep inputs', () => {
  it('walks -r with names only below directories, -R through symlinks', async () => {
    const r = await runShell(`${files}grep -r TODO src/lib/util.ts; grep -R hello . | sort; grep -r hello . | sort`);
    expect(r.stdout).toBe('// TODO fix\n./a.txt:hello world\n./link.txt:hello world\n./a.txt:hello world\n');
  });
  it('reports a binary file that matches on stderr, and reads it with -a, skips it with -I', async () => {
    const r = await runShell(`${files}printf 'x\\0y\\n' > bin.dat; grep y bin.dat; echo "s=$?"; grep -c y bin.dat; grep -I y bin.dat; echo "s=$?"; grep -a y bin.dat | tr '\\0' @`);
    expect(r).toEqual({ stdout: 's=0\n1\ns=1\nx@y\n', stderr: 'grep: bin.dat: binary file matches\n', exit: 0 });
  });
  it('-I reads a binary file as one without a match: -c prints its 0, -L lists it, -l and -q skip it', async () => {
    const r = await runShell(`printf 'x\\0y\\n' > bin.dat; printf 'y\\n' > t; grep -Ic y bin.dat t; grep -IL y bin.dat t; grep -Il y bin.dat t; grep -Iq y bin.dat; echo "s=$?"`);
    expect(r).toEqual({ stdout: 'bin.dat:0\nt:1\nbin.dat\nt\ns=1\n', stderr: '', exit: 0 });
  });
  it('refuses a bracket range whose end sorts before its start (Invalid range end, status 2)', async () => {
    expect(await runShell(`echo b | grep '[b-a]'; echo "s=$?"; echo b | grep '[a-c]'`)).toEqual({ stdout: 's=2\nb\n', stderr: 'grep: Invalid range end\n', exit: 0 });
  });
  it('-z makes a newline an ordinary character: . and [^x] match it, ^ and $ still anchor at the NUL-ended line', async () => {
    const r = await runShell(`printf 'ab\\ncd\\n' | grep -z -o 'b.c' | tr '\\0' '\\n'; printf 'a\\nb\\0' | grep -zcE 'a[^x]b'; printf 'a\\nb\\0' | grep -zc '^b'`);
    expect(r.stdout).toBe('b\nc\n1\n0\n');
  });
  it('suppresses lines that are not UTF-8 text, and reads NUL-ended lines with -z', async () => {
    const r = await runShell(`${files}printf 'b1\\nb\\377\\nb3\\n' | grep b; printf 'a\\0b\\0' | grep -z b | tr '\\0' '\\n'; grep -z -c . nums.txt`);
    expect(r).toEqual({ stdout: 'b1\nb3\nb\n1\n', stderr: 'grep: (standard input): binary file matches\n', exit: 0 });
  });
  it('-q, -l and -m stop reading a pipe early: a writer left with more than grep\'s buffer and a pipe gets SIGPIPE', async () => {
    const r = await runShell('seq 1 100000 | grep -q 7; echo "${PIPESTATUS[@]}"; seq 1 100000 | grep -q 99999; echo "${PIPESTATUS[@]}"; seq 1 100000 | grep -c 7 >/dev/null; echo "${PIPESTATUS[@]}"; set -o pipefail; seq 1 100000 | grep -m1 5; echo "s=$?"');
    expect(r.stdout).toBe('141 0\n0 0\n0 0\n5\ns=141\n');
  });
});

describe('grep on a binary file, whose NULs GNU takes for line ends', () => {
  it('counts and matches the pieces between NULs and newlines (not with -a or -z)', async () => {
    const r = await runShell("printf 'a\\0b\\nc\\nd\\0' | grep -c ''; printf '\\0\\n\\0\\n' | grep -c '^'; printf 'a\\0b\\nc\\n' | grep -c '^b'; printf 'a\\0b\\nc\\n' | grep -ac '^b'; printf 'a\\0b\\nc\\n' | grep -ac ''; printf 'a\\0b\\nc\\n' | grep -vc b");
    expect(r).toEqual({ stdout: '4\n4\n1\n0\n2\n2\n', stderr: '', exit: 0 });
  });
});

describe('grep names beyond ASCII and -l with -c', () => {
  it('prints a file name as its UTF-8 bytes beside the matched line; -l/-L list names only, with -c too', async () => {
    const r = await runShell("mkdir d && printf 'INFO é\\n' > d/résumé.md && printf 'x\\n' > d/b.txt && grep -H é d/résumé.md && grep -rlc INFO d && grep -Lc INFO d/*");
    expect(r).toEqual({ stdout: 'd/résumé.md:INFO é\nd/résumé.md\nd/b.txt\n', stderr: '', exit: 0 });
  });
});
