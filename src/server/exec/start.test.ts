/**
 * The session cap as `startExec` applies it to commands asked for at the same moment: a command that passed the
 * cap holds its place while its checks run (a sandbox sprite's working directory is asked of its agent), so commands
 * racing it are refused; a place is given back when the command starts or is given up.
 */
import { describe, expect, it } from 'vitest';
import { SessionRegistry } from '../model/sessions.ts';
import { FakeClock } from '../core/clock.ts';
import { startExec } from './start.ts';
import type { Machine } from '../machines/port.ts';

/** A machine whose `stat` answers only when the test lets it (a slow agent), and whose commands never end. */
function slowMachine() {
  const waiting: Array<() => void> = [];
  let pid = 1;
  const machine = {
    fs: { stat: () => new Promise((resolve) => waiting.push(() => resolve({ type: 'directory' }))) },
    spawn: () => ({ pid: pid++, exit: new Promise<number>(() => undefined), writeStdin() {}, endStdin() {}, resize() {}, signal() {}, tap() {} }),
  } as unknown as Machine;
  return { machine, answer: () => waiting.splice(0).forEach((go) => go()) };
}

const query = () => new URLSearchParams([['cmd', 'sleep'], ['cmd', '60']]);
const listener = { output() {}, exit() {} };

describe('startExec and the session cap', () => {
  it('commands racing for the last places: only as many as there are places pass; a give-up frees its place', async () => {
    const { machine, answer } = slowMachine();
    const sessions = new SessionRegistry({ clock: new FakeClock(), machine, onActivity: () => undefined });
    const sprite = { environment: {}, sessions, touch: () => undefined };
    const ask = () => startExec({ sprite, query: query(), sessionsMax: 2, commandLineMaxBytes: 1 << 20 });
    const asked = [ask(), ask(), ask()];
    answer();
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ kind: 'rate_limited' });
    const [first, second] = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    first!.open(listener);
    second!.release(); // its client went away before the upgrade
    expect(sessions.count).toBe(1);
    const again = ask();
    answer();
    (await again).open(listener);
    expect(sessions.count).toBe(2);
    await expect(ask()).rejects.toMatchObject({ kind: 'rate_limited' });
  });
});
