import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { YES_LIMIT_BYTES } from './coreutils-extra.ts';

// GNU coreutils' yes, nice, stdbuf, sync, hostid, dir and vdir, as on a sprite.

describe('yes', () => {
  it('repeats y or its words for as long as the reader reads; the pipe closing gives 141 under pipefail', async () => {
    const r = await runShell('yes | head -2; yes a b | sed 3q; set -o pipefail; yes n | head -1; echo "st=$?"');
    expect(r).toEqual({ stdout: 'y\ny\na b\na b\na b\nn\nst=141\n', stderr: '', exit: 0 });
  });
  it('writes at most its limit when nothing closes the pipe', async () => {
    expect((await runShell('yes | wc -c')).stdout).toBe(`${YES_LIMIT_BYTES}\n`);
  });
  it('reads options up to the first --, as GNU getopt does, and refuses any other option', async () => {
    expect(await runShell('yes -- -n | head -1; yes a -- b | head -1; yes -- a -- b | head -1; yes "" | head -3 | wc -l; yes é | head -c 100000 | wc -c; echo ${PIPESTATUS[*]}')).toEqual({
      stdout: '-n\na b\na -- b\n3\n100000\n141 0 0\n',
      stderr: '',
      exit: 0,
    });
    expect(await runShell('yes -n; echo "st=$?"; yes --nope; echo "st=$?"')).toEqual({
      stdout: 'st=1\nst=1\n',
      stderr: "yes: invalid option -- 'n'\nTry 'yes --help' for more information.\nyes: unrecognized option '--nope'\nTry 'yes --help' for more information.\n",
      exit: 0,
    });
  });
});

describe('nice, stdbuf, sync, hostid', () => {
  it('nice prints niceness 0 and runs its command; stdbuf runs its command', async () => {
    expect(await runShell('nice; nice -n 5 echo x; nice -5 echo y; stdbuf -oL echo z; sync; echo "st=$?"')).toEqual({ stdout: '0\nx\ny\nz\nst=0\n', stderr: '', exit: 0 });
  });
  it('nice runs its command at the raised niceness, which child shells inherit; lowering it is refused with a warning', async () => {
    const r = await runShell('nice -n 5 nice; nice nice; nice -n 3 bash -c nice; nice -n 15 nice -n 10 nice; nice -n -3 nice; echo "st=$?"; nice');
    expect(r).toEqual({ stdout: '5\n10\n3\n19\n0\nst=0\n0\n', stderr: 'nice: cannot set niceness: Permission denied\n', exit: 0 });
  });
  it('who and users print nothing (no one is logged in to a sprite), who -q the zero count; other options are refused loudly', async () => {
    const r = await runShell('who; users; who -q; echo "st=$?"; who -b; echo "st=$?"');
    expect(r.stdout).toBe('\n# users=0\nst=0\nst=2\n');
    expect(r.stderr).toBe('who: option -b is not available in the shell engine; run spritzer with --exec sandbox\n');
  });
  it('nice and stdbuf fail as GNU with a bad adjustment or no mode', async () => {
    const r = await runShell('nice -n x echo a; echo "st=$?"; stdbuf echo b; echo "st=$?"');
    expect(r.stdout).toBe('st=125\nst=125\n');
    expect(r.stderr).toBe("nice: invalid adjustment 'x'\nTry 'nice --help' for more information.\nstdbuf: you must specify a buffering mode option\nTry 'stdbuf --help' for more information.\n");
  });
  it('hostid derives from the sprite\'s 127.0.1.1 as glibc does without /etc/hostid', async () => {
    expect((await runShell('hostid')).stdout).toBe('007f0101\n');
  });
});

describe('dir and vdir', () => {
  it('are ls -C -b and ls -l -b', async () => {
    const r = await runShell('mkdir d; touch d/x "d/a b"; dir d; vdir d | cut -c1-10');
    expect(r.stdout).toBe('a\\ b  x\ntotal 0\n-rw-r--r--\n-rw-r--r--\n');
  });
});

describe('programs a sprite has that the shell engine lacks', () => {
  it('fail loudly (127, naming --exec sandbox), never as command not found', async () => {
    const r = await runShell('ptx f 2>&1; echo "st=$?"; shred x 2>/dev/null; echo "st=$?"');
    expect(r.stdout).toBe('ptx: not available in the shell engine; run spritzer with --exec sandbox\nst=127\nst=127\n');
  });
});
