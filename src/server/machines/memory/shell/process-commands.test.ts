import { describe, it, expect, afterEach } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { MemoryMachineFactory } from '../machine.ts';
import { createShellEngine } from './engine.ts';
import type { Machine } from '../../port.ts';

// ps, pgrep and pkill on the shell engine: what a script sees of the sprite's processes (its execs and the jobs
// they left), laid out as procps lays it out (columns checked against procps-ng on Debian).

const T = Date.UTC(2026, 10, 30, 9, 5, 0);
const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };
let machine: Machine;

afterEach(async () => {
  await machine?.destroy();
});

async function boot() {
  const clock = new FakeClock(T);
  const factory = new MemoryMachineFactory(createShellEngine({ clock }), clock);
  machine = await factory.create({ name: 'demo', id: 'sprite-1' });
  return clock;
}

/** Runs `bash -c script` in the machine to its end. */
function bash(script: string) {
  return exec(['bash', '-c', script]);
}

/** Runs `argv` as an exec's command in the machine to its end. */
async function exec(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const proc = machine.spawn(
    { argv, env: ENV, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => void (stdout += Buffer.from(d).toString()), stderr: (d) => void (stderr += Buffer.from(d).toString()) },
    { stdin: false },
  );
  return { pid: proc.pid, exit: await proc.exit, stdout, stderr };
}

describe('ps', () => {
  it('answers -V, V and --version with its procps release, before any other option', async () => {
    await boot();
    const r = await bash('ps --version; ps -V; ps V; ps --version --bogus');
    expect(r.stdout).toBe('ps from procps-ng 4.0.2\n'.repeat(4));
  });

  it('lists the exec, the job an earlier exec left, and itself, in procps columns', async () => {
    await boot();
    const first = await bash('sleep 100 & echo $!');
    const job = Number(first.stdout.trim());
    const r = await bash('ps; ps -ef');
    const second = r.pid;
    const self = job + 2;
    expect(r.stdout).toBe(
      [
        '  PID TTY          TIME CMD',
        `    ${job} ?        00:00:00 sleep`,
        `    ${second} ?        00:00:00 bash`,
        `    ${self} ?        00:00:00 ps`,
        'UID        PID  PPID  C STIME TTY          TIME CMD',
        `sprite       ${job}     1  0 09:05 ?        00:00:00 sleep 100`,
        // bash runs its last command in its own process: the shell's row is `ps -ef` (bash 5.2).
        `sprite       ${second}     1  0 09:05 ?        00:00:00 ps -ef`,
        '',
      ].join('\n'),
    );
    expect(r.exit).toBe(0);
  });

  it('aux in BSD columns; -o with its headers, `=` to drop them; -p selects and exits 1 when nothing matches', async () => {
    await boot();
    await bash('nohup /bin/sleep 300 >/dev/null 2>&1 &');
    const r = await bash('ps aux | head -2; ps -o pid,ppid,comm,args -p 2; ps -o pid=,comm= -p 2 3; ps --no-headers -o comm -p 2; ps -p 999; echo "st=$?"');
    expect(r.stdout).toBe(
      [
        'USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND',
        'sprite       2  0.0  0.0      0     0 ?        S    09:05   0:00 /bin/sleep 300',
        '  PID  PPID COMMAND         COMMAND',
        '    2     1 sleep           /bin/sleep 300',
        '    2 sleep',
        '    3 bash',
        'sleep',
        '  PID TTY          TIME CMD',
        'st=1',
        '',
      ].join('\n'),
    );
  });

  it('shows a command line on one line: a newline or tab of a script reads ?', async () => {
    await boot();
    const r = await bash('ps -p $$ -o args=\necho "\tx" >/dev/null; ps -p $$ -o args= | cat');
    expect(r.stdout).toBe('bash -c ps -p $$ -o args=?echo "?x" >/dev/null; ps -p $$ -o args= | cat\n'.repeat(2));
  });

  it('refuses an option it does not know, loudly, naming the engine that has real ps', async () => {
    await boot();
    const r = await bash('ps -Z');
    expect(r.exit).toBe(1);
    expect(r.stderr).toContain('--exec sandbox');
  });
});

describe('a command an exec runs directly, with no shell', () => {
  it('is one process: ps lists itself once, running, and pgrep/pkill never match themselves', async () => {
    await boot();
    await bash('sleep 100 &');
    const ps = await exec(['ps', '-e', '-o', 'pid,ppid,stat,args']);
    expect(ps.stdout).toBe(['  PID  PPID STAT COMMAND', '    2     1 S    sleep 100', `    ${ps.pid}     1 R    ps -e -o pid,ppid,stat,args`, ''].join('\n'));
    expect(await exec(['pgrep', '-f', 'zzzz'])).toMatchObject({ stdout: '', exit: 1 });
    expect(await exec(['pkill', '-f', 'zzzz'])).toMatchObject({ exit: 1 });
  });
});

describe('pgrep and pkill', () => {
  it('pgrep matches the program name, -f the command line, -l/-a add them; no match exits 1', async () => {
    await boot();
    await bash('sleep 100 & nohup timeout 500 sleep 400 >/dev/null 2>&1 &');
    const r = await bash('pgrep sleep; pgrep -l time; pgrep -a -f "out 5"; pgrep nothing-here; echo "st=$?"; pgrep -c sleep');
    // -f reads every command line, the one of the shell running pgrep included (procps excludes only itself)
    expect(r.stdout).toBe(['2', '3 timeout', '3 timeout 500 sleep 400', `4 bash -c pgrep sleep; pgrep -l time; pgrep -a -f "out 5"; pgrep nothing-here; echo "st=$?"; pgrep -c sleep`, 'st=1', '1', ''].join('\n'));
  });

  it('pkill sends TERM (or the signal named) to what matches, and the process leaves the table', async () => {
    await boot();
    await bash('sleep 100 & sleep 200 &');
    const r = await bash('pkill -x sleep; echo "st=$?"; pkill -9 nothing; echo "st=$?"');
    expect(r.stdout).toBe('st=0\nst=1\n');
    const after = await bash('pgrep sleep; echo "st=$?"');
    expect(after.stdout).toBe('st=1\n');
  });

  it('pkill -f matches the shell running it when its own command line names the pattern, as on Linux', async () => {
    await boot();
    const r = await bash('pkill -f "zzz-pattern"; echo survived');
    expect(r.exit).toBe(143);
    expect(r.stdout).toBe('');
  });

  it("lists the last command of a bash -c script as the shell's own process, which bash replaced with it", async () => {
    await boot();
    expect((await bash('ps -o comm= -p $$')).stdout).toBe('ps\n');
    expect((await bash('echo x; cat /proc/$$/comm')).stdout).toBe('x\ncat\n');
    // Not the last command: bash is still there.
    expect((await bash('ps -o comm= -p $$; cat /proc/$$/comm; echo end')).stdout).toBe('bash\nbash\nend\n');
    // A command substitution in the last command's words runs in a subshell: the shell is still bash then.
    expect((await bash('basename "$(readlink /proc/$$/exe)" $(ps -o comm= -p $$)')).stdout).toBe('bash\n');
  });

  it("shows a subshell's own /proc/$BASHPID entry, a bash whose parent is the shell", async () => {
    await boot();
    const r = await bash('( cat /proc/$BASHPID/comm; grep -c "^PPid:.$$\$" /proc/$BASHPID/status; true )');
    expect(r.stdout).toBe('bash\n1\n');
  });
});
