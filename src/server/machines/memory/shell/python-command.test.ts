import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import type { SpriteContext } from '../engine.ts';

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
  it.each([
    ['python3 -m http.server 8080; echo "status=$?"', refusal('a listening socket (bind)')],
    ["python3 -c 'import socket; s = socket.socket(); s.bind((\"\", 8080)); s.listen(); print(\"up\")'; echo \"status=$?\"", refusal('a listening socket (bind)')],
    ["python3 -c 'import subprocess; subprocess.run([\"ls\"]); print(\"ran\")'; echo \"status=$?\"", refusal('running a subprocess')],
    ["python3 -c 'import os; os.system(\"ls\"); print(\"ran\")'; echo \"status=$?\"", refusal('running a program (os.system)')],
  ])('%s', async (script, stderr) => {
    const got = await bashC(script);
    expect({ stdout: got.stdout, stderr: got.stderr }).toEqual({ stdout: 'status=2\n', stderr });
  }, 60_000);
});

// Expectations are CPython 3's own output for the same programs.
describe('python3 runs a program as CPython does', () => {
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
