import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU coreutils prints them (checked with bash on a GNU/Linux host).
const file = "printf 'hello world\\nfoo bar\\nHello again\\n' > a.txt; ";
const SUM = 'f13e24d7432e58f3bab3d0277a1473e3d8e4b517a34d1d2bbf6dbfa6f2e9a06a';

describe('sha256sum and friends', () => {
  it('names a checksum list read from stdin \'standard input\'', async () => {
    const r = await runShell('echo garbage | sha256sum -c; printf "x\\n" | md5sum -c -w');
    expect(r.stderr).toBe("sha256sum: 'standard input': no properly formatted checksum lines found\nmd5sum: 'standard input': 1: improperly formatted MD5 checksum line\nmd5sum: 'standard input': no properly formatted checksum lines found\n");
  });
  it('print sums, the --tag form, and errors on stderr', async () => {
    expect((await runShell(`${file}sha256sum a.txt; sha256sum --tag a.txt`)).stdout).toBe(`${SUM}  a.txt\nSHA256 (a.txt) = ${SUM}\n`);
    expect(await runShell('sha256sum nope; mkdir d; sha256sum d')).toEqual({ stdout: '', stderr: 'sha256sum: nope: No such file or directory\nsha256sum: d: Is a directory\n', exit: 1 });
    expect((await runShell(`${file}sha512sum a.txt | cut -c1-16; b2sum a.txt | cut -c1-32`)).stdout).toBe('e335d596bf3f8f93\n2b7c1002d9239913da91c859057d5785\n');
  });
  it('-c puts its WARNING lines on stderr', async () => {
    const bad = await runShell(`${file}sha256sum a.txt > sums && sed -i 's/^./0/' sums && sha256sum -c sums`);
    expect(bad).toEqual({ stdout: 'a.txt: FAILED\n', stderr: 'sha256sum: WARNING: 1 computed checksum did NOT match\n', exit: 1 });
    const gone = await runShell(`${file}sha256sum a.txt > sums && rm a.txt && sha256sum -c sums`);
    expect(gone).toEqual({ stdout: 'a.txt: FAILED open or read\n', stderr: 'sha256sum: a.txt: No such file or directory\nsha256sum: WARNING: 1 listed file could not be read\n', exit: 1 });
    const garbage = await runShell(`${file}sha256sum a.txt > sums && echo garbage >> sums && sha256sum -c sums`);
    expect(garbage).toEqual({ stdout: 'a.txt: OK\n', stderr: 'sha256sum: WARNING: 1 line is improperly formatted\n', exit: 0 });
  });
  it('-c takes --quiet, --status, --ignore-missing and -w', async () => {
    const r = await runShell(`${file}sha256sum a.txt > sums && sha256sum --quiet -c sums; echo $?; sha256sum --status -c sums; echo $?; echo bad >> sums; sha256sum -w -c sums 2>&1; rm a.txt; sha256sum -c --ignore-missing sums 2>&1; echo $?`);
    expect(r.stdout).toBe('0\n0\na.txt: OK\nsha256sum: sums: 2: improperly formatted SHA256 checksum line\nsha256sum: WARNING: 1 line is improperly formatted\nsha256sum: WARNING: 1 line is improperly formatted\nsha256sum: sums: no file was verified\n1\n');
  });
});
