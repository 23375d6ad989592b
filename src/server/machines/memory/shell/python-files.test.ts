/**
 * Python's file metadata and POSIX calls on the shell engine, compared with the host's CPython where the answer does
 * not depend on its version: directory modes (patches/just-bash/python-mkdir-mode), `os.utime`
 * (python-utime, python-utime-handler), access times (python-utimes-atime, python-utimes-atime-encode), link counts and inode numbers (python-stat-with-links), the UTC zone's name
 * (python-utc-zone-name), and what python-posix.ts installs (`os.chmod(follow_symlinks=False)`,
 * `os.get_terminal_size`, `signal.alarm(0)`, `time.tzset`, `os.sysconf`'s page size, and the loud refusals).
 */
import { describe, expect, it } from 'vitest';
import { engineBash, hostBash, hostHas } from '../../../../../test/support/host-bash.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';

const refusal = (what: string) => `python3: ${what} is not available in the shell engine; run spritzer with --exec sandbox\n`;

describe.skipIf(!hostHas('python3'))('python3 file metadata, as CPython on Linux', () => {
  it.each([
    [
      'directories get the mode asked for, less the umask',
      `python3 -c 'import os, pathlib, tempfile
os.mkdir("d", 0o700); os.makedirs("a/b", mode=0o750); pathlib.Path("p").mkdir(mode=0o711); t = tempfile.mkdtemp(dir=".")
print(*(oct(os.stat(x).st_mode & 0o777) for x in ("d", "a", "a/b", "p", t)))'; umask 077; python3 -c 'import os; os.mkdir("e"); print(oct(os.stat("e").st_mode & 0o777))'`,
    ],
    [
      'os.utime sets the modification time; copy2 and tarfile keep it',
      `python3 -c 'import os; open("f","w"); os.utime("f", (0, 86400)); print(os.stat("f").st_mtime)'; date -u -r f +%F
touch -d "2001-09-09 01:46:40 UTC" g; python3 -c 'import shutil; shutil.copy2("g","h")'; date -u -r h '+%F %T'
mkdir d; echo hi > d/f; touch -d "2010-01-01 UTC" d/f; tar cf a.tar d; rm -rf d; python3 -c 'import tarfile, warnings; warnings.simplefilter("ignore"); tarfile.open("a.tar").extractall()'; date -u -r d/f +%F
python3 -c 'import os, time; os.utime("g"); print(abs(os.stat("g").st_mtime - time.time()) < 60)'`,
    ],
    [
      'st_atime is the access time; os.utime sets it apart, and copy2 keeps the source\'s',
      `python3 -c 'import os; open("f","w").close(); os.utime("f", (86400, 172800)); s = os.stat("f"); print(int(s.st_atime), int(s.st_mtime))'; stat -c '%X %Y' f
touch -a -d 2030-01-01 g; touch -m -d 2000-01-01 g; python3 -c 'import os, shutil; s = os.stat("g"); print(int(s.st_atime), int(s.st_mtime)); shutil.copy2("g", "h")'; stat -c '%X %Y' h`,
    ],
    [
      'st_nlink and st_ino see hard links; samefile tells them from copies',
      `echo x > f; ln f h; cp f c; python3 -c 'import os; print(os.stat("f").st_nlink, os.stat("c").st_nlink, os.path.samefile("f","h"), os.path.samefile("f","c"), os.stat("f").st_ino == os.stat("h").st_ino)'`,
    ],
    [
      'chmod(follow_symlinks=False) is not implemented for a symlink (the target keeps its mode), and is chmod for a file',
      `echo x > f; ln -s f l; python3 -c 'import os
try: os.chmod("l", 0o600, follow_symlinks=False)
except NotImplementedError as e: print(type(e).__name__, e)
os.chmod("f", 0o640, follow_symlinks=False)'; stat -c %a f`,
    ],
    [
      'the zone is UTC, by name; tzset with TZ=UTC keeps it',
      `python3 -c 'import time, datetime, os; print(time.tzname, time.localtime(0).tm_zone, datetime.datetime.now().astimezone().tzname()); os.environ["TZ"] = "UTC"; time.tzset(); print(time.strftime("%Z", time.localtime(0)))'`,
    ],
    [
      'no terminal: get_terminal_size fails with ENOTTY, shutil falls back to 80x24; alarm(0) cancels nothing',
      `python3 -c 'import os, shutil, errno, signal
try: os.get_terminal_size()
except OSError as e: print(e.errno == errno.ENOTTY, e)
print(tuple(shutil.get_terminal_size()), signal.alarm(0))'`,
    ],
    [
      'a page is 4096 bytes by any of sysconf\'s names for it, as getconf says',
      `python3 -c 'import os; print(os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_PAGESIZE"), os.sysconf(os.sysconf_names["SC_PAGESIZE"]), os.sysconf("SC_CLK_TCK"))'; getconf PAGESIZE`,
    ],
  ])('%s', async (_name, script) => {
    expect(await engineBash(script)).toEqual(hostBash(script));
  }, 60_000);
});

describe('python3 refuses loudly what its filesystem and process cannot do', () => {
  it('os.link, os.mkfifo, signal.alarm(N) and tzset to another zone name --exec sandbox and exit 2', async () => {
    const got = await runShell(
      [
        `python3 -c 'import os; open("x","w"); os.link("x","y")'; echo "rc=$?"`,
        `python3 -c 'import os; os.mkfifo("p")'; echo "rc=$?"`,
        `python3 -c 'import signal; signal.alarm(5)'; echo "rc=$?"`,
        `python3 -c 'import os, time; os.environ["TZ"] = "America/New_York"; time.tzset()'; echo "rc=$?"`,
      ].join('\n'),
    );
    expect(got).toEqual({
      stdout: 'rc=2\nrc=2\nrc=2\nrc=2\n',
      stderr: refusal('a hard link (os.link)') + refusal('a named pipe (os.mkfifo)') + refusal('a timer signal (signal.alarm)') + refusal('a time zone other than UTC (time.tzset)'),
      exit: 0,
    });
  }, 60_000);
});
