/**
 * The `shell` engine itself, as a script sees it: bytes are bytes (stdout, stdin, files), each command's
 * output is delivered when that command ends (on the fake clock), and a TTY `bash` is an interactive shell.
 */
import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { escapesToOctal } from './byte-commands.ts';
import { streamTopLevel } from './output-sink.ts';
import type { SpriteContext } from '../engine.ts';
import type { ExecRequest } from '../../port.ts';

const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

function sprite(): SpriteContext {
  let pid = 41;
  return { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
}

/** Starts a command; records every chunk in order (`o:`/`e:` + hex) and the exit. */
function start(argv: string[], opts: { tty?: boolean; stdin?: boolean; ctx?: SpriteContext; clock?: FakeClock } = {}) {
  const clock = opts.clock ?? new FakeClock();
  const ctx = opts.ctx ?? sprite();
  const seen = { chunks: [] as string[], stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exit: null as number | null };
  const req: ExecRequest = { argv, env: ENV, dir: '/home/sprite', tty: opts.tty ?? false, rows: 24, cols: 80 };
  const proc = createShellEngine({ clock, stdinGraceMs: 10 }).start(
    ctx,
    req,
    {
      stdout: (d) => {
        seen.chunks.push(`o:${Buffer.from(d).toString('hex')}`);
        seen.stdout = Buffer.concat([seen.stdout, d]);
      },
      stderr: (d) => {
        seen.chunks.push(`e:${Buffer.from(d).toString('hex')}`);
        seen.stderr = Buffer.concat([seen.stderr, d]);
      },
    },
    { stdin: opts.stdin ?? false },
  );
  void proc.exit.then((c) => (seen.exit = c));
  return { proc, clock, ctx, seen };
}

/** Waits (without touching the fake clock) until `cond` holds; just-bash loads some commands lazily. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise<void>((r) => setTimeout(r, 2));
  expect(cond()).toBe(true);
}

const sh = (script: string) => ['sh', '-c', script];
const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');

describe('shell engine: bytes are bytes (stdout, stdin, files)', () => {
  it("printf '\\377' writes the one byte ff", async () => {
    const t = start(sh("printf '\\377'"));
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.stdout.toString('hex')).toBe('ff');
  });

  it('printf and echo -e write escapes as bytes and literal text as UTF-8', async () => {
    const t = start(sh("printf 'é\\377\\xc3\\xa9\\u00e9\\n'; echo -e 'a\\xff\\u00e9'; echo é"));
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.stdout.toString('hex')).toBe('c3a9ffc3a9c3a90a' + '61ffc3a90a' + 'c3a90a');
  });

  it("printf '\\377' > f leaves a one-byte file ff", async () => {
    const t = start(sh("printf '\\377' > f"));
    expect(await t.proc.exit).toBe(0);
    expect(Buffer.from(t.ctx.vfs.readFile('/home/sprite/f')).toString('hex')).toBe('ff');
  });

  it('cat of a file holding every byte value gives those 256 bytes', async () => {
    const ctx = sprite();
    ctx.vfs.writeFile('/home/sprite/all', ALL_BYTES);
    const t = start(sh('cat all'), { ctx });
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.stdout.equals(Buffer.from(ALL_BYTES))).toBe(true);
  });

  it('cat of every byte value on a TTY changes nothing but LF to CR LF', async () => {
    const ctx = sprite();
    ctx.vfs.writeFile('/home/sprite/all', ALL_BYTES);
    const t = start(['cat', 'all'], { ctx, tty: true });
    expect(await t.proc.exit).toBe(0);
    const expected = Buffer.concat([Buffer.from(ALL_BYTES.subarray(0, 10)), Buffer.from([13, 10]), Buffer.from(ALL_BYTES.subarray(11))]);
    expect(t.seen.stdout.toString('hex')).toBe(expected.toString('hex'));
  });

  it('/dev/tty is the terminal of a TTY exec, even from a command substitution or a redirected group', async () => {
    const t = start(sh('echo one > /dev/tty; x=$(echo two > /dev/tty); { echo three > /dev/tty; } > /dev/null; echo "rc=$?"'), { tty: true });
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.stdout.toString()).toBe('one\r\ntwo\r\nthree\r\nrc=0\r\n');
  });

  it('/dev/tty does not open without a terminal (ENXIO), for writing or reading', async () => {
    const t = start(['bash', '-c', 'echo hi > /dev/tty; echo "rc=$?"; cat /dev/tty; echo "rc=$?"; read -r l < /dev/tty; echo "rc=$?"; [ -c /dev/tty ] && echo char']);
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.stdout.toString()).toBe('rc=1\nrc=1\nrc=1\nchar\n');
    expect(t.seen.stderr.toString()).toBe('bash: line 1: /dev/tty: No such device or address\ncat: /dev/tty: No such device or address\nbash: line 1: /dev/tty: No such device or address\n');
  });

  it('stdin ff 00 80 41 comes back unchanged through cat, also inside a pipeline', async () => {
    for (const argv of [['cat'], sh('cat | cat')]) {
      const t = start(argv, { stdin: true });
      t.proc.writeStdin(Uint8Array.of(0xff, 0x00, 0x80, 0x41));
      t.proc.endStdin();
      expect(await t.proc.exit).toBe(0);
      expect(t.seen.stdout.toString('hex')).toBe('ff008041');
    }
  });

  it('escapesToOctal turns \\x, \\u and \\U into byte escapes and keeps \\\\', () => {
    expect(escapesToOctal('\\xff\\u00e9\\U0001F600\\\\x41', '\\')).toBe('\\377\\303\\251\\360\\237\\230\\200\\\\x41');
    expect(escapesToOctal('\\x41', '\\0')).toBe('\\0101');
  });
});

describe('shell engine: each command\'s output is streamed when that command ends', () => {
  it('echo a; sleep 1; echo b delivers a, then b one (fake) second later, then the exit', async () => {
    const t = start(sh('echo a; sleep 1; echo b'));
    await until(() => t.clock.pending() > 0);
    expect([t.seen.stdout.toString(), t.seen.exit]).toEqual(['a\n', null]);
    t.clock.advance(999);
    expect(t.seen.stdout.toString()).toBe('a\n');
    t.clock.advance(1);
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.chunks).toEqual([`o:${hex('a\n')}`, `o:${hex('b\n')}`]);
  });

  it("sh -c 'echo step1; sleep 30' ended by TERM has delivered step1, then exits 143", async () => {
    const t = start(sh('echo step1; sleep 30'));
    await until(() => t.clock.pending() > 0);
    t.clock.advance(1500);
    t.proc.signal('TERM');
    expect(await t.proc.exit).toBe(143);
    expect(t.seen.stdout.toString()).toBe('step1\n');
  });

  it('a loop delivers each iteration as it ends', async () => {
    const t = start(sh('for i in 1 2; do echo $i; sleep 1; done'));
    await until(() => t.clock.pending() > 0);
    expect(t.seen.stdout.toString()).toBe('1\n');
    t.clock.advance(1000);
    // `2` arrives when its echo ends; the second sleep's timer may start a turn later (turns.ts yields
    // between commands): advance the clock only once it is there.
    await until(() => t.seen.stdout.toString() === '1\n2\n' && t.clock.pending() > 0);
    t.clock.advance(1000);
    expect(await t.proc.exit).toBe(0);
  });

  it("a nested sh -c '…' streams per command too, quotes inside it kept", async () => {
    const t = start(sh(`sh -c 'echo "it'"'"'s a"; sleep 1; echo b >&2' | cat; echo end`));
    await until(() => t.clock.pending() > 0);
    expect(t.seen.stdout.toString()).toBe('');
    t.clock.advance(1000);
    expect(await t.proc.exit).toBe(0);
    expect([t.seen.stdout.toString(), t.seen.stderr.toString()]).toEqual(["it's a\nend\n", 'b\n']);
    const u = start(sh(`bash -c 'echo "it'"'"'s a"; sleep 1; echo b'`));
    await until(() => u.clock.pending() > 0);
    expect(u.seen.stdout.toString()).toBe("it's a\n");
    u.clock.advance(1000);
    expect(await u.proc.exit).toBe(0);
    expect(u.seen.stdout.toString()).toBe("it's a\nb\n");
  });

  it('stdout and stderr keep their order and the command\'s own redirections win', async () => {
    const t = start(sh('echo a; echo b >&2; echo c 2>&1; echo d > f; cat f; ls /nope 2>&1'));
    expect(await t.proc.exit).toBe(0 + 2);
    expect(t.seen.stdout.toString()).toMatch(/^a\nc\nd\nls: .*nope.*\n$/);
    expect(t.seen.stderr.toString()).toBe('b\n');
    expect(t.seen.chunks.slice(0, 2)).toEqual([`o:${hex('a\n')}`, `e:${hex('b\n')}`]);
  });

  it('pipes, functions, exit codes and variables behave as before', async () => {
    const t = start(sh('x=4; f() { echo "f$1"; }; f $x | tr f g; echo $? ; exit 3'));
    expect(await t.proc.exit).toBe(3);
    expect(t.seen.stdout.toString()).toBe('g4\n0\n');
  });

  it('a top-level exec that only redirects gets no sinks: a later $(…) still captures its output', async () => {
    expect(streamTopLevel('exec 5<in 6>out', false)).not.toContain('/dev/.spritzer');
    const t = start(sh('exec 3>&1; x=$(echo out); echo "[$x]"; echo three >&3'));
    expect(await t.proc.exit).toBe(0);
    expect(t.seen.stdout.toString()).toBe('[out]\nthree\n');
  });

  it('exec N>&1 and N>&2 name the script\'s own stdout and stderr, also inside a $(…)', async () => {
    const t = start(sh('log() { echo "log: $*" >&3; }; exec 3>&1 4>&2; r=$(log start; echo result; echo warn >&4); echo "r=$r"'));
    expect(await t.proc.exit).toBe(0);
    expect([t.seen.stdout.toString(), t.seen.stderr.toString()]).toEqual(['log: start\nr=result\n', 'warn\n']);
    // Output through 3 and through 1 keeps its order: the commands after such an exec still stream.
    const o = start(sh('exec 3>&1; echo a; echo b >&3; echo c'));
    expect(await o.proc.exit).toBe(0);
    expect(o.seen.stdout.toString()).toBe('a\nb\nc\n');
    // Redirected first, 1 is the file: 3 follows it there.
    const f = start(sh('exec >f 3>&1; echo a >&3; exec >&-; cat f >&2'));
    expect(await f.proc.exit).toBe(0);
    expect(f.seen.stderr.toString()).toBe('a\n');
  });

  it('an exec inside a group or subshell that redirects stdout or stderr applies to the commands after it there', async () => {
    const t = start(sh('echo first; (exec >f.txt; echo q); { exec 2>g.txt; ls /nope; }; echo after; cat f.txt; grep -c nope g.txt'));
    expect(await t.proc.exit).toBe(0);
    expect([t.seen.stdout.toString(), t.seen.stderr.toString()]).toEqual(['first\nafter\nq\n1\n', '']);
  });

  it('leaves background statements, function bodies and scripts that do not parse alone', () => {
    expect(streamTopLevel('sleep 1 &', false)).not.toContain('/dev/.spritzer');
    expect(streamTopLevel('f() { echo; }', false)).not.toContain('/dev/.spritzer');
    expect(streamTopLevel('if then', false)).toBe('if then');
  });
});

describe('shell engine: a TTY bash is an interactive shell', () => {
  const text = (t: ReturnType<typeof start>) => t.seen.stdout.toString('utf8');
  const type = (t: ReturnType<typeof start>, s: string) => t.proc.writeStdin(Buffer.from(s, 'latin1'));
  const prompts = (t: ReturnType<typeof start>) => text(t).split('sprite@demo:').length - 1;
  /** A TTY `bash` past its first prompt, with `line` typed and running (its `sleep` pending on the fake clock). */
  const runningLine = async (line: string) => {
    const t = start(['bash'], { tty: true, stdin: true });
    await until(() => prompts(t) === 1);
    type(t, line);
    await until(() => t.clock.pending() > 0);
    return t;
  };

  it('echoes, runs lines, keeps state, handles backspace, and ends on exit with its code', async () => {
    const t = start(['bash'], { tty: true, stdin: true });
    await until(() => text(t) === 'sprite@demo:~$ ');
    type(t, 'x=5; cd /tmp\r');
    await until(() => prompts(t) === 2);
    type(t, 'ecoo\x7f\x7fho $x $PWD\r');
    await until(() => prompts(t) === 3);
    expect(text(t)).toBe('sprite@demo:~$ x=5; cd /tmp\r\nsprite@demo:/tmp$ ecoo\b \b\b \bho $x $PWD\r\n5 /tmp\r\nsprite@demo:/tmp$ ');
    type(t, 'false\r');
    await until(() => prompts(t) === 4);
    type(t, 'echo $?\r');
    await until(() => prompts(t) === 5);
    expect(text(t)).toContain('echo $?\r\n1\r\n');
    expect(t.seen.exit).toBe(null);
    type(t, 'exit 7\r');
    expect(await t.proc.exit).toBe(7);
  });

  it('^C ends sleep 30 with 130 at once, and the shell survives', async () => {
    const t = await runningLine('sleep 30; echo never\r');
    type(t, '\x03');
    expect(text(t)).toMatch(/\^C\r\nsprite@demo:~\$ $/);
    expect(t.clock.pending()).toBe(0);
    type(t, 'echo st=$?\r');
    await until(() => text(t).includes('st=130\r\n'));
    t.clock.advance(60_000);
    expect(text(t)).not.toMatch(/\nnever\r/);
    type(t, '\x04');
    expect(await t.proc.exit).toBe(0); // the status of `echo st=$?`
  }, 30_000); // several polls of `until` on a loaded machine

  it('^D typed while a line runs ends the shell after that line, with its status', async () => {
    const t = await runningLine('sleep 5; echo done; false\r');
    type(t, '\x04');
    expect(t.seen.exit).toBe(null);
    t.clock.advance(5_000);
    expect(await t.proc.exit).toBe(1);
    expect(text(t)).toMatch(/done\r\nsprite@demo:~\$ exit\r\n$/);
  });

  it('lines typed ahead run in order after the running one, an empty one only prompting', async () => {
    const t = await runningLine('sleep 5\r\recho one\recho two\r');
    t.clock.advance(5_000);
    // The typed lines were echoed as typed (`…echo two\r\n`), so wait for their output, not for a line ending in `two`.
    const ranInOrder = /\r\nsprite@demo:~\$ one\r\ntwo\r\nsprite@demo:~\$ $/;
    await until(() => ranInOrder.test(text(t)));
    expect(text(t)).toMatch(ranInOrder);
    type(t, 'exit 4\r');
    expect(await t.proc.exit).toBe(4);
  });

  it('^C after a typed-ahead ^D drops it with the line: the shell lives on', async () => {
    const t = await runningLine('sleep 30\r');
    type(t, '\x04\x03');
    type(t, 'echo alive $?\r');
    await until(() => text(t).includes('alive 130\r\n'));
    expect(t.seen.exit).toBe(null);
    type(t, 'exit 5\r');
    expect(await t.proc.exit).toBe(5);
  });

  it('a raw ^C to a TTY command that is not a shell ends it with 130', async () => {
    const t = start(sh('sleep 30'), { tty: true });
    await until(() => t.clock.pending() > 0);
    type(t, '\x03');
    expect(await t.proc.exit).toBe(130);
  });

  it('the interactive shell keeps bash\'s own variables out of the environment from one line to the next', async () => {
    const t = start(['bash'], { tty: true, stdin: true });
    await until(() => prompts(t) === 1);
    type(t, 'true\r');
    await until(() => prompts(t) === 2);
    type(t, 'env | grep -c -e ^IFS= -e ^OSTYPE=\r');
    await until(() => prompts(t) === 3);
    expect(text(t)).toContain('\r\n0\r\n');
  });

  it('$- says himBHs, as an interactive bash; a bash -c it runs is not interactive', async () => {
    const t = start(['bash'], { tty: true, stdin: true });
    await until(() => prompts(t) === 1);
    type(t, "echo $-; bash -c 'echo $-'\r");
    await until(() => prompts(t) === 2);
    expect(text(t)).toContain('\r\nhimBHs\r\nhBc\r\n');
  });

  it('a syntax error does not end the shell; EOF (^D) does, with the last status', async () => {
    const t = start(['sh', '-l'], { tty: true, stdin: true });
    await until(() => prompts(t) === 1);
    type(t, 'if then\r');
    await until(() => prompts(t) === 2);
    expect(text(t)).toContain('syntax error');
    type(t, '\x04');
    expect(await t.proc.exit).toBe(2);
    expect(text(t)).toMatch(/exit\r\n$/);
  });
});
