import { describe, expect, it } from 'vitest';
import { exitAfterLateStdin, LATE_STDIN_EXIT, scriptMayReadStdin } from './stdin-wait.ts';

describe('scriptMayReadStdin', () => {
  it.each([
    'wc -c',
    'cat',
    'cat -',
    'cat file -',
    'head -n 5 file',
    'while read l; do echo "$l"; done',
    'x=$(cat); echo "$x"',
    'echo hi; sort',
    'f(){ cat; }; f',
    '$CMD',
    'python3 script.py',
    'cat "$F"',
    'if true; then wc -l; fi',
    'echo "unterminated',
    'cat /dev/stdin',
    "awk '{print $1}'",
    "awk -v n=1 '{print n}'",
    "awk '{print}' n=1",
    "awk '{print}' -",
    'awk "$PROG" /etc/hostname',
    'awk -f prog.awk',
    'grep -c pat',
    'grep -e pat',
    'grep -r pat -',
    'grep --context 3 pat file',
    "sed 's/a/b/'",
    'sed -n -e 2p',
    'sed --in-place=.bak s/a/b/ file',
    'if [ -f x ]; then cat; fi',
  ])('%j may read stdin', (script) => {
    expect(scriptMayReadStdin(script)).toBe(true);
  });

  it.each([
    'echo hello world',
    'printf "%s" a > /tmp/x',
    'cat /tmp/shared.txt',
    'wc -c /etc/hostname',
    'echo hi | wc -c',
    'wc -c < /tmp/f',
    'cat <<EOF\nx\nEOF',
    'sleep 5; echo done',
    'f(){ echo in f; }; f',
    'cat /dev/null &',
    'sha256sum -b a b',
    'mkdir -p /a && touch /a/b && ls /a',
    '[ -f /etc/passwd ]',
    "if [ ! -f '/a b' ]; then echo missing; exit 1; fi",
    "awk 'NR >= 1 && NR <= 5 { printf \"%6d\\t%s\\n\", NR, $0 }' '/home/sprite/a.txt'",
    "awk -F: -v OFS=, '{print $1}' /etc/passwd",
    'awk -f prog.awk data.txt',
    "grep -rHnF -e 'a.b' '/home/sprite/tree' 2>/dev/null || true",
    'grep -A3 -m 2 pat file',
    'grep -r pat',
    'grep --regexp=pat --line-number file',
    'grep -e "$PAT" file',
    "sed -n '2p' file",
    'sed -i.bak -e s/a/b/ -e s/c/d/ f1 f2',
  ])('%j cannot read stdin', (script) => {
    expect(scriptMayReadStdin(script)).toBe(false);
  });
});

describe('scriptMayReadStdin on a long script', () => {
  it('walks a long script (5,000 statements; just-bash parses no more than 10,000 iterations)', () => {
    expect(scriptMayReadStdin('echo x; '.repeat(5_000))).toBe(false);
    expect(scriptMayReadStdin('echo x; '.repeat(5_000) + 'cat')).toBe(true);
  });
});

describe('exitAfterLateStdin', () => {
  it('turns a clean exit into LATE_STDIN_EXIT only for a reader that was sent bytes late', () => {
    expect(exitAfterLateStdin(0, true, 3)).toBe(LATE_STDIN_EXIT);
    expect(exitAfterLateStdin(0, true, 0)).toBe(0);
    expect(exitAfterLateStdin(0, false, 3)).toBe(0);
    expect(exitAfterLateStdin(7, true, 3)).toBe(7);
  });
});

describe('commands the shell engine does not run', () => {
  it('read no stdin, so the JS SDK\'s exec of git or npm starts after the short grace', () => {
    expect(scriptMayReadStdin('git status')).toBe(false);
    expect(scriptMayReadStdin('npm test && echo done')).toBe(false);
    expect(scriptMayReadStdin('git status; wc -c')).toBe(true);
  });
});

describe('python3 -c', () => {
  it.each([
    [`python3 -c 'print(1)'`, false],
    [`python3 -c "import json; print(json.dumps({}))"`, false],
    [`python -c print`, false],
    [`python3 -c 'import sys; print(sys.stdin.read())'`, true],
    [`python3 -c "name = input()"`, true],
    [`python3 -c 'import fileinput'`, true],
    [`python3 -c 'import os; os.read(0, 10)'`, true],
    [`python3 script.py`, true],
    [`python3 -c "$CODE"`, true],
    [`python3 -c`, true],
    [`python3 -`, true],
  ])('%s may read stdin: %s', (script, reads) => {
    expect(scriptMayReadStdin(script)).toBe(reads);
  });
});

describe('perl -e', () => {
  it.each([
    [`perl -e 'print 1'`, false],
    [`perl -le 'print for @x'`, false],
    [`perl -MJSON::PP -e 'print encode_json([1])'`, false],
    [`perl -e 'my $l = <STDIN>'`, true],
    [`perl -e 'print while <>'`, true],
    [`perl -ne 'print'`, true],
    [`perl -pe 's/a/b/' f`, true],
    [`perl -lane 'print $F[0]'`, true],
    [`perl script.pl`, true],
    [`perl -e "$CODE"`, true],
    [`perl`, true],
  ])('%s may read stdin: %s', (script, reads) => {
    expect(scriptMayReadStdin(script)).toBe(reads);
  });
});
