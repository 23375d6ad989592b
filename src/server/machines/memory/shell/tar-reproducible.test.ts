import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { asGnuTar } from './tar-gnu-format.ts';
import { longLink } from './tar-archive.ts';

// Sums and listings as GNU tar 1.34 and gzip 1.12 write them (checked with bash on a GNU/Linux host).

const TREE = "mkdir -p src/lib && printf 'def main():\\n    print(\"hi\")\\n' > src/main.py && printf 'export const x = 1;\\n// TODO fix\\n' > src/lib/util.ts && chmod 644 src/main.py src/lib/util.ts; ";
const REPRO = 'tar --mtime=@0 --owner=0 --group=0 --numeric-owner --sort=name';

describe('tar reproducible archives', () => {
  it("writes GNU's bytes: the same sha256 as GNU tar (plain, and through tar's gzip child)", async () => {
    const r = await runShell(`${TREE}${REPRO} -cf - src | sha256sum; ${REPRO} -czf - src | sha256sum; ${REPRO} -cf a.tar src && wc -c < a.tar`);
    expect(r.stdout).toBe('d801883a3068e2804bcdcf6cd4a4420051805a62158036b55bb7a78fee5ae4df  -\n56ff361364a625a9fb775ec4eefbb61d11a979fa0ec92cf38ccb459a97288fdc  -\n10240\n');
  });
  it('lists what --mtime, --owner, --mode and --clamp-mtime stored', async () => {
    const r = await runShell(`${TREE}tar --mtime='2024-01-02 03:04:05' --owner=0 --group=0 --numeric-owner --mode=go-r -cf a.tar src/main.py && tar -tvf a.tar; touch -d @1000 src/main.py; tar --mtime=@5000 --clamp-mtime -cf b.tar src/main.py && tar -tvf b.tar | awk '{print $4, $5}'`);
    expect(r.stdout).toBe('-rw------- 0/0              28 2024-01-02 03:04 src/main.py\n1970-01-01 00:16\n');
  });
  it('--null -T - with --no-recursion archives each listed name once, in the order given', async () => {
    const r = await runShell(`${TREE}find src -print0 | sort -z | tar --null --no-recursion -T - --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - | sha256sum; tar -cf a.tar --no-recursion src src/main.py && tar -tf a.tar`);
    expect(r.stdout).toBe('d801883a3068e2804bcdcf6cd4a4420051805a62158036b55bb7a78fee5ae4df  -\nsrc/\nsrc/main.py\n');
  });
  it('rejects an unknown --sort value as GNU does', async () => {
    expect(await runShell('tar --sort=bogus -cf a.tar .')).toEqual({ stdout: '', stderr: 'tar: invalid argument ‘bogus’ for ‘--sort’\nValid arguments are:\n  - ‘none’\n  - ‘name’\n  - ‘inode’\n', exit: 2 });
  });
  it('-cvv lists the members as -tv does', async () => {
    const r = await runShell(`${TREE}tar --owner=0 --group=0 --numeric-owner --mtime=@0 -cvvf a.tar src/main.py`);
    expect(r.stdout).toBe('-rw-r--r-- 0/0              28 1970-01-01 00:00 src/main.py\n');
  });
  it('-r creates a missing archive and refuses a compressed one', async () => {
    const r = await runShell('echo a > a.txt; tar -rf new.tar a.txt && tar -tf new.tar; tar -czf a.tgz a.txt; tar -rzf a.tgz a.txt; echo "s=$?"');
    expect(r).toEqual({ stdout: 'a.txt\ns=2\n', stderr: "tar: Cannot update compressed archives\nTry 'tar --help' or 'tar --usage' for more information.\n", exit: 0 });
  });
});

describe('asGnuTar', () => {
  const ustar = (name: string, type: string, data = '') => {
    const h = `${name.padEnd(100, '\0')}0000644\0${'0001750\0'.repeat(2)}${data.length.toString(8).padStart(11, '0')}\0${'00000000001\0'}        ${type}${'\0'.repeat(100)}ustar\x0000${'sprite'.padEnd(32, '\0')}${'sprite'.padEnd(32, '\0')}`.padEnd(512, '\0');
    return h + data.padEnd(Math.ceil(data.length / 512) * 512, '\0');
  };
  it('keeps data, writes the gnu magic and closes the 10240-byte record', () => {
    const out = asGnuTar(ustar('a.txt', '0', 'hi\n') + '\0'.repeat(1024));
    expect(out.length).toBe(10240);
    expect(out.slice(257, 265)).toBe('ustar  \0');
    expect(out.slice(512, 515)).toBe('hi\n');
  });
  it('puts a long name in a root-owned ././@LongLink member (no owner names with --numeric-owner)', () => {
    const name = 'd'.repeat(120);
    const input = longLink('L', name) + ustar(name.slice(0, 100), '0', 'x');
    for (const [numeric, owner] of [[false, 'root'], [true, '']] as const) {
      const out = asGnuTar(input, { numeric });
      expect(out.slice(0, 13)).toBe('././@LongLink');
      expect(out.slice(156, 157)).toBe('L');
      expect(out.slice(265, 269).replace(/\0+$/, '')).toBe(owner);
      expect(out.slice(512, 512 + 121)).toBe(`${name}\0`);
    }
  });
  it('sorts each directory by name with --sort=name, operands in their order', () => {
    const b = ustar('z/', '5') + ustar('z/b', '0') + ustar('z/a', '0') + ustar('y', '0');
    const out = asGnuTar(b, { sortName: true });
    const order = [0, 512, 1024, 1536].map((at) => out.slice(at, at + 100).replace(/\0+$/, ''));
    expect(order).toEqual(['z/', 'z/a', 'z/b', 'y']);
  });
});

describe('tar names as GNU stores them', () => {
  it("drops a leading `/` with GNU's notes (hard link targets too with several operands), unless -P", async () => {
    const r = await runShell('echo a > a.txt; echo b > b.txt; tar -cf one.tar "$PWD/a.txt"; tar -cf two.tar "$PWD/a.txt" b.txt; tar -cPf abs.tar "$PWD/a.txt"; tar -tf one.tar; tar -tf abs.tar');
    expect(r.stdout).toBe('home/sprite/a.txt\n/home/sprite/a.txt\n');
    expect(r.stderr).toBe("tar: Removing leading `/' from member names\ntar: Removing leading `/' from member names\ntar: Removing leading `/' from hard link targets\n");
  });
  it('leaves the archive out of a directory it archives, saying so, unless an --exclude before it matches', async () => {
    const r = await runShell('mkdir d && cd d && echo a > a.txt && tar -cf a.tar . && tar -cf a.tar . && tar -tf a.tar && tar -cf a.tar --exclude=a.tar .');
    expect(r).toEqual({ stdout: './\n./a.txt\n', stderr: 'tar: ./a.tar: file is the archive; not dumped\ntar: ./a.tar: file is the archive; not dumped\n', exit: 0 });
  });
  it('-xvO writes the data to stdout and the names to stderr', async () => {
    expect(await runShell('echo a > a.txt; tar -cf a.tar a.txt && tar -xvOf a.tar')).toEqual({ stdout: 'a\n', stderr: 'a.txt\n', exit: 0 });
  });
});
