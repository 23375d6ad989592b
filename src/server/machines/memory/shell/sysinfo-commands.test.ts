import { describe, expect, it } from 'vitest';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';
import { ProcessTable } from '../processes.ts';
import { MACHINE_ARCH } from './sysinfo-commands.ts';

// What GNU coreutils, glibc's tools and bash print about the machine, for a sprite's 8 vCPUs and Ubuntu's defaults.

describe('nproc, arch and uname', () => {
  it('nproc counts the sprite\'s CPUs, less --ignore, never below 1', async () => {
    expect(await runShell('nproc; nproc --all; nproc --ignore=3; nproc --ignore 100')).toEqual({ stdout: '8\n8\n5\n1\n', stderr: '', exit: 0 });
    expect(await runShell('nproc --ignore=x; echo $?')).toEqual({ stdout: '1\n', stderr: "nproc: invalid number: 'x'\n", exit: 0 });
  });
  it('nproc without --all is OMP_NUM_THREADS when set (the first of a list), at most OMP_THREAD_LIMIT', async () => {
    const script = 'OMP_NUM_THREADS=4 nproc; OMP_NUM_THREADS=4 nproc --all; OMP_NUM_THREADS=4 OMP_THREAD_LIMIT=3 nproc --ignore=1; OMP_NUM_THREADS=" 5 " nproc; OMP_NUM_THREADS=3,2 nproc; OMP_NUM_THREADS=x nproc; OMP_THREAD_LIMIT=1 nproc';
    expect(await runShell(script)).toEqual({ stdout: '4\n8\n2\n5\n3\n8\n1\n', stderr: '', exit: 0 });
  });
  it('an operand of nproc is quoted as GNU quotes it', async () => {
    expect(await runShell('export LANG=C.UTF-8; nproc x; echo "s=$?"')).toEqual({ stdout: 's=1\n', stderr: "nproc: extra operand ‘x’\nTry 'nproc --help' for more information.\n", exit: 0 });
  });
  it('uname takes its long options and their unambiguous prefixes; an unknown option or an operand is status 1', async () => {
    expect(await runShell(`uname --kernel-name; uname --machine --kernel-n; uname --op`)).toEqual({ stdout: `Linux\nLinux ${MACHINE_ARCH}\nGNU/Linux\n`, stderr: '', exit: 0 });
    expect(await runShell('export LANG=C.UTF-8; uname -z; echo "s=$?"; uname x; uname --k; uname --nope')).toEqual({
      stdout: 's=1\n',
      stderr:
        "uname: invalid option -- 'z'\nTry 'uname --help' for more information.\nuname: extra operand ‘x’\nTry 'uname --help' for more information.\n" +
        "uname: option '--k' is ambiguous; possibilities: '--kernel-name' '--kernel-release' '--kernel-version'\nTry 'uname --help' for more information.\n" +
        "uname: unrecognized option '--nope'\nTry 'uname --help' for more information.\n",
      exit: 1,
    });
  });
  it('arch is uname -m; uname -p and -i say unknown, and -a leaves them out', async () => {
    const r = await runShell('arch; uname -m; uname -p; uname -s -p -m -i; uname -a | grep -c unknown');
    expect(r.stdout).toBe(`${MACHINE_ARCH}\n${MACHINE_ARCH}\nunknown\nLinux ${MACHINE_ARCH} unknown unknown\n0\n`);
  });
});

describe('getconf', () => {
  it('answers system and path variables as glibc, refusing a path variable without a path', async () => {
    const r = await runShell('getconf PAGESIZE; getconf LONG_BIT; getconf _NPROCESSORS_ONLN; getconf PATH_MAX /; getconf NAME_MAX /tmp; getconf PATH_MAX; echo "st=$?"');
    expect(r.stdout).toBe('4096\n64\n8\n4096\n255\nst=2\n');
    // confstr's _CS_PATH.
    expect((await runShell('getconf PATH')).stdout).toBe('/bin:/usr/bin\n');
    expect(r.stderr).toBe('Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n');
  });
  it('names an unknown variable and a missing path', async () => {
    expect(await runShell('getconf NOPE; echo "st=$?"; getconf PATH_MAX /nope; echo "st=$?"')).toEqual({
      stdout: 'st=2\nst=1\n',
      stderr: "getconf: Unrecognized variable `NOPE'\ngetconf: /nope: No such file or directory\n",
      exit: 0,
    });
  });
  it('-a lists every variable as glibc does, with the machine\'s own values; -v SPEC changes nothing', async () => {
    const r = await runShell('getconf -a | grep -E "^(PAGE_SIZE|_NPROCESSORS_ONLN|LINK_MAX) "; getconf -a | wc -l; getconf -v POSIX_V7_LP64_OFF64 LONG_BIT; getconf -vPOSIX_V7_LP64_OFF64 LONG_BIT; getconf NZERO; getconf MAX_CANON /; getconf SOCK_MAXBUF /');
    expect(r).toEqual({ stdout: 'LINK_MAX                           65000\nPAGE_SIZE                          4096\n_NPROCESSORS_ONLN                  8\n320\n64\n64\n20\n255\nundefined\n', stderr: '', exit: 0 });
  });
});

describe('ulimit', () => {
  it('prints soft and hard limits, one bare value or labelled lines as bash does', async () => {
    const r = await runShell('ulimit; ulimit -n; ulimit -Hn; ulimit -c; ulimit -s; ulimit -v; ulimit -a | sed -n "1p;9p;10p"; ulimit -n -c');
    expect(r.stdout).toBe([
      'unlimited', '1024', '1048576', '0', '8192', 'unlimited',
      'real-time non-blocking time  (microseconds, -R) unlimited',
      'open files                          (-n) 1024',
      'pipe size                (512 bytes, -p) 8',
      'open files                          (-n) 1024',
      'core file size              (blocks, -c) 0',
      '',
    ].join('\n'));
  });
  it('sets this shell\'s limits as bash does for an unprivileged user; a subshell\'s changes end with it', async () => {
    const r = await runShell('ulimit -n 512; ulimit -n; ulimit -Hn; (ulimit -S -n 100; ulimit -n; ulimit -Hn); ulimit -n; ulimit -n 600; echo "s=$?"; ulimit -a | grep open');
    expect(r).toEqual({
      stdout: '512\n512\n100\n512\n512\ns=1\nopen files                          (-n) 512\n',
      stderr: 'bash: line 1: ulimit: open files: cannot modify limit: Operation not permitted\n',
      exit: 0,
    });
  });
  it('reads options as bash\'s getopt: -1 is an invalid option, -- ends them, a value after -- is the last option\'s', async () => {
    const r = await runShell('ulimit -n -1; echo "s=$?"; ulimit -- 100; ulimit -f; ulimit -n -- 50; ulimit -n; ulimit -n 5 6; ulimit -n');
    expect(r).toEqual({ stdout: 's=2\n100\n50\n5\n', stderr: 'bash: line 1: ulimit: -1: invalid option\nulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n', exit: 0 });
  });
  it('each option takes its own value; soft never above hard; unlimited soft alone is the hard limit; pipe size is fixed', async () => {
    const r = await runShell('ulimit -c 10 -n 90; ulimit -c -n; ulimit -H -n 50; echo "s=$?"; ulimit -S -c unlimited; ulimit -c; ulimit -p 8; ulimit -n x; echo "s=$?"; ulimit -c unlimited; echo "s=$?"');
    expect(r).toEqual({
      stdout: 'core file size              (blocks, -c) 10\nopen files                          (-n) 90\ns=1\n10\ns=1\ns=1\n',
      stderr:
        'bash: line 1: ulimit: open files: cannot modify limit: Invalid argument\nbash: line 1: ulimit: pipe size: cannot modify limit: Invalid argument\n' +
        'bash: line 1: ulimit: x: invalid number\nbash: line 1: ulimit: core file size: cannot modify limit: Operation not permitted\n',
      exit: 0,
    });
  });
  it('a child shell inherits the limits, as a process does; no variable listing shows where they are kept', async () => {
    const r = await runShell('ulimit -n 100; bash -c "ulimit -n; ulimit -Hn"; ulimit -S -c 0; sh -c "ulimit -c"; env | grep -c ulimit');
    expect(r.stdout).toBe('100\n100\n0\n0\n');
    const listed = await runShell('ulimit -n 90; sleep 1 & (set; declare -p; declare; typeset -p; compgen -v; echo ${!__*}) | grep -cE "^(declare -[-a-zA-Z]+ )?__"; true');
    expect(listed.stdout).toBe('0\n');
  });
});

describe('locale', () => {
  it('derives each category from LC_ALL, its own variable or LANG, quoting derived values', async () => {
    const r = await runShell('unset LANG LC_ALL; locale | sed -n "1,3p;15p"; LANG=C.UTF-8 LC_TIME=C locale | sed -n "1p;3p;5p"; LC_ALL=C.UTF-8 locale | tail -2');
    expect(r.stdout).toBe('LANG=\nLANGUAGE=\nLC_CTYPE="POSIX"\nLC_ALL=\nLANG=C.UTF-8\nLC_CTYPE="C.UTF-8"\nLC_TIME=C\nLC_IDENTIFICATION="C.UTF-8"\nLC_ALL=C.UTF-8\n');
  });
  it('lists the locales a sprite has and the charmap', async () => {
    expect((await runShell('locale -a; LANG=C.UTF-8 locale charmap; LANG= locale charmap')).stdout).toBe('C\nC.utf8\nPOSIX\nUTF-8\nANSI_X3.4-1968\n');
  });
  it('-k and -c print a category\'s or a keyword\'s values as glibc does; -m lists the charmaps', async () => {
    const r = await runShell('export LANG=C.UTF-8; locale -k LC_NUMERIC | head -2; locale decimal_point; locale -ck decimal_point; LC_ALL=C locale -c charmap; locale LC_PAPER; locale -m | grep -x UTF-8; locale bogus; echo "s=$?"');
    expect(r).toEqual({ stdout: 'decimal_point="."\nthousands_sep=""\n.\nLC_NUMERIC\ndecimal_point="."\nLC_CTYPE\nANSI_X3.4-1968\n297\n210\nUTF-8\nUTF-8\ns=1\n', stderr: 'locale: unknown name "bogus"\n', exit: 0 });
  });
});

describe('getent and logname', () => {
  it('looks users and groups up by name or id in the sprite\'s /etc files, exit 2 for a missing key', async () => {
    const r = await runShell('getent passwd sprite; getent passwd 0 | cut -d: -f1; getent group root; getent passwd nobody_q; echo "st=$?"; getent passwd | wc -l');
    expect(r.stdout).toBe('sprite:x:1001:1001::/home/sprite:/bin/bash\nroot\nroot:x:0:\nst=2\n3\n');
  });
  it('answers hosts as glibc (IPv6 first for a name), and names an unknown database', async () => {
    const r = await runShell('getent hosts localhost; getent hosts 127.0.0.1; getent nope; echo "st=$?"');
    expect(r.stdout).toBe('::1             localhost ip6-localhost ip6-loopback\n127.0.0.1       localhost\nst=1\n');
    expect(r.stderr).toBe("Unknown database: nope\nTry 'getent --help' or 'getent --usage' for more information.\n");
  });
  it('answers ahosts as getaddrinfo: IPv6 first, each address for three socket types, the name on the first line', async () => {
    const r = await runShell('getent ahosts localhost; getent ahosts 127.0.0.1 | head -1; getent ahosts nope.invalid; echo "st=$?"');
    expect(r.stdout).toBe(
      '::1             STREAM localhost\n::1             DGRAM  \n::1             RAW    \n' +
        '127.0.0.1       STREAM \n127.0.0.1       DGRAM  \n127.0.0.1       RAW    \n127.0.0.1       STREAM 127.0.0.1\nst=2\n',
    );
    const v4 = await runShell('getent ahostsv4 localhost');
    expect([v4.exit, v4.stderr]).toEqual([2, expect.stringContaining('--exec sandbox')]);
  });
  it('dpkg prints the Debian name of the machine, and refuses loudly what needs a package database', async () => {
    const r = await runShell('dpkg --print-architecture; dpkg --print-foreign-architectures; echo "st=$?"; dpkg -l; echo "st=$?"');
    expect(r.stdout).toBe(`${process.arch === 'arm64' ? 'arm64' : 'amd64'}\nst=0\nst=127\n`);
    expect(r.stderr).toContain('--exec sandbox');
  });
  it('logname finds no login name, as an exec has no terminal', async () => {
    expect(await runShell('logname; echo "st=$?"')).toEqual({ stdout: 'st=1\n', stderr: 'logname: no login name\n', exit: 0 });
  });
});

describe('/proc and /tmp describe the machine', () => {
  it('/proc/cpuinfo has a stanza per vCPU and /proc/meminfo its memory, padded as Linux does', async () => {
    const r = await runShell('grep -c ^processor /proc/cpuinfo; grep MemTotal /proc/meminfo; test -r /proc/cpuinfo && echo readable');
    expect(r.stdout).toBe('8\nMemTotal:        8388608 kB\nreadable\n');
  });
  it('/proc/sys/kernel names the kernel and the sprite', async () => {
    expect((await runShell('cat /proc/sys/kernel/ostype /proc/sys/kernel/osrelease /proc/sys/kernel/hostname; uname -r')).stdout).toBe('Linux\n6.12.0-spritzer\ndemo\n6.12.0-spritzer\n');
  });
  it('/etc/shells lists bash and dash, as on Debian and Ubuntu', async () => {
    expect(await runShell('grep -c bash /etc/shells; grep -x /bin/bash /etc/shells; head -1 /etc/shells')).toEqual({ stdout: '4\n/bin/bash\n# /etc/shells: valid login shells\n', stderr: '', exit: 0 });
  });
  it('/proc/$$ is the shell: its status, command line, program, descriptors and starting environment', async () => {
    const script = '[ "$(awk \'/^Pid:/{print $2}\' /proc/$$/status)" = "$$" ] && echo same; cat /proc/$$/comm; tr "\\0" " " < /proc/$$/cmdline; echo; ' +
      'readlink /proc/$$/exe; ls /proc/$$/fd | tr "\\n" " "; test -e /proc/$$/fd/1 && echo fd1; tr "\\0" "\\n" < /proc/$$/environ | grep ^HOME=; ls /proc | grep -c "^$$$"; cat /proc/99999/comm';
    expect(await runShell(script)).toEqual({
      stdout: `same\nbash\nsh -c ${script} \n/usr/bin/bash\n0 1 2 fd1\nHOME=/home/sprite\n1\n`,
      stderr: 'cat: /proc/99999/comm: No such file or directory\n',
      exit: 1,
    });
  });
  it('/proc/self/environ is the reading program\'s environment: its prefix assignments, the exported variables and its `_`', async () => {
    expect((await runShell('export E1=x; Y=1; X2=2 cat /proc/self/environ | tr "\\0" "\\n" | grep -e ^E1= -e ^Y= -e ^X2= -e ^_=')).stdout).toBe('X2=2\nE1=x\n_=/usr/bin/cat\n');
  });
  it('/proc/$! is the background job while it runs', async () => {
    const ctx = { ...testSprite(), processes: new ProcessTable() };
    const r = await runShell('sleep 5 & p=$!; [ -d /proc/$p ] && echo alive; cat /proc/$p/comm; tr "\\0" " " < /proc/$p/cmdline; echo; readlink /proc/$p/exe; kill $p; wait $p; [ -e /proc/$p ] || echo gone', ctx);
    expect(r.stdout).toBe('alive\nsleep\nsleep 5 \n/usr/bin/sleep\ngone\n');
  });
  it('/tmp and /var/tmp are sticky and world-writable (01777)', async () => {
    expect((await runShell('stat -c %a /tmp /var/tmp; test -k /tmp && test -w /tmp && echo sticky-tmp; ls -ld /tmp | cut -c1-10')).stdout).toBe('1777\n1777\nsticky-tmp\ndrwxrwxrwt\n');
  });
});
