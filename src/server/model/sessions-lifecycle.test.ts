import { describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { afterDisconnectOf, SessionRegistry, SCROLLBACK_BYTES, type ExecSessionInit, type SessionListener } from './sessions.ts';
import type { EngineProcess, ExecEngine } from '../machines/memory/engine.ts';
import type { ExecIO, ExecRequest, ExecStartOptions } from '../machines/port.ts';
import { Vfs } from '../machines/memory/vfs.ts';
import { ModelError } from '../core/errors.ts';
import { kindOf, kindOfAsync, testMachine } from '../../../test/support/model.ts';

const DAY_MS = 24 * 3_600_000;

// What a client of exec sessions sees (docs/wire-reference.md §4.2, §4.7–4.9): output fan-out and scrollback, the
// linger rules after the last client leaves, exit, the list, and the 410 of a recently exited session.

/** Processes the test ends by hand; `pids` are handed out in order. */
function setup(pids: number[] = Array.from({ length: 400 }, (_, i) => 100 + i)) {
  const clock = new FakeClock();
  const procs: Array<{ req: ExecRequest; opts: ExecStartOptions; io: ExecIO; signals: string[]; finish(code: number): void }> = [];
  const engine: ExecEngine = {
    name: 'manual',
    start(sprite, req, io, opts): EngineProcess {
      let resolve!: (code: number) => void;
      const exit = new Promise<number>((r) => (resolve = r));
      const signals: string[] = [];
      procs.push({ req, opts, io, signals, finish: resolve });
      return { pid: sprite.allocatePid(), writeStdin() {}, endStdin() {}, resize() {}, signal: (name) => void signals.push(name), exit };
    },
  };
  const vfs = Vfs.skeleton();
  const next = [...pids];
  let activity = 0;
  const reg = new SessionRegistry({
    clock,
    machine: testMachine(engine, { name: 's', vfs, allocatePid: () => next.shift()! }),
    onActivity: () => activity++,
  });
  return { clock, procs, reg, vfs, activity: () => activity };
}

const init = (over: Partial<ExecSessionInit> = {}): ExecSessionInit => ({
  argv: ['sleep', '60'],
  env: {},
  dir: '/home/sprite',
  tty: false,
  rows: 24,
  cols: 80,
  stdin: false,
  detachable: false,
  ...over,
});

function recorder(): SessionListener & { out: string[]; codes: number[] } {
  const rec = {
    out: [] as string[],
    codes: [] as number[],
    output(stream: 'stdout' | 'stderr', data: Uint8Array) {
      rec.out.push(`${stream}:${new TextDecoder().decode(data)}`);
    },
    exit(code: number) {
      rec.codes.push(code);
    },
  };
  return rec;
}

const bytes = (s: string) => new TextEncoder().encode(s);
const tick = () => new Promise((r) => setImmediate(r));

describe('starting a command', () => {
  it('hands the engine the request and the stdin choice, and names the command as the list shows it', () => {
    const { reg, procs } = setup();
    const req = { argv: ['sh', '-c', 'ls'], env: { A: '1' }, dir: '/tmp', tty: true, rows: 50, cols: 132 };
    const s = reg.start(init({ ...req, path: '/bin/sh', stdin: true }));
    expect(procs[0]!.req).toStrictEqual({ ...req, path: '/bin/sh' });
    expect(procs[0]!.opts).toStrictEqual({ stdin: true });
    expect(s.command).toBe('/bin/sh -c ls');
    expect(s.tty).toBe(true);
    expect(s.workdir).toBe('/tmp');
    expect(reg.start(init({ argv: ['./run.sh', 'x'] })).command).toBe('./run.sh x');
    expect(reg.start(init({ argv: [] })).command).toBe('/usr/bin/bash');
  });

  it('stamps the session with the clock and counts activity on start, output and exit', async () => {
    const { reg, procs, clock, activity } = setup();
    clock.advance(5000);
    const s = reg.start(init());
    expect(s.createdAt).toBe(clock.now());
    expect(s.lastActivityAt).toBe(clock.now());
    expect(activity()).toBe(1);
    clock.advance(1000);
    procs[0]!.io.stdout(bytes('x'));
    expect(s.lastActivityAt).toBe(clock.now());
    expect(activity()).toBe(2);
    procs[0]!.finish(0);
    await tick();
    expect(activity()).toBe(3);
  });

  it('validates the working directory: a directory passes, a missing path or a file is invalid_request', async () => {
    const { reg, vfs } = setup();
    vfs.writeFile('/tmp/f', 'x');
    await expect(reg.validate({ dir: '/home/sprite' })).resolves.toBeUndefined();
    for (const dir of ['/nope', '/tmp/f']) {
      await expect(reg.validate({ dir })).rejects.toThrow(`chdir ${dir}: no such file or directory`);
      expect(await kindOfAsync(() => reg.validate({ dir }))).toBe('invalid_request');
    }
  });

  it('refuses a command on a sprite that could not boot with that reason, not a missing directory', async () => {
    const { reg } = setup();
    const machine = (reg as unknown as { deps: { machine: { fs: { stat: (p: string) => Promise<unknown> } } } }).deps.machine;
    machine.fs.stat = () => Promise.reject(new ModelError('sprite_unavailable', 'sprite s could not boot (no /usr/bin/sh)'));
    await expect(reg.validate({ dir: '/home/sprite' })).rejects.toThrow('sprite s could not boot (no /usr/bin/sh)');
    expect(await kindOfAsync(() => reg.validate({ dir: '/home/sprite' }))).toBe('sprite_unavailable');
    // Another model error is still a missing directory; an error that is not the filesystem's answer (the machine did
    // not answer: its agent's connection lost) is the sprite's unavailability.
    machine.fs.stat = () => Promise.reject(new ModelError('sprite_not_found', 'gone'));
    expect(await kindOfAsync(() => reg.validate({ dir: '/home/sprite' }))).toBe('invalid_request');
    machine.fs.stat = () => Promise.reject(new Error('EIO'));
    await expect(reg.validate({ dir: '/home/sprite' })).rejects.toThrow('sprite unreachable: EIO');
  });
});

describe('output', () => {
  it('goes to every attached client; in TTY mode stderr arrives as stdout', () => {
    const { reg, procs } = setup();
    const a = recorder();
    const b = recorder();
    const s = reg.start(init(), a);
    s.attach(b, { replay: false });
    procs[0]!.io.stdout(bytes('o'));
    procs[0]!.io.stderr(bytes('e'));
    expect(a.out).toStrictEqual(['stdout:o', 'stderr:e']);
    expect(b.out).toStrictEqual(['stdout:o', 'stderr:e']);
    const t = recorder();
    reg.start(init({ tty: true }), t);
    procs[1]!.io.stderr(bytes('e'));
    expect(t.out).toStrictEqual(['stdout:e']);
  });

  it('ignores empty chunks: no output, no count, no activity', () => {
    const { reg, procs, activity } = setup();
    const a = recorder();
    const s = reg.start(init(), a);
    procs[0]!.io.stdout(new Uint8Array(0));
    expect(a.out).toStrictEqual([]);
    expect(s.bytesOut).toBe(0);
    expect(activity()).toBe(1);
  });

  it('counts bytes out and their rate per second since the start, over at least one second', () => {
    const { reg, procs, clock } = setup();
    const s = reg.start(init());
    procs[0]!.io.stdout(bytes('x'.repeat(1000)));
    procs[0]!.io.stderr(bytes('y'.repeat(2000)));
    expect(s.bytesOut).toBe(3000);
    expect(s.bytesPerSecond(s.createdAt)).toBe(3000);
    expect(s.bytesPerSecond(s.createdAt + 500)).toBe(3000);
    expect(s.bytesPerSecond(s.createdAt + 3000)).toBe(1000);
    clock.advance(6000);
    expect(s.bytesPerSecond(clock.now())).toBe(500);
  });

  it('replays the scrollback only when asked', () => {
    const { reg, procs } = setup();
    const s = reg.start(init());
    procs[0]!.io.stdout(bytes('early'));
    const without = recorder();
    s.attach(without, { replay: false });
    const withReplay = recorder();
    s.attach(withReplay, { replay: true });
    expect(without.out).toStrictEqual([]);
    expect(withReplay.out).toStrictEqual(['stdout:early']);
  });

  it('keeps exactly the last 64 KiB of output for replay, cutting into the oldest chunk rather than dropping it whole', () => {
    expect(SCROLLBACK_BYTES).toBe(65_536);
    const { reg, procs } = setup();
    const s = reg.start(init());
    const kib = (c: string, n: number) => bytes(c.repeat(n * 1024));
    /** What a replay holds: each chunk's first character and its length (recorder entries read `stdout:<data>`). */
    const replay = () => {
      const r = recorder();
      s.attach(r, { replay: true });
      return r.out.map((o) => [o[7], o.length - 7]);
    };
    procs[0]!.io.stdout(kib('a', 30));
    procs[0]!.io.stdout(kib('b', 30));
    procs[0]!.io.stdout(kib('c', 4));
    expect(replay()).toStrictEqual([['a', 30 * 1024], ['b', 30 * 1024], ['c', 4 * 1024]]);
    procs[0]!.io.stdout(bytes('d'));
    expect(replay()).toStrictEqual([['a', 30 * 1024 - 1], ['b', 30 * 1024], ['c', 4 * 1024], ['d', 1]]);
    procs[0]!.io.stdout(kib('e', 100));
    expect(replay()).toStrictEqual([['e', SCROLLBACK_BYTES]]);
    procs[0]!.io.stdout(bytes('f'));
    expect(replay()).toStrictEqual([['e', SCROLLBACK_BYTES - 1], ['f', 1]]);
  });
});

describe('exit', () => {
  it('tells every attached client once, detaches them, and tells a later attach at once', async () => {
    const { reg, procs } = setup();
    const a = recorder();
    const s = reg.start(init(), a);
    expect(s.isActive).toBe(true);
    expect(s.exited).toBe(false);
    expect(reg.busy).toBe(true);
    procs[0]!.finish(7);
    await tick();
    expect(a.codes).toStrictEqual([7]);
    expect(s.exitCode).toBe(7);
    expect(s.exited).toBe(true);
    expect(s.isActive).toBe(false);
    expect(reg.busy).toBe(false);
    const late = recorder();
    s.attach(late, { replay: false });
    expect(late.codes).toStrictEqual([7]);
  });

  it('an attach before exit is not told an exit', () => {
    const { reg } = setup();
    const s = reg.start(init());
    const a = recorder();
    s.attach(a, { replay: true });
    expect(a.codes).toStrictEqual([]);
    expect(s.exitCode).toBeNull();
  });

  it('answers session_exited (410) for a recently exited session, session_not_found for one never seen', async () => {
    const { reg, procs } = setup();
    const s = reg.start(init());
    expect(reg.getForKill(s.id)).toBe(s);
    procs[0]!.finish(0);
    await tick();
    expect(kindOf(() => reg.getForKill(s.id))).toBe('session_exited');
    expect(() => reg.getForKill(s.id)).toThrow(`session already exited: ${s.id}`);
    expect(kindOf(() => reg.get(s.id))).toBe('session_not_found');
    expect(kindOf(() => reg.getForKill('999999'))).toBe('session_not_found');
  });

  it('remembers the last 256 exited sessions', async () => {
    const { reg, procs } = setup();
    const ids = Array.from({ length: 257 }, () => reg.start(init()).id);
    for (const p of procs.slice(0, 256)) p.finish(0);
    await tick();
    expect(kindOf(() => reg.getForKill(ids[0]!))).toBe('session_exited');
    procs[256]!.finish(0);
    await tick();
    expect(kindOf(() => reg.getForKill(ids[0]!))).toBe('session_not_found');
    expect(kindOf(() => reg.getForKill(ids[1]!))).toBe('session_exited');
    expect(kindOf(() => reg.getForKill(ids[256]!))).toBe('session_exited');
  });
});

describe('after the last client leaves', () => {
  it('kills a command at once under the at-once rule (HTTP exec, the non-TTY default), even a TTY one', () => {
    const { reg, procs } = setup();
    for (const over of [{ afterDisconnect: 'at-once' as const }, {}, { tty: true, afterDisconnect: 'at-once' as const }]) {
      const a = recorder();
      reg.start(init(over), a).detachListener(a);
    }
    expect(procs.map((p) => p.signals)).toStrictEqual([['KILL'], ['KILL'], ['KILL']]);
  });

  it('keeps TTY and detachable commands forever by default, any command forever under the forever rule, others for the given time', () => {
    const { reg, procs, clock } = setup();
    for (const over of [{ tty: true }, { detachable: true }, { afterDisconnect: 'forever' as const }, { tty: true, afterDisconnect: 'forever' as const }]) {
      const a = recorder();
      reg.start(init(over), a).detachListener(a);
    }
    const a = recorder();
    reg.start(init({ tty: true, afterDisconnect: { afterMs: 500 } }), a).detachListener(a);
    clock.advance(499);
    expect(procs[4]!.signals).toStrictEqual([]);
    clock.advance(1);
    expect(procs[4]!.signals).toStrictEqual(['KILL']);
    clock.advance(365 * DAY_MS);
    expect(procs.map((p) => p.signals.length)).toStrictEqual([0, 0, 0, 0, 1]);
    expect(reg.list().map((s) => s.isActive)).toStrictEqual([false, false, false, false, false]);
  });

  it('honours a linger longer than one timer can hold: 30 days is 30 days, and attaching meanwhile saves it', () => {
    const { reg, procs, clock } = setup();
    const a = recorder();
    const s = reg.start(init({ afterDisconnect: afterDisconnectOf(30 * DAY_MS) }), a);
    s.detachListener(a);
    clock.advance(30 * DAY_MS - 1);
    expect(procs[0]!.signals).toStrictEqual([]);
    clock.advance(1);
    expect(procs[0]!.signals).toStrictEqual(['KILL']);

    const b = recorder();
    const saved = reg.start(init({ afterDisconnect: afterDisconnectOf(720 * 3_600_000) }), b);
    saved.detachListener(b);
    clock.advance(29 * DAY_MS);
    saved.attach(recorder(), { replay: false });
    expect(clock.pending()).toBe(0);
    clock.advance(60 * DAY_MS);
    expect(procs[1]!.signals).toStrictEqual([]);
  });

  it('reads max_run_after_disconnect 0 as forever and any other duration as that long', () => {
    expect(afterDisconnectOf(0)).toBe('forever');
    expect(afterDisconnectOf(10_000)).toStrictEqual({ afterMs: 10_000 });
    expect(afterDisconnectOf(30 * DAY_MS)).toStrictEqual({ afterMs: 30 * DAY_MS });
  });

  it('starts counting only when the last client leaves, and not for a client that was never attached', () => {
    const { reg, procs, clock } = setup();
    const a = recorder();
    const b = recorder();
    const s = reg.start(init({ afterDisconnect: { afterMs: 100 } }), a);
    s.attach(b, { replay: false });
    s.detachListener(recorder());
    s.detachListener(a);
    clock.advance(1000);
    expect(procs[0]!.signals).toStrictEqual([]);
    expect(s.isActive).toBe(true);
    s.detachListener(b);
    expect(clock.pending()).toBe(1);
    clock.advance(100);
    expect(procs[0]!.signals).toStrictEqual(['KILL']);
  });

  it('does not kill a command that already exited, and exit cancels a pending kill', async () => {
    const { reg, procs, clock } = setup();
    const a = recorder();
    const s = reg.start(init({ afterDisconnect: { afterMs: 100 } }), a);
    s.detachListener(a);
    expect(clock.pending()).toBe(1);
    procs[0]!.finish(0);
    await tick();
    expect(clock.pending()).toBe(0);
    const b = recorder();
    s.attach(b, { replay: false });
    s.detachListener(b);
    clock.advance(1000);
    expect(procs[0]!.signals).toStrictEqual([]);
  });
});

describe('the list', () => {
  it('orders live sessions by start time, then by pid as a number', () => {
    const { reg, clock } = setup([50, 10, 9, 7]);
    reg.start(init());
    clock.advance(1000);
    reg.start(init());
    reg.start(init());
    clock.advance(1000);
    reg.start(init());
    expect(reg.list().map((s) => s.id)).toStrictEqual(['50', '9', '10', '7']);
  });

  it('endAll kills every live session and resolves once all have exited', async () => {
    const { reg, procs } = setup();
    reg.start(init());
    reg.start(init({ tty: true }));
    let done = false;
    const ended = reg.endAll().then(() => (done = true));
    expect(procs.map((p) => p.signals)).toStrictEqual([['KILL'], ['KILL']]);
    procs[0]!.finish(137);
    await tick();
    expect(done).toBe(false);
    procs[1]!.finish(137);
    await ended;
    expect(reg.list()).toStrictEqual([]);
  });
});
