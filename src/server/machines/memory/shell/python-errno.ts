/**
 * The error numbers a `python3` program of the shell engine sees, as Linux has them. The WebAssembly CPython is
 * built against Emscripten's libc, whose numbers differ from Linux's (ENOENT 44 for 2, EEXIST 20 for 17, EACCES 2 for
 * 13) and whose messages differ here and there ("Symbolic link loop" for "Too many levels of symbolic links"), so
 * `open("nope")` said `[Errno 44]`, `e.errno == 2` was false, and a file under an absolute path was named
 * `/host/...` (where the interpreter mounts the sprite's files). `_spritzer_errno(table)` (Python source for the
 * wrapper's prelude, python-command.ts) makes the `errno` module Linux's, gives every error raised through the os
 * functions and `open` Linux's number, message and the file name as the program gave it, keeps the modules that
 * compare numbers they copied at import (pathlib, socket) answering for both, and returns the function the wrapper
 * applies to an uncaught error before printing its traceback. One statement per line (just-bash indents each line).
 * @see https://man7.org/linux/man-pages/man3/errno.3.html; Linux include/uapi/asm-generic/errno-base.h, errno.h
 */

/** The prelude's Python: `_spritzer_errno(table)` as described in the module comment. */
export const PYTHON_ERRNO: readonly string[] = [
  'def _spritzer_errno(table):',
  '    import errno, sys, os, io, builtins',
  '    to_linux = {}',
  '    for name, number, text in table:',
  '        if hasattr(errno, name): to_linux.setdefault(getattr(errno, name), (number, text))',
  '    def unmounted(name):',
  '        if isinstance(name, str) and (name == "/host" or name.startswith("/host/")): return name[5:] or "/"',
  '        if isinstance(name, bytes) and (name == b"/host" or name.startswith(b"/host/")): return name[5:] or b"/"',
  '        return name',
  '    def linux_error(e):',
  '        if not isinstance(e, OSError) or e.__dict__.get("_spritzer_linux"): return e',
  '        e._spritzer_linux = True',
  '        if e.errno in to_linux and len(e.args) == 2:',
  '            e.errno, e.strerror = to_linux[e.errno]',
  '            e.args = (e.errno, e.strerror)',
  '        if e.filename is not None: e.filename = unmounted(e.filename)',
  '        if e.filename2 is not None: e.filename2 = unmounted(e.filename2)',
  '        return e',
  '    def guarded(func):',
  '        def wrapper(*args, **kwargs):',
  '            try: return func(*args, **kwargs)',
  '            except OSError as e:',
  '                linux_error(e)',
  '                raise',
  '        wrapper.__name__, wrapper.__qualname__, wrapper.__doc__, wrapper.__wrapped__ = func.__name__, func.__qualname__, func.__doc__, func',
  '        return wrapper',
  '    for name in ("stat", "lstat", "open", "access", "chmod", "chown", "lchown", "utime", "truncate", "readlink", "unlink", "remove", "rmdir", "mkdir", "makedirs", "listdir", "scandir", "chdir", "mkfifo", "mknod", "statvfs", "removedirs", "rename", "replace", "renames", "link", "symlink", "getcwd", "read", "write", "close", "fstat", "lseek", "ftruncate", "fsync", "dup", "dup2", "kill"):',
  '        func = getattr(os, name, None)',
  '        if func is None: continue',
  '        wrapped = guarded(func)',
  '        setattr(os, name, wrapped)',
  '        for group in ("supports_fd", "supports_dir_fd", "supports_follow_symlinks", "supports_effective_ids"):',
  '            members = getattr(os, group, None)',
  '            if isinstance(members, set) and func in members: members.add(wrapped)',
  '    builtins.open = io.open = guarded(builtins.open)',
  '    for name, number, text in table:',
  '        if hasattr(errno, name): setattr(errno, name, number)',
  '    errno.errorcode = {}',
  '    for name, number, text in table: errno.errorcode.setdefault(number, name)',
  '    for module in list(sys.modules.values()):',
  '        names = getattr(module, "__dict__", None)',
  '        if names is None or module is errno: continue',
  '        for key, value in list(names.items()):',
  '            if "errno" in key.lower() and isinstance(value, (tuple, frozenset, set)) and value and all(type(v) is int for v in value):',
  '                names[key] = type(value)(list(value) + [to_linux[v][0] for v in value if v in to_linux and to_linux[v][0] not in value])',
  '    return linux_error',
];
