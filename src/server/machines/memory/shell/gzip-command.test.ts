import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

// Outputs as GNU gzip 1.12 gives them (checked with bash on a GNU/Linux host).
const files = "printf 'hello world\\n' > a.txt; printf '3\\n1\\n' > nums.txt; ";

describe('gzip, gunzip, zcat', () => {
  it('-tv says OK after a tab and a space, on stderr', async () => {
    expect(await runShell(`${files}gzip -k a.txt && gzip -tv a.txt.gz`)).toEqual({ stdout: '', stderr: 'a.txt.gz:\t OK\n', exit: 0 });
  });
  it('decompresses to stdout whatever the name, and passes plain data through with -f', async () => {
    const r = await runShell(`${files}gzip -c nums.txt > n.data; gunzip -c n.data; zcat < n.data; zcat -f a.txt`);
    expect(r).toEqual({ stdout: '3\n1\n3\n1\nhello world\n', stderr: '', exit: 0 });
  });
  it('-S takes its suffix as a value, in a cluster or as the next word, to stdout too', async () => {
    const r = await runShell("printf 'hi\\n' > a.txt && gzip -S .z -k a.txt && gunzip -S .z -c a.txt.z && gzip -dcS.z a.txt.z && zcat --suffix .z a.txt.z && rm a.txt && gunzip -S .z a.txt.z && ls a.txt*");
    expect(r).toEqual({ stdout: 'hi\nhi\nhi\na.txt\n', stderr: '', exit: 0 });
  });
  it('empty input (or a lone first magic byte) is an unexpected end of file; -f passes it through', async () => {
    const r = await runShell(`: > e.gz; gunzip -c e.gz; echo "s=$?"; printf '\\037' | gzip -dc; echo "s=$?"; zcat -f e.gz | wc -c`);
    expect(r).toEqual({ stdout: 's=1\ns=1\n0\n', stderr: '\ngzip: e.gz: unexpected end of file\n\ngzip: stdin: unexpected end of file\n', exit: 0 });
  });
  it('words its errors as gzip, with GNU statuses', async () => {
    const r = await runShell(`${files}zcat nope.gz; echo "s=$?"; gzip -k a.txt; gzip -k a.txt; echo "s=$?"; gunzip -c a.txt; echo "s=$?"; mkdir d; gzip d; echo "s=$?"`);
    expect(r).toEqual({
      stdout: 's=1\ns=2\ns=1\ns=2\n',
      stderr: 'gzip: nope.gz: No such file or directory\ngzip: a.txt.gz already exists;\tnot overwritten\n\ngzip: a.txt: not in gzip format\ngzip: d is a directory -- ignored\n',
      exit: 0,
    });
  });
});

describe('zgrep', () => {
  it('searches compressed and plain files, naming them when there are several', async () => {
    const r = await runShell("printf 'hello world\\nfoo\\n' > a.txt; gzip -c a.txt > a.gz; zgrep hello a.gz; zgrep -c o a.gz a.txt; echo hello | gzip | zgrep -n hel");
    expect(r).toEqual({ stdout: 'hello world\na.gz:2\na.txt:2\n1:hello\n', stderr: '', exit: 0 });
  });
});
