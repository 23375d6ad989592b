import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

// glibc's iconv on the shell engine, each command line compared with the host's own iconv.

const S = "printf 'héllo wörld\\n' > u.txt && ";

describe('iconv, as glibc', () => {
  it.each([
    'iconv -f utf-8 -t ascii u.txt; echo "st=$?"',
    'iconv -f utf-8 -t ascii//TRANSLIT u.txt; echo "st=$?"',
    'iconv -c -f utf-8 -t ascii u.txt; echo "st=$?"',
    'iconv -f utf-8 -t ascii//IGNORE u.txt; echo "st=$?"',
    'iconv -f utf-8 -t latin1 u.txt | od -c | head -2',
    "printf '\\xe9\\n' | iconv -f latin1 -t utf-8",
    'iconv -f bogus -t utf-8 u.txt; echo "st=$?"',
    "printf '\\xff\\n' | iconv -f utf-8 -t utf-16; echo \"st=$?\"",
    'iconv -f utf-8 -t utf-16 u.txt | od -An -tx1 | head -1',
    "printf '€ ñ ß æ “q” – …\\n' | iconv -f utf-8 -t ascii//TRANSLIT",
    'iconv -f utf-8 -t ascii nope; echo st=$?',
    "printf 'ab\\n' | iconv -f ascii -t utf-16le | od -An -tx1",
    'iconv -f utf-8 -t ascii -o out.txt u.txt; echo "st=$?"; od -c out.txt | head -1',
    "printf 'a\\xc3(b\\n' | iconv -f utf-8 -t utf-8; echo st=$?",
  ])('%s', async (script) => {
    expect(await engineBash(S + script)).toEqual(hostBash(S + script));
  });
});

describe('iconv at the end of the input', () => {
  it('names a character cut off by the end of the input, after converting what came before (status 1)', async () => {
    expect(await runShell("printf 'a\\0b' | iconv -f utf-16le -t utf-8; echo \" s=$?\"; printf 'caf\\303' | iconv -f utf-8 -t latin1")).toEqual({
      stdout: 'a s=1\ncaf',
      stderr: 'iconv: incomplete character or shift sequence at end of buffer\niconv: incomplete character or shift sequence at end of buffer\n',
      exit: 1,
    });
  });
});
