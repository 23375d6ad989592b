import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { commandStringPlace, completeLinesBefore, diagnose, failureScript, readAtATime, scriptFilePlace, stdinPlace, withSyntaxRecovery } from './syntax-errors.ts';
import type { SpriteContext } from '../engine.ts';

/** Runs `bash -c script` on the shell engine; returns each output chunk in order, and the exit status. */
async function bashC(script: string) {
  let pid = 1;
  const ctx: SpriteContext = { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
  const chunks: string[] = [];
  const io = { stdout: (d: Uint8Array) => void chunks.push(`out:${Buffer.from(d)}`), stderr: (d: Uint8Array) => void chunks.push(`err:${Buffer.from(d)}`) };
  const proc = createShellEngine({ clock: new FakeClock() }).start(ctx, { argv: ['bash', '-c', script], env: { PATH: '/usr/bin:/bin' }, dir: '/', tty: false, rows: 24, cols: 80 }, io, { stdin: false });
  return { exit: await proc.exit, chunks };
}

// Each expectation is real bash 5.2's output for the same script (`bash -c SCRIPT`).
describe('a syntax error on line N runs lines 1..N-1 first, then prints bash\'s message and exits 2', () => {
  it('an unexpected token: the commands before it run, the message names the line and quotes it', async () => {
    expect(await bashC('echo first\necho second\nif true; then\n  echo inside\nfi fi\necho never')).toEqual({
      exit: 2,
      chunks: ['out:first\n', 'out:second\n', "err:bash: -c: line 5: syntax error near unexpected token `fi'\nbash: -c: line 5: `fi fi'\n"],
    });
  });

  it('a loop before the error runs whole', async () => {
    const { exit, chunks } = await bashC('echo ran\nfor i in 1 2; do\n  echo $i\ndone\ndone');
    expect(exit).toBe(2);
    expect(chunks.join('')).toBe("out:ran\nout:1\nout:2\nerr:bash: -c: line 5: syntax error near unexpected token `done'\nbash: -c: line 5: `done'\n");
  });

  it('an unterminated quote names the line it opened on', async () => {
    expect(await bashC('echo start\necho "unterminated')).toEqual({
      exit: 2,
      chunks: ['out:start\n', 'err:bash: -c: line 2: unexpected EOF while looking for matching `"\'\n'],
    });
  });

  it('an open compound command is an unexpected end of file on the line after the last', async () => {
    expect(await bashC('echo a\nif true; then\necho b\n')).toEqual({ exit: 2, chunks: ['out:a\n', 'err:bash: -c: line 4: syntax error: unexpected end of file\n'] });
  });

  it('an unclosed array assignment exits 1', async () => {
    expect(await bashC('echo before\nx=(\necho never')).toEqual({ exit: 1, chunks: ['out:before\n', "err:bash: -c: line 2: unexpected EOF while looking for matching `)'\n"] });
  });

  it('an exit before the error ends the script before bash reads the bad line', async () => {
    expect(await bashC('echo a\nexit 3\nfi')).toEqual({ exit: 3, chunks: ['out:a\n'] });
  });

  it('a command continued by a trailing pipe is not run', async () => {
    expect(await bashC('echo a\necho b |\nfi')).toEqual({
      exit: 2,
      chunks: ['out:a\n', "err:bash: -c: line 3: syntax error near unexpected token `fi'\nbash: -c: line 3: `fi'\n"],
    });
  });
});

describe('what bash says of scripts just-bash accepts', () => {
  it('a } that closes nothing is a syntax error, after the commands before it ran', async () => {
    expect(await bashC('echo a\nf() {\n  echo body\n}\n}\necho b')).toEqual({
      exit: 2,
      chunks: ['out:a\n', "err:bash: -c: line 5: syntax error near unexpected token `}'\nbash: -c: line 5: `}'\n"],
    });
    expect(await bashC('echo a; }')).toEqual({ exit: 2, chunks: ["err:bash: -c: line 1: syntax error near unexpected token `}'\nbash: -c: line 1: `echo a; }'\n"] });
  });

  it('so is a ) that closes nothing in a nested bash -c script: nothing of its line runs', async () => {
    expect(await bashC(`bash -c 'echo a; )'; echo "rc=$?"`)).toEqual({
      exit: 0,
      chunks: ["err:bash: -c: line 1: syntax error near unexpected token `)'\nbash: -c: line 1: `echo a; )'\n", 'out:rc=2\n'],
    });
  });

  it('a [[ =~ ]] regex with a group left open reads to the end: nothing from its line on runs', async () => {
    expect(await bashC('echo first\nif [[ $v =~ ^(a|b ]]; then echo y; fi\necho next')).toEqual({
      exit: 2,
      chunks: ['out:first\n', "err:bash: -c: line 2: unexpected EOF while looking for matching `)'\nbash: -c: line 4: unexpected argument to conditional binary operator\n"],
    });
  });

  it('a here-document open at the end is a warning before its command runs', async () => {
    const { exit, chunks } = await bashC('echo start\ncat <<EOF\nbody');
    expect(exit).toBe(0);
    expect(chunks.filter((c) => c.startsWith('out:')).map((c) => c.slice(4)).join('')).toBe('start\nbody\n');
    expect(chunks.filter((c) => c.startsWith('err:'))).toEqual(["err:bash: line 3: warning: here-document at line 2 delimited by end-of-file (wanted `EOF')\n"]);
  });
});

describe('diagnose', () => {
  it('words a parse error as bash does, per place', () => {
    expect(diagnose('if; then echo; fi', commandStringPlace)?.message).toEqual(["bash: -c: line 1: syntax error near unexpected token `;'", "bash: -c: line 1: `if; then echo; fi'"]);
    expect(diagnose('echo $(echo\nfoo', scriptFilePlace('run.sh'), 2)?.message).toEqual(["run.sh: line 4: unexpected EOF while looking for matching `)'"]);
    expect(diagnose('fi', stdinPlace)).toEqual({ incomplete: false, message: ["bash: line 1: syntax error near unexpected token `fi'", "bash: line 1: `fi'"], status: 2 });
    expect(diagnose('while true', stdinPlace)?.incomplete).toBe(true);
    expect(diagnose('echo ok', stdinPlace)).toBeNull();
  });

  it('a word missing at the end of the string is an unexpected newline; an open ${ or [[ names what it looks for', () => {
    expect(diagnose('for', commandStringPlace)?.message).toEqual(["bash: -c: line 1: syntax error near unexpected token `newline'", "bash: -c: line 1: `for'"]);
    expect(diagnose('echo a\ncat <', commandStringPlace)?.message).toEqual(["bash: -c: line 2: syntax error near unexpected token `newline'", "bash: -c: line 2: `cat <'"]);
    expect(diagnose('echo ${x', commandStringPlace)?.message).toEqual(["bash: -c: line 1: unexpected EOF while looking for matching `}'"]);
    expect(diagnose('echo ${x[bad', commandStringPlace)?.message).toEqual(["bash: -c: line 1: unexpected EOF while looking for matching `}'"]);
    expect(diagnose('[[ a == b', commandStringPlace)?.message).toEqual(["bash: -c: line 1: unexpected EOF while looking for `]]'"]);
  });

  it('a ( after a command\'s only word opens a function definition: bash names the token after it', () => {
    expect(diagnose('f (x)', commandStringPlace)?.message[0]).toBe("bash: -c: line 1: syntax error near unexpected token `x'");
    expect(diagnose('echo hi; ls (', commandStringPlace)?.message[0]).toBe("bash: -c: line 1: syntax error near unexpected token `newline'");
    expect(diagnose('echo a (b)', commandStringPlace)?.message[0]).toBe("bash: -c: line 1: syntax error near unexpected token `('");
  });

  it('counts the complete lines before the error', () => {
    expect(completeLinesBefore('a\nb\nif x; then\nfi fi')).toBe(2);
    expect(completeLinesBefore('fi')).toBe(0);
  });
});

describe('readAtATime (a sourced file, an eval string, a backquoted text)', () => {
  it('gives the complete commands before the error, the message counted from the text\'s first line, status 2', () => {
    expect(readAtATime('echo one\necho two\nif then\necho after\n', './bad.sh: ', 1, false, false)).toEqual({
      prefix: 'echo one\necho two',
      stderr: "./bad.sh: line 3: syntax error near unexpected token `then'\n./bad.sh: line 3: `if then'\n",
      status: 2,
      leavesShell: false,
    });
    // An eval on line 4: its lines count from there; a loop before the error runs whole.
    expect(readAtATime('for i in 1; do\n echo $i\ndone\n)', 'bash: eval: ', 4, false, false)?.stderr).toBe("bash: eval: line 7: syntax error near unexpected token `)'\nbash: eval: line 7: `)'\n");
    expect(readAtATime('echo a; ((', 'bash: eval: ', 1, false, false)?.stderr).toBe("bash: eval: line 1: unexpected EOF while looking for matching `)'\n");
  });

  it('under set -e gives the first line only; an error inside $(…) leaves the shell; null when the text parses', () => {
    expect(readAtATime('fi', 'bash: eval: ', 1, false, true)?.stderr).toBe("bash: eval: line 1: syntax error near unexpected token `fi'\n");
    expect(readAtATime('x=$(fi)', 'bash: eval: ', 1, false, false)?.leavesShell).toBe(true);
    expect(readAtATime('echo fine', 'x: ', 1, false, false)).toBeNull();
  });
});

describe('a syntax error inside $(…)', () => {
  it('names `)` for a text cut short, on the line of the script, and a -c string exits 127', () => {
    expect(diagnose('echo a\nx=$(echo b\nfi)\necho c', commandStringPlace)?.message).toEqual(["bash: -c: line 3: syntax error near unexpected token `fi'", "bash: -c: line 3: `fi)'"]);
    expect(diagnose('x=$(echo a; if)', scriptFilePlace('t.sh'))).toMatchObject({ message: ["t.sh: line 1: syntax error near unexpected token `)'", "t.sh: line 1: `x=$(echo a; if)'"], status: 2 });
    expect(withSyntaxRecovery('echo a\nx=$(if)', commandStringPlace)).toMatch(/exit 127$/);
    expect(withSyntaxRecovery('echo a\nx=$(if)', scriptFilePlace('t.sh'))).toMatch(/exit 2$/);
  });
});

describe('failureScript', () => {
  it('prints the quoted line only when set -e is off (bash leaves after the first line under it)', () => {
    expect(failureScript('echo a', { incomplete: false, message: ['m1', 'm2'], status: 2 })).toBe("echo a\nif [[ $- == *e* ]]; then printf '%s\\n' m1 >&2; else printf '%s\\n' m1 m2 >&2; fi; exit 2");
    expect(failureScript('', { incomplete: true, message: ['m1'], status: 2 })).toBe("printf '%s\\n' m1 >&2; exit 2");
  });
});
