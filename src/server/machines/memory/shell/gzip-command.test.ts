import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';

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

describe('gzip as GNU gzip writes and reports', () => {
  const lines = "printf 'line1\\nline2\\nline3\\nline4\\nline5\\nline6\\nline7\\nline8\\nline9\\nline10\\nline11\\nline12\\n' > lines.txt; ";
  it("deflates as GNU gzip (the same bytes at each level), storing a file's name and time unless -n", async () => {
    const r = await runShell(`${lines}gzip -nc lines.txt | sha256sum; gzip -9nc lines.txt | sha256sum; printf 'hello world\\n' > a.txt; touch -d @1700000000 a.txt; gzip -c a.txt | od -A n -t x1 | head -1`);
    expect(r.stdout).toBe('1696ddc1037e9e98fd0c9e2538e76fce1e4884bdd2e660209e3c7c06d482be21  -\n8cbd62f7f053b1653732624b80ab476f80946bbb583dcf181cbf2c78545fcaa7  -\n 1f 8b 08 08 00 f1 53 65 00 03 61 2e 74 78 74 00\n');
  });
  it('ends its blocks where GNU gzip does, so a larger input has the same bytes too', async () => {
    const r = await runShell('seq 1 20000 | gzip -n | sha256sum; seq 1 20000 | gzip -9n | sha256sum; seq 1 20000 | gzip -1n | sha256sum');
    expect(r.stdout).toBe('e189cff5b0987a41d479bbf8294a282aa22fd46bb01a26a4896c30103ae805d9  -\nfc92c515a0f1b435afd43a90dd64df4f831ab8d18d91a7cd30b54c771febae0f  -\nde3ea91a9f4d732adf11b8ee0262a7da5896307ec1f17b892e1fafc9c6e5c44e  -\n');
  });
  it('bytes output next to an error passes through a pipe or a redirection (xz too)', async () => {
    const r = await runShell("echo hi > a.txt; gzip -c a.txt nope | wc -c; gzip -c a.txt nope 2>/dev/null | gunzip; xz -c a.txt nope 2>/dev/null | xz -dc");
    expect(r).toEqual({ stdout: '29\nhi\nhi\n', stderr: 'gzip: nope: No such file or directory\n', exit: 0 });
  });
  it('-l adds a totals line (the last header off the total), -lv the method, CRC and time', async () => {
    const r = await runShell(`printf 'hello world\\n' > a.txt; gzip -k a.txt; gzip -l a.txt.gz a.txt; printf 'hi\\n' | gzip -c > s.gz; touch -d @1700000000 s.gz; gzip -lv s.gz`);
    expect(r.stdout).toBe(
      '         compressed        uncompressed  ratio uncompressed_name\n                 38                  12 -16.7% a.txt\n                 38                  12 -216.7% (totals)\n' +
        'method  crc     date  time           compressed        uncompressed  ratio uncompressed_name\ndefla ed6f7a7a Nov 14 22:13                  23                   3 -66.7% s\n',
    );
    expect(r.stderr).toBe('\ngzip: a.txt: not in gzip format\n');
  });
  it('refuses a symlink operand (it would replace it), starts format errors on a line of their own', async () => {
    const r = await runShell("echo a > a.txt; ln -s a.txt l.txt; gzip l.txt; echo \"s=$?\"; ls; printf 'nogzip' > bad.gz; gzip -t bad.gz; echo \"s=$?\"");
    expect(r).toEqual({ stdout: 's=1\na.txt\nl.txt\ns=1\n', stderr: 'gzip: l.txt: Too many levels of symbolic links\n\ngzip: bad.gz: not in gzip format\n', exit: 0 });
  });
});

// GNU gzip 1.12: a name that already has the suffix is left alone with a warning, status 0 (measured).
describe('gzip of a file that already has the suffix', () => {
  it('warns (silent with -q), leaves it unchanged and exits 0', async () => {
    const got = await runShell('echo x > f && gzip -k f && gzip f.gz; echo "rc=$?"; gzip -q f.gz; echo "rc=$?"; ls');
    expect(got).toEqual({ stdout: 'rc=0\nrc=0\nf\nf.gz\n', stderr: 'gzip: f.gz already has .gz suffix -- unchanged\n', exit: 0 });
  });
});

describe('gunzip finds NAME.gz for NAME and gives the file a time as GNU gzip does', () => {
  it.each([
    'touch -d 2010-01-01 f; gzip f; gunzip f.gz; stat -c %y f',
    "echo x > f; gzip -k f; touch -d '2010-01-01 UTC' f; gzip -f f; gunzip f.gz; date -u -r f +%F",
    'touch -d 2010-01-01 f; gzip -n f; gunzip f.gz; date -u -r f +%Y',
    'touch -d 2010-01-01 f; gzip -k f; touch -d 2012-01-01 f.gz; rm f; gunzip f.gz; date -u -r f +%Y',
    'touch -d 2010-01-01 f; gzip -k f; touch -d 2012-01-01 f.gz; rm f; gunzip -N f.gz; date -u -r f +%Y',
    'touch -d 2010-01-01 f; gzip -k f; touch -d 2012-01-01 f.gz; gunzip -f f.gz; date -u -r f +%Y',
    'echo x > g; gzip g; touch -d 2011-01-01 g.gz; gunzip g; date -u -r g +%Y; ls g*',
    'echo x > g; gzip g; zcat g; gunzip -t g; gzip -d -v g; ls g*',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
