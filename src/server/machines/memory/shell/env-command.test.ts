import { describe, it, expect } from 'vitest';
import { engineBash, hostBash } from '../../../../../test/support/host-bash.ts';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { splitString } from './env-command.ts';
import type { SpriteContext } from '../engine.ts';

/** Runs `bash -c script` with a small environment; returns stdout, stderr and the exit status. */
async function bashC(script: string) {
  let pid = 1;
  const ctx: SpriteContext = { name: 'demo', vfs: Vfs.skeleton(() => 0), allocatePid: () => ++pid };
  const seen = { stdout: '', stderr: '' };
  const io = { stdout: (d: Uint8Array) => void (seen.stdout += Buffer.from(d)), stderr: (d: Uint8Array) => void (seen.stderr += Buffer.from(d)) };
  const env = { HOME: '/home/sprite', PATH: '/usr/bin:/bin' };
  const proc = createShellEngine({ clock: new FakeClock() }).start(ctx, { argv: ['bash', '-c', script], env, dir: '/home/sprite', tty: false, rows: 24, cols: 80 }, io, { stdin: false });
  const exit = await proc.exit;
  return { ...seen, exit };
}

// Each expectation is GNU env 9.1 / bash 5.2 on the same script, with HOME and PATH as the whole environment.
describe('env runs a command with exactly the environment it was given', () => {
  it.each([
    ["env K=V sh -c 'echo $K'", 'V\n'],
    ["env -- K=V A=1 sh -c 'echo $K$A'", 'V1\n'],
    ['env -i K=V env', 'K=V\n'],
    ['env -i A=1 B=2 env', 'A=1\nB=2\n'],
    ["env -u HOME sh -c 'echo \"[${HOME-unset}]\"'", '[unset]\n'],
    ['env -- echo dashdash', 'dashdash\n'],
    ['mkdir -p d/e && env -C d/e pwd', '/home/sprite/d/e\n'],
    ['mkdir -p d && touch d/f && env --chdir=d ls', 'f\n'],
    ["env -S 'echo split \"two words\"'", 'split two words\n'],
    ["FOO=bar; env | grep -c '^FOO='; export FOO; env | grep -c '^FOO='", '0\n1\n'],
    ["export -n HOME; env | grep -c '^HOME='", '0\n'],
    ["env K=1 true; K=2; printenv K; echo $?", '1\n'],
    ["env -u PATH bash -c 'echo \"${PATH:+set}\"'", 'set\n'],
    ['env =x true; echo $?', '0\n'],
    ['printenv -0 HOME | od -An -c', '   /   h   o   m   e   /   s   p   r   i   t   e  \\0\n'],
    ['x=1; printenv x; echo $?; export x; printenv x', '1\n1\n'],
  ])('%s', async (script, stdout) => {
    expect((await bashC(script)).stdout).toBe(stdout);
  });

  it('a command that does not exist is env\'s own error, 127; a lone -- after an assignment is a command', async () => {
    expect(await bashC('env nope_cmd')).toEqual({ stdout: '', stderr: "env: 'nope_cmd': No such file or directory\n", exit: 127 });
    expect((await bashC("env A=1 -- sh -c 'echo $A'")).stderr).toBe("env: '--': No such file or directory\n");
    expect((await bashC('export LANG=C.UTF-8; env nope_cmd')).stderr).toBe('env: ‘nope_cmd’: No such file or directory\n');
  });

  it('runs the program a builtin\'s name names in PATH, never the builtin (env pwd is physical); none in PATH is 127', async () => {
    expect(await bashC('mkdir -p /tmp/r; ln -sfn /tmp/r /tmp/l; cd /tmp/l; pwd; env pwd; env -i pwd; env echo hi; env cd; echo "s=$?"; env -i PATH=/nowhere pwd; echo "s=$?"')).toEqual({
      stdout: '/tmp/l\n/tmp/r\n/tmp/r\nhi\ns=127\ns=127\n',
      stderr: "env: 'cd': No such file or directory\nenv: 'pwd': No such file or directory\n",
      exit: 0,
    });
  });

  it('--version and --help print GNU\'s texts, never taken for an unknown option', async () => {
    const r = await bashC('env --version | head -1; echo "s=$?"; env --help | head -1');
    expect(r).toEqual({ stdout: 'env (GNU coreutils) 9.1\ns=0\nUsage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]\n', stderr: '', exit: 0 });
  });

  it('-v describes the command on stderr, each argument in the locale\'s quotes', async () => {
    expect((await bashC('env -v true')).stderr).toBe("executing: true\n   arg[0]= 'true'\n");
    expect((await bashC('LANG=C.UTF-8 env -v echo x')).stderr).toBe('executing: echo\n   arg[0]= ‘echo’\n   arg[1]= ‘x’\n');
  });

  it('splits -S strings as GNU env: quotes, its escapes, \\_ and ${NAME}; another escape or $NAME is refused', async () => {
    expect(splitString(`a 'b c' "d\\te"\\_f "\\$x\\_y" '\\n' #rest`)).toEqual(['a', 'b c', 'd\te', 'f', '$x y', '\\n']);
    expect(splitString('${Q}x "${Q}"', new Map([['Q', 'v']]))).toEqual(['vx', 'v']);
    expect(await bashC(`env -S 'A=1 B=2 sh -c "echo \\$A\\$B"'; env -S 'echo a\\ b'; echo "s=$?"; env -S 'echo $HOME'; echo "s=$?"`)).toMatchObject({
      stdout: '12\ns=125\ns=125\n',
      stderr: "env: invalid sequence '\\ ' in -S\nenv: only ${VARNAME} expansion is supported, error at: $HOME\n",
    });
  });
});

describe('the variables bash sets for itself', () => {
  it.each([
    ['echo "$OSTYPE $HOSTTYPE $HOSTNAME"', 'linux-gnu x86_64 demo\n'],
    ['printf %s "$IFS" | od -An -c', '      \\t  \\n\n'],
    ['echo "$PS4"', '+ \n'],
    ['echo "$BASH"; env | grep -c ^BASH=', '/usr/bin/bash\n0\n'],
    ["bash -c 'echo $SHLVL'", '1\n'],
    ['env | grep -c -e ^IFS= -e ^OSTYPE=', '0\n'],
    // `$_`: the shell's name at first; each program run gets its own pathname as `_`, last in its environment.
    ['echo "[$_]"; true a b; echo "$_"', '[bash]\nb\n'],
    ['env | tail -1; printenv _; /bin/printenv _', '_=/usr/bin/env\n/usr/bin/printenv\n/bin/printenv\n'],
    ["bash -c 'echo \"$_\"'; /bin/bash -c 'echo \"$_\"'", '/usr/bin/bash\n/bin/bash\n'],
    // bash's order: prefix assignments, then its hash table's (HOME PWD USER SHLVL PATH set in another order).
    ['export SHELL=/bin/bash LOGNAME=me LANG=C.UTF-8 USER=me B=1 A=2; env | cut -d= -f1 | tr "\\n" " "', 'SHELL PWD LOGNAME B A HOME LANG USER SHLVL PATH _ '],
    ['Z=1 Y=2 env | head -2; env -i B=1 A=2 env', 'Z=1\nY=2\nB=1\nA=2\n'],
    // A child bash inherited `_`: it stays in its place in the table (after PWD), not last.
    ["bash -c 'env | cut -d= -f1 | tr \"\\n\" \" \"'", 'PWD _ HOME SHLVL PATH '],
    // dash passes on the `_` it got.
    ["sh -c 'printenv _; ls >/dev/null; printenv _'", '/usr/bin/sh\n/usr/bin/sh\n'],
    ["export X=1; bash -c 'env | grep -c ^_='; env printenv _; env -i printenv _; env -u _ printenv _; echo $?", '1\n/usr/bin/env\n1\n'],
    // With no TERM in its environment bash gives itself TERM=dumb, unexported; dash does not; an exported one wins.
    ['echo "[$TERM]"; env | grep -c ^TERM=; bash -c \'echo "[$TERM]"\'; sh -c \'echo "[${TERM-unset}]"\'', '[dumb]\n0\n[dumb]\n[unset]\n'],
    ['export TERM=vt100; bash -c \'echo "$TERM"\'; TERM=xterm bash -c \'printenv TERM\'', 'vt100\nxterm\n'],
  ])('%s', async (script, stdout) => {
    expect((await bashC(script)).stdout).toBe(stdout);
  });
});

describe("bash's own variables", () => {
  it('BASH_LOADABLES_PATH is bash 5.2\'s compiled-in default, unexported', async () => {
    const script = "declare -p BASH_LOADABLES_PATH; env | grep -c '^BASH_LOADABLES_PATH='";
    expect(await engineBash(script)).toEqual(hostBash(script));
  });
});
