import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU sed 4.8 prints them (checked with bash on a GNU/Linux host).
const files = "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt; printf '3\\n1\\n' > n.txt; ";

describe('sed scripts', () => {
  it('takes the one-line a\\text, i\\text and c\\text forms without a stray backslash', async () => {
    const r = await runShell(`${files}sed '1i\\header' n.txt; sed '$a\\footer' n.txt; sed '/foo/c\\replaced line' a.txt; sed '1a\\  two' n.txt`);
    expect(r.stdout).toBe('header\n3\n1\n3\n1\nfooter\nhello world\nreplaced line\nHello again\n3\n  two\n1\n');
  });
  it("reads a, i and c text as GNU does: blanks skipped before it, one backslash dropped, escapes resolved", async () => {
    const r = await runShell(`printf 'L\\n' > L; sed 'a    foo' L; sed 'a\\\\' L; sed '1i\\\\  kept' L; sed 'a\\\\\\' L; sed 'a x\\qy\\x41\\d066\\o103' L; sed '$!a\\\\---' L; sed 'c\\\\' L | od -An -c`);
    expect(r).toEqual({ stdout: 'L\nfoo\nL\n\n  kept\nL\nL\n\\\nL\nxqyABC\nL\n  \\n\n', stderr: '', exit: 0 });
  });
  it('ends a\\\\ text at its line: the next line is a command', async () => {
    expect((await runShell("printf 'a\\n' | sed '1a\\\\\nx' | od -An -c")).stdout).toBe('  \\n  \\n\n');
  });
  it('c on a range prints its text once where the range ends; a negated range, a single address or a group per line', async () => {
    const five = "printf 'l1\\nl2\\nl3\\nl4\\nl5\\n' > L; ";
    const r = await runShell(`${five}sed '2,4c\\X' L; sed '/l2/,/l3/c X' L; sed '4,9c X' L; sed '2,4!c X' L; sed '2,3{c X\n}' L | tr '\\n' ' '`);
    expect(r.stdout).toBe('l1\nX\nl5\nl1\nX\nl4\nl5\nl1\nl2\nl3\nX\nl2\nl3\nl4\nX\nl1 X X l4 l5 ');
  });
  it('names a letter that is no command as GNU does, with its expression number and char position, status 1', async () => {
    expect(await runShell(`sed 'k' /dev/null; sed -n '/a/,2 K' /dev/null; sed -e p -e 'x;{k}' /dev/null; echo "s=$?"`)).toEqual({
      stdout: 's=1\n',
      stderr: "sed: -e expression #1, char 1: unknown command: `k'\nsed: -e expression #1, char 7: unknown command: `K'\nsed: -e expression #2, char 4: unknown command: `k'\n",
      exit: 0,
    });
  });
  it('fails on an unterminated s command as GNU does, and runs an empty -f script', async () => {
    expect(await runShell(`${files}sed 's/a/b' a.txt`)).toEqual({ stdout: '', stderr: "sed: -e expression #1, char 5: unterminated `s' command\n", exit: 1 });
    expect((await runShell(`${files}sed -f /dev/null a.txt | wc -l`)).stdout).toBe('3\n');
  });
  it('writes `w /dev/stdout` to its stdout under -i, not into the file it edits', async () => {
    expect(await runShell(`${files}sed -i -n '/foo/w /dev/stdout' a.txt; wc -l < a.txt; sed -i 's/3/three/w /dev/stdout' n.txt; cat n.txt; ls /tmp`)).toEqual({ stdout: 'foo bar\n0\nthree\nthree\n1\n', stderr: '', exit: 0 });
  });
  it('gives up at a directory to edit in place, status 4, leaving the files after it', async () => {
    expect(await runShell('mkdir d; echo a > f1; echo a > f2; sed -i s/a/b/ f1 d f2; echo "s=$?"; cat f1 f2')).toEqual({ stdout: 's=4\nb\na\n', stderr: "sed: couldn't edit d: not a regular file\n", exit: 0 });
  });
  it('reads a -f script from stdin (`-f -`, `-f /dev/stdin`), which leaves no data there', async () => {
    expect(await runShell(`${files}sed -f /dev/stdin a.txt <<< 's/world/there/'; echo 's/a/b/' | sed -f -; echo "s=$?"`)).toEqual({ stdout: 'hello there\nfoo bar\nHello again\ns=0\n', stderr: '', exit: 0 });
  });
});

describe('sed options and files', () => {
  it('takes the long options, -s and -u (which changes nothing seen)', async () => {
    expect((await runShell(`${files}sed --expression='s/o/0/' --quiet --expression='1p' a.txt; sed -s -n '$p' a.txt n.txt; sed -un 1p n.txt; sed --unbuffered 1d n.txt`)).stdout).toBe('hell0 world\nHello again\n1\n3\n1\n');
  });
  it('reads on past a missing file and exits 2', async () => {
    expect(await runShell(`${files}sed -n 1p nope.txt n.txt`)).toEqual({ stdout: '3\n', stderr: "sed: can't read nope.txt: No such file or directory\n", exit: 2 });
    expect(await runShell(`sed -i 's/x/y/' nope.txt`)).toEqual({ stdout: '', stderr: "sed: can't read nope.txt: No such file or directory\n", exit: 2 });
  });
  it('-i makes a symlink operand a regular file; --follow-symlinks edits its target', async () => {
    expect((await runShell(`${files}ln -s a.txt l && sed -i 's/hello/bye/' l && stat -c %F l && head -1 l a.txt`)).stdout).toBe('regular file\n==> l <==\nbye world\n\n==> a.txt <==\nhello world\n');
    expect((await runShell(`${files}ln -s a.txt l && sed -i --follow-symlinks 's/hello/bye/' l && stat -c %F l && head -1 a.txt`)).stdout).toBe('symbolic link\nbye world\n');
  });
});

describe('sed commands as GNU sed runs them (patched just-bash sed)', () => {
  it('\\U maps each character to one character, as towupper does: ß stays ß, é becomes É', async () => {
    expect((await runShell("printf 'straße é\\n' | sed 's/.*/\\U&/'")).stdout).toBe('STRAßE É\n');
  });
  it('\\U \\L \\u \\l \\E convert case in a replacement', async () => {
    const r = await runShell("printf 'hello world\\n' > a; sed 's/.*/\\U&/' a; sed 's/\\w\\+/\\u&/g' a; sed 's/\\(h\\)\\(ello\\)/\\u\\2\\E-\\U\\1x\\Ey/' a; sed 's/.*/\\L\\uHELLO/' a");
    expect(r.stdout).toBe('HELLO WORLD\nHello World\nEllo-HXy world\nHello\n');
  });
  it('q N and Q N exit with N', async () => {
    expect((await runShell("printf 'x\\ny\\n' > a; sed q5 a; echo \"st=$?\"; sed 'Q 3' a; echo \"st=$?\"")).stdout).toBe('x\nst=5\nst=3\n');
  });
  it('l escapes newlines and UTF-8 bytes and wraps at 70 columns, or at N with l N', async () => {
    const r = await runShell("printf 'hello world\\n' > a; sed -n 'l 5' a; printf 'a\\nb\\n' | sed -n 'N;l'; printf 'é\\tx\\n' | sed -n l; printf '%080d\\n' 0 | sed -n l; sed -n 'l 0' a");
    expect(r.stdout).toBe(`hell\\\no wo\\\nrld$\na\\nb$\n\\303\\251\\tx$\n${'0'.repeat(69)}\\\n${'0'.repeat(11)}$\nhello world$\n`);
  });
  it('the number after l or q belongs to it, not to the next command', async () => {
    expect(await runShell("echo a | sed 'q 5;p'; echo rc=$?; echo a | sed -n 'l 3;p'")).toEqual({ stdout: 'a\nrc=5\na$\na\n', stderr: '', exit: 0 });
  });
  it('-l N (--line-length) sets the width of every l that gives none; 0 or a non-number never wraps', async () => {
    const r = await runShell("echo abcdefghijkl > a; sed -n -l 5 l a; sed -n -l 5 'l 3;l' a; sed -n --line-length=0 l a; sed -nl x l a");
    expect(r).toEqual({ stdout: 'abcd\\\nefgh\\\nijkl$\nab\\\ncd\\\nef\\\ngh\\\nij\\\nkl$\nabcd\\\nefgh\\\nijkl$\nabcdefghijkl$\nabcdefghijkl$\n', stderr: '', exit: 0 });
  });
  it('matches leftmost-longest, RE2 patterns and JavaScript ones (back-references, word boundaries) alike', async () => {
    const r = await runShell("echo abcd | sed -E 's/ab|abcd/X/'; echo 'abcd ab' | sed 's/ab\\|abcd/X/g'; echo 'abab abcd' | sed -E 's/(ab|abcd)\\1*/<&>/g'; echo 'ab abcd' | sed -E 's/\\<(ab|abcd)\\>/[\\1]/g'");
    expect(r).toEqual({ stdout: 'X\nX X\n<abab> <abcd>\n[ab] [abcd]\n', stderr: '', exit: 0 });
  });
  it('takes a BRE `*` with nothing to repeat, and `{` `}`, as literals', async () => {
    const r = await runShell("echo '*abc' | sed 's/*/X/; s/^*/Y/'; echo '*abc' | sed 's/^*/X/'; echo 'a*b' | sed 's/\\(*\\)/X/'; echo 'a{2}aa' | sed 's/a{2}/X/; s/a\\{2\\}/Y/'; echo 'b*c' | sed 's/x\\|*c/Z/'");
    expect(r).toEqual({ stdout: 'Xabc\nXabc\naXb\nXY\nbZ\n', stderr: '', exit: 0 });
  });
  it('matches back-references in BRE and ERE patterns and addresses', async () => {
    const r = await runShell("echo foo | sed -E 's/(o)\\1/00/'; echo foofoo | sed 's/\\(f\\)\\(o\\)\\2/[\\2\\1]/g'; printf 'abab\\nabba\\n' | sed -n '/\\(ab\\)\\1/p'");
    expect(r.stdout).toBe('f00\n[of][of]\nabab\n');
  });
  it('looks for a range end from the line after the start; a number end at or before it ends the range at once', async () => {
    const r = await runShell("printf 'a\\nb\\na\\nc\\n' | sed -n '/a/,/a/p'; printf '1\\n2\\nx\\n4\\n' | sed -n '/x/,2p'; seq 6 | sed -n '0,/[0-9]/p'; seq 6 | sed -n '1,/[0-9]/p'; seq 6 | sed -n '0,/3/p'; printf 'xa\\nb\\n' | sed '/a/,/b/s//X/'");
    expect(r.stdout).toBe('a\nb\na\nx\n1\n1\n2\n1\n2\n3\nxX\nX\n');
  });
  it('s///N on a line with fewer than N matches substitutes nothing: no p, no w, no t branch', async () => {
    const r = await runShell(`${files}sed -n 's/o/0/2w out' a.txt; cat out; sed -n 's/o/0/2p' a.txt; sed 's/o/0/2;t;s/$/!/' a.txt`);
    expect(r.stdout).toBe('hello w0rld\nfo0 bar\n'.repeat(3) + 'Hello again!\n');
  });
  it('w /dev/stderr (the command and the s flag) writes to sed\'s stderr', async () => {
    const r = await runShell(`${files}sed -n '1w /dev/stderr' a.txt; sed -n 's/foo/FOO/w /dev/stderr' a.txt`);
    expect(r).toEqual({ stdout: '', stderr: 'hello world\nFOO bar\n', exit: 0 });
  });
  it("'$a\\' at the end of the script ends the output in a newline and adds no line; in an -e before another it takes that text", async () => {
    const r = await runShell(`printf 'x' > f; sed -i -e '$a\\' f; od -An -c f; printf 'x\\ny\\n' | sed 'a\\'; printf 'x\\n' | sed -e 'a\\' -e 'foo'`);
    expect(r).toEqual({ stdout: '   x  \\n\nx\ny\nx\nfoo\n', stderr: '', exit: 0 });
  });
  it('r writes the file as it is (no newline added), R a line with its own newline, in order with a; w keeps a missing final newline', async () => {
    const r = await runShell(`printf 'X\\nY' > o; printf 'p\\nq' > in; sed '1r o' in | od -An -c; sed '$r o\n$a T' in | od -An -c; printf 'a' | sed 'r nofile' | od -An -c; sed 'R o' in | od -An -c; sed -n 'w w.txt' in; od -An -c w.txt`);
    expect(r.stdout).toBe('   p  \\n   X  \\n   Y   q\n   p  \\n   q  \\n   X  \\n   Y   T  \\n\n   a  \\n\n   p  \\n   X  \\n   q  \\n   Y\n   p  \\n   q\n');
  });
  it('refuses a script GNU sed does not compile with its message and position, status 1, before reading any input', async () => {
    const r = await runShell(`echo a > a; for s in 's/a/b/q' 's/a/b/gg' 's/a/b/2p3' 's/a/b/0' 's/\\(a/b/' 's/a*\\{/b/' 'a' ': ' 's/x/y/w' 'r' '0p' 'q5 x' '1,2q' 'y/ab/c/' 's/a/\\1/' '1!!p' '/\\(/p' 's/[b-a]/x/' 's/[/]/x/'; do sed -n "$s" a; echo "s=$?"; done; sed -E 's/a)/x/' a; sed -E 's/+a/x/' a`);
    expect(r.stderr).toBe(
      [
        "unknown option to `s'",
        "multiple `g' options to `s' command",
        "multiple number options to `s' command",
        "number option to `s' command may not be zero",
      ]
        .map((m, k) => `sed: -e expression #1, char ${[7, 8, 9, 7][k]}: ${m}\n`)
        .join('') +
        'sed: -e expression #1, char 8: Unmatched ( or \\(\nsed: -e expression #1, char 9: Invalid preceding regular expression\n' +
        "sed: -e expression #1, char 1: expected \\ after `a', `c' or `i'\nsed: -e expression #1, char 2: \":\" lacks a label\n" +
        'sed: -e expression #1, char 7: missing filename in r/R/w/W commands\nsed: -e expression #1, char 1: missing filename in r/R/w/W commands\n' +
        'sed: -e expression #1, char 2: invalid usage of line address 0\nsed: -e expression #1, char 4: extra characters after command\n' +
        "sed: -e expression #1, char 4: command only uses one address\nsed: -e expression #1, char 7: strings for `y' command are different lengths\n" +
        "sed: -e expression #1, char 7: invalid reference \\1 on `s' command's RHS\nsed: -e expression #1, char 3: multiple `!'s\n" +
        'sed: -e expression #1, char 4: Unmatched ( or \\(\nsed: -e expression #1, char 10: Invalid range end\n' +
        'sed: -e expression #1, char 7: Unmatched ) or \\)\nsed: -e expression #1, char 7: Invalid preceding regular expression\n',
    );
    expect(r.stdout).toBe(`${'s=1\n'.repeat(18)}s=0\n`);
  });
  it('names a script file and its line, panics (status 4) on a lost label, a missing script file or -i without files', async () => {
    const r = await runShell(`echo a > a; printf 'p\\ns/\\\\(/x/\\n' > bad.sed; sed -f bad.sed a; echo "s=$?"; sed 'b nowhere' a; echo "s=$?"; sed -f none.sed a; echo "s=$?"; sed -i p; echo "s=$?"; sed -n -e '/a/{' -e 'b x' -e '}' -e ':x' -e p a`);
    expect(r).toEqual({
      stdout: 's=1\ns=4\ns=4\ns=4\na\n',
      stderr: "sed: file bad.sed line 3: Unmatched ( or \\(\nsed: can't find label for jump to `nowhere'\nsed: couldn't open file none.sed: No such file or directory\nsed: no input files\n",
      exit: 0,
    });
  });
});

describe('sed in the C.UTF-8 locale', () => {
  it('takes letters of any script as letters: classes, \\w, \\W, word boundaries', async () => {
    const r = await runShell(
      "echo 'héllo wörld' | sed -E 's/(\\w+) (\\w+)/\\2 \\1/'; echo 'héllo wörld' | sed 's/[[:alpha:]]\\+/<&>/g'; " +
        "echo 'naïve' | sed -E 's/\\b(\\w)/\\u\\1/g'; echo 'ÉCOLE école' | sed 's/[[:upper:]]/U/g; s/[[:lower:]]/l/g'; " +
        "echo 'grüße aus köln' | sed -E 's/\\<./\\u&/g'; echo 'straße' | sed 's/\\W/_/g'; echo 'a-b' | sed 's/\\-/X/'",
    );
    expect(r.stdout).toBe('wörld héllo\n<héllo> <wörld>\nNaïve\nUUUUU lllll\nGrüße Aus Köln\nstraße\naXb\n');
  });
});

describe('sed over bytes that are not UTF-8', () => {
  it('keeps them (stdout and -i), matches them by \\xHH and not by ., and strips a BOM by its bytes', async () => {
    const r = await runShell(
      "printf 'caf\\351 cr\\350me\\n' > l.txt; sed 's/cr/CR/' l.txt | od -An -tx1; sed -i 's/caf/CAF/' l.txt; od -An -tx1 l.txt; " +
        "printf 'caf\\351\\n' | sed 's/./X/g; s/\\xe9/E/' | od -An -c; printf '\\357\\273\\277hi\\n' | sed 's/^\\xef\\xbb\\xbf//'; printf 'a\\nb\\n' | sed 'N;s/a.b/J/'",
    );
    expect(r.stdout).toBe(' 63 61 66 e9 20 43 52 e8 6d 65 0a\n 43 41 46 e9 20 63 72 e8 6d 65 0a\n   X   X   X   E  \\n\nhi\nJ\n');
  });
});

describe('sed l', () => {
  it('wraps between the octal escapes of one character and shows a stray byte as its own escape', async () => {
    const r = await runShell("printf '\\303x\\n' | sed -n l; printf 'abc\\351d\\303\\251f\\n' | sed -n 'l 10'");
    expect(r.stdout).toBe('\\303x$\nabc\\351d\\\n\\303\\251f$\n');
  });
});

// GNU sed 4.9 (compile.c match_slash, snarf_char_class, setup_replacement), measured on a GNU/Linux host.
describe('sed backslashes in s commands and regex addresses', () => {
  it('reads `\\\\` in a replacement as one literal backslash, whatever follows it', async () => {
    const r = await runShell(String.raw`echo a.b | sed 's/\./\\&/'; echo x | sed 's/x/\\n/'; echo x | sed 's/x/a\\b/'; echo abc | sed 's/\(b\)/\\1/'; echo abc | sed 's/b/\\U&/'; echo abc | sed 's/b/\\\U&/'; echo 'C:\p' | sed 's/\\/\\\\/g'; echo '"' | sed 's/"/\\"/'`);
    expect(r).toEqual({ stdout: String.raw`a\.b
\n
a\b
a\1c
a\Ubc
a\Bc
C:\\p
\"
`, stderr: '', exit: 0 });
  });
  it('escapes text for a later sed with the usual idioms', async () => {
    const r = await runShell(String.raw`p=$(printf '%s' 'a.b/c' | sed -e 's/[]\/$*.^[]/\\&/g'); echo "$p"; echo 'xa.b/cy axb/c' | sed "s/$p/Z/g"; v=$(printf '%s' 'http://x/?a=1&b=2' | sed -e 's/[\/&]/\\&/g'); echo 'U=@' | sed "s/@/$v/"`);
    expect(r).toEqual({ stdout: 'a\\.b\\/c\nxZy axb/c\nU=http://x/?a=1&b=2\n', stderr: '', exit: 0 });
  });
  it('takes \\<delimiter> as the plain delimiter character, `\\&` staying literal when & delimits', async () => {
    const r = await runShell(String.raw`echo 'a|b' | sed 's|a\|b|X|'; echo axb | sed 's.a\.b.X.'; echo abc | sed 's&b&[\&]&'; echo 'a/b' | sed 's/\//\\\//'`);
    expect(r.stdout).toBe('X\nX\na[&]c\na\\/b\n');
  });
  it('reads a backslash inside a bracket expression as a member, but for GNU escapes like \\n and \\t', async () => {
    const r = await runShell(String.raw`echo 'a\b/c' | sed 's/[\/]/X/g'; echo 'a.b\c' | sed -E 's/[\.]/X/g'; echo 'a|b\c' | sed 's|[\|]|X|g'; printf 'a\tb\n' | sed 's/[\t]/X/'; echo 'anb' | sed 's/[\n]/X/'; echo 'a]b' | sed -E 's/[]]/X/'`);
    expect(r.stdout).toBe('aXbXc\naXbXc\naXbXc\naXb\nanb\naXb\n');
  });
  it('takes a regex address with any delimiter, \\cREGEXc, with its flags and in ranges', async () => {
    const r = await runShell(String.raw`printf 'a\n/etc\n' | sed -n '\|/etc|p'; printf 'a\n/etc\n' | sed '\,/etc,d'; printf 'a\nB\n' | sed -n '\%b%Ip'; printf 'a|b\nc\n' | sed -n '\|a\|b|p'; seq 5 | sed -n '\|2|,\#4#p'; printf '/usr/x\n' | sed '\@^/usr@s@/usr@/opt@'`);
    expect(r).toEqual({ stdout: '/etc\na\nB\na|b\n2\n3\n4\n/opt/x\n', stderr: '', exit: 0 });
  });
});

// GNU sed counts the Nth match of s///N as its g flag walks them: an empty match right after a match is none.
describe('s///N with a pattern that can match empty', () => {
  it('skips the empty match right after a match, as GNU sed does', async () => {
    const got = await runShell("echo aaa | sed 's/a*/x/2'; echo abc | sed 's/b*/x/3'; echo baaac | sed 's/a*/x/2'");
    expect(got).toEqual({ stdout: 'aaa\nabcx\nbxc\n', stderr: '', exit: 0 });
  });
});
