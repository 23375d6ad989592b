import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

const SETUP = "mkdir -p src/lib && printf 'a\\n' > src/main.py && printf 'b\\n' > src/lib/util.ts && printf 'z\\n' > src/zz.txt && ";
/** The `-v` summary with its numbers hidden (rsync's own depend on its protocol and the clock). */
const digits = (s: string) => s.replace(/\d[\d,.]*/g, 'N');

// Outputs as rsync 3.5 gives them between local paths (checked on a GNU/Linux host).
describe('rsync', () => {
  it('copies a directory\'s contents (src/) or the directory itself (src), listing names in rsync\'s order', async () => {
    const r = await runShell(`${SETUP}rsync -av src/ dst/ && rsync -av src out && find dst out | sort`);
    expect(digits(r.stdout)).toBe(
      'sending incremental file list\ncreated directory dst\n./\nmain.py\nzz.txt\nlib/\nlib/util.ts\n\nsent N bytes  received N bytes  N bytes/sec\ntotal size is N  speedup is N\n' +
        'sending incremental file list\ncreated directory out\nsrc/\nsrc/main.py\nsrc/zz.txt\nsrc/lib/\nsrc/lib/util.ts\n\nsent N bytes  received N bytes  N bytes/sec\ntotal size is N  speedup is N\n' +
        'dst\ndst/lib\ndst/lib/util.ts\ndst/main.py\ndst/zz.txt\nout\nout/src\nout/src/lib\nout/src/lib/util.ts\nout/src/main.py\nout/src/zz.txt\n',
    );
  });
  it('sends nothing the second time with -a; --delete removes extraneous names first; filters pick names', async () => {
    const r = await runShell(`${SETUP}rsync -a src/ d/ && rsync -av src/ d/ | head -2 && echo new > d/extra.txt && rsync -av --delete --exclude='*.ts' src/ d/ | grep deleting; rsync -a --include='*.py' --include='*/' --exclude='*' src/ f/ && find f | sort`);
    expect(r.stdout).toBe('sending incremental file list\n\ndeleting extra.txt\nf\nf/lib\nf/main.py\n');
  });
  it('skips a directory without -r, writes nothing with -n, and fails on a missing source with code 23', async () => {
    const r = await runShell(`${SETUP}rsync src none; ls none; rsync -rn src/ dry/; ls dry; rsync -a nope/ x/; echo "rc=$?"`);
    expect(r.stdout).toBe('skipping directory src\nrc=23\n');
    expect(r.stderr).toMatch(/^ls: cannot access 'none'.*\nls: cannot access 'dry'.*\nrsync: \[sender\] change_dir ".*\/nope" failed: No such file or directory \(2\)\nrsync error: some files\/attrs were not transferred/);
  });
  it('refuses a remote host and the options whose output it cannot give, loudly', async () => {
    const r = await runShell('rsync -a a host:dir/; echo $?; rsync --progress a b; echo $?');
    expect(r.stdout).toBe('2\n2\n');
    expect(r.stderr).toContain('rsync: a remote host (host:path) is not available in the shell engine; run spritzer with --exec sandbox');
  });
});
