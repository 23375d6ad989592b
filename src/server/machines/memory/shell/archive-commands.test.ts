import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU tar 1.34 and gzip 1.12 print them (checked with bash on a GNU/Linux host).

describe('tar and gzip reporting', () => {
  it('tar -v lists members on stdout, and on stderr when the archive is stdout', async () => {
    expect(await runShell('echo a > a.txt; tar -cvf a.tar a.txt')).toEqual({ stdout: 'a.txt\n', stderr: '', exit: 0 });
    expect(await runShell('echo a > a.txt; tar -cvf - a.txt | tar -tf -')).toEqual({ stdout: 'a.txt\n', stderr: 'a.txt\n', exit: 0 });
  });
  it('tar takes --strip-components N as a separate word, and --overwrite on extract', async () => {
    const script = 'mkdir -p src/lib e && echo a > src/lib/u.ts && tar -czf a.tgz src && tar -xzf a.tgz -C e --strip-components 2 && find e | sort; echo x > src/lib/u.ts; tar -xzf a.tgz --overwrite && cat src/lib/u.ts';
    expect(await runShell(script)).toEqual({ stdout: 'e\ne/u.ts\na\n', stderr: '', exit: 0 });
  });
  it('gzip -d of a name without .gz warns and exits 2', async () => {
    expect(await runShell('echo a > a.txt; gzip -d a.txt')).toEqual({ stdout: '', stderr: 'gzip: a.txt: unknown suffix -- ignored\n', exit: 2 });
  });
});

describe('tar errors and members', () => {
  it('takes zstd however it is asked for (--zstd, -a with .tar.zst, -I zstd); a cut zstd archive is zstd\'s error', async () => {
    const r = await runShell("echo a > a.txt; tar -caf a.tar.zst a.txt; echo s=$?; tar -I 'zstd -19' -cf b.tar a.txt; echo s=$?; zstd -dc a.tar.zst | tar -tf -; tar -tf b.tar; printf '\\x28\\xb5\\x2f\\xfd' > z.tar; tar -xf z.tar; echo s=$?; ls");
    const cut = '/*stdin*\\ : Read error (39) : premature end \ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n';
    expect(r).toEqual({ stdout: 's=0\ns=0\na.txt\na.txt\ns=2\na.tar.zst\na.txt\nb.tar\nz.tar\n', stderr: cut, exit: 0 });
  });
  it('--transform renames members on create and files on extract (links too); a listing and -xv show the stored names', async () => {
    const r = await runShell(
      "mkdir -p src/lib && echo a > src/main.py && echo b > src/lib/u.ts && ln -s main.py src/l && tar -czf a.tgz --transform='s,^src,code,;s,main,M,g' src && tar -tvzf a.tgz | awk '{print $1, $6, $7, $8}' | sort -k2; mkdir o && tar -xvf a.tgz -C o --xform='s,^code/,,' | sort; find o | sort; readlink o/l",
    );
    expect(r.stdout).toBe(
      'drwxr-xr-x code/  \n-rw-r--r-- code/M.py  \nlrwxrwxrwx code/l -> M.py\ndrwxr-xr-x code/lib/  \n-rw-r--r-- code/lib/u.ts  \n' +
        'code/\ncode/M.py\ncode/l\ncode/lib/\ncode/lib/u.ts\no\no/M.py\no/code\no/l\no/lib\no/lib/u.ts\nM.py\n',
    );
  });
  it("fails on a missing archive or -C directory as GNU's, with the compressor child's lines", async () => {
    const r = await runShell('mkdir src; echo x > src/f; tar -xzf nope.tgz; echo "s=$?"; tar -cf a.tar src && tar -xf a.tar -C nodir; echo "s=$?"');
    expect(r).toEqual({
      stdout: 's=2\ns=2\n',
      stderr: 'tar (child): nope.tgz: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\ntar: nodir: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n',
      exit: 0,
    });
  });
  it('keeps modes and symlinks through an archive', async () => {
    const r = await runShell("echo hi > a.txt; printf '#!/bin/sh\\n' > run.sh; chmod 755 run.sh; ln -s a.txt link.txt; tar -czf a.tgz run.sh link.txt && mkdir o && tar -xzf a.tgz -C o && stat -c '%a %F' o/run.sh o/link.txt && readlink o/link.txt");
    expect(r.stdout).toBe('755 regular file\n777 symbolic link\na.txt\n');
  });
  it('reports members not in the archive and files it cannot stat, and still writes the archive', async () => {
    const r = await runShell('echo hi > a.txt; tar -czf a.tgz a.txt; tar -tf a.tgz nope; echo "s=$?"; tar -czf e.tgz nope; echo "s=$?"; od -An -tx1 e.tgz | head -1');
    expect(r).toEqual({
      stdout: 's=2\ns=2\n 1f 8b 08 00 00 00 00 00 00 03 ed c1 01 0d 00 00\n',
      stderr: 'tar: nope: Not found in archive\ntar: Exiting with failure status due to previous errors\ntar: nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n',
      exit: 0,
    });
  });
  it('keeps old files with -k (an error) and --skip-old-files (quietly), leaves out VCS files, follows links with -h', async () => {
    const r = await runShell("echo hi > a.txt; ln -s a.txt link.txt; mkdir -p src/.git; echo x > src/.git/HEAD; echo y > src/f; tar -cf a.tar a.txt && echo changed > a.txt && tar -kxf a.tar; echo \"s=$?\"; tar --skip-old-files -xf a.tar && cat a.txt; tar -czf s.tgz --exclude-vcs src && tar -tzf s.tgz | sort; tar -czhf l.tgz link.txt && mkdir o && tar -xzf l.tgz -C o && stat -c %F o/link.txt");
    expect(r).toEqual({
      stdout: 's=2\nchanged\nsrc/\nsrc/f\nregular file\n',
      stderr: 'tar: a.txt: Cannot open: File exists\ntar: Exiting with failure status due to previous errors\n',
      exit: 0,
    });
  });
  it('bzip2 and xz archives of more than a block keep their bytes: listed, extracted, members found in them', async () => {
    // A compressed archive is not tar: owners and links are set inside it before compressing, never on its bytes.
    const made = await runShell('seq 1 2000 > n.txt; tar -cjf b.tbz n.txt; tar -cJf x.txz n.txt; head -c 3 b.tbz; echo; od -An -c -N 4 x.txz; tar -tvjf b.tbz; rm n.txt; tar -xJf x.txz; tail -1 n.txt');
    expect(made).toEqual({ stdout: 'BZh\n 375   7   z   X\n-rw-r--r-- sprite/sprite  8893 2026-11-30 09:05 n.txt\n2000\n', stderr: '', exit: 0 });
    const members = await runShell('echo hi > a.txt; tar -cJf t.txz a.txt; tar -xOJf t.txz a.txt; echo s=$?; tar -xOjf t.tbz a.txt 2>/dev/null; tar -cjf t.tbz a.txt; tar -xOjf t.tbz nope; echo s=$?');
    expect(members).toEqual({ stdout: 'hi\ns=0\ns=2\n', stderr: 'tar: nope: Not found in archive\ntar: Exiting with failure status due to previous errors\n', exit: 0 });
  });
  it('refuses an empty archive without writing one', async () => {
    const r = await runShell('tar -cf a.tar; echo "s=$?"; test -e a.tar || echo none');
    expect(r).toEqual({ stdout: 's=2\nnone\n', stderr: "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n", exit: 0 });
  });
});

describe('tar positional options, --remove-files; zip to stdout; unzip -q of a non-zip; xz -l', () => {
  const TREE = 'mkdir -p src/lib docs && echo a > src/main.py && echo b > src/lib/u.ts && echo r > docs/README.md && echo t > a.txt';
  it('each -C applies to the members after it, relative to the one before', async () => {
    const script = `${TREE} && tar -cf a.tar -C src main.py -C ../docs README.md && tar -tf a.tar`;
    expect(await runShell(script)).toEqual({ stdout: 'main.py\nREADME.md\n', stderr: '', exit: 0 });
  });
  it('--exclude between members applies to the ones after it; -v lists each group in turn', async () => {
    const script = `${TREE} && tar -czvf b.tgz -C src lib -C .. docs --exclude=README.md a.txt && tar -tzf b.tgz`;
    const listed = 'lib/\nlib/u.ts\ndocs/\ndocs/README.md\na.txt\n';
    expect(await runShell(script)).toEqual({ stdout: listed + listed, stderr: '', exit: 0 });
  });
  it('a positional option after the last member: the archive is written without it, then GNU complains, status 2', async () => {
    const script = `${TREE} && tar -cf a.tar src --exclude='*.ts' -C docs; echo $?; tar -tf a.tar | sort`;
    expect(await runShell(script)).toEqual({
      stdout: '2\nsrc/\nsrc/lib/\nsrc/lib/u.ts\nsrc/main.py\n',
      stderr:
        'tar: The following options were used after any non-optional arguments in archive create or update mode.  These options are positional and affect only arguments that follow them.  Please, rearrange them properly.\ntar: --exclude ‘*.ts’ has no effect\ntar: -C ‘docs’ has no effect\ntar: Exiting with failure status due to previous errors\n',
      exit: 0,
    });
  });
  it('extracting, a -C after the last member has no effect; between members it applies to the ones after it', async () => {
    const script = `${TREE} && mkdir e f && tar -czf a.tgz src docs && tar -xzf a.tgz docs -C e && find e | wc -l && tar -xzf a.tgz -C e src/main.py -C ../f docs && find e f -type f | sort`;
    expect(await runShell(script)).toEqual({ stdout: '1\ne/src/main.py\nf/docs/README.md\n', stderr: '', exit: 0 });
  });
  it('gunzip of NAME.tgz writes NAME.tar; an existing output is named as typed', async () => {
    const script = `${TREE} && tar -czf x.tgz src && gunzip x.tgz && ls x.*; tar -czf b.tgz src && gunzip -k b.tgz && ls b.*; echo x > c && gzip -k c && gunzip c.gz; echo $?`;
    expect(await runShell(script)).toEqual({ stdout: 'x.tar\nb.tar\nb.tgz\n2\n', stderr: 'gzip: c already exists;\tnot overwritten\n', exit: 0 });
  });
  it('xz takes -T N, --threads=N and -e', async () => {
    expect(await runShell('echo a > a.txt && xz -T0 -9e -k a.txt && xz --threads=2 -dc a.txt.xz')).toEqual({ stdout: 'a\n', stderr: '', exit: 0 });
  });
  it('--remove-files removes what was archived', async () => {
    const script = `${TREE} && tar -czf a.tgz --remove-files a.txt src && ls; tar -tzf a.tgz | wc -l`;
    expect(await runShell(script)).toEqual({ stdout: 'a.tgz\ndocs\n5\n', stderr: '', exit: 0 });
  });
  it('zip - writes the archive to stdout and its messages to stderr; -@ reads names from stdin', async () => {
    const script = `${TREE} && zip - a.txt > o.zip && unzip -Z1 o.zip && printf 'a.txt\\nsrc/main.py\\n' | zip -q -@ n.zip && unzip -Z1 n.zip`;
    expect(await runShell(script)).toEqual({ stdout: 'a.txt\na.txt\nsrc/main.py\n', stderr: '  adding: a.txt (stored 0%)\n', exit: 0 });
  });
  it('unzip -q of a file that is not a zip names it in brackets on stderr', async () => {
    const r = await runShell('echo bad > b.zip; unzip -q b.zip');
    expect(r.exit).toBe(9);
    expect(r.stderr.startsWith('[b.zip]\n  End-of-central-directory signature not found.')).toBe(true);
  });
  it('xz -l lists streams, blocks, sizes, ratio and check; a totals line for several files', async () => {
    const script = `${TREE} && xz -k a.txt && seq 1 20000 > big && xz big && xz -l a.txt.xz big.xz; xz -l a.txt; echo $?`;
    expect(await runShell(script)).toEqual({
      stdout:
        'Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename\n    1       1         60 B          2 B    ---  CRC64   a.txt.xz\n    1       1       4948 B    106.3 KiB  0.045  CRC64   big.xz\n-------------------------------------------------------------------------------\n    2       2       5008 B    106.3 KiB  0.046  CRC64   2 files\n1\n',
      stderr: 'xz: a.txt: Too small to be a valid .xz file\n',
      exit: 0,
    });
  });
});

describe('tar reading through the wrong compressor, and --wildcards listings', () => {
  it("is the compressor child's error (-z, -j, -J), or GNU's hint for compressed data on stdin", async () => {
    const r = await runShell('echo a > a.txt; tar -cf a.tar a.txt; tar -tzf a.tar; echo "s=$?"; tar -tjf a.tar; echo "s=$?"; tar -tJf a.tar; echo "s=$?"; tar -czf - a.txt | tar -tf -; echo "s=$?"');
    expect(r.stdout).toBe('s=2\ns=2\ns=2\ns=2\n');
    expect(r.stderr).toBe(
      '\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n' +
        'bzip2: (stdin) is not a bzip2 file.\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n' +
        'xz: (stdin): File format not recognized\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n' +
        'tar: Archive is compressed. Use -z option\ntar: Error is not recoverable: exiting now\n',
    );
  });
  it('--wildcards matches whole names (`*` crosses `/`, a directory without its `/`)', async () => {
    const r = await runShell('mkdir -p src/lib docs && echo a > src/main.py && echo b > src/lib/u.ts && echo c > docs/r.md && tar -cf a.tar src docs && tar -tf a.tar --wildcards "src/*" | sort');
    expect(r.stdout).toBe('src/lib/\nsrc/lib/u.ts\nsrc/main.py\n');
  });
});

describe('xz, bzip2 and unzip forms', () => {
  it('-t of data in another format fails as xz and bzip2 say', async () => {
    const r = await runShell("printf 'bad' > b.xz; xz -t b.xz; echo \"s=$?\"; printf 'bad' > b.bz2; bunzip2 -t b.bz2; echo \"s=$?\"");
    expect(r.stdout).toBe('s=1\ns=2\n');
    expect(r.stderr).toBe("xz: b.xz: File format not recognized\nbunzip2: b.bz2: bad magic number (file not created by bzip2)\n\nYou can use the `bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files.\n\n");
  });
  it('unzip takes -d in a cluster (`-qd DIR`) and zipinfo mode as `-Z -1`', async () => {
    const r = await runShell("echo a > a.txt; zip -q a.zip a.txt && unzip -qd 'o u' a.zip && ls 'o u' && unzip -Z -1 a.zip");
    expect(r).toEqual({ stdout: 'a.txt\na.txt\n', stderr: '', exit: 0 });
  });
});

describe('tar extraction as GNU reads its options', () => {
  const tree = 'mkdir -p src/lib e && echo a > src/main.py && echo b > src/lib/u.ts && tar -cf a.tar src && ';
  it('--exclude is unanchored when reading: a pattern matches any tail of a name, and what is below it', async () => {
    const r = await runShell(`${tree}tar -xf a.tar -C e --exclude=lib && find e | sort && tar -tf a.tar --exclude lib`);
    expect(r.stdout).toBe('e\ne/src\ne/src/main.py\nsrc/\nsrc/main.py\n');
  });
  it('-xv --strip-components names the members as stored', async () => {
    const r = await runShell(`${tree}tar -xvf a.tar -C e --strip-components=1 | sort && find e | sort`);
    expect(r.stdout).toBe('src/lib/\nsrc/lib/u.ts\nsrc/main.py\ne\ne/lib\ne/lib/u.ts\ne/main.py\n');
  });
  it('a member name with pattern characters and no --wildcards gets GNU\'s hint; --no-same-owner is accepted', async () => {
    const r = await runShell(`${tree}tar -tf a.tar 'src/*.py'; echo "s=$?"; tar -tf a.tar --no-wildcards 'src/*.py' 2>/dev/null; tar --no-same-owner --no-same-permissions -xf a.tar -C e && ls e/src`);
    expect(r.stdout).toBe('s=2\nlib\nmain.py\n');
    expect(r.stderr).toBe('tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\ntar: src/*.py: Not found in archive\ntar: Exiting with failure status due to previous errors\n');
  });
});
