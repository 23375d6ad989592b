import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as mawk 1.3.4 (the sprite's awk) gives them (checked with bash on a GNU/Linux host).
const files = "printf '3\\n1\\n2\\n10\\n1\\n' > nums.txt; printf 'b,2,x\\na,1,y\\n' > data.csv; ";

describe('awk', () => {
  it('refuses an empty alternative as mawk does: a literal when the program is read, a dynamic regex when it runs', async () => {
    const r = await runShell("echo abc | awk '{gsub(/b|/, \"-\"); print}'; echo $?; echo abc | awk '{print match($0, \"(|b)\")}'; echo abc | awk '{gsub(/\\||c/, \"-\"); print}'");
    expect(r.stdout).toBe('2\nab-\n');
    expect(r.stderr).toBe('awk: line 1: regular expression compile failed (missing operand)\nb|\nawk: run time error: regular expression compile failed (missing operand)\n(|b)\n\tFILENAME="-" FNR=1 NR=1\n');
  });
  it('reads regexes as mawk does: `.` matches a newline, `\\w` `\\s` `\\<` are plain letters, octal escapes are bytes', async () => {
    const r = await runShell("awk 'BEGIN{s=\"a\\nb\"; print (s ~ /a.b/); gsub(/./, \"X\", s); print s}'; echo 'ab_1- w<S s' | awk '{gsub(/\\w|\\s|\\S|\\</, \"X\"); print}'; echo AB | awk '{gsub(/\\101/, \"x\"); print}'");
    expect(r).toEqual({ stdout: '1\nXXX\nab_1- XXX X\nxB\n', stderr: '', exit: 0 });
  });
  it('takes an assignment in either branch of ?: (the branch taken assigns)', async () => {
    const r = await runShell(`awk 'BEGIN{x = 0 ? 1 : y = 2; print x, y; 1 ? a=1 : b=2; print a, b; 0 ? a=5 : b=6; print a, b; print 0 ? "a" : 1 ? "b" : "c"}'`);
    expect(r).toEqual({ stdout: '2 2\n1 \n1 6\nb\n', stderr: '', exit: 0 });
  });
  it('formats printf as C does, and prints bare length', async () => {
    const r = await runShell(`${files}awk 'BEGIN {printf "%05.2f|%-8.3e|%G\\n", 3.14159, 31415.9, 0.00001}'; awk '{ print length }' nums.txt | tr '\\n' ' '`);
    expect(r.stdout).toBe('03.14|3.142e+04|1E-05\n1 1 1 2 1 ');
  });
  it('rebuilds the record with OFS, splits records on RS', async () => {
    const r = await runShell(`${files}awk -F, -v OFS=';' '{$1=$1}1' data.csv; awk 'BEGIN{RS=","} {print}' <<< 'a,b'`);
    expect(r.stdout).toBe('b;2;x\na;1;y\na\nb\n\n');
  });
  it('a one-character FS is that character, even a regex metacharacter (-F., -F"|", FS="+", split(s, a, "."))', async () => {
    const r = await runShell(`echo 'directory|4096|17' | awk -F'|' '{print $1, ($3 > 0)}'; echo 'a.b.c' | awk -F. '{print $2}'; echo 'a+b' | awk 'BEGIN{FS="+"}{print $2}'; echo 'a.b.c' | awk '{n = split($0, x, "."); print n, x[3]}'`);
    expect(r.stdout).toBe('directory 1\nb\nb\n3 c\n');
  });
  it('reads its program from stdin with -f - or -f /dev/stdin, its data from the operands', async () => {
    const r = await runShell(`${files}awk -f /dev/stdin nums.txt <<< '{print $1 * 2}'; awk -f - nums.txt <<< 'NR == 1'`);
    expect(r.stdout).toBe('6\n2\n4\n20\n2\n3\n');
  });
  it('creates an array element by referring to it (x["k"]; "k" in x)', async () => {
    expect((await runShell(`awk 'BEGIN { x["a"]; if ("a" in x) print "in"; y = z["k"]; print length(z) }'`)).stdout).toBe('in\n1\n');
  });
  it('has mawk\'s time functions: strftime (in TZ, or UTC), systime and mktime', async () => {
    const r = await runShell(`awk 'BEGIN{print strftime("%Y-%m-%d", 86400); print strftime("%H", 0, 1); print (systime() > 0); print mktime("2020 01 01 00 00 00"); print strftime("%c", 0); print mktime("bad")}'`);
    expect(r).toEqual({ stdout: '1970-01-02\n00\n1\n1577836800\nThu Jan  1 00:00:00 1970\n-1\n', stderr: '', exit: 0 });
  });
  it('refuses a call to a function never defined before running anything, as mawk does (line after the text, last first)', async () => {
    const r = await runShell(`awk 'BEGIN { print "ran"; foo(); bar() }'; echo "s=$?"; printf 'BEGIN{ g() }\\n' > p.awk; awk -f p.awk`);
    expect(r).toEqual({ stdout: 's=2\n', stderr: 'awk: line 2: function bar never defined\nawk: line 2: function foo never defined\nawk: p.awk: line 3: function g never defined\n', exit: 2 });
  });
  it('prints to computed file names, /dev/stderr and commands, and runs system()', async () => {
    const r = await runShell(`${files}awk '{print > "out_" NR ".txt"}' nums.txt && cat out_4.txt; awk 'BEGIN{print "err" > "/dev/stderr"}' 2>&1; awk 'BEGIN { system("echo from-system") }'; awk '{ print | "sort -r" } END { close("sort -r"); print "done" }' nums.txt`);
    expect(r.stdout).toBe('10\nerr\nfrom-system\n3\n2\n10\n1\n1\ndone\n');
  });
  it('reads a command with getline, sets RSTART before later arguments read it, returns system status', async () => {
    const r = await runShell(`awk 'BEGIN { "echo hi" | getline x; print x; print match("foobar", /o+/), RSTART, RLENGTH; print system("exit 3") }'`);
    expect(r.stdout).toBe('hi\n2 2 2\n3\n');
  });
  it("fails with mawk's messages and exit 2", async () => {
    const r = await runShell(`awk 'BEGIN{'; echo "s=$?"; awk '{print}' nope; echo "s=$?"`);
    expect(r).toEqual({ stdout: 's=2\ns=2\n', stderr: 'awk: line 2: missing } near end of file\nawk: cannot open nope (No such file or directory)\n', exit: 0 });
  });
  it('printf short of arguments writes the text before the missing one to stdout, then fails as mawk does', async () => {
    const r = await runShell(`awk 'BEGIN{printf "a%sb%s|", "x"}'; echo " s=$?"; awk 'BEGIN{printf "a%sb%s", "x" > "f"}'; wc -c < f`);
    expect(r.stdout).toBe('axb s=2\n0\n');
    expect(r.stderr).toContain('not enough arguments passed to printf("a%sb%s|")');
  });
  it('substr truncates its start and length, a start below 1 growing the length by as much (mawk 1.3.4)', async () => {
    const r = await runShell(`awk 'BEGIN{print substr("hello", 1.6, 2) "|" substr("hello", 2.5) "|" substr("hello", -1, 3) "|" substr("hello", 0, 2) "|" substr("hello", -0.9, 1) "|" substr("hello", 1, 2.9)}'`);
    expect(r.stdout).toBe('he|ello|hell|he|h|he\n');
  });
  it('printf %c of an empty string prints a NUL byte, as mawk', async () => {
    expect((await runShell(`awk 'BEGIN{printf "%c|%c", "", 65}' | od -An -c`)).stdout).toBe('  \\0   |   A\n');
  });
  it('printf %d clamps to a C int (±2147483647) and %x/%o/%u to an unsigned one, as mawk', async () => {
    const r = await runShell(`awk 'BEGIN{printf "%d %d %i|%x %u %o|%d %x\\n", 2147483648, -2147483649, 1e20, 2^32+1, -5, -1, -log(0), log(-1)}'`);
    expect(r.stdout).toBe('2147483647 -2147483647 2147483647|ffffffff 0 0|2147483647 0\n');
  });
  it('rounds %f, %e, %g, OFMT and CONVFMT from the exact double, ties to even as glibc (%.0f of 2.5 is 2)', async () => {
    const r = await runShell(`awk 'BEGIN{printf "%.0f %.0f %.0f %.1f %.1f %.2e %.2g %f|", 0.5, 2.5, -0.5, 0.25, 0.35, 1.125, 0.125, 1e22; OFMT="%.0f"; print 2.5, 3.5; CONVFMT="%.2f"; x = 0.125 ""; print x}'`);
    expect(r.stdout).toBe('0 2 -0 0.2 0.3 1.12e+00 0.12 10000000000000000000000.000000|2 4\n0.12\n');
  });
});

describe('awk and file names beyond ASCII', () => {
  it('opens, names (FILENAME), writes and reports them as the shell names them', async () => {
    const r = await runShell("printf 'x\\n' > 'ünï côdé.txt' && awk 'END{print FILENAME, NR}' 'ünï côdé.txt' && awk '{print > \"öut.txt\"}' 'ünï côdé.txt' && cat öut.txt; awk 1 nöpe.txt; echo rc=$?");
    expect(r).toEqual({ stdout: 'ünï côdé.txt 1\nx\nrc=2\n', stderr: 'awk: cannot open nöpe.txt (No such file or directory)\n', exit: 0 });
  });
});

// mawk 1.3.4 (cast.c strtod and check_strnum, scan.c rm_escape), measured on a GNU/Linux host.
describe('awk numbers from text and string escapes, as mawk reads them', () => {
  it('a string used as a number is what strtod reads: hexadecimal, inf and infinity too', async () => {
    const r = await runShell(`echo 0x1A | awk '{print $1+0}'; awk 'BEGIN{print "0x10"+0, "0X1f"+0, "0x"+0, "-0x10"+0, "0x1p3"+0, "0x.8"+0, "inf"+0, "-infinity"+0, " 12abc"+0; printf "%d %x\\n", "0x1A", "0xff"}'`);
    expect(r).toEqual({ stdout: '26\n16 31 0 -16 8 0.5 inf -inf 12\n26 ff\n', stderr: '', exit: 0 });
  });
  it('an input field compares as a number when strtod reads all of it and it ends in a digit or a dot', async () => {
    const script = `for s in 0x10 0x1A ' 0x10 ' 1e999 '+.5' 5. inf 12abc; do echo "$s" | awk '{print ($1 == $1+0), ($1 < 2)}'; done`;
    expect((await runShell(script)).stdout).toBe('1 0\n0 1\n1 0\n0 1\n1 1\n1 0\n1 0\n0 1\n');
  });
  it('keeps the backslash of an escape it does not know (\\/ in a string), and reads \\x with one or two hex digits', async () => {
    const r = await runShell(`awk 'BEGIN{print "x\\/y", "a\\qb", length("\\/"); print "\\052\\x41|", "a\\x4g", "b\\x7e"}'; awk -v x='a\\/b\\x41' 'BEGIN{print x}'`);
    expect(r).toEqual({ stdout: 'x\\/y a\\qb 2\n*A| a\x04g b~\na\\/bA\n', stderr: '', exit: 0 });
  });
  it('names its standard input - in FILENAME; an unterminated string is a runaway string constant', async () => {
    const r = await runShell(`echo x | awk '{print FILENAME}'; echo 1 | awk '{ printf "%*d", 1 }'; awk 'BEGIN{print "unterminated}'`);
    expect(r).toEqual({
      stdout: '-\n',
      stderr: 'awk: run time error: not enough arguments passed to printf("%*d")\n\tFILENAME="-" FNR=1 NR=1\nawk: line 1: runaway string constant "unterminat ...\n',
      exit: 2,
    });
  });
});

describe('awk arrays in mawk order', () => {
  it('visits the keys of for (k in a) as mawk does: string keys, integer keys, a split vector, a doubled table', async () => {
    const r = await runShell(`printf 'apple\\nbanana\\ncherry\\ndate\\napple\\n' | awk '{c[$1]++} END{for(k in c) print k, c[k]}' | tr '\\n' ,; echo; awk 'BEGIN{for(i=1;i<=5;i++) a[i]=i; for (k in a) print k}' | tr '\\n' ' '; echo; awk 'BEGIN{n=split("x y z w",a); for (k in a) print k, a[k]}' | tr '\\n' ' '; echo; seq 1 2000 | awk '{b["k" $1]=$1} END{n=0; for (k in b) if (++n <= 8) printf "%s ", k; print ""}'`);
    expect(r).toEqual({ stdout: 'banana 1,date 1,cherry 1,apple 2,\n3 5 2 1 4 \n3 z 2 y 1 x 4 w \nk1643 k1188 k1113 k990 k477 k301 k1925 k1587 \n', stderr: '', exit: 0 });
  });
  it('gives the loop variable each key as a string, compared as a string', async () => {
    expect((await runShell(`awk 'BEGIN{a[10];a[9]; for(k in a) if (k < 5) print "lt", k}'`)).stdout).toBe('lt 10\n');
  });
});

describe('awk errors and edges as mawk has them', () => {
  it("takes the ' flag and C's length letters in printf, and stops at a % no conversion follows", async () => {
    const r = await runShell(`awk 'BEGIN{printf "%'"'"'d|%ld\\n", 1234567, 5}'; awk 'BEGIN{printf "abc%z", 1}'; echo "rc=$?"; awk 'BEGIN{printf "%d %d %y\\n", 1, 2}'; echo "rc=$?"`);
    expect(r.stdout).toBe('1234567|5\nabcrc=2\n1 2 rc=2\n');
    expect(r.stderr).toBe('awk: run time error: improper conversion(number 1) in printf("abc%z")\n\tFILENAME="" FNR=0 NR=0\nawk: run time error: not enough arguments passed to printf("%d %d %y\n")\n\tFILENAME="" FNR=0 NR=0\n');
  });
  it('refuses a negative field, next outside a main rule; splits paragraphs by FS alone; formats an empty strftime as %c', async () => {
    const r = await runShell(`echo a b | awk '{print $(-1)}'; echo "rc=$?"; awk 'END{next}' </dev/null; echo "rc=$?"; printf 'a:b\\nc\\n' | awk 'BEGIN{RS=""; FS=":"}{print NF}'; awk 'BEGIN{print strftime("", 86400)}'`);
    expect(r.stdout).toBe('rc=2\nrc=2\n2\nFri Jan  2 00:00:00 1970\n');
    expect(r.stderr).toBe('awk: run time error: negative field index $-1\n\tFILENAME="-" FNR=1 NR=1\nawk: line 1: improper use of next\n');
  });
});
