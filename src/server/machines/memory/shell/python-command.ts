/**
 * `python3` (and `python`) of the shell engine: just-bash's CPython (WebAssembly) with what it cannot do made loud.
 * That CPython has no processes and no listening sockets, but says so quietly or not at all
 * (`python3 -m http.server` exits 1 with no word); here a listening socket, a subprocess, `os.system`, `fork` or
 * `exec*` print a message naming `--exec sandbox` and exit 2 at once. The program runs as CPython runs it: under its
 * own file name (`<string>` for `-c`), its traceback starting at its own frames, `SystemExit("text")` printing the
 * text. It owns the wrapper program; the interpreter is just-bash's (`ctx.origCommand`).
 * @see https://docs.python.org/3/using/cmdline.html; docs/fidelity.md "What the shell engine cannot do"
 */
import { isStdinOperand } from './text-input.ts';
import { SPRITE_UID } from '../../../../protocol/sprite-tree.ts';
import { KERNEL_RELEASE } from './proc.ts';
import { MACHINE_ARCH } from './sysinfo-commands.ts';
import { PYTHON_MACHINE } from './python-machine.ts';
import { PYTHON_POSIX } from './python-posix.ts';
import { PYTHON_ERRNO } from './python-errno.ts';
import { LINUX_ERRNO } from './linux-errno.ts';
import { buffersStdout, PYTHON_STREAMS, withPythonOutputOrder } from './python-streams.ts';
import { randomBytes } from 'node:crypto';
import { runsAsRoot } from './run-as.ts';
import { accountOf, processGroups } from '../accounts.ts';
import { decodeBytesToUtf8, defineCommand, latin1FromBytes, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';

/** The message of a refusal: what the program used that the shell engine cannot give. */
const refusalText = (what: string): string => `python3: ${what} is not available in the shell engine; run spritzer with --exec sandbox\n`;

/**
 * Python run before the program (one statement per line, no line that continues another: just-bash indents each
 * line of the program it is given). `_spritzer_run(source, filename, argv0, path0)` runs the program.
 */
const PRELUDE = [
  'def _spritzer_setup():',
  '    import sys, os, socket, subprocess',
  '    def refusing(what):',
  '        def refuse(*args, **kwargs):',
  '            sys.stdout.flush()',
  '            sys.stderr.write("python3: " + what + " is not available in the shell engine; run spritzer with --exec sandbox\\n")',
  '            sys.stderr.flush()',
  '            raise SystemExit(2)',
  '        return refuse',
  '    for name in ("system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe", "spawnv", "spawnve", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnvp", "spawnvpe"):',
  '        setattr(os, name, refusing("running a program (os." + name + ")"))',
  '    subprocess.Popen.__init__ = refusing("running a subprocess")',
  '    socket.socket.bind = refusing("a listening socket (bind)")',
  '    socket.socket.listen = refusing("a listening socket (listen)")',
  // The WebAssembly CPython has no IPv6 (EAFNOSUPPORT, which a real sprite never answers): loud, as a listener is.
  '    plain_init = socket.socket.__init__',
  '    def socket_init(self, family=-1, *args, **kwargs):',
  '        if family == socket.AF_INET6: refusing("an IPv6 socket (AF_INET6)")()',
  '        plain_init(self, family, *args, **kwargs)',
  '    socket.socket.__init__ = socket_init',
  // Its socketpair() is emulated with a listener (refused above): say what was asked for (asyncio's event loop makes one).
  '    socket.socketpair = refusing("a socket pair (socket.socketpair, which asyncio\'s event loop opens)")',
  '    import threading',
  '    threading.Thread.start = refusing("a thread (threading.Thread.start)")',
  '    class missing:',
  '        @staticmethod',
  '        def find_spec(name, path=None, target=None):',
  '            if name in ("_sqlite3", "_ssl", "_ctypes", "readline", "_curses", "_lzma", "resource", "fcntl", "zoneinfo", "multiprocessing", "_multiprocessing"):',
  '                raise ModuleNotFoundError("No module named " + repr(name) + ": not available in the shell engine; run spritzer with --exec sandbox", name=name)',
  '    sys.meta_path.insert(0, missing)',
  '    import importlib.machinery',
  '    class unmounted:',
  '        @staticmethod',
  '        def find_spec(name, path=None, target=None):',
  '            spec = importlib.machinery.PathFinder.find_spec(name, path, target)',
  '            if spec is not None and spec.has_location and (spec.origin or "").startswith("/host/"):',
  '                spec.origin = spec.origin[5:]',
  '                if (spec.cached or "").startswith("/host/"): spec.cached = spec.cached[5:]',
  '            return spec',
  '    sys.meta_path.insert(sys.meta_path.index(importlib.machinery.PathFinder), unmounted)',
  '    _spritzer_posix(refusing)',
  ...PYTHON_MACHINE,
  ...PYTHON_POSIX,
  ...PYTHON_ERRNO,
  ...PYTHON_STREAMS,
  'def _spritzer_flags(given):',
  '    import sys, collections',
  '    fields = type(sys.flags).__match_args__',
  '    values = {name: getattr(sys.flags, name) for name in fields}',
  '    values.update(given)',
  '    flags = collections.namedtuple("flags", fields)',
  '    flags.__repr__ = lambda self, plain=flags.__repr__: "sys." + plain(self)',
  '    for name in dir(sys.flags):',
  '        if not name.startswith("_") and name not in fields and not callable(getattr(sys.flags, name)): setattr(flags, name, getattr(sys.flags, name))',
  '    sys.flags = flags(**values)',
  'def _spritzer_run(source, filename, argv0, path0, umask, report, optimize=0, flags=None, warnoptions=()):',
  '    flush_at_error = filename != "<string>"',
  '    import sys, traceback, os, types',
  '    os.umask(umask)',
  '    sys.argv[0] = argv0',
  '    if flags: _spritzer_flags(flags)',
  '    if warnoptions:',
  '        import warnings',
  '        sys.warnoptions.extend(warnoptions)',
  '        warnings._processoptions(list(warnoptions))',
  '    if flags and flags.get("safe_path"): del sys.path[0]',
  '    else: sys.path[0] = path0',
  '    if path0.startswith("/") and not path0.startswith("/host/") and not (flags and flags.get("safe_path")): sys.path.insert(1, "/host" + path0)',
  '    main = types.ModuleType("__main__")',
  '    main.__builtins__, main.__spec__ = __builtins__, None',
  '    if filename != "<string>": main.__file__ = filename',
  '    sys.modules["__main__"] = main',
  '    scope = main.__dict__',
  '    try:',
  '        exec(compile(source, filename, "exec", optimize=optimize), scope)',
  '    except SystemExit as e:',
  '        if flush_at_error: sys.stdout.flush()',
  '        if e.code is not None and not isinstance(e.code, int): sys.stderr.write(str(e.code) + "\\n")',
  '        raise',
  '    except BaseException as e:',
  '        if flush_at_error: sys.stdout.flush()',
  '        own, frames, tb = _spritzer_run.__code__.co_filename, [], e.__traceback__.tb_next',
  '        while tb is not None:',
  '            if tb.tb_frame.f_code.co_filename != own: frames.append(tb)',
  '            tb = tb.tb_next',
  '        tb = None',
  '        seen = e',
  '        for _ in range(64):',
  '            if seen is None: break',
  '            _spritzer_linux_error(seen)',
  '            seen = seen.__cause__ or seen.__context__',
  '        for t in reversed(frames): tb = types.TracebackType(tb, t.tb_frame, t.tb_lasti, t.tb_lineno)',
  '        sys.stderr.write("".join(traceback.format_exception(type(e), e, tb)).replace(\'File "/host/\', \'File "/\'))',
  '        raise SystemExit(1)',
  '    finally:',
  '        if report is not None: report()',
  '_spritzer_setup()',
].join('\n');

/** Linux's error table as a Python literal, for `_spritzer_errno` (python-errno.ts). */
const ERRNO_TABLE = JSON.stringify(LINUX_ERRNO);

/**
 * The wrapper program that runs `source` as `filename` with `sys.argv[0]` = `argv0`, under the shell's file mode
 * creation mask `umask` (a process inherits it: the files and directories the program makes get its modes), as user
 * `uid` (the sprite user 1001, or root under sudo; its gid and groups are that account's, accounts.ts), with `environ` (the exported variables) as `os.environ`
 * (the interpreter is handed every shell variable): the machine the shell's own commands describe (python-machine.ts).
 * `optimize` is CPython's `-O` count: 1 drops `assert` statements and makes `__debug__` false, 2 also docstrings
 * (the program's own code; imported modules compile as usual).
 * @deviation `sys.platform` stays `emscripten`: the interpreter's own modules decide by it what they can do.
 * `flags` are the `sys.flags` fields the options set (`interpreterFlags`); `safe_path` also keeps the program's
 * directory off `sys.path`, as `-I` does. With `orderMarker`, the program's writes are counted and reported after
 * it for the order of its two streams, stdout `buffered` as CPython buffers it off a terminal (python-streams.ts).
 * `warnoptions` are the `-W` options' values, in order: added to `sys.warnoptions` and applied as warning filters,
 * as CPython applies them at start-up.
 */
export function wrapperProgram(source: string, filename: string, argv0: string, path0: string, umask = 0o022, uid = SPRITE_UID, environ: Record<string, string> = {}, orderMarker?: string, optimize = 0, flags: Record<string, number | boolean> = {}, buffered = true, warnoptions: readonly string[] = []): string {
  const uname = JSON.stringify(['Linux', KERNEL_RELEASE, '#1 SMP', MACHINE_ARCH]);
  const account = accountOf(uid) ?? { uid, name: String(uid), gid: uid, groups: [uid], supplementary: [uid] };
  const report = orderMarker === undefined ? 'None' : `_spritzer_streams(${JSON.stringify(orderMarker)}, ${buffered ? 'True' : 'False'})`;
  return `${PRELUDE}\n_spritzer_linux_error = _spritzer_errno(${ERRNO_TABLE})\n_spritzer_machine(${uid}, ${account.gid}, ${JSON.stringify(processGroups(account))}, ${uname}, ${JSON.stringify(environ)})\n_spritzer_platform()\n_spritzer_run(${JSON.stringify(source)}, ${JSON.stringify(filename)}, ${JSON.stringify(argv0)}, ${JSON.stringify(path0)}, ${umask}, ${report}, ${optimize}, ${pythonLiteral(flags)}, ${JSON.stringify(warnoptions)})`;
}

/**
 * How many times python3's options before its program ask for the version (`-V`, `-VV`, `--version`): CPython
 * prints it and exits before running anything, `Python 3.13.2` once, the whole `sys.version` twice or more.
 */
function versionRequests(args: string[]): number {
  let count = 0;
  for (const a of args) {
    if (a === '--version') count += 1;
    else if (/^-[bBdEhiIOqsSuvVWxX]+$/.test(a)) count += a.split('V').length - 1;
    else break;
  }
  return count;
}

/**
 * How many `-O` python3's options before its program give (`-O`, `-OO`, `-O -O`): CPython's optimisation level,
 * capped at 2.
 */
export function optimizeLevel(options: readonly string[]): number {
  let level = 0;
  for (const a of options) if (/^-[bBdEhiIOqsSuvVWxX]+$/.test(a)) level += a.split('O').length - 1;
  return Math.min(level, 2);
}

/** A flat record of numbers and booleans as a Python dict literal. */
const pythonLiteral = (record: Record<string, number | boolean>): string =>
  `{${Object.entries(record).map(([k, v]) => `${JSON.stringify(k)}: ${typeof v === 'boolean' ? (v ? 'True' : 'False') : v}`).join(', ')}}`;

/**
 * The `sys.flags` fields python3's options before its program set (CPython's Python/initconfig.c): `-d -O -v -b`
 * count, `-B -s -S -E -q` set theirs, `-I` is isolated mode (`-E -s` and a safe `sys.path`).
 */
export function interpreterFlags(options: readonly string[]): Record<string, number | boolean> {
  const flags: Record<string, number | boolean> = {};
  const count = (name: string) => void (flags[name] = ((flags[name] as number | undefined) ?? 0) + 1);
  const set = (...names: string[]) => names.forEach((n) => (flags[n] = 1));
  const each: Record<string, () => void> = {
    d: () => count('debug'), O: () => count('optimize'), v: () => count('verbose'), b: () => count('bytes_warning'),
    B: () => set('dont_write_bytecode'), s: () => set('no_user_site'), S: () => set('no_site'), E: () => set('ignore_environment'), q: () => set('quiet'),
    I: () => { set('isolated', 'ignore_environment', 'no_user_site'); flags.safe_path = true; },
  };
  for (const a of options) if (/^-[bBdEhiIOqsSuvVWxX]+$/.test(a)) for (const c of a.slice(1)) each[c]?.();
  return flags;
}

/** The values of python3's `-W` options before its program (`-W ignore`, `-Werror`, `-bW default`), in order. */
export function warnOptions(options: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const w = /^-[bBdEhiIOqsSuvV]*W(.*)$/.exec(options[i]!);
    if (w) values.push(w[1] !== '' ? w[1]! : (options[++i] ?? ''));
  }
  return values;
}

/** The interpreter's `sys.executable` on the imitated machine (runpy's `-m` messages name it). */
const EXECUTABLE = '/usr/bin/python3';

/**
 * `-m MODULE`'s program: runpy finds the module first and, when it cannot, says so as CPython's own `-m` does
 * (`/usr/bin/python3: No module named X`, exit 1) rather than with a traceback.
 */
function moduleProgram(name: string): string {
  return [
    'import runpy, sys',
    'try:',
    `    runpy._get_module_details(${JSON.stringify(name)}, runpy._Error)`,
    'except runpy._Error as e:',
    `    sys.stderr.write(${JSON.stringify(EXECUTABLE + ': ')} + str(e) + "\\n")`,
    '    raise SystemExit(1)',
    `runpy.run_module(${JSON.stringify(name)}, run_name="__main__", alter_sys=True)`,
  ].join('\n');
}

/** Modules that install software: the shell engine has no package installs (as plain `pip` says). */
const INSTALLERS = new Set(['pip', 'venv', 'ensurepip']);

/** How python3's arguments name its program: `-c CODE`, `-m MODULE`, `FILE`, or `-`/nothing (stdin). */
function programOf(args: string[]): { kind: 'code' | 'module' | 'file' | 'stdin'; value: string; at: number } | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-m') return i + 1 < args.length ? { kind: a === '-c' ? 'code' : 'module', value: args[i + 1]!, at: i + 2 } : null;
    if (a === '-') return { kind: 'stdin', value: '', at: i + 1 };
    if (a === '--') return i + 1 < args.length ? { kind: 'file', value: args[i + 1]!, at: i + 2 } : { kind: 'stdin', value: '', at: i + 1 };
    if (a.startsWith('-')) {
      // -W takes a value: the rest of the word (`-Werror`) or the next word (`-W ignore`).
      const w = /^-[bBdEhiIOqsSuvV]*W(.*)$/.exec(a);
      if (w) {
        if (w[1] === '') i++;
        continue;
      }
      if (/^-[bBdEhiIOqsSuvVxX]+$/.test(a)) continue;
      return null; // an option just-bash words itself (`-V`, `--version`, a bad one)
    }
    return { kind: 'file', value: a, at: i + 1 };
  }
  return { kind: 'stdin', value: '', at: args.length };
}

const dirname = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) || '/' : '');

/** Runs python3 (invoked as `invokedAs`) with `args` through the wrapper (see the module comment). */
async function python(invokedAs: string, args: string[], ctx: CommandContext): Promise<ExecResult> {
  const run = ctx.origCommand!;
  const versions = versionRequests(args);
  if (versions > 0) return run(['-c', `import sys; print("Python", ${versions > 1 ? 'sys.version' : 'sys.version.split()[0]'})`]);
  const program = programOf(args);
  if (!program) return run(args);
  const rest = args.slice(program.at);
  let source: string;
  let filename: string;
  let argv0: string;
  let path0 = '';
  if (program.kind === 'code') {
    [source, filename, argv0] = [program.value, '<string>', '-c'];
  } else if (program.kind === 'module') {
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(program.value)) return run(args);
    if (INSTALLERS.has(program.value.split('.')[0]!)) return { stdout: '', stderr: refusalText(`the module '${program.value}'`), exitCode: 2 };
    [source, filename, argv0] = [moduleProgram(program.value), '<string>', '-m'];
    path0 = ctx.cwd;
  } else if (program.kind === 'stdin') {
    if (latin1FromBytes(ctx.stdin).length === 0 && args.length === 0) return run(args);
    [source, filename, argv0] = [decodeBytesToUtf8(ctx.stdin), '<stdin>', program.at > 0 ? '-' : ''];
  } else if (isStdinOperand(ctx.fs.resolvePath(ctx.cwd, program.value), false)) {
    // `python3 /dev/stdin`: the script is read from fd 0, and is named by that path (sys.argv[0], tracebacks).
    [source, filename, argv0, path0] = [decodeBytesToUtf8(ctx.stdin), program.value, program.value, dirname(program.value)];
  } else {
    const path = ctx.fs.resolvePath(ctx.cwd, program.value);
    try {
      source = await ctx.fs.readFile(path);
    } catch {
      // CPython names itself as invoked (its program name, argv[0]) and the file as the working directory joined to
      // the name given, unnormalised (Modules/main.c pymain_run_file, _Py_abspath); other failures just-bash words.
      if (await ctx.fs.exists(path)) return run(args);
      const named = program.value.startsWith('/') ? program.value : `${ctx.cwd.replace(/\/$/, '')}/${program.value}`;
      return { stdout: '', stderr: `${invokedAs}: can't open file '${named}': [Errno 2] No such file or directory\n`, exitCode: 2 };
    }
    [filename, argv0, path0] = [path, program.value, dirname(path)];
  }
  // The interpreter's own options: what comes before `-c CODE`, `-m MODULE`, `FILE`, `-` (or all of them, for stdin).
  const optionEnd = program.kind === 'code' || program.kind === 'module' ? program.at - 2 : program.kind === 'file' || program.at > 0 && ['-', '--'].includes(args[program.at - 1]!) ? program.at - 1 : program.at;
  const options = args.slice(0, optionEnd);
  const umask = (ctx.fs as { umask?: unknown }).umask;
  const uid = runsAsRoot(ctx.env) ? 0 : SPRITE_UID;
  const environ = ctx.exportedEnv ?? Object.fromEntries(ctx.env);
  // Without a controlling terminal (opening /dev/tty fails) stdout is a pipe or a file: block-buffered (python-streams.ts).
  const terminal = await ctx.fs.readFile('/dev/tty').then(() => true, () => false);
  const marker = `\u001b]spritzer-order;${randomBytes(6).toString('hex')};`;
  const result = await run(['-c', wrapperProgram(source, filename, argv0, path0, typeof umask === 'number' ? umask : 0o022, uid, environ, marker, optimizeLevel(options), interpreterFlags(options), buffersStdout(options, environ, terminal), warnOptions(options)), ...rest]);
  return withPythonOutputOrder(result, marker);
}

/** `python3` and `python`, over just-bash's own. */
export function pythonCommands(): CustomCommand[] {
  return [defineCommand('python3', (args, ctx) => python('python3', args, ctx)), defineCommand('python', (args, ctx) => python('python', args, ctx))];
}
