import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU coreutils 9.1's --help and --version, as the programs print them (checked with bash on a GNU/Linux host).

describe('--help and --version of coreutils programs', () => {
  it('print GNU\'s text on stdout and exit 0, for spritzer\'s commands and just-bash\'s alike', async () => {
    const r = await runShell('uname --help | head -1; nproc --help | sed -n 2p; ls --help | tail -1; env --version | head -1; dd --version | head -1; cat --version | tail -1; echo "s=$?"');
    expect(r).toEqual({
      stdout:
        "Usage: uname [OPTION]...\nPrint the number of processing units available to the current process,\nor available locally via: info '(coreutils) ls invocation'\n" +
        'env (GNU coreutils) 9.1\ndd (coreutils) 9.1\nWritten by Torbjorn Granlund and Richard M. Stallman.\ns=0\n',
      stderr: '',
      exit: 0,
    });
  });
  it('count anywhere before -- for a program that permutes, but not past the first operand of env or timeout', async () => {
    const r = await runShell('sort -r --version | head -1; sort -- --help 2>&1 | head -1; env X=1 sh -c "echo \\$X" --help; timeout 5 printf "%s\\n" --version; sha256sum --help | tail -1');
    expect(r.stdout).toBe("sort (GNU coreutils) 9.1\nsort: cannot read: --help: No such file or directory\n1\n--version\nor available locally via: info '(coreutils) sha2 utilities'\n");
  });
});

describe('--help and --version of the programs bash also has as builtins', () => {
  it('the program answers (by a path, env, xargs, timeout), the builtin never; echo, printf, true and [ only when it is their one argument', async () => {
    const r = await runShell('/bin/echo --version | head -1; env echo --help | head -1; xargs echo --version </dev/null | head -1; timeout 5 echo --version | head -1; /usr/bin/[ --version | head -1; /bin/pwd -P --version | head -1; env true --help | head -1; echo --help; env echo -n --help; echo; /bin/echo --help x; POSIXLY_CORRECT=1 /bin/echo --help');
    expect(r.stdout).toBe(
      'echo (GNU coreutils) 9.1\nUsage: echo [SHORT-OPTION]... [STRING]...\necho (GNU coreutils) 9.1\necho (GNU coreutils) 9.1\n[ (GNU coreutils) 9.1\npwd (GNU coreutils) 9.1\n' +
        'Usage: true [ignored command line arguments]\n--help\n--help\n--help x\n--help\n',
    );
  });
});

describe('false run as a program', () => {
  it('answers --help and --version with status 1, as GNU false does; the builtin says nothing', async () => {
    expect(await runShell('env false --version | head -1; env false --help >/dev/null; echo "s=$?"; false --help; echo "s=$?"')).toEqual({ stdout: 'false (GNU coreutils) 9.1\ns=1\ns=1\n', stderr: '', exit: 0 });
  });
});

describe('gnuStandardText on a host without GNU coreutils', () => {
  it('answers with a short usage line and a GNU version line, and nothing for other programs', async () => {
    const { gnuStandardText } = await import('./gnu-help.ts');
    const none = () => undefined;
    expect(gnuStandardText('uname', '--help', none)).toBe('Usage: uname [OPTION]...\n');
    expect(gnuStandardText('sort', '--version', none)).toBe('sort (GNU coreutils) 9.1\n');
    expect(gnuStandardText('git', '--version', none)).toBeUndefined();
  });
});

describe('--version of GNU sed, grep, findutils, diffutils and tar', () => {
  it('prints the GNU package line first, for the long option and grep -V / diff -v, and not past xargs\'s command', async () => {
    const r = await runShell('sed --version | head -1; grep -V | head -1; find . --version | head -1; diff -v | head -1; tar --version | head -1; xargs printf "%s\\n" --version; echo "s=$?"');
    expect(r).toEqual({
      stdout: 'sed (GNU sed) 4.9\ngrep (GNU grep) 3.8\nfind (GNU findutils) 4.9.0\ndiff (GNU diffutils) 3.8\ntar (GNU tar) 1.34\n--version\ns=0\n',
      stderr: '',
      exit: 0,
    });
  });
  it('without the host\'s GNU program, answers with the first line alone', async () => {
    const { gnuPackageVersion } = await import('./gnu-help.ts');
    expect(gnuPackageVersion('cmp', () => undefined)).toBe('cmp (GNU diffutils) 3.8\n');
    expect(gnuPackageVersion('git', () => undefined)).toBeUndefined();
  });
});
