import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';
import { buffersStdout, withPythonOutputOrder } from './python-streams.ts';

describe('withPythonOutputOrder', () => {
  const marker = '\u001b]spritzer-order;abc;';
  it('takes the report line off stderr and orders each message after the stdout delivered before it', () => {
    const got = withPythonOutputOrder({ stdout: 'a\nb\n', stderr: `w\n${marker}0,2,2,3\n`, exitCode: 0 }, marker);
    expect(got).toEqual({ stdout: 'a\nb\n', stderr: 'w\n', exitCode: 0, outputOrder: [0, 2, 2, 3] });
  });
  it('leaves a result without a report as it is, and gives no order when one stream is empty', () => {
    const plain = { stdout: 'a\n', stderr: 'SyntaxError\n', exitCode: 1 };
    expect(withPythonOutputOrder(plain, marker)).toBe(plain);
    expect(withPythonOutputOrder({ stdout: 'a\n', stderr: `${marker}\n`, exitCode: 0 }, marker)).toEqual({ stdout: 'a\n', stderr: '', exitCode: 0 });
  });
});

describe('buffersStdout', () => {
  it('is true off a terminal unless -u (alone or among other letters) or a non-empty PYTHONUNBUFFERED', () => {
    expect(buffersStdout([], {}, false)).toBe(true);
    expect(buffersStdout(['-u'], {}, false)).toBe(false);
    expect(buffersStdout(['-Bu'], {}, false)).toBe(false);
    expect(buffersStdout([], { PYTHONUNBUFFERED: '1' }, false)).toBe(false);
    expect(buffersStdout([], { PYTHONUNBUFFERED: '' }, false)).toBe(true);
    expect(buffersStdout([], {}, true)).toBe(false);
  });
});

// CPython off a terminal: stderr line by line, stdout in 8192-byte chunks of its text layer, at a flush, or at exit.
describe('python3 with stdout and stderr joined', () => {
  it('a traceback or a message comes before the lines still buffered; flush=True, -u and PYTHONUNBUFFERED keep program order; a script file is flushed before its ending error', async () => {
    const got = await runShell(
      [
        `python3 -c 'import sys; print("a"); print("w", file=sys.stderr); 1/0' 2>&1 | tr '\\n' ' '; echo`,
        `python3 -c 'import sys; print("a", flush=True); print("w", file=sys.stderr)' 2>&1 | tr '\\n' ' '; echo`,
        `python3 -u -c 'import sys; print("a"); print("w", file=sys.stderr)' 2>&1 | tr '\\n' ' '; echo`,
        `python3 -u -c 'import sys; print(1); print(2, file=sys.stderr); print(3)' 2>&1 | tr '\\n' ' '; echo`,
        `PYTHONUNBUFFERED=1 python3 -c 'import sys; print("a"); print("w", file=sys.stderr)' 2>&1 | tr '\\n' ' '; echo`,
        `python3 -c 'import sys\nfor i in range(3000): print("abcd")\nprint("w", file=sys.stderr)' 2>&1 | grep -n w`,
        `printf 'print("hi")\\nraise SystemExit("bye")\\n' > s.py; python3 s.py 2>&1 | tr '\\n' ' '; echo`,
      ].join('\n'),
    );
    expect(got.stdout).toBe(
      'w Traceback (most recent call last):   File "<string>", line 1, in <module> ZeroDivisionError: division by zero a \n' +
        'a w \na w \n1 2 3 \na w \n1639:w\nhi bye \n',
    );
  }, 60_000);
});
