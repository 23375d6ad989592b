import { describe, expect, it } from 'vitest';
import { Bash } from 'just-bash';
import { installShellTurns, TurnScheduler } from './turns.ts';

/** A scheduler on a fake clock whose deferred callbacks run only when the test says so. */
function fake(sliceMs = 5) {
  let t = 0;
  const deferred: Array<() => void> = [];
  const s = new TurnScheduler({ now: () => t, sliceMs, defer: (fn) => void deferred.push(fn) });
  return {
    s,
    advance: (ms: number) => (t += ms),
    /** Runs the callbacks deferred so far (one turn of the event loop), then lets their promises settle. */
    turn: async () => {
      for (const fn of deferred.splice(0)) fn();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

describe('TurnScheduler', () => {
  it('lets work run at once while the slice is young, and after an idle turn', async () => {
    const { s, advance, turn } = fake();
    expect(s.enter()).toBeUndefined();
    advance(4);
    expect(s.enter()).toBeUndefined();
    await turn(); // the event loop came round: the slice is over
    advance(100);
    expect(s.enter()).toBeUndefined();
    expect(s.turns).toBe(0);
  });

  it('makes work wait for a turn once the slice is used up, and wakes waiters one per turn in order', async () => {
    const { s, advance, turn } = fake();
    s.enter();
    advance(5);
    const woke: string[] = [];
    s.enter()!.then(() => woke.push('a'));
    s.enter()!.then(() => woke.push('b'));
    expect(s.waiting).toBe(2);
    await turn();
    expect(woke).toEqual(['a']);
    await turn();
    expect(woke).toEqual(['a', 'b']);
    expect(s.turns).toBe(2);
  });
});

describe('installShellTurns', () => {
  it('finds just-bash’s interpreter and runs a busy loop in slices, leaving Function.prototype.bind as it was', async () => {
    const bind = Function.prototype.bind;
    const scheduler = await installShellTurns();
    expect(scheduler).toBeInstanceOf(TurnScheduler);
    expect(Function.prototype.bind).toBe(bind);
    const before = scheduler!.turns;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const r = await new Bash({ defenseInDepth: false }).exec('i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; echo $i');
    clearInterval(timer);
    expect(r.stdout).toBe('300\n');
    expect(scheduler!.turns).toBeGreaterThan(before);
    expect(ticks).toBeGreaterThan(0); // timers fired while the loop ran
  });
});
