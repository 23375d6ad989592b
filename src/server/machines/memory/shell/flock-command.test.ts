/**
 * `flock FILE COMMAND` and `flock FILE -c COMMAND` on the shell engine, compared with util-linux's flock run by the
 * host's bash in an empty directory: the lock file made, the command's status, a conflict under `-n`/`-w 0`/`-E`,
 * shared locks, and each usage error and exec failure with flock's words and status.
 */
import { describe, expect, it } from 'vitest';
import { engineBash, hostBash, hostHas } from '../../../../../test/support/host-bash.ts';
import { runShell, testSprite } from '../../../../../test/support/shell-run.ts';
import { createShellEngine } from './engine.ts';
import { SystemClock } from '../../../core/clock.ts';

describe.runIf(hostHas('flock'))('flock, as util-linux runs it', () => {
  it.each([
    'flock -n l -c "echo locked"; echo "rc=$?"; stat -c %a l',
    'flock l sh -c "exit 3"; echo "rc=$?"',
    'flock -x l -c \'flock -n l -c "echo inner"; echo "inner rc=$?"\'',
    'flock -s l -c \'flock -s -n l -c "echo shared-inner"; flock -n l true; echo "x rc=$?"\'',
    'flock -n -E 7 l -c \'flock -n -E 7 l true; echo "E rc=$?"\'',
    'flock -w 0 l -c \'flock -w 0 l true; echo "w0=$?"\'',
    'mkdir d; flock d -c "echo dir-lock"; ln -s l2 link; flock link true; ls',
    'flock l nosuchcmd; echo "rc=$?"; flock l /; echo "rc=$?"',
    'flock; echo "rc=$?"; flock l; echo "rc=$?"; flock -c "echo hi" l; echo "rc=$?"; flock l -c; echo "rc=$?"; flock l -c a b; echo "rc=$?"',
    'flock nodir/x true; echo "rc=$?"; flock --bogus l true; echo "rc=$?"; flock -E x l true; echo "rc=$?"',
    'umask 077; flock new true; stat -c %a new',
  ])('%s', async (script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});

describe('flock on the shell engine', () => {
  it('waits for a lock another flock of the sprite holds, then takes it', async () => {
    // On the system clock: the background holder sleeps for real while the second flock waits.
    let out = '';
    const proc = createShellEngine({ clock: new SystemClock() }).start(
      testSprite(),
      { argv: ['sh', '-c', 'flock /tmp/l -c "sleep 0.3; echo first" & sleep 0.1; flock /tmp/l -c "echo second"; wait'], env: { PATH: '/usr/bin:/bin' }, dir: '/tmp', tty: false, rows: 24, cols: 80 },
      { stdout: (d) => void (out += Buffer.from(d).toString()), stderr: (d) => void (out += Buffer.from(d).toString()) },
      { stdin: false },
    );
    expect(await proc.exit).toBe(0);
    expect(out).toBe('first\nsecond\n');
  });

  it('refuses loudly what it does not do: a descriptor, a timed wait on a held lock, --verbose', async () => {
    const r = await runShell('exec 9>/tmp/l; flock -n 9; echo "rc=$?"; flock /tmp/m -c "flock -w 1 /tmp/m true; echo w=\\$?"; flock --verbose /tmp/m true; echo "rc=$?"');
    expect(r.stdout).toBe('rc=2\nw=2\nrc=2\n');
    expect(r.stderr).toBe([
      'flock: locking a descriptor the shell opened (flock FD) is not available in the shell engine; run spritzer with --exec sandbox',
      'flock: waiting for a lock with a timeout (-w) is not available in the shell engine; run spritzer with --exec sandbox',
      'flock: --verbose is not available in the shell engine; run spritzer with --exec sandbox',
      '',
    ].join('\n'));
  });
});
