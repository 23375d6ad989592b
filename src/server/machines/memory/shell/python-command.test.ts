import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import type { SpriteContext } from '../engine.ts';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { interpreterFlags } from './python-command.ts';
import { engineBash, hostBash, hostHas } from '../../../../../test/support/host-bash.ts';

/** Runs `bash -c script` on one sprite; returns stdout, stderr and the exit status. */
async function bashC(script: string) {
  let pid = 1;
  const ctx: SpriteContext = { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
  const seen = { stdout: '', stderr: '' };
  const io = { stdout: (d: Uint8Array) => void (seen.stdout += Buffer.from(d)), stderr: (d: Uint8Array) => void (seen.stderr += Buffer.from(d)) };
  const proc = createShellEngine({ clock: new FakeClock() }).start(ctx, { argv: ['bash', '-c', script], env: { HOME: '/home/sprite', PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 }, io, { stdin: false });
  const exit = await proc.exit;
  return { ...seen, exit };
}

const refusal = (what: string) => `python3: ${what} is not available in the shell engine; run spritzer with --exec sandbox\n`;

describe('python3: what the shell engine cannot run fails at once, loudly', () => {
  it('a C module the WebAssembly CPython lacks (sqlite3, ssl, ctypes, zoneinfo…) is a ModuleNotFoundError naming --exec sandbox; ImportError fallbacks still work', async () => {
    const got = await bashC(`python3 -c 'import zoneinfo'; python3 -c 'try:\n    import ssl\nexcept ImportError:\n    print("fallback")'`);
    expect(got.stdout).toBe('fallback\n');
    expect(got.stderr).toBe(`Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nModuleNotFoundError: No module named 'zoneinfo': not available in the shell engine; run spritzer with --exec sandbox\n`);
  }, 60_000);

  it.each([
    ['python3 -m http.server 8080; echo "status=$?"', refusal('a listening socket (bind)')],
    ["python3 -c 'import socket; s = socket.socket(); s.bind((\"\", 8080)); s.listen(); print(\"up\")'; echo \"status=$?\"", refusal('a listening socket (bind)')],
    ["python3 -c 'import socket; s = socket.socket(socket.AF_INET6); print(\"made\")'; echo \"status=$?\"", refusal('an IPv6 socket (AF_INET6)')],
    ["python3 -c 'import socket; s = socket.socket(family=socket.AF_INET6); print(\"made\")'; echo \"status=$?\"", refusal('an IPv6 socket (AF_INET6)')],
    ["python3 -c 'import socket; a, b = socket.socketpair(); print(\"made\")'; echo \"status=$?\"", refusal("a socket pair (socket.socketpair, which asyncio's event loop opens)")],
    ["python3 -c 'import subprocess; subprocess.run([\"ls\"]); print(\"ran\")'; echo \"status=$?\"", refusal('running a subprocess')],
    ["python3 -c 'import os; os.system(\"ls\"); print(\"ran\")'; echo \"status=$?\"", refusal('running a program (os.system)')],
  ])('%s', async (script, stderr) => {
    const got = await bashC(script);
    expect({ stdout: got.stdout, stderr: got.stderr }).toEqual({ stdout: 'status=2\n', stderr });
  }, 60_000);
});

// Expectations are CPython 3's own output for the same programs.
describe('python3 runs a program as CPython does', () => {
  it('sees the sprite\'s Linux: sys.platform is linux and os.cpu_count() is what nproc prints', async () => {
    const got = await bashC(`python3 -c 'import sys, os; print(sys.platform, sys.platform.startswith("linux"), os.cpu_count(), len(os.sched_getaffinity(0)))'; nproc`);
    const [py, nproc] = got.stdout.split('\n');
    expect(py).toBe(`linux True ${nproc} ${nproc}`);
    expect(got.stderr).toBe('');
  }, 60_000);

  it('SystemExit with a message prints it; a traceback starts at the program\'s own frame; a file keeps its name and argv', async () => {
    const got = await bashC(
      [
        `python3 -c 'raise SystemExit("boom")'; echo "status=$?"`,
        `python3 -c '1/0'; echo "status=$?"`,
        `printf 'import sys\\nprint(sys.argv, __name__, __file__)\\n1/0\\n' > s.py; python3 s.py a b; echo "status=$?"`,
        `python3 -c 'import sys; print(sys.argv, repr(sys.path[0]))' x`,
      ].join('\n'),
    );
    expect(got.stdout).toBe("status=1\nstatus=1\n['s.py', 'a', 'b'] __main__ /home/sprite/s.py\nstatus=1\n['-c', 'x'] ''\n");
    expect(got.stderr).toBe(
      'boom\n' +
        'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nZeroDivisionError: division by zero\n' +
        'Traceback (most recent call last):\n  File "/home/sprite/s.py", line 3, in <module>\n    1/0\n    ~^~\nZeroDivisionError: division by zero\n',
    );
  }, 60_000);
});

// What CPython on the sprite's Linux answers: the shell's own commands (`uname`, `id`, `stat`, `ls -l`) describe
// the same machine.
describe('python3 sees the machine the shell describes', () => {
  it('-V/--version print the version and run nothing; -VV the whole sys.version; -m pip is refused loudly', async () => {
    const got = await runShell(`python3 -V; python3 --version; python3 -V -c 'print("ran")'; python3 -VV | cut -c1-7; python3 -m pip install x; echo "status=$?"`);
    expect(got.stdout).toMatch(/^Python 3\.\d+\.\d+\nPython 3\.\d+\.\d+\nPython 3\.\d+\.\d+\nPython \nstatus=2\n$/);
    expect(got.stderr).toBe(refusal("the module 'pip'"));
  }, 60_000);

  it('os.uname, socket.gethostname, sys.executable, the ids, os.access and the user database agree with uname, hostname, command -v, id and stat', async () => {
    const got = await runShell(
      [
        `python3 -c 'import os, platform, socket, sys; u = os.uname(); print(u.sysname, u.nodename, u.machine == platform.machine(), platform.system(), socket.gethostname(), sys.executable)'`,
        `python3 -c 'import os; print(os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.getgroups())'; sudo python3 -c 'import os; print(os.getuid(), os.getgid(), os.getgroups())'`,
        `python3 -c 'import os, shutil; print(os.access("/home/sprite", os.W_OK), os.access("/etc/passwd", os.W_OK), os.access("/usr/bin/bash", os.X_OK), shutil.which("bash"))'`,
        `touch mine; python3 -c 'import os, pathlib; print(os.stat("mine").st_uid, os.stat("/etc/passwd").st_uid, pathlib.Path("mine").owner(), pathlib.Path("/etc/passwd").group())'`,
        `python3 -c 'import pwd; print(pwd.getpwuid(1001).pw_dir); print(pwd.getpwnam("root"))'`,
        `python3 -c 'import pwd; pwd.getpwnam("nosuch")'`,
        `X=1; export Y=2; python3 -c 'import os; print(os.environ.get("X"), os.environ["Y"], "IFS" in os.environ, "PYTHONHOME" in os.environ)'`,
      ].join('\n'),
    );
    expect(got.stdout).toBe(
      'Linux demo True Linux demo /usr/bin/python3\n1001 1001 1001 1001 [27, 100]\n0 0 [0]\nTrue False True /usr/bin/bash\n1001 0 sprite root\n/home/sprite\n' +
        "pwd.struct_passwd(pw_name='root', pw_passwd='x', pw_uid=0, pw_gid=0, pw_gecos='root', pw_dir='/root', pw_shell='/bin/bash')\n" +
        'None 2 False False\n',
    );
    expect(got.stderr).toBe(`Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nKeyError: "getpwnam(): name not found: 'nosuch'"\n`);
  }, 60_000);

  it('absolute paths reach the files through every os function; links are links', async () => {
    const got = await runShell(
      [
        'echo hi > a.txt; ln -s a.txt l.txt; mkdir v2; echo in > v2/f; ln -s /home/sprite/v2 cur',
        `python3 -c '
import os, pathlib, shutil
H = "/home/sprite"
os.close(os.open(H + "/b", os.O_CREAT | os.O_WRONLY)); os.rename(H + "/b", H + "/c"); os.replace(H + "/c", H + "/d"); os.unlink(H + "/d")
print(os.path.exists(H + "/d"), os.lstat(H + "/a.txt").st_size, open(H + "/a.txt").name, shutil.copy(H + "/a.txt", H + "/e.txt"))
print(os.path.islink(H + "/l.txt"), os.readlink(H + "/cur"), os.path.realpath("l.txt"), open("cur/f").read().strip(), oct(os.lstat("l.txt").st_mode))
print(sorted(str(p) for p in pathlib.Path(H).rglob("f")))'`,
      ].join('\n'),
    );
    expect(got).toEqual({
      stdout: 'False 3 /home/sprite/a.txt /home/sprite/e.txt\nTrue /home/sprite/v2 /home/sprite/a.txt in 0o120777\n' + "['/home/sprite/v2/f']\n",
      stderr: '',
      exit: 0,
    });
  }, 60_000);
});

describe("python3's errors are Linux's", () => {
  it('a trailing slash asks for a directory: NotADirectoryError after a file, a final symlink followed', async () => {
    const got = await runShell(`touch f; mkdir d; ln -s d l; python3 -c '
import os
print(os.path.exists("f/"), os.path.exists("f"), os.path.isdir("l/"), os.path.islink("l/"), os.listdir("l/"))
try: open("f/")
except OSError as e: print(type(e).__name__, e.errno, e)'`);
    expect(got).toEqual({ stdout: "False True True False []\nNotADirectoryError 20 [Errno 20] Not a directory: 'f/'\n", stderr: '', exit: 0 });
  });
  it('an OSError carries Linux\'s number and message and the file name the program gave; errno\'s names agree', async () => {
    const got = await runShell(
      [
        'echo x > f',
        `python3 -c '
import os, errno, pathlib
for call in (lambda: os.mkdir("/home/sprite"), lambda: open("/home/sprite/nope"), lambda: os.rename("a", "/b"), lambda: open("f/g")):
    try: call()
    except OSError as e: print(type(e).__name__, e.errno, errno.errorcode[e.errno], e)
print(errno.ENOENT, errno.EEXIST, errno.EACCES, errno.ENOTDIR, pathlib.Path("/nope").exists(), pathlib.Path("f/g").is_file())'`,
        `python3 -c 'import json; json.load(open("/home/sprite/missing.json"))'; echo "status=$?"`,
      ].join('\n'),
    );
    expect(got.stdout).toBe(
      [
        "FileExistsError 17 EEXIST [Errno 17] File exists: '/home/sprite'",
        "FileNotFoundError 2 ENOENT [Errno 2] No such file or directory: '/home/sprite/nope'",
        "FileNotFoundError 2 ENOENT [Errno 2] No such file or directory: 'a' -> '/b'",
        "NotADirectoryError 20 ENOTDIR [Errno 20] Not a directory: 'f/g'",
        '2 17 13 20 False False',
        'status=1',
        '',
      ].join('\n'),
    );
    expect(got.stderr).toBe(`Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: '/home/sprite/missing.json'\n`);
  }, 60_000);
});

describe("python3's output is the bytes the program wrote", () => {
  it('adds no newline to output that does not end with one; a flushed partial line stays whole; stdout is not a terminal', async () => {
    const got = await runShell(
      [
        `python3 -c "print('x', end='')"; echo '|'`,
        `python3 -c 'import json, sys; json.dump({"a": 1}, sys.stdout)' > f; wc -c < f`,
        `python3 -c 'import sys; sys.stdout.write("a"); sys.stdout.flush(); print("b")'`,
        `python3 -c 'import sys; print(sys.stdout.isatty())'`,
      ].join('\n'),
    );
    expect(got).toEqual({ stdout: 'x|\n8\nab\nFalse\n', stderr: '', exit: 0 });
  }, 60_000);
});

describe('python3 runs the program as __main__', () => {
  it('its names are __main__\'s (unittest.main, pickling); imported modules name their files as the shell does; with sys.stdout works', async () => {
    const got = await runShell(
      [
        `python3 -c 'import sys; x = 1; print(hasattr(sys.modules["__main__"], "x"))'`,
        `printf 'import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\nif __name__ == "__main__":\n    unittest.main()\n' > test_t.py; python3 test_t.py 2>&1 | tail -1; python3 -m unittest 2>&1 | tail -1`,
        `python3 -c 'import pickle, enum\nclass C(enum.Enum):\n    A = 1\nprint(pickle.loads(pickle.dumps(C.A)))'`,
        `printf 'X = 1\n' > helper.py; python3 -c 'import helper; print(helper.__file__)'`,
        `echo '{"a": 1}' | python3 -m json.tool`,
      ].join('\n'),
    );
    expect(got).toEqual({ stdout: 'True\nOK\nOK\nC.A\n/home/sprite/helper.py\n{\n    "a": 1\n}\n', stderr: '', exit: 0 });
  }, 60_000);
});

describe('python3 imports as CPython does from the sprite\'s files', () => {
  it("a script imports its sibling modules, -m runs a package in the current directory, tracebacks name the files as the shell does", async () => {
    const got = await runShell(
      "mkdir -p app pkg && printf 'def div(a, b):\\n    return a / b\\n' > app/calc.py && printf 'from calc import div\\nprint(div(4, 2))\\ndiv(1, 0)\\n' > app/main.py && " +
        "printf 'print(\"pkg main\")\\n' > pkg/__main__.py && touch pkg/__init__.py && python3 app/main.py; python3 -m pkg",
    );
    expect(got.stdout).toBe('2.0\npkg main\n');
    expect(got.stderr).toMatch(/^Traceback \(most recent call last\):\n  File "\/home\/sprite\/app\/main.py", line 3, in <module>\n[^]*  File "\/home\/sprite\/app\/calc.py", line 2, in div\n[^]*ZeroDivisionError: division by zero\n$/);
  }, 60_000);

  it('starting a thread is refused loudly, naming --exec sandbox', async () => {
    const got = await runShell(`python3 -c 'import threading; threading.Thread(target=print).start()'; echo "status=$?"`);
    expect(got).toEqual({ stdout: 'status=2\n', stderr: refusal('a thread (threading.Thread.start)'), exit: 0 });
  }, 60_000);
});

describe("python3's options and start-up errors", () => {
  it('-O drops asserts (-OO docstrings too); -m of a missing module and a missing FILE are worded as CPython words them', async () => {
    const got = await runShell(
      [
        `python3 -O -c 'assert False; print("skipped")'; python3 -OO -c $'def f():\n    "doc"\nprint(f.__doc__, __debug__)'`,
        `python3 -m nosuchmod; echo "rc=$?"`,
        `python3 nosuch.py; echo "rc=$?"`,
      ].join('\n'),
    );
    expect(got).toEqual({
      stdout: 'skipped\nNone False\nrc=1\nrc=2\n',
      stderr: "/usr/bin/python3: No module named nosuchmod\npython3: can't open file '/home/sprite/nosuch.py': [Errno 2] No such file or directory\n",
      exit: 0,
    });
  }, 60_000);

  it('multiprocessing (no processes) is a ModuleNotFoundError naming --exec sandbox', async () => {
    const got = await runShell(`python3 -c 'import multiprocessing'`);
    expect(got.stderr).toMatch(/ModuleNotFoundError: No module named 'multiprocessing': not available in the shell engine; run spritzer with --exec sandbox\n$/);
  }, 60_000);
});

describe("python3's options show in sys.flags", () => {
  it('counts -O/-d/-v/-b, sets -B -s -S -E -q, and -I is isolated mode with a safe sys.path', () => {
    expect(interpreterFlags(['-OO', '-s'])).toEqual({ optimize: 2, no_user_site: 1 });
    expect(interpreterFlags(['-I'])).toEqual({ isolated: 1, ignore_environment: 1, no_user_site: 1, safe_path: true });
    expect(interpreterFlags(['-u', '-X'])).toEqual({});
  });

  it('the program sees them, the rest of sys.flags as the interpreter has it', async () => {
    const got = await runShell(`python3 -I -O -B -c 'import sys; print(sys.flags.isolated, sys.flags.optimize, sys.flags.dont_write_bytecode, sys.flags.safe_path, sys.flags.hash_randomization, sys.path[0] == "", repr(sys.flags)[:17])'; echo 'import sys; print(sys.flags.quiet)' | python3 -q`);
    expect(got).toEqual({ stdout: '1 1 1 True 1 False sys.flags(debug=0\n1\n', stderr: '', exit: 0 });
  }, 60_000);
});


describe("python3's -W options", () => {
  it.skipIf(!hostHas('python3'))('take their value from the word or the next one and filter warnings as CPython does', async () => {
    const script = [
      `python3 -W error -c 'import warnings; warnings.warn("boom")'; echo "rc=$?"`,
      `python3 -Wignore -c 'import warnings, sys; warnings.warn("boom"); print(sys.warnoptions)'`,
      `python3 -W ignore::DeprecationWarning -W error::UserWarning -c 'import warnings; warnings.warn("x", DeprecationWarning); warnings.warn("u")'; echo "rc=$?"`,
      `echo 'import warnings; warnings.warn("w")' > w.py; python3 -W ignore w.py; echo "rc=$?"`,
    ].join('\n');
    expect(await engineBash(script)).toEqual(hostBash(script));
  }, 60_000);
});
