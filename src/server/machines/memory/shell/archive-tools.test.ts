import { describe, expect, it } from 'vitest';
import { engineBash, hostBash, hostHas } from '../../../../../test/support/host-bash.ts';

// zip/unzip (Info-ZIP), xz (XZ Utils) and bzip2 on the shell engine, each command line compared with the host's own
// tools (run here, never typed). The files get a fixed time so listings match.

const SETUP = "mkdir -p src/lib && printf 'hello world\\n' > a.txt && seq 1 100 > nums.txt && echo 'print(1)' > src/main.py && echo x > src/lib/u.ts && touch -d '2024-01-05 10:20' a.txt nums.txt src src/main.py src/lib src/lib/u.ts && ";
const same = async (script: string) => expect(await engineBash(SETUP + script)).toEqual(hostBash(SETUP + script));

describe.skipIf(!hostHas('zip') || !hostHas('unzip'))('zip and unzip, as Info-ZIP', () => {
  it.each([
    'zip a.zip a.txt; echo "st=$?"; unzip -l a.zip',
    'zip -q a.zip a.txt nums.txt && mkdir o && unzip a.zip -d o; find o | sort',
    'zip -q a.zip a.txt && unzip -o a.zip; echo "st=$?"',
    'zip -q a.zip a.txt && unzip a.zip </dev/null; echo "st=$?"',
    'zip -q a.zip a.txt && unzip -p a.zip a.txt',
    'unzip -q nope.zip; echo "st=$?"',
    'zip -q b.zip nope; echo "st=$?"; zip b.zip nope; echo "st=$?"',
    'zip -q a.zip a.txt nums.txt && unzip -t a.zip',
    'zip -j j.zip src/lib/u.ts && unzip -l j.zip',
    'zip -q a.zip a.txt && zip a.zip a.txt',
    'zip -q a.zip a.txt && unzip -qq -l a.zip; unzip -q a.zip nope; echo "st=$?"',
    'zip a.zip src; unzip -l a.zip | tail -2',
    'echo junk > bad.zip; unzip -l bad.zip; echo "st=$?"',
    'zip -q a.zip a.txt && chmod 600 a.txt && rm a.txt && unzip -q a.zip && stat -c %a a.txt',
    'zip -q a.zip a.txt && unzip -n -q a.zip; echo "st=$?"',
    'zip -qr s.zip src/lib && zip -d s.zip src/lib/u.ts && unzip -Z1 s.zip',
    // -x / -i patterns (`*` crosses `/`, a directory member matched with its slash), `.` adds no `./` member.
    "zip -qr x.zip . -x 'src/*' '*.zip'; zipinfo -1 x.zip | sort; zip -r i.zip . -i '*.py' -x '*lib*'; zipinfo -1 i.zip",
    // -u adds what is new or newer, and exits 12 without a word when everything is up to date.
    'zip -q u.zip a.txt && touch -d "2030-01-01" a.txt && zip -u u.zip a.txt src/main.py; echo "st=$?"; zip -u u.zip a.txt; echo "st=$?"',
    // (Deflated sizes are zlib's, a few bytes off Info-ZIP's: that row is compared by its other columns.)
    // unzip's member operands are wildcards too, -x leaves members out; -tq gives only the verdict.
    "zip -qr w.zip a.txt nums.txt src && unzip -l w.zip 'src/*' | tail -1; unzip -Z1 w.zip -x '*.txt' 'src/lib/*'; mkdir o && unzip -q w.zip -x 'src/*' -d o && find o | sort; unzip -tq w.zip; unzip -tqq w.zip; echo \"st=$?\"",
    // -D leaves directories out, -m deletes what went in (directories once empty), -T tests the result.
    'zip -qrD d.zip src && unzip -Z1 d.zip | sort; zip -T t.zip a.txt; echo "st=$?"; zip -qrm m.zip src && ls; unzip -Z1 m.zip | sort',
    "zip -q v.zip a.txt src src/main.py && unzip -v v.zip; zip -q n.zip nums.txt && unzip -v n.zip | awk 'NR==4 {print $1, $2, $5, $6, $7, $8}'",
    'zip -q s.zip src/lib/u.ts a.txt && unzip -j s.zip -d o; find o | sort; unzip -qjo s.zip src/lib/u.ts && ls u.ts',
  ])('%s', same);
  it('zip -r adds a tree, unzip extracts it (entries in name order: see docs/fidelity.md)', async () => {
    const r = await engineBash(`${SETUP}zip -qr s.zip src && mkdir o && cd o && unzip -q ../s.zip && find . | sort && cat src/main.py`);
    expect(r.stdout).toBe('.\n./src\n./src/lib\n./src/lib/u.ts\n./src/main.py\nprint(1)\n');
  });
});

describe.skipIf(!hostHas('xz') || !hostHas('bzip2'))('xz and bzip2, as XZ Utils and bzip2', () => {
  it.each([
    'xz -k a.txt; ls; xz -k a.txt; echo st=$?', 'xz nope; echo st=$?', 'xz -d a.txt; echo st=$?', 'xz -k a.txt && xz -dc a.txt.xz && xz -t a.txt.xz; echo st=$?',
    'xz a.txt && ls && unxz a.txt.xz && ls && stat -c "%a %Y" a.txt', 'xzcat nope; echo st=$?', 'echo hi | xz | xz -dc', 'bzip2 -k a.txt; ls; bzip2 -k a.txt; echo st=$?',
    'bzip2 nope; echo st=$?', 'bunzip2 a.txt; echo st=$?; ls', 'bzcat nope; echo st=$?', 'bzip2 -k a.txt && bunzip2 a.txt.bz2; ls; echo st=$?', 'echo hi | bzip2 | bunzip2',
    'echo junk > j.xz; xz -d j.xz; echo st=$?', 'echo junk > j.bz2; bunzip2 j.bz2; echo st=$?', 'xz -k a.txt; xz a.txt.xz; echo st=$?', 'bzip2 -c nums.txt | bunzip2 | tail -1',
    'xz -c nums.txt | unxz | wc -l', 'mkdir d; xz d; echo st=$?; bzip2 d; echo st=$?', 'bzip2 -q nope; echo st=$?',
    // The compressed bytes themselves, at presets whose encoders do not fit liblzma's WebAssembly memory too (-8, -9).
    'xz -c nums.txt | od -An -tx1', 'xz -0 -c a.txt | sha256sum; xz -9 -c nums.txt | sha256sum', 'xz -9e -c nums.txt | sha256sum; xz -e -c a.txt | sha256sum',
    'xz -8 --extreme -k nums.txt && sha256sum nums.txt.xz',
  ])('%s', same);
});

describe.skipIf(!hostHas('tar'))('tar --owner/--group, -tv, -d and --delete, as GNU tar', () => {
  const T = "printf 'hello world\\n' > a.txt && mkdir -p src/lib && echo x > src/main.py && echo y > src/lib/u.ts && ";
  it.each([
    "tar -cf a.tar --owner=0 --group=0 a.txt && tar -tvf a.tar | awk '{print $2}'",
    "tar -cf b.tar --owner=alice:1234 --group=staff:99 a.txt && tar -tvf b.tar | awk '{print $2}'; tar -tvf b.tar --numeric-owner | awk '{print $2}'",
    'tar -cf s.tar src && tar --delete -f s.tar src/main.py && tar -tf s.tar; tar --delete -f s.tar nope; echo "st=$?"',
    // The files' time is set first, so the append changes it whatever second it lands in (tar -d compares seconds).
    "touch -d '2024-01-05 10:20' src/main.py && tar -cf d.tar src && tar -df d.tar && echo no-diff; echo x >> src/main.py; tar -df d.tar; echo \"st=$?\"; rm src/lib/u.ts; tar -df d.tar; echo \"st=$?\"",
    'tar -cf a.tar a.txt && chmod 600 a.txt && tar -df a.tar; echo "st=$?"',
    'tar -cf s.tar src && tar --delete -f s.tar src && tar -tf s.tar | wc -l',
    'tar -czf s.tgz src && tar --delete -f s.tgz src/main.py; echo "st=$?"',
    'tar -cf a.tar --owner=nobody_x a.txt; echo "st=$?"',
  ])('%s', async (script) => {
    expect(await engineBash(T + script)).toEqual(hostBash(T + script));
  });
  it('archives the sprite user\'s files as sprite/sprite, and -tv lists them in GNU\'s columns', async () => {
    const r = await engineBash(`${T}touch -d '2024-01-05 10:20' a.txt src && tar -cf a.tar a.txt src && tar -tvf a.tar | head -2; tar -cf n.tar --numeric-owner a.txt && tar -tvf n.tar`);
    expect(r.stdout).toBe('-rw-r--r-- sprite/sprite    12 2024-01-05 10:20 a.txt\ndrwxr-xr-x sprite/sprite     0 2024-01-05 10:20 src/\n-rw-r--r-- 1001/1001        12 2024-01-05 10:20 a.txt\n');
  });
});

describe.skipIf(!hostHas('tar'))('tar -r and -u of a member that is not there, as GNU tar', () => {
  it('say Cannot stat, end with the failure line and status 2, and still write the archive', async () => {
    const script = "tar -rf x.tar missing; echo rc=$?; od -c x.tar | head -1; touch a; tar -cf z.tar a; tar -rf z.tar missing2; echo rc=$?; tar -uf z.tar missing3 a; echo rc=$?; tar tf z.tar";
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
