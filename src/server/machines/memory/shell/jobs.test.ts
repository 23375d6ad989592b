import { describe, it, expect } from 'vitest';
import { FakeClock } from '../../../core/clock.ts';
import { Vfs } from '../vfs.ts';
import { createShellEngine } from './engine.ts';
import { seedLinuxTree } from '../linux-skeleton.ts';
import { rewriteJobControl } from './jobs.ts';
import type { EngineProcess, SpriteContext } from '../engine.ts';
import { ProcessTable } from '../processes.ts';

// Background jobs, $!, wait, jobs, kill and traps in the shell engine, as a script sees them, on the fake clock.

const T = Date.UTC(2026, 10, 30, 9, 5, 0);
const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };
const HINT = 'run spritzer with --exec sandbox';

function sprite(): SpriteContext & { processes: ProcessTable } {
  let pid = 41;
  return { name: 'demo', vfs: seedLinuxTree(Vfs.skeleton(() => T), 'demo'), allocatePid: () => ++pid, processes: new ProcessTable() };
}

/** Lets promise chains run (just-bash awaits a lot between commands). */
/** Lets promise chains run: 50 turns, or until `done()` holds (at most 5,000 turns; the first run loads just-bash). */
const settle = async (done?: () => boolean) => {
  // Turns of the event loop, with a 1 ms timer now and then: a cold first exec loads modules from disk, which a
  // loaded machine may not finish within any number of bare turns.
  for (let i = 0; i < 20000; i++) {
    await new Promise((r) => (i % 100 === 99 ? setTimeout(r, 1) : setImmediate(r)));
    if (done ? done() : i >= 50) return;
  }
};

/** Starts `sh -c script`; output is recorded as one ordered log of `o:`/`e:` chunks. */
function start(script: string, opts: { ctx?: SpriteContext; tty?: boolean } = {}) {
  const clock = new FakeClock(T);
  const log: string[] = [];
  let exited: number | null = null;
  const proc: EngineProcess = createShellEngine({ clock }).start(
    opts.ctx ?? sprite(),
    { argv: ['sh', '-c', script], env: ENV, dir: '/home/sprite', tty: opts.tty ?? false, rows: 24, cols: 80 },
    { stdout: (d) => void log.push(`o:${Buffer.from(d).toString()}`), stderr: (d) => void log.push(`e:${Buffer.from(d).toString()}`) },
    { stdin: false },
  );
  void proc.exit.then((c) => (exited = c));
  const out = () => log.filter((l) => l.startsWith('o:')).map((l) => l.slice(2)).join('');
  const err = () => log.filter((l) => l.startsWith('e:')).map((l) => l.slice(2)).join('');
  return { clock, proc, log, out, err, exited: () => exited };
}

/**
 * Runs to the end, advancing the fake clock by `step` ms whenever the script waits on it. The bound on rounds is
 * generous: on a loaded machine a just-bash run takes many turns of the event loop, and a round ends early once the
 * script has exited.
 */
async function run(script: string, opts: { ctx?: SpriteContext; step?: number } = {}) {
  const t = start(script, opts);
  for (let i = 0; i < 4000 && t.exited() === null; i++) {
    await settle();
    if (t.exited() === null && t.clock.pending() > 0) t.clock.advance(opts.step ?? 100);
  }
  return { stdout: t.out(), stderr: t.err(), exit: t.exited(), now: t.clock.now() - T };
}

describe('background jobs', () => {
  it('sleep 2 & echo pid=$! prints a non-zero pid at once, and wait waits about 2 s', async () => {
    const t = start('sleep 2 & echo pid=$!; wait; echo waited');
    await settle(() => t.out() !== '');
    expect(t.out()).toMatch(/^pid=[1-9]\d*\n$/);
    expect(t.exited()).toBeNull();
    await settle(() => t.clock.pending() > 0); // the job's sleep is on the clock (a cold first exec takes more turns)
    t.clock.advance(1900);
    await settle();
    expect(t.exited()).toBeNull();
    t.clock.advance(100);
    await settle(() => t.exited() !== null);
    expect(t.out()).toMatch(/^pid=\d+\nwaited\n$/);
    expect(t.exited()).toBe(0);
  });
});

describe('background jobs: output, status, table', () => {
  it('a job prints while the script goes on, to the same output, in the order it happens', async () => {
    const r = await run('(sleep 1; echo from-job) & echo main-first; sleep 2; echo main-last');
    expect(r).toMatchObject({ stdout: 'main-first\nfrom-job\nmain-last\n', stderr: '', exit: 0 });
  });

  it('wait $! returns the job status; wait %1 too; an unknown pid answers 127', async () => {
    expect((await run('sh -c "exit 3" & wait $!; echo "st=$?"')).stdout).toBe('st=3\n');
    expect((await run('(sleep 1; exit 4) & wait %1; echo "st=$?"')).stdout).toBe('st=4\n');
    expect(await run('wait 999; echo "st=$?"')).toMatchObject({ stdout: 'st=127\n', stderr: 'bash: line 1: wait: pid 999 is not a child of this shell\n' });
    expect(await run('wait %3; echo "st=$?"')).toMatchObject({ stdout: 'st=127\n', stderr: 'bash: line 1: wait: %3: no such job\n' });
  });

  it('each job gets its own pid from the sprite, above the exec pid', async () => {
    const r = await run('echo $$; sleep 1 & a=$!; sleep 1 & b=$!; echo "$a $b"; wait');
    const [self, a, b] = r.stdout.trim().split(/\s+/).map(Number);
    expect(a).toBe(self! + 1);
    expect(b).toBe(self! + 2);
  });

  it('jobs lists running jobs as bash does, and ended ones once as Done', async () => {
    const r = await run('sleep 5 & sleep 1 & jobs; sleep 2; jobs; jobs -p | wc -l; kill %1; wait');
    expect(r.stdout).toBe(
      '[1]-  Running                 sleep 5 &\n[2]+  Running                 sleep 1 &\n' +
        '[1]-  Running                 sleep 5 &\n[2]+  Done                    sleep 1\n' +
        '1\n',
    );
  });

  it('wait -n returns the first job to end', async () => {
    expect((await run('(sleep 3; exit 1) & (sleep 1; exit 7) & wait -n; echo "st=$?"; wait')).stdout).toBe('st=7\n');
  });

  it('a job in a loop and in a list: each iteration gets its own job', async () => {
    const r = await run('for i in 1 2 3; do (sleep $i; echo "job $i") & done; true && sleep 1 & wait; echo all');
    expect(r.stdout).toBe('job 1\njob 2\njob 3\nall\n');
  });

  it('a job sees the variables and directory of the shell that started it, and writes the sprite disk', async () => {
    const ctx = sprite();
    const r = await run('cd /tmp; X=42; (echo "$X $PWD" > job.txt) & wait; cat /tmp/job.txt', { ctx });
    expect(r.stdout).toBe('42 /tmp\n');
    expect(ctx.vfs.exists('/tmp/job.txt')).toBe(true);
  });

  it('a job is a subshell: it has the functions, arrays, attributes and options of its shell, and its status reaches wait', async () => {
    const r = await run('f() { echo "hi $1"; return 3; }; a=(1 "2 x"); declare -i n=4; set -o pipefail; f a & wait $!; echo "rc=$?"; (echo "${a[1]}"; n+=1; echo "$n"; false | true; echo "pf=$?") & wait');
    expect(r).toMatchObject({ stdout: 'hi a\nrc=3\n2 x\n5\npf=1\n', stderr: '' });
    // `set -e` goes with it: the job stops at its first failure.
    expect((await run('set -e; (false; echo no) & wait; echo after')).stdout).toBe('after\n');
  });

  it('a job counts lines from its own statement, and the shell after it from its own script', async () => {
    const r = await run('echo a\n{\n  echo "at $LINENO"\n  nosuch1\n} &\nwait\nnosuch2');
    expect(r.stdout).toBe('a\nat 3\n');
    expect(r.stderr).toBe('bash: line 4: nosuch1: command not found\nbash: line 7: nosuch2: command not found\n');
  });

  it('job numbers start again at 1 once every job was reaped', async () => {
    expect((await run('sleep 1 & wait; sleep 1 & jobs; wait')).stdout).toBe('[1]+  Running                 sleep 1 &\n');
  });

  it('$! is empty before any job, as in bash; a quoted & is no job', async () => {
    expect((await run('echo "[$!]"; echo "a & b"')).stdout).toBe('[]\na & b\n');
  });
});

describe('kill', () => {
  it('kill -l SIG names or numbers a signal, as bash 5.2', async () => {
    expect((await run('kill -l 9; kill -l SIGTERM; kill -l TERM; kill -l 143')).stdout).toBe('KILL\n15\n15\nTERM\n');
    expect(await run('kill -l NOPE')).toMatchObject({ stderr: 'bash: line 1: kill: NOPE: invalid signal specification\n', exit: 1 });
  });

  it('kill -l 0 is EXIT and the trap names number as bash numbers them; -L lists like -l; a bad word does not stop the rest', async () => {
    expect((await run('kill -l 0; kill -l EXIT; kill -l term ERR rtmin+1; kill -L 9; kill -l -- 2; kill -l 32')).stdout).toBe('EXIT\n0\n15\n66\n35\nKILL\nINT\n');
    expect(await run('kill -l 200 15 nope 0')).toMatchObject({
      stdout: 'TERM\nEXIT\n',
      stderr: 'bash: line 1: kill: 200: invalid signal specification\nbash: line 1: kill: nope: invalid signal specification\n',
      exit: 1,
    });
    expect((await run('kill -L | head -1')).stdout).toBe(' 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n');
  });
  it('kill $! ends the job: wait gives 143; kill -9 %1 gives 137; kill -0 tests it', async () => {
    expect((await run('sleep 100 & kill $!; wait $!; echo "st=$?"')).stdout).toBe('st=143\n');
    expect((await run('sleep 100 & kill -9 %1; wait %1; echo "st=$?"')).stdout).toBe('st=137\n');
    expect((await run('sleep 100 & kill -s TERM $!; wait; kill -0 $!; echo "st=$?"')).stdout).toBe('st=1\n');
    expect((await run('sleep 1 & kill -0 $! && echo alive; wait')).stdout).toBe('alive\n');
  });

  it('wait reports a job a signal killed on stderr, as a non-interactive bash does, except for TERM, INT and PIPE', async () => {
    expect(await run('sleep 100 & kill -9 $!; wait $!; echo "st=$?"')).toMatchObject({ stdout: 'st=137\n', stderr: 'bash: line 1:    43 Killed                  sleep 100\n' });
    expect((await run('sleep 100 & kill -HUP %1; wait')).stderr).toBe('bash: line 1:    43 Hangup                  sleep 100\n');
    expect((await run('sleep 100 & kill $!; sleep 100 & kill -PIPE $!; wait')).stderr).toBe('');
  });

  it('a background job of a non-interactive shell ignores INT and QUIT, as without job control', async () => {
    expect((await run('sleep 1 & kill -INT $!; echo "rc=$?"; kill -QUIT %1; kill -0 $! && echo alive; wait $!; echo "st=$?"')).stdout).toBe('rc=0\nalive\nst=0\n');
  });

  it('a killed job prints nothing more', async () => {
    const r = await run('(sleep 1; echo never) & sleep 0.5; kill %1; sleep 2; echo end');
    expect(r.stdout).toBe('end\n');
  });

  it('kill of a pid no process of the sprite has answers ESRCH as bash does; a bad signal as bash says', async () => {
    expect(await run('kill 4000; echo "st=$?"; kill -0 4000 || echo gone')).toMatchObject({
      stdout: 'st=1\ngone\n',
      stderr: 'bash: line 1: kill: (4000) - No such process\nbash: line 1: kill: (4000) - No such process\n',
    });
    expect((await run('sleep 1 & kill -FOO $!; echo "st=$?"; wait')).stderr).toBe('bash: line 1: kill: FOO: invalid signal specification\n');
    expect((await run('kill -l')).stdout).toContain('TERM');
  });

  it('kill $$ ends the exec itself with 143', async () => {
    const r = await run('echo before; kill $$; sleep 1; echo after');
    expect(r).toMatchObject({ stdout: 'before\n', exit: 143 });
  });
});

describe('the end of the exec', () => {
  it('background jobs outlive an exec that ends by itself (no wait), as a non-interactive bash leaves them', async () => {
    const ctx = sprite();
    const t = start('(sleep 1; echo late > /tmp/late) & echo done', { ctx });
    await settle(() => t.exited() !== null);
    expect([t.exited(), t.out()]).toEqual([0, 'done\n']);
    expect(ctx.vfs.exists('/tmp/late')).toBe(false);
    await settle(() => {
      if (t.clock.pending() > 0) t.clock.advance(1000);
      return ctx.vfs.exists('/tmp/late');
    });
    expect(ctx.vfs.exists('/tmp/late')).toBe(true);
    await settle(() => ctx.processes.list().length === 0);
    expect(ctx.processes.list()).toEqual([]);
  });

  it('nohup/setsid jobs outlive the exec and keep writing the disk', async () => {
    const ctx = sprite();
    const t = start('nohup sh -c "sleep 1; echo kept > /tmp/kept" & setsid sleep 1 & echo done', { ctx });
    await settle(() => t.exited() !== null);
    expect(t.exited()).toBe(0);
    // The job may reach its `sleep` only after a turn of the event loop (turns.ts): advance once it waits.
    await settle(() => {
      if (t.clock.pending() > 0) t.clock.advance(1000);
      return ctx.vfs.exists('/tmp/kept');
    });
    expect(ctx.vfs.exists('/tmp/kept')).toBe(true);
  });

  it('a job that outlives the exec stays in the sprite\'s process table, re-parented to init, until it is killed', async () => {
    const ctx = sprite();
    const t = start('sleep 5 & nohup /bin/sleep 60 >/dev/null 2>&1 & (sleep 5; echo late > /tmp/late) & echo "bg=$!"', { ctx });
    // What MemoryMachine.spawn does for an exec's own command.
    ctx.processes.add({ pid: t.proc.pid, ppid: 1, args: 'sh', comm: 'sh', startedAt: T, tty: null, signal: (n) => t.proc.signal(n), exit: t.proc.exit });
    const shellPid = t.proc.pid;
    await settle(() => t.exited() !== null);
    await settle(() => ctx.processes.get(shellPid) === undefined);
    const jobs = ctx.processes.list();
    expect(jobs.map((p) => [p.ppid, p.comm, p.args])).toEqual([
      [1, 'sleep', 'sleep 5'],
      [1, 'sleep', '/bin/sleep 60'],
      [1, 'sh', `sh -c sleep 5 & nohup /bin/sleep 60 >/dev/null 2>&1 & (sleep 5; echo late > /tmp/late) & echo "bg=$!"`],
    ]);
    expect(jobs.every((p) => p.pid > shellPid)).toBe(true);
    expect(jobs[2]!.pid).toBe(Number(t.out().slice(3)));
    expect(ctx.processes.signal(jobs[2]!.pid, 'KILL')).toBe(true);
    t.clock.advance(5000);
    await settle(() => ctx.processes.list().length === 1);
    expect(ctx.vfs.exists('/tmp/late')).toBe(false);
    expect(ctx.processes.list().map((p) => p.args)).toEqual(['/bin/sleep 60']);
  });

  it('a later exec reaches a job an earlier one left: kill -0 finds it, kill ends it', async () => {
    const ctx = sprite();
    const first = start('(sleep 30; echo late > /tmp/late) & echo $!', { ctx });
    await settle(() => first.exited() !== null);
    const pid = first.out().trim();
    const second = start(`kill -0 ${pid} && echo alive; kill ${pid}; echo "st=$?"`, { ctx });
    await settle(() => second.exited() !== null);
    expect(second.out()).toBe('alive\nst=0\n');
    await settle(() => ctx.processes.list().length === 0);
    second.clock.advance(30_000);
    first.clock.advance(30_000);
    await settle();
    expect(ctx.vfs.exists('/tmp/late')).toBe(false);
  });

  it('a signal to the exec ends its jobs too', async () => {
    const ctx = sprite();
    const t = start('(sleep 2; echo x > /tmp/x) & sleep 10', { ctx });
    await settle(() => t.clock.pending() > 0);
    t.proc.signal('TERM');
    await settle(() => t.exited() !== null);
    expect(t.exited()).toBe(143);
    t.clock.advance(3000);
    await settle();
    expect(ctx.vfs.exists('/tmp/x')).toBe(false);
  });
});

describe('trap', () => {
  it('an EXIT trap runs at the end, with the last variables; its exit replaces the status', async () => {
    expect(await run('trap \'echo "bye $X"\' EXIT; X=1; echo hi')).toMatchObject({ stdout: 'hi\nbye 1\n', stderr: '', exit: 0 });
    expect((await run("trap 'echo bye' EXIT; exit 3")).exit).toBe(3);
    expect((await run("trap 'exit 5' EXIT; true")).exit).toBe(5);
  });

  it('an EXIT trap sees the status the shell exits with in $? (bash 5.2)', async () => {
    expect(await run('trap \'echo "in trap: $?"\' EXIT; exit 4')).toMatchObject({ stdout: 'in trap: 4\n', exit: 4 });
    expect(await run('trap \'echo "code $?"\' EXIT; (exit 3)')).toMatchObject({ stdout: 'code 3\n', exit: 3 });
    expect(await run('set -e; trap \'echo "sees $?"\' EXIT; false; echo never')).toMatchObject({ stdout: 'sees 1\n', exit: 1 });
  });

  it('trap - EXIT removes it; trap lists the handlers', async () => {
    expect((await run("trap 'echo bye' EXIT; trap; trap - EXIT; echo hi")).stdout).toBe("trap -- 'echo bye' EXIT\nhi\n");
  });

  it('TERM by the kill API runs the TERM handler, then EXIT; the handler\'s exit is the status', async () => {
    const t = start("trap 'echo cleanup; exit 0' TERM; trap 'echo bye' EXIT; echo ready; sleep 30");
    await settle(() => t.clock.pending() > 0);
    expect(t.out()).toBe('ready\n');
    t.proc.signal('TERM');
    await settle(() => t.exited() !== null);
    expect(t.out()).toBe('ready\ncleanup\nbye\n');
    expect(t.exited()).toBe(0);
  });

  it('a handler that does not exit: the exec ends with 128+n (INT: 130), and an EXIT trap runs on an untrapped TERM', async () => {
    const a = start("trap 'echo got-int' INT; sleep 30");
    await settle(() => a.clock.pending() > 0);
    a.proc.signal('INT');
    await settle(() => a.exited() !== null);
    expect([a.out(), a.exited()]).toEqual(['got-int\n', 130]);
    const b = start("trap 'echo bye' EXIT; sleep 30");
    await settle(() => b.clock.pending() > 0);
    b.proc.signal('TERM');
    await settle(() => b.exited() !== null);
    expect([b.out(), b.exited()]).toEqual(['bye\n', 143]);
  });

  it('the sandbox acceptance input: a TERM trap in a sleep loop writes its cleanup file and exits 7', async () => {
    const ctx = sprite();
    const t = start('trap "echo cleanup > /tmp/s; exit 7" TERM; while true; do sleep 1; done', { ctx });
    await settle(() => t.clock.pending() > 0);
    t.clock.advance(3000);
    await settle(() => t.clock.pending() > 0);
    t.proc.signal('TERM');
    await settle(() => t.exited() !== null);
    expect(t.exited()).toBe(7);
    expect(Buffer.from(ctx.vfs.readFile('/tmp/s')).toString()).toBe('cleanup\n');
  });

  it("trap '' TERM ignores TERM; KILL still ends it", async () => {
    const t = start("trap '' TERM; sleep 30; echo after");
    await settle(() => t.clock.pending() > 0);
    t.proc.signal('TERM');
    await settle();
    expect(t.exited()).toBeNull();
    t.proc.signal('KILL');
    await settle(() => t.exited() !== null);
    expect(t.exited()).toBe(137);
  });

  it('^C in a TTY runs the INT handler', async () => {
    const t = start("trap 'echo caught' INT; sleep 30", { tty: true });
    await settle(() => t.clock.pending() > 0);
    t.proc.writeStdin(new Uint8Array([3]));
    await settle(() => t.exited() !== null);
    expect([t.out(), t.exited()]).toEqual(['caught\r\n', 130]);
  });

  // Outputs as bash 5.2 gives them (checked on a GNU/Linux host).
  it('DEBUG runs before each simple command, [[ ]], (( )) and for head, with $BASH_COMMAND; not inside functions', async () => {
    expect(await run(`trap 'echo "+ $BASH_COMMAND"' DEBUG; x=1; echo a | tr a b; f() { echo in f; }; f; [[ $x ]] && (( x++ )); for i in 1; do :; done; trap - DEBUG; echo end`)).toMatchObject({
      stdout: '+ x=1\n+ echo a\n+ tr a b\nb\n+ f\nin f\n+ [[ -n $x ]]\n+ (( x++ ))\n+ for i in 1\n+ :\n+ trap - DEBUG\nend\n',
      exit: 0,
    });
  });

  it('DEBUG under set -T runs in functions too (once more at the call), and keeps the last command for an ERR trap', async () => {
    expect(await run("set -T; trap 'echo \"D: $BASH_COMMAND\"' DEBUG; f() { echo in f; }; f")).toMatchObject({ stdout: 'D: f\nD: f\nD: echo in f\nin f\n' });
    expect(await run("trap 'LAST=$BASH_COMMAND' DEBUG; trap 'echo \"failed: $LAST ($?)\"' ERR; echo start; false")).toMatchObject({ stdout: 'start\nfailed: false (1)\n' });
  });

  it('DEBUG names a case head as bash prints it; an assignment\'s command substitution captures its own traps only', async () => {
    expect(await run("trap 'echo \"[$BASH_COMMAND]\"' DEBUG; case a in a) echo m ;; esac; x=$(echo in); echo \"$x\"")).toMatchObject({ stdout: '[case a in ]\n[echo m]\nm\n[x=$(echo in)]\n[echo \"$x\"]\nin\n' });
    expect(await run("set -T; trap 'echo \"D: $BASH_COMMAND\"' DEBUG; y=$(echo s); echo \"$y\"")).toMatchObject({ stdout: 'D: y=$(echo s)\nD: echo \"$y\"\nD: echo s\ns\n' });
  });
});

describe('rewriteJobControl', () => {
  it('rewrites &, $!, wait, jobs and leaves other scripts alone', () => {
    expect(rewriteJobControl('echo hi')).toBe('echo hi');
    expect(rewriteJobControl('true && echo "a & b"')).toBe('true && echo "a & b"');
    const out = rewriteJobControl("sleep 2 & echo \"pid=$!\"; wait");
    expect(out).toContain("__spritzer_bg 'sleep 2'");
    expect(out).toContain('${__spritzer_bang}');
    expect(out).toContain('__spritzer_wait');
    expect(rewriteJobControl("nohup echo 'it''s' &")).toContain('__spritzer_bg -d');
    expect(rewriteJobControl('if then')).toBe('if then');
  });
});

describe('the interactive TTY shell', () => {
  it('keeps its jobs between lines: & then jobs, wait; its EXIT trap runs on exit', async () => {
    const clock = new FakeClock(T);
    let text = '';
    const proc = createShellEngine({ clock }).start(
      sprite(),
      { argv: ['bash'], env: ENV, dir: '/home/sprite', tty: true, rows: 24, cols: 80 },
      { stdout: (d) => void (text += Buffer.from(d).toString()), stderr: (d) => void (text += Buffer.from(d).toString()) },
      { stdin: true },
    );
    const prompts = () => text.split('sprite@demo:').length - 1;
    const type = (s: string) => proc.writeStdin(Buffer.from(s));
    await settle(() => prompts() === 1);
    type("trap 'echo bye' EXIT; sleep 2 & echo pid=$!\r");
    await settle(() => prompts() === 2);
    expect(text).toMatch(/\r\npid=[1-9]\d*\r\n/);
    type('jobs\r');
    await settle(() => prompts() === 3);
    expect(text).toContain('[1]+  Running                 sleep 2 &\r\n');
    type('wait %1; echo st=$?\r');
    await settle(() => clock.pending() > 0 && text.endsWith('echo st=$?\r\n'));
    clock.advance(2000);
    await settle(() => prompts() === 4);
    expect(text).toContain('st=0\r\n');
    type('exit 4\r');
    expect(await proc.exit).toBe(4);
    expect(text).toMatch(/bye\r\n$/);
  });
});

describe('fg and bg', () => {
  it('answer as a non-interactive bash does: no job control', async () => {
    expect(await run('sleep 1 & fg %1; echo "st=$?"; wait')).toMatchObject({ stdout: 'st=1\n', stderr: 'bash: line 1: fg: no job control\n' });
  });
});

describe('the kill program (env kill, /bin/kill: procps-ng on Debian)', () => {
  it('lists names on lines of 80 columns with -l, a table with -L, and words a missing process as procps', async () => {
    const { now: _, ...r } = await run('env kill -l; env kill -L | tail -1; env kill 999999; echo "s=$?"; kill -l 9');
    expect(r).toEqual({
      stdout: 'HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT\nCHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH POLL PWR SYS\n29 POLL    30 PWR     31 SYS     \ns=1\nKILL\n',
      stderr: 'kill: (999999): No such process\n',
      exit: 0,
    });
  });
});
