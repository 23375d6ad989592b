import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// What GNU coreutils 9.1's fmt printed on a GNU/Linux host for the same input.

describe('fmt', () => {
  it('refills paragraphs with the optimal breaks: sentence ends, punctuation and parentheses weigh in', async () => {
    expect(await runShell("fmt -w 10 <<< 'one two three four'; printf 'Sentence one.  Sentence two. Not end. Mr. X said hi.  Then (paren) and, comma; semi: colon! What? Yes.\\n' | fmt -w 30")).toEqual({
      stdout: 'one two\nthree\nfour\nSentence one.  Sentence\ntwo. Not end. Mr. X said hi.\nThen (paren) and, comma;\nsemi: colon! What? Yes.\n',
      stderr: '',
      exit: 0,
    });
  });
  it('keeps a prefix and a tagged first line; a long paragraph is output in parts as GNU buffers it', async () => {
    const r = await runShell(
      "printf '# aa bb cc dd ee ff gg hh ii jj kk\\n# ll mm\\nplain text here\\n#  more\\n' | fmt -p '#' -w 15; printf 'tag: first line words\\n     second line here more words\\n\\n\\tone two three four five six seven\\n' | fmt -t -w 20; seq 1 1500 | fmt | sed -n '1p;$p'",
    );
    expect(r.stdout).toBe(
      '# aa bb cc\n# dd ee ff gg\n# hh ii jj kk\n# ll mm\nplain text here\n#  more\n' +
        'tag: first line\n     words second\n     line here\n     more words\n\n\tone two\n     three four\n     five six seven\n' +
        '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27\n1490 1491 1492 1493 1494 1495 1496 1497 1498 1499 1500\n',
    );
  });
  // No LANG here: the C locale's plain quotes.
  it('reports a bad width and a missing file as GNU does', async () => {
    expect(await runShell('fmt -w x /dev/null; echo $?; fmt nope; echo $?')).toEqual({
      stdout: '1\n1\n',
      stderr: "fmt: invalid width: 'x'\nfmt: cannot open 'nope' for reading: No such file or directory\n",
      exit: 0,
    });
  });
});
