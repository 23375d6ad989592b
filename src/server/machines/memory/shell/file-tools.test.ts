import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

// GNU coreutils 9 and bash 5.2 on a sprite: each expected output is what they printed on a real machine.

describe('sh -lc and bash -lc inside a script', () => {
  it('run their script as a login shell would, with $0 and $1 bound', async () => {
    expect(await runShell("sh -lc 'id -u; echo $0 $1' a b; bash -l -c 'exit 3'; echo $?; bash -lc \"export K='k v'; echo \\\"\\$K\\\"\"")).toEqual({
      stdout: '1001\na b\n3\nk v\n',
      stderr: '',
      exit: 0,
    });
  });
});

describe('dirname and basename', () => {
  it('keep the root, drop trailing slashes, and find the last component as GNU does', async () => {
    const r = await runShell('for x in / // a/ //a a//b//c /a/b/ ..; do printf "%s|%s " "$(dirname "$x")" "$(basename "$x")"; done');
    expect(r.stdout).toBe('/|/ /|/ .|a /|a a//b|c /a|b .|.. ');
  });
  it('remove a suffix only when something is left; -a, -s and -z', async () => {
    expect((await runShell('basename .bashrc .bashrc; basename a.txt .txt; basename -s .txt a.txt b.txt; basename -a x/y z/; dirname a b/c')).stdout).toBe('.bashrc\na\na\nb\ny\nz\n.\nb\n');
    expect((await runShell('dirname -z a/b | od -An -c; basename -z a/b | od -An -c')).stdout).toBe('   a  \\0\n   b  \\0\n');
  });
  it('basename reads options only before its first operand (getopt "+"), dirname anywhere', async () => {
    expect(await runShell('basename -s .txt a.txt b.txt -a; basename -a x/y.txt -s .txt z.txt; basename x --; dirname a/b -z | od -An -c')).toEqual({ stdout: 'a\nb\n-a\ny.txt\n-s\n.txt\nz.txt\nx\n   a  \\0\n', stderr: '', exit: 0 });
    expect(await runShell('basename a.txt -s .txt')).toEqual({ stdout: '', stderr: "basename: extra operand '.txt'\nTry 'basename --help' for more information.\n", exit: 1 });
  });
  it('complain as GNU does', async () => {
    expect(await runShell('basename a b c')).toEqual({ stdout: '', stderr: "basename: extra operand 'c'\nTry 'basename --help' for more information.\n", exit: 1 });
    expect(await runShell('dirname')).toEqual({ stdout: '', stderr: "dirname: missing operand\nTry 'dirname --help' for more information.\n", exit: 1 });
  });
});

describe('stat', () => {
  const TREE = "mkdir -p w/d/sub && cd w && printf 'hello\\n' > a && ln -s a l && touch -d '2020-01-02 03:04:05' a";
  it('prints the default report as GNU does (ext4 block counts, ext4 link counts)', async () => {
    const r = await runShell(`${TREE} && stat a | sed -n '1,2p;4,6p'; stat -c '%h %b %B %o' d a`);
    expect(r.stdout).toBe(
      '  File: a\n  Size: 6         \tBlocks: 8          IO Block: 4096   regular file\n' +
        'Access: (0644/-rw-r--r--)  Uid: ( 1001/  sprite)   Gid: ( 1001/  sprite)\n' +
        'Access: 2020-01-02 03:04:05.000000000 +0000\nModify: 2020-01-02 03:04:05.000000000 +0000\n3 8 512 4096\n1 8 512 4096\n',
    );
  });
  it('formats every directive with printf widths; -t is terse; -f describes an ext4 disk', async () => {
    const r = await runShell(`${TREE} && stat -c '%5s|%-5s|%05a|%F|%N|%y' a l | cut -d'|' -f1-5; stat -t a | wc -w; stat -f -c %T .; chmod 1777 d; stat -c '%a %A' d`);
    expect(r.stdout).toBe("    6|6    |00644|regular file|'a'\n    1|1    |00777|symbolic link|'l' -> 'a'\n16\next2/ext3\n1777 drwxrwxrwt\n");
  });
});

describe('truncate, du, df', () => {
  it('fallocate -l grows a file (made when missing) to offset + length in zeros; -n keeps its size and needs the file', async () => {
    const r = await runShell("printf hello > f; fallocate -l 2 f; fallocate -l 1K -o 1K g; fallocate --length 3k h; stat -c %s f g h; od -An -c -N 2 g; fallocate -n -l 8K nope; fallocate -l 0 z; fallocate z; echo \"s=$?\"; fallocate -d f");
    expect(r).toEqual({
      stdout: '5\n2048\n3072\n  \\0  \\0\ns=1\n',
      stderr: 'fallocate: cannot open nope: No such file or directory\nfallocate: invalid length value specified\nfallocate: no length argument specified\nfallocate: option -d is not available in the shell engine; run spritzer with --exec sandbox\n',
      exit: 2,
    });
  });
  it('truncate sets, extends, shrinks and rounds sizes; -c creates nothing', async () => {
    const r = await runShell("printf 'hello world\\n' > t && truncate -s 5 t && cat t; echo; truncate -s +3 t; stat -c %s t; truncate -s '<4' t; stat -c %s t; truncate -s '%8' t; stat -c %s t; truncate -s 1K k; truncate -s 1KB kb; stat -c %s k kb; truncate -c -s 10 nope; ls nope");
    expect(r).toEqual({ stdout: 'hello\n8\n4\n8\n1024\n1000\n', stderr: "ls: cannot access 'nope': No such file or directory\n", exit: 2 });
  });
  it('truncate -o counts the size in 4096-byte I/O blocks, and needs a size', async () => {
    expect((await runShell('truncate -o -s 2 t; stat -c %s t; truncate -s +1 --io-blocks t; stat -c %s t; truncate -co -s 1 n; ls n')).stdout).toBe('8192\n12288\n');
    expect(await runShell('truncate -o -r /dev/null t')).toMatchObject({ exit: 1, stderr: expect.stringContaining("'--io-blocks' was specified but '--size' was not") });
  });

  it('truncate without a size, or of a directory, fails as GNU does', async () => {
    expect((await runShell('truncate f')).stderr).toBe("truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\n");
    expect(await runShell('mkdir d; truncate -s 1 d')).toEqual({ stdout: '', stderr: "truncate: cannot open 'd' for writing: Is a directory\n", exit: 1 });
  });
  it('du counts 4 KiB blocks, or bytes with -b, post-order, with -s -a -c --max-depth', async () => {
    const r = await runShell("mkdir -p s/lib && printf 'x%.0s' $(seq 32) > s/lib/u && printf 'y' > s/m && du s; du -sh s; du -ab s; du -c -b s/m s/lib/u | tail -1; du -b --max-depth=0 s");
    expect(r.stdout).toBe('8\ts/lib\n16\ts\n16K\ts\n32\ts/lib/u\n4128\ts/lib\n1\ts/m\n8225\ts\n33\ttotal\n8225\ts\n');
  });
  it('du counts a file it has met once: nested and repeated operands, hard links; -l counts them again', async () => {
    const r = await runShell('mkdir -p e/f; head -c 100 /dev/zero > e/f/x; ln e/f/x e/y; du -ab e e/f e | cut -f2; du -cb e/f e | cut -f2; du -sb e/f/x e/f/x; du -ab e | cut -f2; du -lsb e e/f');
    expect(r.stdout).toBe('e/f/x\ne/f\ne\ne/f\ne\ntotal\n100\te/f/x\ne/f/x\ne/f\ne\n8392\te\n4196\te/f\n');
  });
  it('df describes the sprite’s disk mounted on /', async () => {
    const r = await runShell('df . | head -1; df -P . | head -1 | tr -s " "; df -h . | tail -1 | tr -s " " | cut -d" " -f2,6');
    expect(r.stdout).toBe('Filesystem     1K-blocks  Used Available Use% Mounted on\nFilesystem 1024-blocks Used Available Capacity Mounted on\n94G /\n');
  });
  it('df --output picks GNU\'s columns in the order given (all without a list), and excludes -i, -P and -T', async () => {
    const r = await runShell('export LANG=C.UTF-8; df --output=target,pcent -h / .; df --output=source,file . | tail -1; df --output | head -1; df -i --output=size; df --output=size,size; df --output=nope');
    expect(r).toEqual({
      stdout: 'Mounted on Use%\n/            1%\n/            1%\n/dev/vda       .\nFilesystem     Type  Inodes IUsed   IFree IUse% 1K-blocks  Used    Avail Use% File Mounted on\n',
      stderr:
        "df: options -i and --output are mutually exclusive\nTry 'df --help' for more information.\n" +
        "df: option --output: field ‘size’ used more than once\nTry 'df --help' for more information.\ndf: option --output: field ‘nope’ unknown\nTry 'df --help' for more information.\n",
      exit: 1,
    });
  });
});

describe('cp -b and mv -b', () => {
  it('take $VERSION_CONTROL and $SIMPLE_BACKUP_SUFFIX, abbreviated controls, and refuse a bad one as GNU does', async () => {
    const r = await runShell('cd /tmp; touch x y z; VERSION_CONTROL=numbered cp -b y x; SIMPLE_BACKUP_SUFFIX=.old cp -b y z; cp --backup=ni y z; VERSION_CONTROL=off mv -b y x; ls; cp --backup=foo x z; echo "s=$?"');
    expect(r.stdout).toBe('x\nx.~1~\nz\nz.old\nz~\ns=1\n');
    expect(r.stderr).toBe("cp: invalid argument 'foo' for 'backup type'\nValid arguments are:\n  - 'none', 'off'\n  - 'simple', 'never'\n  - 'existing', 'nil'\n  - 'numbered', 't'\nTry 'cp --help' for more information.\n");
  });
});

describe('ln, link, unlink, readlink', () => {
  it('readlink -m and realpath -m take a symlink loop as a plain name; -f and -e fail on it', async () => {
    const r = await runShell('cd /tmp; ln -s l1 l1; ln -s l3 l2; ln -s l2 l3; readlink -m l1 l1/x/../y l2; realpath -m l1/a; readlink -f l1; echo "s=$?"; readlink -e l1; echo "s=$?"');
    expect(r.stdout).toBe('/tmp/l1\n/tmp/l1/y\n/tmp/l2\n/tmp/l1/a\ns=1\ns=1\n');
  });
  it('ln -b keeps the replaced name by GNU\'s version control: --backup=CONTROL (abbreviated), $VERSION_CONTROL, -S or $SIMPLE_BACKUP_SUFFIX', async () => {
    const r = await runShell('cd /tmp; touch x w v; ln --backup=numbered -s y x; ln --backup=num -s z x; VERSION_CONTROL=t ln -b -s y w; SIMPLE_BACKUP_SUFFIX=.bak ln -b -s y v; ls; ln --backup=n -s y x; echo "s=$?"; ln --backup=none -s y x; echo "s=$?"');
    expect(r.stdout).toBe('v\nv.bak\nw\nw.~1~\nx\nx.~1~\nx.~2~\ns=1\ns=1\n');
    expect(r.stderr).toBe("ln: ambiguous argument 'n' for 'backup type'\nValid arguments are:\n  - 'none', 'off'\n  - 'simple', 'never'\n  - 'existing', 'nil'\n  - 'numbered', 't'\nTry 'ln --help' for more information.\nln: failed to create symbolic link 'x': File exists\n");
  });
  const TREE = "mkdir -p w/src/lib && cd w && printf 'a\\n' > a.txt && printf 'n\\n' > nums.txt && ln -s a.txt link.txt";
  it('ln of a symlink links the symlink itself; -L links the file it leads to', async () => {
    const r = await runShell(`${TREE} && ln link.txt p && ln -L link.txt l && ln -LP link.txt q && stat -c '%F %h' p l q a.txt`);
    expect(r.stdout).toBe('symbolic link 3\nregular file 2\nsymbolic link 3\nregular file 2\n');
  });
  it('ln -sf into a link to a directory lands inside it; -n and -T replace the link itself', async () => {
    const r = await runShell(`${TREE} && ln -s src dl && ln -sf a.txt dl && ls src && readlink dl/a.txt; ln -sfn nums.txt dl && readlink dl; ln -s src d2 && ln -sfT nums.txt d2 && readlink d2`);
    expect(r.stdout).toBe('a.txt\nlib\na.txt\nnums.txt\nnums.txt\n');
  });
  it('ln -r makes the target relative to the link; -b keeps the old one; -v names what it made', async () => {
    const r = await runShell(`${TREE} && ln -sr a.txt src/lib/x && readlink src/lib/x; ln -sbv nums.txt link.txt; ls link.txt*; readlink link.txt`);
    expect(r.stdout).toBe("../../a.txt\n'link.txt~' ~ 'link.txt' -> 'nums.txt'\nlink.txt\nlink.txt~\nnums.txt\n");
  });
  it('ln -i asks before replacing a name: yes replaces it, no keeps it with status 0; -f and -i cancel each other', async () => {
    const r = await runShell(`${TREE} && printf 'n\\n' | ln -si nums.txt link.txt 2>&1; echo "s=$?"; readlink link.txt; printf 'y\\n' | ln -sfiv nums.txt link.txt 2>&1; readlink link.txt; ln -sif a.txt link.txt; readlink link.txt`);
    expect(r.stdout).toBe("ln: replace 'link.txt'? s=0\na.txt\nln: replace 'link.txt'? 'link.txt' -> 'nums.txt'\nnums.txt\na.txt\n");
  });
  it('ln over an existing name, and of a directory, fail as GNU does', async () => {
    expect(await runShell(`${TREE} && ln -s a.txt link.txt`)).toEqual({ stdout: '', stderr: "ln: failed to create symbolic link 'link.txt': File exists\n", exit: 1 });
    expect((await runShell(`${TREE} && ln src x`)).stderr).toBe('ln: src: hard link not allowed for directory\n');
  });
  it('unlink refuses a directory; link makes a second name; readlink -e, -f, -n', async () => {
    const r = await runShell(`${TREE} && unlink src; echo "status=$?"; link a.txt hard && cat hard; readlink -e link.txt | xargs basename; readlink -n link.txt; echo; readlink -f nope/x; echo $?; readlink a.txt; echo $?`);
    expect(r).toEqual({ stdout: 'status=1\na\na.txt\na.txt\n1\n1\n', stderr: "unlink: cannot unlink 'src': Is a directory\n", exit: 0 });
  });
  it('readlink -f, -e and -m resolve a path one component at a time: a .. after a missing name fails', async () => {
    const r = await runShell(`${TREE} && ln -s src sl; readlink -f nope/../a.txt; echo $?; readlink -m nope/../a.txt; readlink -f sl/../a.txt; readlink -e sl/lib/..`);
    expect(r).toEqual({ stdout: '1\n/home/sprite/w/a.txt\n/home/sprite/w/a.txt\n/home/sprite/w/src\n', stderr: '', exit: 0 });
  });
});

describe('cp -a and -p', () => {
  it('copy the links of a tree as links, and keep modification times', async () => {
    const r = await runShell("mkdir -p w/d/sub && cd w && echo x > a && touch -d 2001-01-01 d/sub && ln -s ../a d/l && ln -s nowhere d/dang && echo f > d/f && touch -d 2002-02-02 d/f && touch -d 2003-03-03 d && cp -a d e && readlink e/l e/dang && date -r e/f +%Y && date -r e/sub +%Y && date -r e +%Y && touch -d 2004-04-04 a && cp -p a b && date -r b +%Y");
    expect(r).toEqual({ stdout: '../a\nnowhere\n2002\n2001\n2003\n2004\n', stderr: '', exit: 0 });
  });
  it('--preserve=LIST keeps what it names: timestamps the times, mode the mode, all both; an unknown item is an error', async () => {
    const r = await runShell("umask 022; echo x > a && chmod 664 a && touch -d 2001-01-01 a && cp --preserve=timestamps a t && cp --preserve=mode a m && cp --preserve=all -- a l && cp a n && stat -c '%n %a' t m l n && date -r t +%Y && date -r l +%Y && date -r m +%Y | grep -vc 2001; cp --preserve=mode,bogus a z; echo \"s=$?\"");
    expect(r.stdout).toBe('t 644\nm 664\nl 664\nn 644\n2001\n2001\n1\ns=1\n');
    expect(r.stderr).toMatch(/^cp: invalid argument ‘bogus’ for ‘--preserve’\nValid arguments are:\n/);
  });
  it('refuse -L over a tree holding links loudly', async () => {
    const r = await runShell('mkdir d && ln -s x d/l && cp -rL d e; echo "s=$?"');
    expect(r.stdout).toBe('s=2\n');
    expect(r.stderr).toContain('--exec sandbox');
  });
});

describe('cp and mv, per file', () => {
  const TREE = "mkdir -p w/src/lib w/e && cd w && printf 'a\\n' > a.txt && printf 'n\\n' > nums.txt && printf 'u\\n' > src/lib/u && ln -s a.txt link.txt";
  it('-v names each file copied, relative as typed; -b keeps the replaced file; -r copies a symlink as a link', async () => {
    const r = await runShell(`${TREE} && cp -rv src e; cp -r link.txt r2; stat -c %F r2; cp -bv a.txt nums.txt; cat nums.txt~; mv -v a.txt c.txt`);
    expect(r.stdout).toBe(
      "'src' -> 'e/src'\n'src/lib' -> 'e/src/lib'\n'src/lib/u' -> 'e/src/lib/u'\nsymbolic link\n'a.txt' -> 'nums.txt' (backup: 'nums.txt~')\nn\nrenamed 'a.txt' -> 'c.txt'\n",
    );
  });
  it('-t and --parents choose where copies land; /dev/null as source or destination', async () => {
    const r = await runShell(`${TREE} && cp -t e a.txt; cp --parents src/lib/u e; find e | sort; cp /dev/null z; stat -c %s z; cp a.txt /dev/null && echo ok; mv src/ s2/ && ls s2`);
    expect(r.stdout).toBe('e\ne/a.txt\ne/src\ne/src/lib\ne/src/lib/u\n0\nok\nlib\n');
  });
  it('-i asks on stderr and reads the answer from stdin: y copies, anything else or end of input skips (status 0)', async () => {
    const r = await runShell(`${TREE} && cp -i a.txt nums.txt < /dev/null 2>&1; echo "s=$?"; cat nums.txt; mkdir d; cp a.txt nums.txt d; echo new > b; printf 'n\\ny\\n' | cp -i b a.txt nums.txt d 2>&1; echo; cat d/a.txt d/nums.txt; echo yes | mv -i a.txt nums.txt 2>&1; echo; ls; cat nums.txt; echo y | mv -if b c 2>&1; cat c`);
    expect(r.stdout).toBe("cp: overwrite 'nums.txt'? s=0\nn\ncp: overwrite 'd/a.txt'? cp: overwrite 'd/nums.txt'? \na\nn\nmv: overwrite 'nums.txt'? \nb\nd\ne\nlink.txt\nnums.txt\nsrc\na\nnew\n");
  });
  it('-i asks every question before -v names a copy; a copy onto its own file is an error, never a question', async () => {
    const r = await runShell(`${TREE} && mkdir d; cp a.txt nums.txt d; echo z > z; printf 'n\\ny\\n' | cp -iv z a.txt nums.txt d 2>&1; printf 'y\\n' | cp -i z z 2>&1; echo "s=$?"`);
    expect(r.stdout).toBe("cp: overwrite 'd/a.txt'? cp: overwrite 'd/nums.txt'? 'z' -> 'd/z'\n'nums.txt' -> 'd/nums.txt'\ncp: 'z' and 'z' are the same file\ns=1\n");
  });
  it('a destination that cannot be one gets GNU coreutils 9 messages naming it, and nothing is copied or moved', async () => {
    const r = await runShell(`${TREE} && touch f && { cp a.txt nope/d/; cp a.txt new/; cp a.txt f/; cp -r src f; cp -r src nope/x; mv src f; mv a.txt new/; cp a.txt f d2/; mv a.txt f f; cp -T a.txt f e; } 2>&1; ls`);
    expect(r.stdout).toBe(
      "cp: cannot create regular file 'nope/d/': No such file or directory\ncp: cannot create regular file 'new/': Not a directory\ncp: cannot stat 'f/': Not a directory\n" +
        "cp: cannot overwrite non-directory 'f' with directory 'src'\ncp: cannot create directory 'nope/x': No such file or directory\nmv: cannot overwrite non-directory 'f' with directory 'src'\n" +
        "mv: cannot move 'a.txt' to 'new/': Not a directory\ncp: target 'd2/': No such file or directory\nmv: target 'f': Not a directory\ncp: extra operand 'e'\nTry 'cp --help' for more information.\n" +
        'a.txt\ne\nf\nlink.txt\nnums.txt\nsrc\n',
    );
  });
  it('fewer than two operands is GNU\'s usage error, naming the one given', async () => {
    const r = await runShell(`${TREE} && { cp; mv a.txt; cp -t e; }`);
    expect(r).toEqual({ stdout: '', stderr: "cp: missing file operand\nTry 'cp --help' for more information.\nmv: missing destination file operand after 'a.txt'\nTry 'mv --help' for more information.\ncp: missing file operand\nTry 'cp --help' for more information.\n", exit: 1 });
  });
  it('cp -r of a directory into itself copies the tree as it stood, then says so, status 1', async () => {
    const r = await runShell(`${TREE} && cp -r src src/new; echo "s=$?"; cp -r e e; find src e | sort`);
    expect(r).toEqual({
      stdout: 's=1\ne\ne/e\nsrc\nsrc/lib\nsrc/lib/u\nsrc/new\nsrc/new/lib\nsrc/new/lib/u\n',
      stderr: "cp: cannot copy a directory, 'src', into itself, 'src/new'\ncp: cannot copy a directory, 'e', into itself, 'e/e'\n",
      exit: 0,
    });
  });
  it('-t of a missing directory fails as GNU does', async () => {
    expect(await runShell(`${TREE} && cp -t nope a.txt`)).toEqual({ stdout: '', stderr: "cp: target directory 'nope': No such file or directory\n", exit: 1 });
  });
});

describe('chmod, mkdir, rmdir', () => {
  it('chmod: symbolic modes with X, s and t, the umask for a bare +w, -c and -v, --reference', async () => {
    const r = await runShell("mkdir -p s/d && : > s/f && : > a && chmod -c 644 a; chmod -c 755 a; chmod -v 755 a; chmod g+w,o= a; stat -c %a a; chmod +w a; stat -c %a a; chmod a-x,u+s a; stat -c %A a; chmod -R u=rwX,go=rX s; stat -c %a s s/f; chmod 1777 s/d; chmod o-t,g+s s/d; stat -c %A s/d; chmod --reference=s a; stat -c %a a");
    expect(r.stdout).toBe(
      "mode of 'a' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\nmode of 'a' retained as 0755 (rwxr-xr-x)\n770\n770\n-rwSrw----\n755\n644\ndrwxrwsrwx\n755\n",
    );
  });
  it('chmod: an invalid mode is GNU’s usage error', async () => {
    expect(await runShell(': > a; chmod 888 a')).toEqual({ stdout: '', stderr: "chmod: invalid mode: '888'\nTry 'chmod --help' for more information.\n", exit: 1 });
  });
  it('chmod, mkdir and find quote a mode or a directory in the locale’s quotes (‘…’ under UTF-8), as gnulib quote() does', async () => {
    expect(await runShell('export LANG=C.UTF-8; : > a; chmod 999 a; mkdir -m 9 z; mkdir a; mkdir -p a/x; find . -perm 9x')).toEqual({
      stdout: '',
      stderr: "chmod: invalid mode: ‘999’\nTry 'chmod --help' for more information.\nmkdir: invalid mode ‘9’\nmkdir: cannot create directory ‘a’: File exists\nmkdir: cannot create directory ‘a’: Not a directory\nfind: invalid mode ‘9x’\n",
      exit: 1,
    });
  });
  it('cp and mv into a directory that is missing, or is a file, name the destination', async () => {
    expect(await runShell(': > a; : > f; cp a nope/x; mv a nope/x; cp a f/x; mv a f/x; ls a')).toEqual({
      stdout: 'a\n',
      stderr: "cp: cannot create regular file 'nope/x': No such file or directory\nmv: cannot move 'a' to 'nope/x': No such file or directory\ncp: cannot stat 'f/x': Not a directory\nmv: cannot stat 'f/x': Not a directory\n",
      exit: 0,
    });
  });
  it('mkdir -m sets the last directory’s mode, -pv names each one made, a/b/../c makes a/b', async () => {
    const r = await runShell('mkdir -pv x/y; mkdir -m 700 p; mkdir -m 0750 -p q/r; mkdir -m u+x,g= pp; stat -c %a p q q/r pp; mkdir -p a/b/../c && find a | sort');
    expect(r.stdout).toBe("mkdir: created directory 'x'\nmkdir: created directory 'x/y'\n700\n755\n750\n707\na\na/b\na/c\n");
  });
  it('rmdir --ignore-fail-on-non-empty and -p', async () => {
    const r = await runShell('mkdir -p e/f x/y && : > e/f/g; rmdir --ignore-fail-on-non-empty e; echo $?; rmdir -p x/y; ls -d x');
    expect(r).toEqual({ stdout: '0\n', stderr: "ls: cannot access 'x': No such file or directory\n", exit: 2 });
  });
  it('rmdir -p words a parent it cannot remove as GNU does, the operand as before', async () => {
    const r = await runShell('mkdir -p x/y p/q && touch x/f p/q/z; rmdir -p x/y; rmdir -p p/q; ls x');
    expect(r).toEqual({ stdout: 'f\n', stderr: "rmdir: failed to remove directory 'x': Directory not empty\nrmdir: failed to remove 'p/q': Directory not empty\n", exit: 0 });
  });
});

describe('touch, chown, rm -i, mountpoint, /proc/mounts', () => {
  it('touch -d reads @seconds, ISO dates and relative ones; -t reads a stamp; -h and -c create nothing', async () => {
    const r = await runShell(': > a; touch -d @0 a; stat -c %Y a; touch -d "2020-01-02 03:04:05" a; stat -c %Y a; touch -d "2020-01-02 +1 day" a; stat -c %Y a; touch -t 202001020304.05 a; stat -c %Y a; touch -h -c nope x; ls nope x');
    expect(r.stdout).toBe('0\n1577934245\n1578009600\n1577934245\n');
    expect(r.exit).toBe(2);
  });
  it('touch -a sets only the access time, -m only the modification time; -r takes each from the reference, a -d with it counts from them', async () => {
    const r = await runShell(': > a; touch -d @5 a; touch -a -d @100 a; stat -c "%X %Y" a; touch -m -t 197001010010.00 a; stat -c "%X %Y" a; touch --time=access -d @7 a; stat -c "%X %Y" a; touch -r a b; stat -c "%X %Y" b; touch -r a -d "+1 hour" c; stat -c "%X %Y" c; ls -u a b c | tr "\\n" " "');
    expect(r).toEqual({ stdout: '100 5\n100 600\n7 600\n7 600\n3607 4200\nc a b ', stderr: '', exit: 0 });
  });
  it('touch refuses a --time word it does not know and two sources of times, in GNU\'s words, changing nothing', async () => {
    const r = await runShell(': > a; touch -d @5 a; touch --time=bogus a; echo "s=$?"; touch -t 200001010000 -d now a; echo "s=$?"; stat -c "%X %Y" a');
    expect(r.stdout).toBe('s=1\ns=1\n5 5\n');
    expect(r.stderr).toBe("touch: invalid argument 'bogus' for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'\nTry 'touch --help' for more information.\ntouch: cannot specify times from more than one source\nTry 'touch --help' for more information.\n");
  });
  it('chown to the owner a file has succeeds; another owner is EPERM for a service, as for a user on Linux; an exec session holds CAP_CHOWN', async () => {
    const script = ': > f; chown "$(id -u)" f; chgrp "$(id -g)" f; echo $?; chown root f; chgrp root f; echo $?; stat -c %U:%G f';
    const r = await runShell(script, undefined, { service: true });
    expect(r).toEqual({ stdout: '0\n1\nsprite:sprite\n', stderr: "chown: changing ownership of 'f': Operation not permitted\nchgrp: changing group of 'f': Operation not permitted\n", exit: 0 });
    expect(await runShell(script)).toEqual({ stdout: '0\n0\nroot:root\n', stderr: '', exit: 0 });
  });
  it('rm -i asks on stderr and reads its answers from stdin; no answer keeps the file', async () => {
    const r = await runShell(': > a; : > b; rm -i a < /dev/null; printf "n\\ny\\n" | rm -i a b; ls');
    expect(r).toEqual({ stdout: 'a\n', stderr: "rm: remove regular empty file 'a'? rm: remove regular empty file 'a'? rm: remove regular empty file 'b'? ", exit: 0 });
  });
  it('rm -ri asks to descend into a directory, then for each entry, then for the directory once it is empty', async () => {
    const r = await runShell('mkdir -p d/e d/sub; echo x > d/a; echo y > d/sub/b; : > d/z; printf "y\\ny\\ny\\nn\\ny\\n" | rm -riv d; echo "rc=$?"; find d | sort');
    expect(r).toEqual({
      stdout: "removed 'd/a'\nremoved directory 'd/e'\nremoved 'd/z'\nrc=0\nd\nd/sub\nd/sub/b\n",
      stderr: "rm: descend into directory 'd'? rm: remove regular file 'd/a'? rm: remove directory 'd/e'? rm: descend into directory 'd/sub'? rm: remove regular empty file 'd/z'? ",
      exit: 0,
    });
    const declined = await runShell('mkdir -p d/sub; echo y > d/sub/b; printf "y\\ny\\nn\\ny\\n" | rm -riv d 2>&1; echo "rc=$?"');
    expect(declined.stdout).toBe(
      "rm: descend into directory 'd'? rm: descend into directory 'd/sub'? rm: remove regular file 'd/sub/b'? rm: remove directory 'd/sub'? " +
        "rm: cannot remove 'd/sub': Directory not empty\nrc=1\n",
    );
    const all = await runShell('mkdir -p d/s; echo q > d/s/f; ln -s /tmp d/l; yes | rm -ri d; ls -d d; printf "n\\n" | rm -ri /tmp 2>&1; echo "rc=$?"');
    expect(all).toEqual({
      stdout: "rm: remove directory '/tmp'? rc=0\n",
      stderr: "rm: descend into directory 'd'? rm: remove symbolic link 'd/l'? rm: descend into directory 'd/s'? rm: remove regular file 'd/s/f'? rm: remove directory 'd/s'? rm: remove directory 'd'? ls: cannot access 'd': No such file or directory\n",
      exit: 0,
    });
  });
  it('mountpoint knows / from other directories; /proc/mounts lists the disk', async () => {
    const r = await runShell('mountpoint /; mountpoint -q /home/sprite || echo no $?; mountpoint nope; echo $?; grep -c " / ext4 " /proc/mounts');
    expect(r).toEqual({ stdout: '/ is a mountpoint\nno 32\n1\n1\n', stderr: 'mountpoint: nope: No such file or directory\n', exit: 0 });
  });
});

describe('file', () => {
  it('pads NAME: so the descriptions of several operands line up; -N does not', async () => {
    const r = await runShell("mkdir src && printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh && file run.sh src; file -N run.sh src");
    expect(r.stdout).toBe('run.sh: POSIX shell script, ASCII text executable\nsrc:    directory\nrun.sh: POSIX shell script, ASCII text executable\nsrc: directory\n');
  });
  it('-z describes an uncompressed file as without it, and refuses loudly to look inside compressed data', async () => {
    const r = await runShell('echo x > t; file -z t; echo x | gzip > p.gz; file -z p.gz; echo "s=$?"');
    expect(r).toEqual({ stdout: 't: ASCII text\ns=2\n', stderr: 'file: option -z on compressed data (p.gz) is not available in the shell engine; run spritzer with --exec sandbox\n', exit: 0 });
  });
});

describe('cp and mv backups', () => {
  it('number their backups with --backup=numbered (.~1~, .~2~), and go on numbering under -b once one exists', async () => {
    const r = await runShell("echo a > a; echo n > n; cp --backup=numbered a n; cp --backup=numbered a n; cp -b a n; ls; cp -b a m; cp -b a m; ls m*; mv -v --backup=t a m");
    expect(r).toEqual({ stdout: "a\nn\nn.~1~\nn.~2~\nn.~3~\nm\nm~\nrenamed 'a' -> 'm' (backup: 'm.~1~')\n", stderr: '', exit: 0 });
  });
  it('-n with -v leaves an existing destination alone and says nothing, as GNU 9.1', async () => {
    const r = await runShell("echo a > a; echo b > b; mv -vn a b; echo \"s=$?\"; cp -nv a b; cp --no-clobber -v a c; cat b; ls");
    expect(r).toEqual({ stdout: "s=0\n'a' -> 'c'\nb\na\nb\nc\n", stderr: '', exit: 0 });
  });
});

describe('cp --attributes-only', () => {
  it('copies the mode, never the data: a new file is empty, an existing one keeps its data (and, without -p, its mode)', async () => {
    const r = await runShell("echo hello > s && chmod 751 s && cp --attributes-only s d && stat -c '%s %a' d; echo world > e && chmod 600 e && cp --attributes-only s e && stat -c '%s %a' e && cat e; cp --attributes-only -p s e && stat -c '%s %a' e; mkdir dd; echo x > dd/f; cp -r --attributes-only dd dd2; find dd2 -printf '%p %s %m\\n' | sort");
    expect(r).toEqual({ stdout: '0 751\n6 600\nworld\n6 751\ndd2 4096 755\ndd2/f 0 644\n', stderr: '', exit: 0 });
  });
});

describe('realpath and readlink -f of NAME/', () => {
  it('ask for a directory: a file (or a link to one) is Not a directory, but for -m; nothing there is fine for -f', async () => {
    const r = await runShell('touch f; mkdir d; ln -s d l; ln -s f lf; realpath f/; echo "s=$?"; readlink -f f/; echo "s=$?"; readlink -m f/; realpath l/; realpath lf/; echo "s=$?"; realpath new/; realpath -s f/; echo "s=$?"');
    expect(r).toEqual({
      stdout: 's=1\ns=1\n/home/sprite/f\n/home/sprite/d\ns=1\n/home/sprite/new\ns=1\n',
      stderr: 'realpath: f/: Not a directory\nrealpath: lf/: Not a directory\nrealpath: f/: Not a directory\n',
      exit: 0,
    });
  });
});

describe('ln to NAME/', () => {
  it('asks symlink(2) and link(2) for the name as written: nothing there is ENOENT, a directory takes the link inside', async () => {
    expect(await runShell('touch f; mkdir d; ln -s x l/; echo "s=$?"; ln f h/; echo "s=$?"; ln -s ../f d/; ls; ls d')).toEqual({
      stdout: 's=1\ns=1\nd\nf\nf\n',
      stderr: "ln: failed to create symbolic link 'l/': No such file or directory\nln: failed to create hard link 'h/' => 'f': No such file or directory\n",
      exit: 0,
    });
  });
});

describe('rm NAME/', () => {
  it('goes through a symlink: a link to a directory is a directory, whose contents -r removes before failing on the link', async () => {
    const r = await runShell('mkdir src && touch src/a && ln -s src l && ln -s f fl && touch f; rm l/; rm fl/; rm -r l/; echo "s=$?"; ls src; ls -d l fl');
    expect(r).toEqual({
      stdout: 's=1\nfl\nl\n',
      stderr: "rm: cannot remove 'l/': Is a directory\nrm: cannot remove 'fl/': Not a directory\nrm: cannot remove 'l/': Not a directory\n",
      exit: 0,
    });
  });
  it('-f takes `file/` as a name that names nothing (ENOTDIR), as a missing one: silently, status 0', async () => {
    const r = await runShell('mkdir src && touch src/a && ln -s src l && touch f; rm -f f/; echo "f=$?"; rm -rf l/; echo "l=$?"; ls src; ls -d f l');
    expect(r).toEqual({ stdout: 'f=0\nl=0\nf\nl\n', stderr: '', exit: 0 });
  });
});

// GNU coreutils 9's chown -v/-c lines and mv's last-of -f/-i/-n (checked against a Debian host's coreutils).
describe('chown -v/-c and mv -n as GNU', () => {
  it('chown -v describes every file (post-order under -R), -c only changes; OWNER: is the owner and its group', async () => {
    // As a service, whose chown to root fails; an exec session's succeeds.
    const r = await runShell('mkdir -p d/e; touch d/e/f ow; chown -v sprite:sprite ow; chown -c sprite ow; chown -Rv sprite d; chown -v root ow; sudo chown -v root: ow; sudo chown -c 1001 ow; echo rc=$?', undefined, { service: true });
    expect(r.stdout).toBe(
      "ownership of 'ow' retained as sprite:sprite\nownership of 'd/e/f' retained as sprite\nownership of 'd/e' retained as sprite\n" +
        "ownership of 'd' retained as sprite\nfailed to change ownership of 'ow' from sprite to root\n" +
        "changed ownership of 'ow' from sprite:sprite to root:root\nchanged ownership of 'ow' from root to sprite\nrc=0\n",
    );
    expect(r.stderr).toBe("chown: changing ownership of 'ow': Operation not permitted\n");
    expect(await runShell('touch ow; chown -v root ow; chgrp -c root ow; stat -c %U:%G ow')).toEqual({
      stdout: "changed ownership of 'ow' from sprite to root\nchanged group of 'ow' from sprite to root\nroot:root\n",
      stderr: '',
      exit: 0,
    });
  });

  it('mv -n leaves a file named twice alone (status 0) unless -f or -i comes after it', async () => {
    const r = await runShell('echo x > f; ln f g; mv -n f ./f; echo $?; mv -n f g; echo $?; mv -n -f f f; echo $?; ls');
    expect(r).toEqual({ stdout: '0\n0\n1\nf\ng\n', stderr: "mv: 'f' and 'f' are the same file\n", exit: 0 });
  });
});

// GNU mv onto a directory of the same name that is not empty: rename(2) fails with ENOTEMPTY, named as written.
describe('mv onto a directory that is not empty', () => {
  it('names the source and where it was to go: Directory not empty, status 1', async () => {
    const got = await runShell('mkdir -p a b/a/x; mv a b; echo "rc=$?"; mkdir -p c d/c; touch d/c/f; mv c d/; echo "rc=$?"');
    expect(got).toEqual({ stdout: 'rc=1\nrc=1\n', stderr: "mv: cannot move 'a' to 'b/a': Directory not empty\nmv: cannot move 'c' to 'd/c': Directory not empty\n", exit: 0 });
  });
});

describe('moving or copying into /proc', () => {
  it.each(['touch a; mv a /proc/x; echo rc=$?; ls', 'mkdir d; mv d /proc/x; echo rc=$?; ls', 'touch a; cp a /proc/x; echo rc=$?'])('%s fails to create the entry, as across filesystems', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
