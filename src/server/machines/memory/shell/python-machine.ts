/**
 * The machine a `python3` program of the shell engine sees, as Python source for the wrapper's prelude
 * (python-command.ts): `_spritzer_machine(uid, gid, groups, uname, environ)` makes `os.environ` the exported variables (and
 * `PYTHONDONTWRITEBYTECODE` hold), `os.getuid()`/`geteuid()`/`getgid()`/`getegid()`/`getgroups()` the user's (its
 * groups as getgroups(2) lists them: `[27, 100, 1001]` for the sprite user),
 * `os.uname()` (so `platform.system()`/`machine()`/`node()`) what `uname` prints, `socket.gethostname()` the
 * sprite's host name, `sys.executable` the interpreter's path on the machine (not the server's worker file), `os.access` access(2)'s rule for
 * that user (so `shutil.which`), and installs `pwd`/`grp` reading /etc/passwd and /etc/group as glibc's files
 * database does (the WebAssembly CPython has neither; `Path.owner`/`group` and modules that looked for them at
 * start-up get them too). One statement per line: just-bash indents each line of the program it is given.
 * `_spritzer_platform()` makes `sys.platform` `linux` and `os.cpu_count()`/`sched_getaffinity` the sprite's CPUs
 * (`nproc`); it runs after the prelude's imports, just before the program.
 * @see https://docs.python.org/3/library/os.html, https://docs.python.org/3/library/pwd.html
 */
import { SPRITE_MACHINE } from './sysinfo-commands.ts';
export const PYTHON_MACHINE: readonly string[] = [
  // The WebAssembly CPython reports the build's platform (`emscripten`) and 1 CPU: what a program branches on
  // (`sys.platform.startswith("linux")`, `os.cpu_count()` for a pool's size) says what the sprite's Linux would.
  'def _spritzer_platform():',
  '    import os, sys',
  `    os.cpu_count = lambda: ${SPRITE_MACHINE.cpus}`,
  `    os.sched_getaffinity = lambda pid: set(range(${SPRITE_MACHINE.cpus}))`,
  `    os.process_cpu_count = lambda: ${SPRITE_MACHINE.cpus}`,
  '    sys.platform = "linux"',
  'def _spritzer_machine(uid, gid, groups, uname, environ):',
  '    import os, sys, types, platform',
  '    os.environ.clear()',
  '    os.environ.update(environ)',
  '    sys.dont_write_bytecode = bool(environ.get("PYTHONDONTWRITEBYTECODE"))',
  '    os.getuid = os.geteuid = lambda: uid',
  '    os.getgid = os.getegid = lambda: gid',
  '    os.getgroups = lambda: list(groups)',
  '    real_uname = os.uname()',
  '    try: node = open("/etc/hostname").read().strip() or real_uname.nodename',
  '    except OSError: node = real_uname.nodename',
  '    os.uname = lambda: type(real_uname)((uname[0], node) + tuple(uname[1:]))',
  '    import socket',
  '    socket.gethostname = lambda: node',
  '    sys.executable = sys._base_executable = "/usr/bin/python3"',
  '    platform._uname_cache = None',
  '    platform._Processor.get_emscripten = lambda: ""',
  '    def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):',
  '        try: st = os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)',
  '        except (OSError, ValueError): return False',
  '        if mode == os.F_OK: return True',
  '        is_dir = (st.st_mode & 0o170000) == 0o040000',
  '        if uid == 0: bits = 6 | (1 if is_dir or st.st_mode & 0o111 else 0)',
  '        elif st.st_uid == uid: bits = (st.st_mode >> 6) & 7',
  '        elif st.st_gid == gid or st.st_gid in groups: bits = (st.st_mode >> 3) & 7',
  '        else: bits = st.st_mode & 7',
  '        return (bits & mode) == mode',
  '    os.access = access',
  '    def database(path, name, kind, fields):',
  '        module = types.ModuleType(name)',
  '        entry = type("struct_" + kind, (tuple,), {"__slots__": (), "__module__": name, "__repr__": lambda self: name + ".struct_" + kind + "(" + ", ".join(n + "=" + repr(v) for n, v in zip(fields, self)) + ")"})',
  '        for i, n in enumerate(fields): setattr(entry, n, property(lambda self, i=i: self[i]))',
  '        def entries():',
  '            try: lines = open(path).read().splitlines()',
  '            except OSError: return []',
  '            return [entry(conv(p) for conv, p in zip(convs, line.split(":"))) for line in lines if line.count(":") == len(fields) - 1]',
  '        convs = [str, str, int, int, str, str, str] if kind == "passwd" else [str, str, int, lambda v: [m for m in v.split(",") if m]]',
  '        def by(index, label, what):',
  '            def get(value):',
  '                for e in entries():',
  '                    if e[index] == value: return e',
  '                raise KeyError(label + "(): " + what + " not found: " + repr(value))',
  '            return get',
  '        setattr(module, "struct_" + kind, entry)',
  '        short = "pw" if kind == "passwd" else "gr"',
  '        setattr(module, "get" + short + "all", entries)',
  '        setattr(module, "get" + short + "nam", by(0, "get" + short + "nam", "name"))',
  '        setattr(module, "get" + short + ("uid" if kind == "passwd" else "gid"), by(2, "get" + short + ("uid" if kind == "passwd" else "gid"), "uid" if kind == "passwd" else "gid"))',
  '        return module',
  '    sys.modules.setdefault("pwd", database("/etc/passwd", "pwd", "passwd", ("pw_name", "pw_passwd", "pw_uid", "pw_gid", "pw_gecos", "pw_dir", "pw_shell")))',
  '    sys.modules.setdefault("grp", database("/etc/group", "grp", "group", ("gr_name", "gr_passwd", "gr_gid", "gr_mem")))',
  '    for module in list(sys.modules.values()):',
  '        for name in ("pwd", "grp"):',
  '            if getattr(module, name, 0) is None: setattr(module, name, sys.modules[name])',
  '    import pathlib',
  '    if "owner" not in pathlib.Path.__dict__:',
  '        pathlib.Path.owner = lambda self, *, follow_symlinks=True: sys.modules["pwd"].getpwuid(self.stat(follow_symlinks=follow_symlinks).st_uid).pw_name',
  '        pathlib.Path.group = lambda self, *, follow_symlinks=True: sys.modules["grp"].getgrgid(self.stat(follow_symlinks=follow_symlinks).st_gid).gr_name',
];
