/**
 * POSIX calls the WebAssembly CPython lacks or answers unlike Linux, as Python source for the wrapper's prelude
 * (python-command.ts). `_spritzer_posix(refusing)` (where `refusing(what)` makes a function that prints the shell
 * engine's refusal and exits 2) installs:
 * - `os.chmod(…, follow_symlinks=False)` on a symlink raises NotImplementedError, as CPython on Linux does (glibc's
 *   fchmodat cannot change a link's mode); on anything else it is a plain chmod (the WebAssembly build changed the
 *   link's target instead).
 * - `os.get_terminal_size()` raises `OSError: [Errno 25] Inappropriate ioctl for device` (Linux's number, already
 *   in the form python-errno.ts gives errors: the program's streams are never a terminal here), so `shutil.get_terminal_size()` falls back to `COLUMNS`/`LINES` or 80×24.
 * - `signal.alarm(0)` (cancels no alarm: returns 0), `time.tzset()` with TZ unset or UTC (the zone already in use).
 * - `os.sysconf("SC_PAGE_SIZE")` (and `SC_PAGESIZE`, by name or number) is Linux's 4096 bytes, not WebAssembly's 64 KiB
 *   page, as `getconf PAGESIZE` says.
 * - `os.link`, `os.mkfifo`, a non-zero `signal.alarm` and `time.tzset()` for another zone are refused loudly: the
 *   interpreter's filesystem has no hard links or FIFOs, and it cannot deliver signals or load zone files.
 * @see https://docs.python.org/3/library/os.html#os.chmod, https://docs.python.org/3/library/os.html#os.get_terminal_size
 */
export const PYTHON_POSIX: readonly string[] = [
  'def _spritzer_posix(refusing):',
  '    import os, signal, time, stat',
  '    plain_chmod = os.chmod',
  '    def is_link(path, dir_fd):',
  '        try: return stat.S_ISLNK(os.lstat(path, dir_fd=dir_fd).st_mode)',
  '        except (OSError, TypeError, ValueError): return False',
  '    def chmod(path, mode, *, dir_fd=None, follow_symlinks=True):',
  '        if not follow_symlinks and not isinstance(path, int) and is_link(path, dir_fd):',
  '            raise NotImplementedError("chmod: follow_symlinks unavailable on this platform")',
  '        return plain_chmod(path, mode, dir_fd=dir_fd)',
  '    os.chmod = chmod',
  '    def get_terminal_size(fd=1, /):',
  '        e = OSError(25, "Inappropriate ioctl for device")',
  '        e._spritzer_linux = True',
  '        raise e',
  '    os.get_terminal_size = get_terminal_size',
  '    refuse_alarm = refusing("a timer signal (signal.alarm)")',
  '    def alarm(seconds, /):',
  '        return 0 if seconds == 0 else refuse_alarm()',
  '    if not hasattr(signal, "alarm"): signal.alarm = alarm',
  '    refuse_zone = refusing("a time zone other than UTC (time.tzset)")',
  '    def tzset():',
  '        if os.environ.get("TZ", "").lstrip(":") not in ("", "UTC", "UTC0", "Etc/UTC", "Universal", "Zulu"): refuse_zone()',
  '    if not hasattr(time, "tzset"): time.tzset = tzset',
  '    if not hasattr(os, "link"): os.link = refusing("a hard link (os.link)")',
  '    if not hasattr(os, "mkfifo"): os.mkfifo = refusing("a named pipe (os.mkfifo)")',
  '    plain_sysconf = getattr(os, "sysconf", None)',
  '    page_names = ("SC_PAGE_SIZE", "SC_PAGESIZE")',
  '    page_codes = {os.sysconf_names[n] for n in page_names if n in getattr(os, "sysconf_names", {})}',
  '    def sysconf(name, /):',
  '        if name in page_names or name in page_codes: return 4096',
  '        return plain_sysconf(name)',
  '    if plain_sysconf is not None: os.sysconf = sysconf',
];
