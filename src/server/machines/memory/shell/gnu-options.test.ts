import { describe, expect, it } from 'vitest';
import { gnuOptionStatus, gnuRejection, parseHelpOptions } from './gnu-options.ts';

const HELP = `Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
  -e script, --expression=script
                 add the script to the commands to be executed
  -i[SUFFIX], --in-place[=SUFFIX]
  -E, -r, --regexp-extended
      --help     display this help and exit
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -NUM                      same as --context=NUM
  -   read standard input
`;

describe('GNU option tables read from --help', () => {
  it('lists every short and long option of each line with its kind of value, not the words of descriptions', () => {
    const t = parseHelpOptions(HELP);
    expect([...t.short]).toEqual([['n', 'none'], ['e', 'required'], ['i', 'optional'], ['E', 'none'], ['r', 'none'], ['k', 'required']]);
    expect([...t.long]).toEqual([['--quiet', 'none'], ['--silent', 'none'], ['--expression', 'required'], ['--in-place', 'optional'], ['--regexp-extended', 'none'], ['--help', 'none'], ['--key', 'required']]);
  });

  it('tells a typo from an option, and an abbreviation from an ambiguous prefix, as getopt_long does', () => {
    const t = parseHelpOptions(HELP);
    expect(gnuOptionStatus('sed', '--bogus=3', t)).toEqual({ kind: 'unknown' });
    expect(gnuOptionStatus('sed', '-Q', t)).toEqual({ kind: 'unknown' });
    expect(gnuOptionStatus('sed', '-n', t)).toEqual({ kind: 'known' });
    expect(gnuOptionStatus('sed', '--expr=p', t)).toEqual({ kind: 'known', full: '--expression' });
    expect(gnuOptionStatus('sed', '--quiet', t)).toEqual({ kind: 'known' });
    expect(gnuOptionStatus('sed', '--s', t)).toEqual({ kind: 'known', full: '--silent' });
    expect(gnuOptionStatus('sed', '--', t)).toEqual({ kind: 'ambiguous' });
  });

  it("words getopt's line as GNU does, then the program's usage tail and status", () => {
    const tail = () => ({ tail: "Try 'cut --help' for more information.\n", status: 1 });
    expect(gnuRejection('cut', '--bogus=3', tail)).toEqual({ stdout: '', stderr: "cut: unrecognized option '--bogus=3'\nTry 'cut --help' for more information.\n", exitCode: 1 });
    expect(gnuRejection('cut', '-Q', tail)?.stderr).toBe("cut: invalid option -- 'Q'\nTry 'cut --help' for more information.\n");
    expect(gnuRejection('cut', '-Q', () => undefined)).toBeUndefined();
  });
});
