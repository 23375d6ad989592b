import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU findutils 4.9 xargs gives them (checked with bash on a GNU/Linux host).
describe('xargs', () => {
  it('lets the later of -n, -L and -I win, with GNU\'s warning (-n after -I: -I, silently)', async () => {
    const r = await runShell("printf '3\\n1\\n' | xargs -n1 -I{} echo x{} 2>&1; printf '3\\n1\\n' | xargs -I{} -L1 echo {} 2>&1; printf '3\\n1\\n' | xargs -L1 -n2 echo 2>&1; printf '3\\n1\\n' | xargs -I{} -n1 echo y{}");
    expect(r).toEqual({
      stdout:
        'xargs: warning: options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value\nx3\nx1\n' +
        'xargs: warning: options --replace and -L are mutually exclusive, ignoring previous --replace value\n{} 3\n{} 1\n' +
        'xargs: warning: options --max-lines and --max-args/-n are mutually exclusive, ignoring previous --max-lines value\n3 1\ny3\ny1\n',
      stderr: '',
      exit: 0,
    });
  });
  it('bundles by -n and -L, replaces -I strings, splits on -0 and -d', async () => {
    const r = await runShell("printf '%s\\n' a b c | xargs -n1 echo; printf 'a b\\nc\\n' | xargs -L1 echo; printf '  a b \\n c\\n' | xargs -I{} echo '[{}]'; printf 'a\\0b c\\0' | xargs -0 -n1 echo; echo a,b | xargs -d, -n1 echo");
    expect(r.stdout).toBe('a\nb\nc\na b\nc\n[a b ]\n[c]\na\nb c\na\nb\n\n');
  });
  it('reads quotes and backslashes, runs once on empty input unless -r', async () => {
    const r = await runShell("printf \"a 'b c' d\\\\\\\\ e\\n\" | xargs -n1; echo | xargs echo empty; echo | xargs -r echo none; printf 'aa bb cc\\n' | xargs -s 12 echo");
    expect(r.stdout).toBe('a\nb c\nd e\nempty\naa bb\ncc\n');
  });
  it("exits as GNU's: 123 when a command fails, 124 on 255, 127 when it is missing, 1 on a bad quote", async () => {
    const r = await runShell("echo x | xargs sh -c 'exit 3'; echo \"s=$?\"; echo x | xargs nope_cmd; echo \"s=$?\"; echo x | xargs sh -c 'exit 255'; echo \"s=$?\"; printf \"a 'b\\n\" | xargs; echo \"s=$?\"");
    expect(r.stdout).toBe('s=123\ns=127\ns=124\na\ns=1\n');
    expect(r.stderr).toBe("xargs: nope_cmd: No such file or directory\nxargs: sh: exited with status 255; aborting\nxargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n");
  });
});

describe('xargs -I with -0 or -d', () => {
  it('takes each delimited item whole, as GNU xargs does', async () => {
    expect((await runShell("printf 'a b\\0 c\\0' | xargs -0 -I{} echo '[{}]'; printf 'x,y' | xargs -d, -I% echo '<%>'")).stdout).toBe('[a b]\n[ c]\n<x>\n<y>\n');
  });
});

describe('xargs -t and -p, as GNU prints the command', () => {
  it('quotes each traced argument as the shell reads it back (shell-escape), on stderr', async () => {
    const r = await runShell("echo 1 | xargs -t sh -c 'echo $0' 2>&1; printf 'a\\n' | xargs -t echo 'x$y' 'a\"b' '' \"it's\" 'tab\tt' '~a' '#c' a# '*' - 2>&1 >/dev/null");
    expect(r).toEqual({ stdout: "sh -c 'echo $0' 1\n1\necho 'x$y' 'a\"b' '' \"it's\" 'tab'$'\\t''t' '~a' '#c' a# '*' - a\n", stderr: '', exit: 0 });
  });

  it('-p without a terminal prints the command and fails to open /dev/tty (status 1)', async () => {
    const r = await runShell('echo 1 | xargs -p echo; echo "rc=$?"');
    expect(r).toEqual({ stdout: 'rc=1\n', stderr: 'echo 1xargs: failed to open /dev/tty for reading: No such device or address\n', exit: 0 });
  });
});

// GNU xargs: 127 when the command cannot be found, 123 when an invocation exits with a non-zero status (findutils
// manual, "Invoking xargs"), whatever status that invocation chose.
describe('xargs exit statuses', () => {
  it('a command not found is 127 with xargs\' message; a found program that exits 127 is one more failure: 123', async () => {
    const r = await runShell("echo 1 | xargs bash -c 'nosuchfn'; echo \"rc=$?\"; echo 1 | xargs nosuchprog; echo \"rc=$?\"");
    expect(r).toEqual({ stdout: 'rc=123\nrc=127\n', stderr: '1: line 1: nosuchfn: command not found\nxargs: nosuchprog: No such file or directory\n', exit: 0 });
  });
});
