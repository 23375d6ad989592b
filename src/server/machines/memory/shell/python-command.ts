/**
 * `python3` (and `python`) of the shell engine: just-bash's CPython (WebAssembly) with what it cannot do made loud.
 * That CPython has no processes and no listening sockets, but says so quietly or not at all
 * (`python3 -m http.server` exits 1 with no word); here a listening socket, a subprocess, `os.system`, `fork` or
 * `exec*` print a message naming `--exec sandbox` and exit 2 at once. The program runs as CPython runs it: under its
 * own file name (`<string>` for `-c`), its traceback starting at its own frames, `SystemExit("text")` printing the
 * text. It owns the wrapper program; the interpreter is just-bash's (`ctx.origCommand`).
 * @see https://docs.python.org/3/using/cmdline.html; docs/fidelity.md "What the shell engine cannot do"
 */
import { decodeBytesToUtf8, defineCommand, latin1FromBytes, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';

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
  'def _spritzer_run(source, filename, argv0, path0, umask):',
  '    import sys, traceback, os',
  '    os.umask(umask)',
  '    sys.argv[0] = argv0',
  '    sys.path[0] = path0',
  '    scope = {"__name__": "__main__", "__builtins__": __builtins__}',
  '    if filename != "<string>": scope["__file__"] = filename',
  '    try:',
  '        exec(compile(source, filename, "exec"), scope)',
  '    except SystemExit as e:',
  '        if e.code is not None and not isinstance(e.code, int): sys.stderr.write(str(e.code) + "\\n")',
  '        raise',
  '    except BaseException as e:',
  '        traceback.print_exception(type(e), e, e.__traceback__.tb_next)',
  '        raise SystemExit(1)',
  '_spritzer_setup()',
].join('\n');

/**
 * The wrapper program that runs `source` as `filename` with `sys.argv[0]` = `argv0`, under the shell's file mode
 * creation mask `umask` (a process inherits it: the files and directories the program makes get its modes).
 */
export function wrapperProgram(source: string, filename: string, argv0: string, path0: string, umask = 0o022): string {
  return `${PRELUDE}\n_spritzer_run(${JSON.stringify(source)}, ${JSON.stringify(filename)}, ${JSON.stringify(argv0)}, ${JSON.stringify(path0)}, ${umask})`;
}

/** How python3's arguments name its program: `-c CODE`, `-m MODULE`, `FILE`, or `-`/nothing (stdin). */
function programOf(args: string[]): { kind: 'code' | 'module' | 'file' | 'stdin'; value: string; at: number } | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-m') return i + 1 < args.length ? { kind: a === '-c' ? 'code' : 'module', value: args[i + 1]!, at: i + 2 } : null;
    if (a === '-') return { kind: 'stdin', value: '', at: i + 1 };
    if (a === '--') return i + 1 < args.length ? { kind: 'file', value: args[i + 1]!, at: i + 2 } : { kind: 'stdin', value: '', at: i + 1 };
    if (a.startsWith('-')) {
      if (/^-[bBdEhiIOqsSuvVWxX]+$/.test(a)) continue;
      return null; // an option just-bash words itself (`-V`, `--version`, a bad one)
    }
    return { kind: 'file', value: a, at: i + 1 };
  }
  return { kind: 'stdin', value: '', at: args.length };
}

const dirname = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) || '/' : '');

/** Runs python3 with `args` through the wrapper (see the module comment). */
async function python(args: string[], ctx: CommandContext): Promise<ExecResult> {
  const run = ctx.origCommand!;
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
    [source, filename, argv0] = [`import runpy\nrunpy.run_module(${JSON.stringify(program.value)}, run_name="__main__", alter_sys=True)`, '<string>', '-m'];
    path0 = ctx.cwd;
  } else if (program.kind === 'stdin') {
    if (latin1FromBytes(ctx.stdin).length === 0 && args.length === 0) return run(args);
    [source, filename, argv0] = [decodeBytesToUtf8(ctx.stdin), '<stdin>', program.at > 0 ? '-' : ''];
  } else {
    const path = ctx.fs.resolvePath(ctx.cwd, program.value);
    try {
      source = await ctx.fs.readFile(path);
    } catch {
      return run(args); // just-bash words a missing file as CPython does
    }
    [filename, argv0, path0] = [path, program.value, dirname(path)];
  }
  const umask = (ctx.fs as { umask?: unknown }).umask;
  return run(['-c', wrapperProgram(source, filename, argv0, path0, typeof umask === 'number' ? umask : 0o022), ...rest]);
}

/** `python3` and `python`, over just-bash's own. */
export function pythonCommands(): CustomCommand[] {
  return [defineCommand('python3', python), defineCommand('python', python)];
}
