import { describe, it, expect } from 'vitest';
import { onlcr, planCommand, ProcessExit, shellQuote, terminalIO } from './argv.ts';

describe('planCommand', () => {
  it.each([
    [{ argv: ['sh', '-c', 'echo hi'] }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
    [{ argv: ['bash', '-c', 'echo hi'] }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
    [{ argv: ['sh', '-lc', 'echo hi'] }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
    [{ argv: ['bash', '-lc', 'echo hi'] }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
    [{ argv: ['bash', '-cl', 'echo hi'] }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
    [{ argv: ['bash', '-l', '-c', 'echo hi'] }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
    [{ argv: ['/bin/sh', '-c', 'echo $0 $1', 'zero', 'one'] }, { form: 'shell', script: 'echo $0 $1', scriptArgs: ['zero', 'one'] }],
    [{ argv: ['anything', '-c', 'echo hi'], path: '/usr/bin/bash' }, { form: 'shell', script: 'echo hi', scriptArgs: [] }],
  ])('unwraps the script of %j', (req, want) => {
    expect(planCommand(req)).toEqual(want);
  });

  it.each([
    [{ argv: ['echo', 'hello', 'world'] }],
    [{ argv: ['sh', 'script.sh'] }],
    [{ argv: ['sh', '-c'] }],
    [{ argv: ['bash', '-x', '-c', 'echo hi'] }],
    [{ argv: ['zsh', '-c', 'echo hi'] }],
    [{ argv: ['echo', 'hi'], path: '/bin/echo' }],
  ])('keeps %j as a plain command', (req) => {
    expect(planCommand(req)).toEqual({ form: 'argv', argv: req.argv });
  });

  it.each([
    [{ argv: ['sh', '-c', 'echo hi'], path: 'python3' }, ['python3', '-c', 'echo hi']],
    [{ argv: ['shown-name', 'hi'], path: 'echo' }, ['echo', 'hi']],
  ])('runs path, not argv[0], for %j, as execve would', (req, argv) => {
    expect(planCommand(req)).toEqual({ form: 'argv', argv });
  });
});

describe('shellQuote', () => {
  it.each([
    ['echo', 'echo'],
    ['/tmp/a-b_c.txt', '/tmp/a-b_c.txt'],
    ['a b', "'a b'"],
    ['', "''"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
    ['a;b', "'a;b'"],
  ])('quotes %j as %s', (word, want) => {
    expect(shellQuote(word)).toBe(want);
  });
});

describe('terminalIO', () => {
  const collect = () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (d: Uint8Array) => out.push(Buffer.from(d).toString()), stderr: (d: Uint8Array) => err.push(Buffer.from(d).toString()) };
    return { io, out, err };
  };
  it('passes output through untouched without a TTY', () => {
    const { io, out, err } = collect();
    const t = terminalIO(io, false);
    t.stdout(Buffer.from('a\n'));
    t.stderr(Buffer.from('b\n'));
    expect(out).toEqual(['a\n']);
    expect(err).toEqual(['b\n']);
  });
  it('merges stderr into stdout and turns \\n into \\r\\n with a TTY', () => {
    const { io, out, err } = collect();
    const t = terminalIO(io, true);
    t.stdout(Buffer.from('a\n'));
    t.stderr(Buffer.from('b\nc\n'));
    expect(out).toEqual(['a\r\n', 'b\r\nc\r\n']);
    expect(err).toEqual([]);
  });
  it('onlcr keeps bytes without LF and converts every LF', () => {
    expect(Buffer.from(onlcr(Buffer.from('xyz'))).toString()).toBe('xyz');
    expect(Buffer.from(onlcr(Buffer.from('\n\r\n'))).toString()).toBe('\r\n\r\r\n');
  });
});

describe('ProcessExit', () => {
  it.each([
    ['TERM', 143],
    ['SIGTERM', 143],
    ['KILL', 137],
    ['INT', 130],
    ['HUP', 129],
    ['9', 137],
  ])('%s ends a running process with its 128+n code', async (sig, code) => {
    const p = new ProcessExit();
    expect(p.signal(sig)).toBe(true);
    await expect(p.exit).resolves.toBe(code);
  });

  it.each(['WINCH', 'CHLD', 'CONT', 'BOGUS'])('%s ends nothing', async (sig) => {
    const p = new ProcessExit();
    expect(p.signal(sig)).toBe(false);
    expect(p.finished).toBe(false);
    p.finish(0);
    await expect(p.exit).resolves.toBe(0);
  });

  it('keeps the first exit code: a signal after the end changes nothing', async () => {
    const p = new ProcessExit();
    expect(p.finish(3)).toBe(true);
    expect(p.signal('KILL')).toBe(false);
    expect(p.finish(4)).toBe(false);
    await expect(p.exit).resolves.toBe(3);
  });

  it.each([[-1], [256], [1.5]])('clamps an out-of-range code %d to 255', async (code) => {
    const p = new ProcessExit();
    p.finish(code);
    await expect(p.exit).resolves.toBe(255);
  });
});
