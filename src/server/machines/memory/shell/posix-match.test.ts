import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { execLongest, matchAllLongest, splitLongest } from './posix-match.ts';

const span = (m: RegExpExecArray | null) => m && [m.index, ...m];

describe('leftmost-longest matching (POSIX XBD 9.1)', () => {
  it('takes the longest of the matches starting leftmost, whatever the alternatives\' order', () => {
    expect(span(execLongest(/[0-9]+|[0-9]+(\.[0-9]+)+/, 'tool version 1.22.3 build 7'))).toEqual([13, '1.22.3', '.3']);
    expect(span(execLongest(/a|ab|abc/, 'xabcd'))).toEqual([1, 'abc']);
    expect(span(execLongest(/a*(ab)*/, 'aabab'))).toEqual([0, 'aabab', 'ab']);
    expect(span(execLongest(/ab|abcd/, 'abcd ab', 2))).toEqual([5, 'ab']);
    expect(execLongest(/x|xy/, 'abc')).toBeNull();
  });
  it('counts code points under the u flag and leaves the caller\'s lastIndex alone', () => {
    const re = /(ab|abcd)/gu;
    re.lastIndex = 3;
    expect(span(execLongest(re, '😀abcd😀'))).toEqual([2, 'abcd', 'abcd']);
    expect(re.lastIndex).toBe(3);
  });
  it('stays linear-ish on a long line: each probe costs one match attempt, not the text before it', () => {
    const line = Array.from({ length: 20000 }, (_, i) => i + 1).join(' ');
    const found = [...matchAllLongest(/[0-9]+|[0-9]+ [0-9]+/, line)];
    expect(found.length).toBe(10000);
    expect(found[9999]![0]).toBe('19999 20000');
  });
  it('walks matches as s///g does: from each match\'s end, one further after an empty one', () => {
    expect([...matchAllLongest(/b*/, 'abc')].map((m) => [m.index, m[0]])).toEqual([[0, ''], [1, 'b'], [2, ''], [3, '']]);
    expect([...matchAllLongest(/ab|abcd/, 'abcd ab')].map((m) => m[0])).toEqual(['abcd', 'ab']);
  });
  it('is what grep, sed, awk, expr and [[ =~ ]] match', async () => {
    const r = await runShell([
      "echo 'v 1.22.3' | grep -oE '[0-9]+|[0-9]+(\\.[0-9]+)+'",
      "echo ABCD | grep -oi 'ab\\|abcd'",
      "echo abcd | grep -o -e ab -e abcd",
      "echo 'abcd ab' | sed -E 's/ab|abcd/X/g'",
      "echo 'abab abcd' | sed -E 's/(ab|abcd)\\1*/<&>/g'",
      "echo 'WARNING y' | awk '{match($0, /WARN|WARNING/); print RLENGTH; gsub(/ab|abcd|W/, \"-\"); print}'",
      "[[ abcd =~ ab|abcd ]] && echo ${BASH_REMATCH[0]}",
      "expr abcd : '\\(ab\\|abcd\\)'",
    ].join('; '));
    expect(r).toEqual({ stdout: '1.22.3\nABCD\nabcd\nX X\n<abab> <abcd>\n7\n-ARNING y\nabcd\nabcd\n', stderr: '', exit: 0 });
  });
  it('cuts awk fields and records at the longest separator, without captured pieces', () => {
    expect(splitLongest(/a|ab/, 'xaby')).toEqual(['x', 'y']);
    expect(splitLongest(/(a)/, 'x(a)y'.replace(/[()]/g, ''))).toEqual(['x', 'y']);
    expect(splitLongest(/x*/, 'abc')).toEqual(['a', 'b', 'c']);
  });
  it('is what ed s, tar --transform and tac -r match', async () => {
    const r = await runShell([
      "printf 'abcdab abcd\\n' > f; ed -s f <<< $'s/ab\\\\|abcd/X/g\\np\\nQ'",
      "touch abcd; tar -cf t.tar --transform='s/b\\|bc/Y/g' abcd && tar -tf t.tar",
      "printf 'aXXbXc' | tac -r -s 'X\\|XX'; echo",
    ].join('; '));
    expect(r).toEqual({ stdout: 'XX X\naYd\ncbXXaX\n', stderr: '', exit: 0 });
  });
  it('in awk, an empty match right after a match replaces nothing', async () => {
    expect((await runShell("echo abc | awk '{gsub(/b*/, \"x\"); print}'")).stdout).toBe('xaxcx\n');
  });
});
