import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { parseShellArgs } from './shell-command.ts';
import type { SpriteContext } from '../engine.ts';

const ENV = { HOME: '/home/sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };

/** A sprite, and a runner of argv on it that records each output chunk in order (sleep runs on a fake clock). */
function sprite() {
  let pid = 1;
  const ctx: SpriteContext = { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
  const clock = new FakeClock();
  const engine = createShellEngine({ clock });
  return async (argv: string[]) => {
    const chunks: string[] = [];
    const io = { stdout: (d: Uint8Array) => void chunks.push(`out:${Buffer.from(d)}`), stderr: (d: Uint8Array) => void chunks.push(`err:${Buffer.from(d)}`) };
    const proc = engine.start(ctx, { argv, env: ENV, dir: '/home/sprite', tty: false, rows: 24, cols: 80 }, io, { stdin: false });
    let done = false;
    void proc.exit.then(() => (done = true));
    while (!done) {
      await new Promise<void>((r) => setImmediate(r));
      clock.advance(100);
    }
    return { exit: await proc.exit, chunks };
  };
}
const sh = (script: string) => ['bash', '-c', script];

// Every expectation is what bash 5.2 prints for the same command.
describe('bash and sh take the options scripts use', () => {
  it.each([
    ["bash -e -c 'false; echo no'; echo $?", '1\n'],
    ["bash -o pipefail -c 'false | true'; echo $?", '1\n'],
    ["bash -euo pipefail -c 'echo $UNSET_X' 2>/dev/null; echo $?", '1\n'],
    ["bash -n -c 'echo not run'; echo $?", '0\n'],
    ["bash -l -c 'echo $#' _ a b", '2\n'],
    ["bash -lc 'echo login:$0'", 'login:bash\n'],
    ["echo 'echo from-stdin $1' | bash -s zz", 'from-stdin zz\n'],
    ["x=1; bash -c 'echo [$x]'; export x; bash -c 'echo [$x]'", '[]\n[1]\n'],
    // exec -a NAME is the shell's argv[0], its $0 unless an operand names it; exec -- runs the command after it.
    ["(exec -a worker bash -c 'echo $0'); (exec -a w bash -c 'echo $0' given); (exec -- echo dd); bash -c 'echo $0'", 'worker\ngiven\ndd\nbash\n'],
    // -x traces the script's commands, not the options and $_ set up before it.
    ["bash -x -O extglob -c 'y=2; echo $y' 2>&1", '+ y=2\n+ echo 2\n2\n'],
    // --version prints bash's version lines and runs nothing; dash (sh) has no such option.
    ["bash --version -c 'echo no' | head -2; sh --version 2>/dev/null; echo $?", 'GNU bash, version 5.2.37(1)-release (x86_64-pc-linux-gnu)\nCopyright (C) 2022 Free Software Foundation, Inc.\n2\n'],
  ])('%s', async (script, stdout) => {
    const { chunks } = await sprite()(sh(script));
    expect(chunks.filter((c) => c.startsWith('out:')).map((c) => c.slice(4)).join('')).toBe(stdout);
  });

  it('bash -n reports a syntax error without running anything', async () => {
    expect((await sprite()(sh("bash -n -c 'echo a\nfi'; echo $?"))).chunks).toEqual([
      "err:bash: -c: line 2: syntax error near unexpected token `fi'\nbash: -c: line 2: `fi'\n",
      'out:2\n',
    ]);
  });

  it('reads options as bash does', () => {
    expect(parseShellArgs(['-euo', 'pipefail', '-c', 'x', 'n'])).toMatchObject({ command: true, sets: ['-e', '-u', '-o pipefail'], operands: ['x', 'n'] });
    expect(parseShellArgs(['--login', 'f.sh', '-c'])).toMatchObject({ command: false, login: true, operands: ['f.sh', '-c'] });
    expect(parseShellArgs(['-Z'])).toEqual({ error: 'bash: -Z: invalid option' });
  });
});

describe('a login shell reads the profile files', () => {
  it('bash -lc reads /etc/profile.d/*.sh and ~/.profile first, streaming what they print; bash -c does not', async () => {
    const run = sprite();
    await run(sh("sudo mkdir -p /etc/profile.d && echo 'export FROM_D=d' | sudo tee /etc/profile.d/a.sh >/dev/null && echo 'P=p; echo reading' > ~/.profile"));
    expect(await run(['bash', '-lc', 'echo "$0 $FROM_D $P"', 'nm'])).toEqual({ exit: 0, chunks: ['out:reading\n', 'out:nm d p\n'] });
    expect(await run(['bash', '-c', 'echo "[$FROM_D$P]"'])).toEqual({ exit: 0, chunks: ['out:[]\n'] });
  });
});

describe('a script file streams its output per command', () => {
  it.each([[['bash', 's.sh']], [['sh', 's.sh']], [['./s.sh']], [sh('./s.sh; echo end')]])('%j', async (argv) => {
    const run = sprite();
    await run(sh("printf '#!/bin/sh\\necho one\\nsleep 1\\necho two\\n' > s.sh && chmod +x s.sh"));
    const { exit, chunks } = await run(argv);
    expect(exit).toBe(0);
    expect(chunks.slice(0, 2)).toEqual(['out:one\n', 'out:two\n']);
  });

  it('a syntax error in a script file is named by the file, after the lines before it ran', async () => {
    const run = sprite();
    await run(sh("printf 'echo a\\nfi\\necho b\\n' > s.sh"));
    expect(await run(['bash', 's.sh'])).toEqual({ exit: 2, chunks: ['out:a\n', "err:s.sh: line 2: syntax error near unexpected token `fi'\ns.sh: line 2: `fi'\n"] });
  });

  it('a native program fails at once, naming --exec sandbox', async () => {
    const run = sprite();
    await run(sh("printf '\\177ELF\\2\\1\\1\\0' > a.out && chmod +x a.out"));
    const refusal = 'a native program (ELF binary) cannot run in the shell engine; run spritzer with --exec sandbox\n';
    expect(await run(['./a.out'])).toEqual({ exit: 127, chunks: [`err:./a.out: ${refusal}`] });
    expect(await run(sh('/home/sprite/a.out x; echo "status=$?"'))).toEqual({ exit: 0, chunks: [`err:/home/sprite/a.out: ${refusal}`, 'out:status=127\n'] });
  });

  it('positional parameters and $0 of a script run by path', async () => {
    const run = sprite();
    await run(sh(`printf '#!/bin/bash\\necho "$0 $1 $#"\\n' > t.sh && chmod +x t.sh`));
    expect((await run(sh('./t.sh q r'))).chunks).toEqual(['out:./t.sh q 2\n']);
  });
});

describe('a child shell', () => {
  it('exports again what it inherits from its environment, and nothing else', async () => {
    const run = sprite();
    expect((await run(sh('E=1 bash -c "declare -p E PWD | cut -c1-12"; x=1; bash -c "declare -p x" 2>&1'))).chunks.join('')).toBe(
      'out:declare -x E\ndeclare -x P\nout:bash: line 1: declare: x: not found\n',
    );
  });
});

describe('a function exported with export -f', () => {
  it('is defined, and exported again, in a bash child; not in sh', async () => {
    const run = sprite();
    expect((await run(sh('f() { echo "a b" "$1"; }; export -f f; bash -c \'f q; declare -F\'; sh -c \'f 2>/dev/null; echo $?\''))).chunks.join('')).toBe('out:a b q\nout:declare -fx f\nout:127\n');
  });
});
