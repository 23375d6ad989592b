import { describe, expect, it } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// GNU split on the shell engine, each command line compared with the host's own split (coreutils 9.1): the pieces'
// names and sizes, what goes to stdout, the messages and statuses.
const SETUP = "printf '3\\n1\\n2\\n10\\n1\\n' > nums; printf 'a\\nbb\\nccc\\ndddd\\neeeee\\n' > h; printf '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS' > g; ";
const LIST = '; echo st=$?; for f in $(ls | grep -v -x -e nums -e h -e g); do printf "%s:%s|" "$f" "$(od -An -c "$f" | tr -s " " | tr -d "\\n")"; done';

describe('split, as GNU split', () => {
  it.each([
    'split -n 2 nums piece',
    'split -n 3 h',
    'split -n 7 g',
    'printf ab > s; rm -f nums h g; split -n 3 s',
    'split -n l/3 h',
    "printf 'aaaaaaaaaaaaaaa\\nb\\n' > L; rm nums h g; split -n l/3 L",
    'split -n r/2 h',
    'split -n 2/3 g',
    'split -n l/2/3 h',
    'split -n r/2/2 h',
    'split -e -n 9 nums',
    'split -l 2 h',
    'split -2 h',
    'split -l 2 -d h part_',
    'split -l 1 --numeric-suffixes=5 nums n',
    'split -l 2 -x -a 3 --additional-suffix=.txt h',
    'split -b 4 g',
    'split -b 1K g',
    'split -C 5 h',
    'seq 10 | split -C 5',
    "printf 'abcdefghij\\n' | split -C 4",
    "printf 'a\\0b\\0c\\0' | split -t '\\0' -l 2",
    'seq 5 | split -l 2 --verbose -d - p_',
    'seq 700 | split -l 1; ls | tail -n 2; ls | wc -l',
    'seq 30 | split -a 1 -l 1',
    'split -l 0 h',
    'split -n 0 h',
    'split -b x h',
    'split -l 2 -b 2 h',
    'split nope',
    'split -n 4 /dev/null',
    'split h a b',
  ])('%s', async (script) => {
    expect(await engineBash(SETUP + script + LIST)).toEqual(hostBash(SETUP + script + LIST));
  }, 60_000);
});
