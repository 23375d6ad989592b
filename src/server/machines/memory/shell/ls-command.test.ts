import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU ls 9 (C locale, output to a pipe) on the same tree: each expected output is what real ls printed.

const TREE = [
  'mkdir -p w/src/lib w/docs w/empty "w/sp ace" && cd w',
  "printf 'hello world\\n' > a.txt && printf '12345678901234567890\\n' > big.txt && printf x > z",
  "printf '#!/bin/sh\\n' > run.sh && chmod 755 run.sh && ln -s a.txt link && ln -s src dl",
  "touch f10 f9 f1.tar.gz f1.txt 'b~' .hid",
].join(' && ');

const ls = async (script: string) => runShell(`${TREE} && ${script}`);
const out = async (script: string) => (await ls(script)).stdout;
const lines = (...names: string[]) => names.map((n) => `${n}\n`).join('');

describe('ls: which entries, and type indicators', () => {
  it('-1Ap shows dot files and marks directories only (a symlink to one is not marked)', async () => {
    expect(await out('ls -1Ap')).toBe(lines('.hid', 'a.txt', 'big.txt', 'b~', 'dl', 'docs/', 'empty/', 'f1.tar.gz', 'f1.txt', 'f10', 'f9', 'link', 'run.sh', 'sp ace/', 'src/', 'z'));
  });
  it('-F marks links @ and executables *; --file-type leaves out the *', async () => {
    const all = ['a.txt', 'big.txt', 'b~', 'dl@', 'docs/', 'empty/', 'f1.tar.gz', 'f1.txt', 'f10', 'f9', 'link@', 'run.sh*', 'sp ace/', 'src/', 'z'];
    expect(await out('ls -1F')).toBe(lines(...all));
    expect(await out('ls -1 --file-type')).toBe(lines(...all.map((n) => n.replace(/\*$/, ''))));
  });
  it('-B, -I and --hide leave entries out', async () => {
    expect(await out('ls -1 -B -I "f*" --hide="*.txt"')).toBe(lines('dl', 'docs', 'empty', 'link', 'run.sh', 'sp ace', 'src', 'z'));
  });
  it('-d lists the operand itself; a symlink to a directory is followed unless -d or -l', async () => {
    expect(await out('ls dl; ls -d dl; ls -1p dl/; ls -l dl | cut -c1-10')).toBe(lines('lib', 'dl', 'lib/', 'lrwxrwxrwx'));
  });
});

describe('ls: sort orders', () => {
  it('-S sorts by size, largest first; --sort=size too', async () => {
    expect(await out('ls -1S *.txt z')).toBe(lines('big.txt', 'a.txt', 'z', 'f1.txt'));
    expect(await out('ls -1 --sort=size *.txt')).toBe(lines('big.txt', 'a.txt', 'f1.txt'));
  });
  it('-X sorts by extension, -v in version order', async () => {
    expect(await out('ls -1X')).toBe(lines('b~', 'dl', 'docs', 'empty', 'f10', 'f9', 'link', 'sp ace', 'src', 'z', 'f1.tar.gz', 'run.sh', 'a.txt', 'big.txt', 'f1.txt'));
    expect(await out('ls -1v f*')).toBe(lines('f1.tar.gz', 'f1.txt', 'f9', 'f10'));
  });
  it('--group-directories-first puts directories (and links to them) first', async () => {
    expect(await out('ls -1 --group-directories-first')).toBe(lines('dl', 'docs', 'empty', 'sp ace', 'src', 'a.txt', 'big.txt', 'b~', 'f1.tar.gz', 'f1.txt', 'f10', 'f9', 'link', 'run.sh', 'z'));
  });
});

describe('ls: formats', () => {
  it('-x and -C fill 80 columns (or -w), padding with tabs as GNU does', async () => {
    expect(await out('ls -x')).toBe('a.txt\tbig.txt  b~  dl  docs  empty  f1.tar.gz  f1.txt  f10  f9  link\trun.sh\nsp ace\tsrc\t z\n');
    expect(await out('ls -C -w 40')).toBe('a.txt\t docs\t    f10     sp ace\nbig.txt  empty\t    f9\t    src\nb~\t f1.tar.gz  link    z\ndl\t f1.txt     run.sh\n');
  });
  it('-m separates with commas and wraps at the width', async () => {
    expect(await out('ls -m -w 40')).toBe('a.txt, big.txt, b~, dl, docs, empty,\nf1.tar.gz, f1.txt, f10, f9, link,\nrun.sh, sp ace, src, z\n');
  });
  it('-s shows 1K blocks, -h and --si make them human-readable', async () => {
    expect(await out('ls -s big.txt link z')).toBe('4 big.txt\n0 link\n4 z\n');
    expect(await out('ls -shd src big.txt; ls -1 --si -s big.txt')).toBe('4.0K big.txt\n4.0K src\n4.1k big.txt\n');
  });
  it('-o leaves out the group, -g the owner; -L shows the target', async () => {
    expect(await out('ls -lo a.txt | cut -d" " -f1-4; ls -lg a.txt | cut -d" " -f1-4; ls -lL link | cut -c1-10')).toBe('-rw-r--r-- 1 sprite 12\n-rw-r--r-- 1 sprite 12\n-rw-r--r--\n');
  });
  it('-l counts a directory’s links as ext4 does: 2 and one per subdirectory', async () => {
    expect(await out('ls -ld src docs | cut -c1-12')).toBe('drwxr-xr-x 2\ndrwxr-xr-x 3\n');
  });
  it('quotes names with -b, -Q and --quoting-style=shell', async () => {
    expect(await out('ls -1bd "sp ace"; ls -1Qd "sp ace"; ls -1d --quoting-style=shell "sp ace" a.txt')).toBe("sp\\ ace\n\"sp ace\"\na.txt\n'sp ace'\n");
  });
});

describe('ls: errors', () => {
  it('a missing operand exits 2 after listing the rest, files first then directories', async () => {
    expect(await ls('ls -1 a.txt nope src')).toEqual({ stdout: 'a.txt\n\nsrc:\nlib\n', stderr: "ls: cannot access 'nope': No such file or directory\n", exit: 2 });
  });
  it("an empty operand, a file with a trailing slash, and GNU's wording for options it lacks", async () => {
    const r = await ls("ls ''; ls a.txt/; ls -j; ls --nope");
    expect(r.stderr).toBe(
      "ls: cannot access '': No such file or directory\nls: cannot access 'a.txt/': Not a directory\n" +
        "ls: invalid option -- 'j'\nTry 'ls --help' for more information.\nls: unrecognized option '--nope'\nTry 'ls --help' for more information.\n",
    );
    expect(r.exit).toBe(2);
  });
  it('a symlink loop operand cannot be accessed (exit 2); -l shows the link itself', async () => {
    const r = await ls('ln -s /tmp/lb /tmp/la; ln -s /tmp/la /tmp/lb; ls /tmp/lb; ls -l /tmp/lb | cut -c1-10');
    expect(r).toEqual({ stdout: 'lrwxrwxrwx\n', stderr: "ls: cannot access '/tmp/lb': Too many levels of symbolic links\n", exit: 0 });
  });
  it('prints inode numbers with -i, the same for two names of one file', async () => {
    const r = await ls('ln a.txt same; ls -i a.txt same; stat -c %i a.txt');
    const [a, b, st] = r.stdout.trim().split(/\s+(?:a\.txt|same)?\s*/).filter(Boolean);
    expect([r.exit, a, b]).toEqual([0, st, st]);
  });
});

describe('ls: --block-size and --time-style=+FORMAT', () => {
  it('sizes and blocks in --block-size units, rounded up; a unit without a number is printed after each figure', async () => {
    expect(await out('ls -ls --block-size=K a.txt | cut -d" " -f1,6')).toBe('4K 1K\n');
    expect(await out('ls -ls --block-size=1K a.txt | cut -d" " -f1,6')).toBe('4 1\n');
    expect(await out('ls -ls --block-size=KB a.txt | cut -d" " -f1,6')).toBe('5kB 1kB\n');
    expect(await out('ls -s --block-size=512 a.txt')).toBe('8 a.txt\n');
    expect(await ls('ls -l --block-size=x a.txt')).toEqual({ stdout: '', stderr: "ls: invalid --block-size argument 'x'\n", exit: 2 });
  });
  it('--time-style=+FORMAT formats the date as date does; +OLD<newline>RECENT for files of the last six months', async () => {
    expect(await out('touch -d 2020-03-04T05:06:07 a.txt && ls -l --time-style=+%Y/%m/%d a.txt | cut -d" " -f6-')).toBe('2020/03/04 a.txt\n');
    expect(await out('touch -d 2020-03-04 a.txt && ls -l --time-style="+old %Y\nnew %Y" a.txt | cut -d" " -f6-')).toBe('old 2020 a.txt\n');
  });
});
