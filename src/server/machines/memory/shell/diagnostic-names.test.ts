import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { quoteDiagnosticNames } from './diagnostic-names.ts';

// GNU coreutils name a file they could not read with quotef: shell-escape quoting, bare when a shell reads the name
// as one plain word (checked with coreutils 9 on a GNU/Linux host).

describe('file names in diagnostics', () => {
  it('are quoted only when a shell would not read them as one plain word', async () => {
    const r = await runShell("cat 'a b' plain; wc '*x'; sort 'a b'; md5sum \"it's\"; base64 \"$(printf 'a\\tb')\"; cut -f1 'a b'; head 'a b'");
    expect(r.stderr).toBe(
      "cat: 'a b': No such file or directory\ncat: plain: No such file or directory\nwc: '*x': No such file or directory\nsort: cannot read: 'a b': No such file or directory\n" +
        "md5sum: \"it's\": No such file or directory\nbase64: 'a'$'\\t''b': No such file or directory\ncut: 'a b': No such file or directory\nhead: cannot open 'a b' for reading: No such file or directory\n",
    );
  });
  it('are GNU\'s for fold, expand and unexpand too (patches/just-bash/fold-missing-file.mjs and the others)', async () => {
    const r = await runShell("echo abcdef > f; fold -w 3 'a b' f; expand nope; unexpand 'x y'; echo \"s=$?\"");
    expect(r).toEqual({ stdout: 'abc\ndef\ns=1\n', stderr: "fold: 'a b': No such file or directory\nexpand: nope: No such file or directory\nunexpand: 'x y': No such file or directory\n", exit: 0 });
  });
  it('are quoted as quoteaf does in the messages that always quote one: "it\'s", control bytes as $\'…\'', async () => {
    const r = await runShell("cp \"it's\" x; head \"$(printf 'a\\tb')\"; rm \"it's\" 'a b'; touch \"nodir/it's\"");
    expect(r.stderr).toBe(
      "cp: cannot stat \"it's\": No such file or directory\nhead: cannot open 'a'$'\\t''b' for reading: No such file or directory\n" +
        "rm: cannot remove \"it's\": No such file or directory\nrm: cannot remove 'a b': No such file or directory\ntouch: cannot touch \"nodir/it's\": No such file or directory\n",
    );
  });
  it('keep the runs of stdout and stderr in their order', () => {
    const r = quoteDiagnosticNames('cat', ['a.txt', 'a b'], { stdout: 'x\n', stderr: 'cat: a b: No such file or directory\n', exitCode: 1, outputOrder: [2, 35] });
    expect(r).toEqual({ stdout: 'x\n', stderr: "cat: 'a b': No such file or directory\n", exitCode: 1, outputOrder: [2, 37] });
  });
});
