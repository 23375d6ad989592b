import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// GNU tools with their standard input closed (`<&-`): what each prints and its status, as on a real sprite.
describe('tools reading a closed stdin', () => {
  it('end jq with status 2 and no message when it would read stdin, as jq 1.6 and 1.7 do', async () => {
    const r = await runShell(`jq . <&-; echo "s=$?"; jq -r .a <&-; echo "s=$?"; jq -n 1 <&-; echo '{"a":3}' > j.json; jq .a j.json <&-`);
    expect(r).toEqual({ stdout: 's=2\ns=2\n1\n3\n', stderr: '', exit: 0 });
  });
  it('fail with EBADF after doing the rest of their work', async () => {
    const script = 'echo hi > f; cat f - <&-; echo "cat=$?"; tee t <&-; echo "tee=$?"; ls t; tr a b <&-; echo "tr=$?"; grep x <&-; echo "grep=$?"; uniq <&-; echo "uniq=$?"; head -1 <&-; echo "head=$?"';
    const r = await runShell(script);
    expect(r.stdout).toBe('hi\ncat=1\ntee=1\nt\ntr=1\ngrep=2\nuniq=1\nhead=1\n');
    expect(r.stderr).toContain('tee: read error: Bad file descriptor\n');
    expect(r.stderr).toContain('tr: read error: Bad file descriptor\n');
    expect(r.stderr).toContain('grep: (standard input): Bad file descriptor\n');
    expect(r.stderr).toContain('uniq: -: Bad file descriptor\n');
  });

  it('leave a stdin that a later redirection reopened alone', async () => {
    expect(await runShell('echo hi > f; cat <&- < f; tr h H <&- < f; wc -l <&- < f')).toEqual({ stdout: 'hi\nHi\n1\n', stderr: '', exit: 0 });
  });

  it('fail in sed, awk, xargs, od, diff and the other readers as on a sprite, after their other files', async () => {
    const script = 'printf "a\\n" > f; sed -n p f - <&-; echo "sed=$?"; awk \'BEGIN{print "b"} END{print "e"}\' <&-; echo "awk=$?"; xargs echo go <&-; echo "xargs=$?"; xargs -r echo go <&-; echo "xargs-r=$?"; od -c <&-; echo "od=$?"; diff - f <&-; echo "diff=$?"; fold -w 3 <&-; echo "fold=$?"; cksum <&-; echo "cksum=$?"; rev <&-; echo "rev=$?"; rev f <&-; echo "rev-f=$?"';
    const r = await runShell(script);
    expect(r.stdout).toBe('a\nsed=4\nb\nawk=2\ngo\nxargs=1\nxargs-r=1\n0000000\nod=1\ndiff=2\nfold=1\n4294967295 0\ncksum=1\nrev=1\na\nrev-f=0\n');
    for (const line of ['sed: read error on stdin: Bad file descriptor', 'awk: read error (Bad file descriptor)', 'xargs: error closing file: Bad file descriptor', "od: 'standard input': Bad file descriptor", 'diff: -: Bad file descriptor', 'fold: -: Bad file descriptor', 'cksum: standard input: Bad file descriptor', 'rev: stdin: 0: Bad file descriptor']) expect(r.stderr).toContain(`${line}\n`);
  });

  it('stop sed at the failed read, before the files after it', async () => {
    expect(await runShell('echo a > f; sed p - f <&-; echo "s=$?"')).toEqual({ stdout: 's=4\n', stderr: 'sed: read error on stdin: Bad file descriptor\n', exit: 0 });
  });

  it('read /dev/stdin and /dev/fd/0 operands as the stdin', async () => {
    expect(await runShell('printf "x\\ny\\n" | sed -n 2p /dev/fd/0; seq 3 | awk \'END{print NR}\' /dev/stdin; echo q | diff - /dev/fd/0; echo "s=$?"; seq 4 | grep -c . /dev/fd/0')).toEqual({ stdout: 'y\n3\ns=0\n4\n', stderr: '', exit: 0 });
  });
});
