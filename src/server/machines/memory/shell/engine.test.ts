import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine, stdoutBytes } from './engine.ts';
import { LATE_STDIN_MESSAGE, STDIN_TOO_LARGE_EXIT, stdinTooLargeMessage } from './stdin-buffer.ts';
import { LATE_STDIN_EXIT } from './stdin-wait.ts';
import type { EngineProcess, SpriteContext } from '../engine.ts';
import type { ExecRequest } from '../../port.ts';

const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };

function sprite(): SpriteContext {
  let pid = 41;
  return { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
}

function request(argv: string[], over: Partial<ExecRequest> = {}): ExecRequest {
  return { argv, env: ENV, dir: '/home/sprite', tty: false, rows: 24, cols: 80, ...over };
}

/** Starts a command and records what a client would receive. */
function start(req: ExecRequest, opts: { stdin?: boolean; clock?: FakeClock; ctx?: SpriteContext; graceMs?: number; maxStdinBytes?: number } = {}) {
  const clock = opts.clock ?? new FakeClock();
  const ctx = opts.ctx ?? sprite();
  const seen = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exited: false };
  const io = {
    stdout: (d: Uint8Array) => void (seen.stdout = Buffer.concat([seen.stdout, d])),
    stderr: (d: Uint8Array) => void (seen.stderr = Buffer.concat([seen.stderr, d])),
  };
  const proc = createShellEngine({ clock, stdinGraceMs: opts.graceMs, maxStdinBytes: opts.maxStdinBytes }).start(ctx, req, io, { stdin: opts.stdin ?? false });
  void proc.exit.then(() => (seen.exited = true));
  return {
    proc,
    clock,
    ctx,
    seen,
    /** Waits for the exit and returns output as text. */
    async result() {
      const exit = await proc.exit;
      return { stdout: seen.stdout.toString(), stderr: seen.stderr.toString(), exit };
    },
  };
}

/** Runs a command with no stdin to its end. */
const run = (argv: string[], over: Partial<ExecRequest> = {}, ctx?: SpriteContext) => start(request(argv, over), { ctx }).result();
const sh = (script: string) => ['sh', '-c', script];

/** Lets pending promise callbacks (and just-bash's internal awaits) run, without touching the clock. */
async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('shell engine: how argv becomes a script', () => {
  it.each([
    [['sh', '-c', 'echo hi']],
    [['bash', '-c', 'echo hi']],
    [['sh', '-lc', 'echo hi']],
    [['bash', '-lc', 'echo hi']],
    [['bash', '-l', '-c', 'echo hi']],
  ])('%j prints hi', async (argv) => {
    expect(await run(argv)).toEqual({ stdout: 'hi\n', stderr: '', exit: 0 });
  });

  it('binds words after the script to $0 $1 …', async () => {
    expect((await run(['sh', '-c', 'echo "$0|$1|$2"', 'zero', 'one', 'two words'])).stdout).toBe('zero|one|two words\n');
  });

  it('runs a plain argv with every word quoted, as exec would', async () => {
    expect((await run(['echo', 'a  b', '$HOME', "it's"])).stdout).toBe("a  b $HOME it's\n");
  });

  it('runs commands named by absolute path (the Go SDK sends path=argv[0])', async () => {
    expect((await run(['/bin/echo', 'x'], { path: '/bin/echo' })).stdout).toBe('x\n');
  });
});

describe('shell engine: here-documents through the script rewrites', () => {
  // The OpenAI Agents provider installs its helpers this way: a function, a trap, a quoted here-document, then more
  // statements; the rewrites (job control, output streaming) must leave the document's body as written.
  it('a quoted here-document followed by more statements keeps its body, and the installed script runs by path', async () => {
    const ctx = sprite();
    const install = [
      'set -eu',
      'dest="$1"',
      'tmp="$dest.tmp.$$"',
      'mkdir -p -- "$(dirname -- "$dest")"',
      'cleanup() {',
      '    rm -f -- "$tmp"',
      '}',
      'trap cleanup EXIT INT TERM',
      "cat > \"$tmp\" <<'HELPER_X'",
      '#!/bin/sh',
      'echo "resolved $1"',
      'HELPER_X',
      'chmod 0555 "$tmp"',
      'if [ -d "$dest" ]; then',
      '    rm -rf -- "$dest"',
      'fi',
      'mv -f -- "$tmp" "$dest"',
      'trap - EXIT INT TERM',
    ].join('\n');
    expect(await run(['sh', '-c', install, 'sh', '/tmp/oa/bin/helper'], {}, ctx)).toEqual({ stdout: '', stderr: '', exit: 0 });
    expect(await run(['/tmp/oa/bin/helper', 'abc'], {}, ctx)).toEqual({ stdout: 'resolved abc\n', stderr: '', exit: 0 });
  });
});

describe('shell engine: set -u', () => {
  it('an unset variable ends a non-interactive shell with status 127, as bash 5.2', async () => {
    expect(await run(sh('set -u; echo "$UNDEFINED_X"; echo after'))).toEqual({ stdout: '', stderr: 'bash: line 1: UNDEFINED_X: unbound variable\n', exit: 127 });
    expect((await run(sh('echo x >&2; exit 1'))).exit).toBe(1);
    expect((await run(sh('set -eu; echo "$UNDEFINED_X"'))).exit).toBe(1);
  });
});

describe('shell engine: environment, directory, exit codes, streams', () => {
  it('the environment is exactly req.env (plus the PWD every shell sets)', async () => {
    expect((await run(['env'], { env: { ONLY: 'this' } })).stdout).toBe('ONLY=this\nPWD=/home/sprite\n');
    expect((await run(sh('echo "[$HOME][$USER]"'), { env: { A: '1' } })).stdout).toBe('[][]\n');
  });

  it('runs in req.dir', async () => {
    expect((await run(['pwd'], { dir: '/tmp' })).stdout).toBe('/tmp\n');
  });

  it.each([
    ['exit 42', 42],
    ['exit 255', 255],
    ['false', 1],
    ['true', 0],
    ['no-such-command', 127],
  ])('%s exits %i', async (script, code) => {
    expect((await run(sh(script))).exit).toBe(code);
  });

  it('keeps stderr apart from stdout', async () => {
    expect(await run(sh('echo out; echo err >&2; echo out2'))).toEqual({ stdout: 'out\nout2\n', stderr: 'err\n', exit: 0 });
  });

  it('supports pipes and redirects', async () => {
    expect((await run(sh('echo hello | tr a-z A-Z > up.txt; cat < up.txt; wc -l < up.txt'))).stdout).toBe('HELLO\n1\n');
  });

  it('/dev/null swallows output without creating /dev in the sprite', async () => {
    const ctx = sprite();
    expect((await run(sh('echo a > /dev/null; echo b 2>/dev/null; cat /dev/null; echo c'), {}, ctx)).stdout).toBe('b\nc\n');
    expect(ctx.vfs.exists('/dev')).toBe(false);
  });

  it('prints UTF-8 text unchanged', async () => {
    const t = start(request(['echo', 'héllo ✓']));
    await t.result();
    expect(t.seen.stdout.equals(Buffer.from('héllo ✓\n'))).toBe(true);
  });

  it('delivers each command\'s output when that command ends, before the script ends', async () => {
    const t = start(request(sh('echo start; sleep 5; echo end')));
    while (t.clock.pending() === 0) await settle(1);
    expect([t.seen.stdout.toString(), t.seen.exited]).toEqual(['start\n', false]);
    t.clock.advance(5000);
    expect(await t.result()).toEqual({ stdout: 'start\nend\n', stderr: '', exit: 0 });
  });

  it('reports a syntax error on stderr', async () => {
    const got = await run(sh('echo ok; if then'));
    expect(got.exit).not.toBe(0);
    expect(got.stderr).toMatch(/syntax error/);
  });

  it('$$ is the pid from the sprite, and whoami is the sprite user', async () => {
    const t = start(request(sh('echo $$; whoami')));
    expect((await t.result()).stdout).toBe(`${t.proc.pid}\nsprite\n`);
    expect(t.proc.pid).toBe(42);
  });
});

describe('shell engine: the sprite filesystem', () => {
  it('a file written by `echo x > f` is in the VFS', async () => {
    const ctx = sprite();
    expect((await run(sh('echo x > f && mkdir -p d/e && echo y >> d/e/g'), {}, ctx)).exit).toBe(0);
    expect(Buffer.from(ctx.vfs.readFile('/home/sprite/f')).toString()).toBe('x\n');
    expect(Buffer.from(ctx.vfs.readFile('/home/sprite/d/e/g')).toString()).toBe('y\n');
  });

  it('sees what the VFS holds and what it does not', async () => {
    const ctx = sprite();
    ctx.vfs.writeFile('/data/key', 'v1', { mkdirParents: true });
    expect(await run(sh('cat /data/key; ls /; cat /nope'), {}, ctx)).toEqual({
      stdout: 'v1data\nhome\ntmp\n',
      stderr: 'cat: /nope: No such file or directory\n',
      exit: 1,
    });
  });

  it('rm, mv and cp change the VFS', async () => {
    const ctx = sprite();
    ctx.vfs.writeFile('/tmp/a', 'A');
    ctx.vfs.writeFile('/tmp/b', 'B');
    await run(sh('mv /tmp/a /tmp/c && cp /tmp/c /tmp/d && rm /tmp/b'), {}, ctx);
    expect(['/tmp/a', '/tmp/b', '/tmp/c', '/tmp/d'].map((p) => ctx.vfs.exists(p))).toEqual([false, false, true, true]);
  });

  it('./risky.sh behaves as in the interpreter when the sprite has none', async () => {
    const ctx = sprite();
    expect(await run(sh('echo good > /tmp/data; ./risky.sh'), {}, ctx)).toEqual({ stdout: '', stderr: 'risky.sh: failed\n', exit: 1 });
    expect(Buffer.from(ctx.vfs.readFile('/work/output')).toString()).toBe('partial-corrupt');
    expect(Buffer.from(ctx.vfs.readFile('/tmp/data')).toString()).toBe('good\n');
  });

  it('./risky.sh runs the sprite’s own script when there is one', async () => {
    const ctx = sprite();
    ctx.vfs.writeFile('/home/sprite/risky.sh', 'echo mine\n', { mode: 0o755 });
    expect(await run(['./risky.sh'], {}, ctx)).toEqual({ stdout: 'mine\n', stderr: '', exit: 0 });
    expect(ctx.vfs.exists('/work/output')).toBe(false);
  });
});

describe('shell engine: terminal', () => {
  it('with a TTY: tty, stty size, merged streams in order, CRLF', async () => {
    const got = await run(sh('tty; stty size; echo err >&2; echo out'), { tty: true, rows: 30, cols: 100 });
    expect(got).toEqual({ stdout: '/dev/pts/0\r\n30 100\r\nerr\r\nout\r\n', stderr: '', exit: 0 });
  });

  it('without a TTY: tty says not a tty and exits 1, stty fails', async () => {
    expect(await run(['tty'])).toEqual({ stdout: 'not a tty\n', stderr: '', exit: 1 });
    expect((await run(['stty', 'size'])).exit).toBe(1);
  });

  it('resize changes what later `stty size` calls print', async () => {
    const t = start(request(sh('stty size; sleep 1; stty size'), { tty: true }));
    while (t.clock.pending() === 0) await settle(1); // the command is now inside `sleep`
    t.proc.resize(120, 40);
    t.clock.advance(1000);
    expect((await t.result()).stdout).toBe('24 80\r\n40 120\r\n');
  });
});

describe('shell engine: stdin', () => {
  it('stdin=false runs at once with empty stdin', async () => {
    expect(await run(['cat'])).toEqual({ stdout: '', stderr: '', exit: 0 });
  });

  it('runs on EOF with all the stdin that came before', async () => {
    const t = start(request(['cat']), { stdin: true });
    t.proc.writeStdin(Buffer.from('hello '));
    t.proc.writeStdin(Buffer.from('world\n'));
    await settle();
    expect(t.seen.exited).toBe(false);
    t.proc.endStdin();
    expect(await t.result()).toEqual({ stdout: 'hello world\n', stderr: '', exit: 0 });
    t.proc.writeStdin(Buffer.from('late'));
    expect(t.clock.pending()).toBe(0);
  });

  it('without EOF, a client that has started writing gets 1 s of quiet after its last chunk', async () => {
    const t = start(request(sh('cat; echo end')), { stdin: true, graceMs: 50 });
    t.clock.advance(40);
    t.proc.writeStdin(Buffer.from('a'));
    t.clock.advance(600);
    t.proc.writeStdin(Buffer.from('b'));
    t.clock.advance(999); // 1.6 s since start, but under 1 s since the last chunk
    await settle();
    expect(t.seen.exited).toBe(false);
    t.clock.advance(1);
    expect(await t.result()).toEqual({ stdout: 'abend\n', stderr: '', exit: 0 });
  });

  it('an empty chunk (bytes of a frame still arriving) also postpones the start by the idle period', async () => {
    const t = start(request(['wc', '-c']), { stdin: true, graceMs: 50 });
    t.clock.advance(40);
    t.proc.writeStdin(new Uint8Array(0));
    t.clock.advance(999);
    await settle();
    expect(t.seen.exited).toBe(false);
    t.proc.writeStdin(Buffer.from('abc'));
    t.proc.endStdin();
    expect(await t.result()).toEqual({ stdout: '3\n', stderr: '', exit: 0 });
  });

  it('stdin up to maxStdinBytes runs; one byte more fails the command at once, loudly, without running it', async () => {
    const ok = start(request(['wc', '-c']), { stdin: true, maxStdinBytes: 8 });
    ok.proc.writeStdin(Buffer.from('12345'));
    ok.proc.writeStdin(Buffer.from('678'));
    ok.proc.endStdin();
    expect(await ok.result()).toEqual({ stdout: '8\n', stderr: '', exit: 0 });

    const ctx = sprite();
    const big = start(request(sh('cat > /home/sprite/in.txt')), { stdin: true, maxStdinBytes: 8, ctx });
    big.proc.writeStdin(Buffer.from('12345'));
    big.proc.writeStdin(Buffer.from('6789'));
    expect(await big.result()).toEqual({ stdout: '', stderr: stdinTooLargeMessage(8), exit: STDIN_TOO_LARGE_EXIT });
    expect(ctx.vfs.exists('/home/sprite/in.txt')).toBe(false);
    expect(big.clock.pending()).toBe(0);
    big.proc.writeStdin(Buffer.from('more'));
    big.proc.endStdin();
    await settle();
    expect(big.seen.stderr.toString()).toBe(stdinTooLargeMessage(8));
  });

  it('stdin that arrives after the command started is reported once on stderr', async () => {
    const t = start(request(sh('sleep 5; echo done')), { stdin: true });
    t.proc.endStdin();
    while (t.clock.pending() === 0) await settle(1);
    t.proc.writeStdin(new Uint8Array(0)); // activity alone is not data
    expect(t.seen.stderr.toString()).toBe('');
    t.proc.writeStdin(Buffer.from('late 1'));
    t.proc.writeStdin(Buffer.from('late 2'));
    t.clock.advance(5_000);
    expect(await t.result()).toEqual({ stdout: 'done\n', stderr: LATE_STDIN_MESSAGE, exit: 0 });
  });

  it('a command that may read stdin waits 2 s for its first byte: a client that writes after 300 ms loses nothing', async () => {
    const t = start(request(['wc', '-c']), { stdin: true });
    t.clock.advance(300);
    await settle();
    expect(t.seen.exited).toBe(false);
    t.proc.writeStdin(new Uint8Array(1024 * 1024));
    t.proc.endStdin();
    expect(await t.result()).toEqual({ stdout: '1048576\n', stderr: '', exit: 0 });
  });

  it('a reader that never gets stdin starts with empty stdin after the 2 s wait', async () => {
    const t = start(request(['wc', '-c']), { stdin: true });
    t.clock.advance(1_999);
    await settle();
    expect(t.seen.exited).toBe(false);
    t.clock.advance(1);
    expect(await t.result()).toEqual({ stdout: '0\n', stderr: '', exit: 0 });
  });

  it('a reader sent stdin after it started reports it on stderr and exits 1, not 0', async () => {
    const t = start(request(sh('sleep 5; wc -c')), { stdin: true });
    t.clock.advance(2_000);
    while (t.clock.pending() === 0) await settle(1); // now inside `sleep`
    t.proc.writeStdin(Buffer.from('late'));
    t.clock.advance(5_000);
    expect(await t.result()).toEqual({ stdout: '0\n', stderr: LATE_STDIN_MESSAGE, exit: LATE_STDIN_EXIT });
  });

  it('a script of `[` tests and awk over a named file reads no stdin: it starts after the 50 ms grace', async () => {
    // deepagents' read_file command line, as the JS SDK's exec sends it (stdin asked for, never ended)
    const script = "printf 'alpha\\n' > /tmp/a.txt; if [ ! -f '/tmp/a.txt' ]; then echo missing; exit 1; fi; awk 'NR <= 1 { printf \"%6d\\t%s\\n\", NR, $0 }' '/tmp/a.txt'";
    const t = start(request(sh(script)), { stdin: true });
    t.clock.advance(50);
    const out = await t.result();
    expect(out).toEqual({ stdout: '     1\talpha\n', stderr: '', exit: 0 });
  });

  it('uses a 50 ms grace period by default (the JS SDK exec() never sends EOF)', async () => {
    const t = start(request(['echo', 'hello', 'world']), { stdin: true });
    t.clock.advance(49);
    await settle();
    expect(t.seen.exited).toBe(false);
    t.clock.advance(1);
    expect(await t.result()).toEqual({ stdout: 'hello world\n', stderr: '', exit: 0 });
  });
});

describe('shell engine: signals', () => {
  async function sleeping(): Promise<{ t: ReturnType<typeof start>; proc: EngineProcess }> {
    const t = start(request(sh('echo before > /tmp/f; sleep 10; echo after; echo after > /tmp/g')));
    while (t.clock.pending() === 0) await settle(1);
    return { t, proc: t.proc };
  }

  it.each([
    ['TERM', 143],
    ['SIGTERM', 143],
    ['KILL', 137],
    ['INT', 130],
    ['HUP', 129],
  ])('%s ends a running command with %i, and nothing after it runs', async (sig, code) => {
    const { t, proc } = await sleeping();
    proc.signal(sig);
    expect(await t.result()).toEqual({ stdout: '', stderr: '', exit: code });
    expect(t.clock.pending()).toBe(0);
    t.clock.advance(20_000);
    await settle();
    expect(t.ctx.vfs.exists('/tmp/f')).toBe(true);
    expect(t.ctx.vfs.exists('/tmp/g')).toBe(false);
    expect(t.seen.stdout.length).toBe(0);
  });

  it('a signal while waiting for stdin ends the command without running it', async () => {
    const ctx = sprite();
    const t = start(request(sh('echo x > /tmp/f')), { stdin: true, ctx });
    t.proc.signal('TERM');
    expect((await t.result()).exit).toBe(143);
    expect(t.clock.pending()).toBe(0);
    expect(ctx.vfs.exists('/tmp/f')).toBe(false);
  });

  it('WINCH ends nothing, and a finished command is unaffected by TERM', async () => {
    const { t, proc } = await sleeping();
    proc.signal('WINCH');
    t.clock.advance(10_000);
    expect((await t.result()).exit).toBe(0);
    proc.signal('TERM');
    expect(await proc.exit).toBe(0);
  });
});

describe('shell engine: output bytes', () => {
  it('stdoutBytes encodes text results as UTF-8 and keeps byte results as they are', () => {
    expect(stdoutBytes({ stdout: 'é\n', stderr: '', exitCode: 0 })).toEqual(Buffer.from([0xc3, 0xa9, 0x0a]));
    expect(stdoutBytes({ stdout: '\xff\x00', stderr: '', exitCode: 0, stdoutKind: 'bytes' })).toEqual(Buffer.from([0xff, 0x00]));
  });

  it('`cat` of a 4 MiB file delivers every byte', async () => {
    const ctx = sprite();
    const data = Buffer.alloc(4 * 1024 * 1024, 0x41);
    data[data.length - 1] = 0x0a;
    ctx.vfs.writeFile('/home/sprite/big.txt', data);
    const t = start(request(['cat', '/home/sprite/big.txt']), { ctx });
    await t.proc.exit;
    expect(t.seen.stdout.equals(data)).toBe(true);
  });
});

describe('shell engine: SHLVL', () => {
  const bash = (script: string) => ['bash', '-c', script];

  it('is one more than the request\'s in the shell of a bash -c request, exported, and one more again in a child bash', async () => {
    expect(await run(bash('echo "$SHLVL"; bash -c \'echo $SHLVL\'; :; env | grep -c SHLVL=1'))).toEqual({ stdout: '1\n2\n1\n', stderr: '', exit: 0 });
    expect(await run(bash('echo "$SHLVL"'), { env: { SHLVL: '2' } })).toEqual({ stdout: '3\n', stderr: '', exit: 0 });
    // sh is dash, which leaves SHLVL as it is.
    expect(await run(sh('echo "[$SHLVL]"'), { env: { SHLVL: '2' } })).toEqual({ stdout: '[2]\n', stderr: '', exit: 0 });
  });

  it('passes through a child sh (dash) unchanged', async () => {
    expect(await run(bash('sh -c \'echo "sh $SHLVL"\'; sh -c \'bash -c "echo \\$SHLVL"\'; :'))).toEqual({ stdout: 'sh 1\n2\n', stderr: '', exit: 0 });
  });

  it('is one lower for a shell that is the last command of the script, which bash runs in its own process', async () => {
    expect(await run(bash('echo "$SHLVL"; bash -c \'echo $SHLVL\''))).toEqual({ stdout: '1\n1\n', stderr: '', exit: 0 });
    expect(await run(bash('bash -c \'echo $SHLVL\' | cat; sh -c \'echo $SHLVL\''))).toEqual({ stdout: '2\n0\n', stderr: '', exit: 0 });
    // A script with a here-doc runs as written.
    expect(await run(bash('cat <<E\nx\nE\nbash -c \'echo $SHLVL\''))).toEqual({ stdout: 'x\n2\n', stderr: '', exit: 0 });
  });

  it('is one lower for any program that is the last command, in its place in the environment; not for a builtin', async () => {
    expect(await run(bash('printenv SHLVL; env | grep SHLVL; true && env | grep SHLVL'))).toEqual({ stdout: '1\nSHLVL=1\nSHLVL=1\n', stderr: '', exit: 0 });
    expect(await run(bash('true && env | grep -c SHLVL=0; env'))).toMatchObject({ stdout: expect.stringMatching(/^0\n(.*\n)*SHLVL=0\nPATH=.*\n_=\/usr\/bin\/env\n$/) });
    expect((await run(bash('echo $SHLVL; printenv SHLVL >/dev/stdout; f() { printenv SHLVL; }; f; bash -c "printenv SHLVL; printenv SHLVL"'))).stdout).toBe('1\n1\n1\n1\n0\n');
  });

  it('is set in a shell reading its commands from stdin', async () => {
    const t = start(request(['bash']), { stdin: true });
    t.proc.writeStdin(Buffer.from('echo "level $SHLVL"\n'));
    t.proc.endStdin();
    expect(await t.result()).toEqual({ stdout: 'level 1\n', stderr: '', exit: 0 });
  });
});
