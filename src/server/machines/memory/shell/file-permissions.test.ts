/**
 * File and directory permissions of the sprite user on the shell engine, as Linux enforces them: for the plain
 * sprite user (a service's commands) search (x) on every directory on the way to a path, read (r) to list a
 * directory or read a file, and each command's GNU wording and status when it is refused (the rest of its work
 * still done); expected outputs are GNU coreutils', findutils', tar's, sed's and bash's, run as an unprivileged
 * user. An exec session's sprite user holds CAP_DAC_OVERRIDE and CAP_FOWNER (docs/fidelity.md "Root-level writes"):
 * the same scripts are compared with the host's bash run as an unprivileged user holding those capabilities.
 */
import { describe, expect, it } from 'vitest';
import { engineBash, hostBashCapable, hostHas } from '../../../../../test/support/host-bash.ts';

const TREE = 'mkdir -p t/a; echo x > t/a/f; echo y > t/b';

/** Scripts that stay in their directory, with what the plain sprite user gets (stdout, stderr). */
const CASES: Array<[string, string, string]> = [
    ['mkdir d; echo hi > d/f; chmod 600 d; cat d/f; echo "s=$?"', 's=1\n', 'cat: d/f: Permission denied\n'],
    ['mkdir -p d/e; echo hi > d/e/f; chmod 000 d; ls d/e; echo "s=$?"; [ -e d/e/f ] || echo unseen', 's=2\nunseen\n', "ls: cannot access 'd/e': Permission denied\n"],
    ['mkdir d; touch d/f d/g; chmod 300 d; ls d; echo "s=$?"', 's=2\n', "ls: cannot open directory 'd': Permission denied\n"],
    ['mkdir d; touch d/f d/g; chmod 600 d; ls d; echo "s=$?"', 'f\ng\ns=0\n', ''],
    ['mkdir d; touch d/f d/g; chmod 600 d; ls -l d; echo "s=$?"', 'total 0\n-????????? ? ? ? ?            ? f\n-????????? ? ? ? ?            ? g\ns=1\n', "ls: cannot access 'd/f': Permission denied\nls: cannot access 'd/g': Permission denied\n"],
    ['mkdir d; touch d/f; chmod 000 d; find . -name f; echo "s=$?"', 's=1\n', 'find: ‘./d’: Permission denied\n'],
    ['mkdir d; touch d/f d/g; chmod 600 d; find d; echo "s=$?"', 'd\nd/f\nd/g\ns=0\n', ''],
    ['mkdir d; chmod 600 d; cd d; echo "s=$?"', 's=1\n', 'bash: line 1: cd: d: Permission denied\n'],
    ['echo y > a; chmod 000 a; cp a b; echo "s=$?"; ls b 2>/dev/null || echo none', 's=1\nnone\n', "cp: cannot open 'a' for reading: Permission denied\n"],
    [`${TREE}; chmod 000 t/a; cp -r t u; echo "s=$?"; ls u; ls -ld u/a | cut -c1-10`, 's=1\na\nb\nd---------\n', "cp: cannot access 't/a': Permission denied\n"],
    [`${TREE}; chmod 000 t/b t/a/f; cp -r t u; echo "s=$?"; find u | sort`, 's=1\nu\nu/a\n', "cp: cannot open 't/a/f' for reading: Permission denied\ncp: cannot open 't/b' for reading: Permission denied\n"],
    [`${TREE}; chmod 000 t/a; tar cf t.tar t; echo "s=$?"; tar tf t.tar`, 's=2\nt/\nt/b\n', 'tar: t/a: Cannot open: Permission denied\ntar: Exiting with failure status due to previous errors\n'],
    ['echo x > a; chmod 000 a; sed -n 1p a; echo "s=$?"; file a', "s=2\na: regular file, no read permission\n", "sed: can't read a: Permission denied\n"],
    ['mkdir d; touch d/f; chmod 000 d; du -s d | cut -f2; echo "s=${PIPESTATUS[0]}"', 'd\ns=1\n', "du: cannot read directory 'd': Permission denied\n"],
    [`${TREE}; chmod 000 t/b; zip -qr t.zip t; echo "s=$?"; unzip -Z1 t.zip`, 's=18\nt/\nt/a/\nt/a/f\n', 'zip warning: Permission denied\n'],
    ['echo old > a; chmod 000 a; echo new > b; cp -f b a; echo "s=$?"; cat a; stat -c %a a', 's=0\nnew\n644\n', ''],
    ['echo x > a; chmod 000 a; tr x y < a; source ./a; awk 1 a; tac a; tee a < /dev/null; head -1 a; grep x a; echo "s=$?"', 's=2\n', 'bash: line 1: a: Permission denied\nbash: line 1: ./a: Permission denied\nawk: cannot open a (Permission denied)\ntac: failed to open \'a\' for reading: Permission denied\ntee: a: Permission denied\nhead: cannot open \'a\' for reading: Permission denied\ngrep: a: Permission denied\n'],
    ['echo 12345 > a; chmod 000 a; printf "1\\n2\\n" > b; wc -l a b; echo "s=$?"', ' 2 b\n 2 total\ns=1\n', 'wc: a: Permission denied\n'],
    ['mkdir d; touch d/f; chmod 555 d; mv d/f .; rm -r d; echo "s=$?"', 's=1\n', "mv: cannot move 'd/f' to './f': Permission denied\nrm: cannot remove 'd/f': Permission denied\n"],
    ["mkdir d; touch d/f; chmod 000 d; stat -c %a d/f; chmod -R a-r . 2>&1 | head -1; chmod -R u+rx .", "chmod: cannot read directory '.': Permission denied\n", "stat: cannot statx 'd/f': Permission denied\n"],
];
const SED_IN_READ_ONLY_DIR = 'mkdir d; echo a > d/f; chmod 555 d; sed -i s/a/b/ d/f; echo "s=$?"; cat d/f';
const RMDIR_UNREADABLE = 'mkdir d; chmod 000 d; rmdir d; echo "s=$?"; [ -e d ] || echo gone';

describe('permissions every command goes through, for the plain sprite user (a service)', () => {
  it.each(CASES)('%s', async (script, stdout, stderr) => {
    expect(await engineBash(script, 'UTC', { service: true })).toEqual({ stdout, stderr, exit: 0 });
  });

  it('stops sed -i in a directory the user may not write, as GNU does (its temporary file is refused)', async () => {
    const r = await engineBash(SED_IN_READ_ONLY_DIR, 'UTC', { service: true });
    expect(r.stdout).toBe('s=4\na\n');
    expect(r.stderr).toMatch(/^sed: couldn't open temporary file d\/sed[A-Za-z0-9]{6}: Permission denied\n$/);
  });

  it('removes an empty directory the user may not read (rmdir needs no read permission)', async () => {
    expect(await engineBash(RMDIR_UNREADABLE, 'UTC', { service: true })).toEqual({ stdout: 's=0\ngone\n', stderr: '', exit: 0 });
  });
});

describe.runIf(process.getuid?.() === 0 && hostHas('setpriv'))('the same, for an exec session’s sprite user (CAP_DAC_OVERRIDE, CAP_FOWNER)', () => {
  // The host's owner names, clock and directory order differ from a sprite's: those parts are left out.
  const portable = (script: string) => script.replace('ls -l d;', 'ls -l d | cut -c1-10;').replace(/(tar tf t\.tar|unzip -Z1 t\.zip)$/, '$1 | sort');
  it.each([...CASES.map(([script]) => portable(script)), SED_IN_READ_ONLY_DIR, RMDIR_UNREADABLE])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBashCapable(script));
  });
});

describe('file times', () => {
  it('gives gzip output its source file time', async () => {
    expect(await engineBash("touch -d @1700000000.5 a; gzip -k a; stat -c '%.9Y' a.gz")).toEqual({ stdout: '1700000000.500000000\n', stderr: '', exit: 0 });
  });

  it('gives extracted files the times the archive holds', async () => {
    const r = await engineBash("touch -d @1000 f; tar cf t.tar f; rm f; tar xf t.tar; stat -c '%.9Y' f");
    expect(r).toEqual({ stdout: '1000.000000000\n', stderr: '', exit: 0 });
  });
});
