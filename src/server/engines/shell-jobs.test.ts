import { describe, it, expect } from 'vitest';
import { FakeClock } from '../model/clock.ts';
import { Vfs } from '../model/vfs.ts';
import { createShellEngine } from './shell.ts';
import { seedLinuxTree } from './linux-skeleton.ts';
import { rewriteJobControl } from './shell-jobs.ts';
import type { ExecProcess, SpriteContext } from './types.ts';

// Issue 12 item 5: background jobs, $!, wait, jobs, kill and traps in the shell engine, on the fake clock.

const T = Date.UTC(2026, 10, 30, 9, 5, 0);
const ENV = { HOME: '/home/sprite', USER: 'sprite', PATH: '/usr/local/bin:/usr/bin:/bin' };
const HINT = 'run spritzer with --exec sandbox';

function sprite(): SpriteContext {
  let pid = 41;
  return { name: 'demo', vfs: seedLinuxTree(Vfs.skeleton(() => T), 'demo'), allocatePid: () => ++pid };
}

/** Lets promise chains run (just-bash awaits a lot between commands). */
const settle = async (rounds = 30) => {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
};

/** Starts `sh -c script`; output is recorded as one ordered log of `o:`/`e:` chunks. */
function start(script: string, opts: { ctx?: SpriteContext; tty?: boolean } = {}) {
  const clock = new FakeClock(T);
  const log: string[] = [];
  let exited: number | null = null;
  const proc: ExecProcess = createShellEngine({ clock }).start(
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

/** Runs to the end, advancing the fake clock by `step` ms whenever the script waits on it. */
async function run(script: string, opts: { ctx?: SpriteContext; step?: number } = {}) {
  const t = start(script, opts);
  for (let i = 0; i < 200 && t.exited() === null; i++) {
    await settle();
    if (t.exited() === null && t.clock.pending() > 0) t.clock.advance(opts.step ?? 100);
  }
  return { stdout: t.out(), stderr: t.err(), exit: t.exited(), now: t.clock.now() - T };
}

describe('background jobs', () => {
  it('sleep 2 & echo pid=$! prints a non-zero pid at once, and wait waits about 2 s', async () => {
    const t = start('sleep 2 & echo pid=$!; wait; echo waited');
    await settle();
    expect(t.out()).toMatch(/^pid=[1-9]\d*\n$/);
    expect(t.exited()).toBeNull();
    t.clock.advance(1900);
    await settle();
    expect(t.exited()).toBeNull();
    t.clock.advance(100);
    await settle();
    expect(t.out()).toMatch(/^pid=\d+\nwaited\n$/);
    expect(t.exited()).toBe(0);
  });
});
