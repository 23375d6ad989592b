import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { CommandFeed } from './stdin-shell.ts';
import type { SpriteContext } from '../engine.ts';

/** A non-TTY `argv` exec with stdin open; `type` writes a line, `until` waits (bounded) for output to arrive. */
function shell(argv: string[] = ['bash']) {
  let pid = 1;
  const ctx: SpriteContext = { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
  const seen = { out: '', err: '', exit: null as number | null };
  const io = { stdout: (d: Uint8Array) => void (seen.out += Buffer.from(d)), stderr: (d: Uint8Array) => void (seen.err += Buffer.from(d)) };
  const proc = createShellEngine({ clock: new FakeClock() }).start(ctx, { argv, env: { HOME: '/home/sprite', PATH: '/usr/bin:/bin' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 }, io, { stdin: true });
  void proc.exit.then((code) => (seen.exit = code));
  const until = async (done: () => boolean) => {
    // Bounded: the first command of a process loads the interpreter, which takes real time.
    for (let i = 0; i < 2500 && !done(); i++) await new Promise<void>((r) => setTimeout(r, 2));
    return done();
  };
  return { proc, seen, until, type: (line: string) => proc.writeStdin(Buffer.from(line)) };
}

// Expectations are bash 5.2's for the same input on a pipe (`printf … | bash`).
describe('bash reading commands from a stdin that is not a terminal', () => {
  it('runs each command as its line arrives, before EOF, keeping variables, functions and the directory', async () => {
    const sh = shell();
    sh.type('echo hello\n');
    expect(await sh.until(() => sh.seen.out === 'hello\n')).toBe(true);
    sh.type('x=1; f() { echo "f$x $1"; }\ncd /tmp\n');
    sh.type('f a; pwd\n');
    expect(await sh.until(() => sh.seen.out === 'hello\nf1 a\n/tmp\n')).toBe(true);
    expect(sh.seen.exit).toBeNull();
    sh.type('false\n');
    sh.proc.endStdin();
    expect(await sh.proc.exit).toBe(1); // the last command's status
  });

  it('waits for the rest of a command that spans lines, and for a here-document', async () => {
    const sh = shell(['sh']);
    sh.type('if true; then\n');
    sh.type('  echo in\n');
    sh.type('fi\ncat <<E\nbody\n');
    expect(await sh.until(() => sh.seen.out === 'in\n')).toBe(true);
    sh.type('E\n');
    expect(await sh.until(() => sh.seen.out === 'in\nbody\n')).toBe(true);
    sh.type('exit 3\necho never\n');
    expect(await sh.proc.exit).toBe(3);
    expect(sh.seen.out).toBe('in\nbody\n');
  });

  it('a syntax error ends the shell with bash\'s message and status 2', async () => {
    const sh = shell();
    sh.type('echo a\nfi\necho b\n');
    expect(await sh.proc.exit).toBe(2);
    expect(sh.seen).toEqual({ out: 'a\n', err: "bash: line 2: syntax error near unexpected token `fi'\nbash: line 2: `fi'\n", exit: 2 });
  });

  it('an unfinished command at EOF is an unexpected end of file', async () => {
    const sh = shell();
    sh.type('echo a\nwhile true\n');
    sh.proc.endStdin();
    expect(await sh.proc.exit).toBe(2);
    expect(sh.seen.err).toBe('bash: line 3: syntax error: unexpected end of file\n');
  });
});

describe('CommandFeed', () => {
  it('cuts stdin into complete commands, across chunk boundaries', async () => {
    const feed = new CommandFeed();
    feed.push(Buffer.from('echo a\necho b |'));
    feed.push(Buffer.from('\n wc -l\nfor i in 1; do\n'));
    feed.end();
    expect([await feed.next(), await feed.next(), await feed.next()]).toEqual(['echo a\n', 'echo b |\n wc -l\n', "printf '%s\\n' 'bash: line 5: syntax error: unexpected end of file' >&2; exit 2"]);
    expect(await feed.next()).toBeNull();
  });

  it('hands on nothing until a command that spans lines is complete', async () => {
    const feed = new CommandFeed();
    let got: string | null | undefined;
    void feed.next().then((c) => (got = c));
    feed.push(Buffer.from('if true; then\n  echo in\n'));
    await new Promise<void>((r) => setImmediate(r));
    expect(got).toBeUndefined();
    feed.push(Buffer.from('fi\n'));
    await new Promise<void>((r) => setImmediate(r));
    expect(got).toBe('if true; then\n  echo in\nfi\n');
  });
});
