import { describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { SessionRegistry, DEFAULT_NON_TTY_AFTER_DISCONNECT, SCROLLBACK_BYTES, type ExecSessionInit, type SessionListener } from './sessions.ts';
import type { EngineProcess, ExecEngine } from '../machines/memory/engine.ts';
import type { ExecIO } from '../machines/port.ts';
import { Vfs } from '../machines/memory/vfs.ts';
import { testMachine } from '../../../test/support/model.ts';

/** An engine whose processes the test drives by hand. */
function manualEngine() {
  const procs: Array<{ io: ExecIO; finish(code: number): void; signals: string[] }> = [];
  const engine: ExecEngine = {
    name: 'manual',
    start(sprite, _req, io): EngineProcess {
      let resolve!: (code: number) => void;
      const exit = new Promise<number>((r) => (resolve = r));
      const signals: string[] = [];
      let done = false;
      const finish = (code: number) => {
        if (!done) resolve(code);
        done = true;
      };
      procs.push({ io, finish, signals });
      return {
        pid: sprite.allocatePid(),
        writeStdin() {},
        endStdin() {},
        resize() {},
        signal(name) {
          signals.push(name);
          finish(name === 'KILL' ? 137 : 143);
        },
        exit,
      };
    },
  };
  return { engine, procs };
}

function setup() {
  const clock = new FakeClock();
  const { engine, procs } = manualEngine();
  let pid = 100;
  const reg = new SessionRegistry({ clock, machine: testMachine(engine, { name: 's', vfs: Vfs.skeleton(), allocatePid: () => pid++ }), onActivity: () => {} });
  return { clock, procs, reg };
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

function recorder(): SessionListener & { out: string[]; code?: number } {
  const rec = {
    out: [] as string[],
    code: undefined as number | undefined,
    output(stream: 'stdout' | 'stderr', data: Uint8Array) {
      rec.out.push(`${stream}:${new TextDecoder().decode(data)}`);
    },
    exit(code: number) {
      rec.code = code;
    },
  };
  return rec;
}

const tick = () => new Promise((r) => setImmediate(r));

describe('SessionRegistry', () => {
  it('lists live sessions with decimal-string ids and drops them as soon as they exit', async () => {
    const { reg, procs } = setup();
    const s = reg.start(init());
    expect(s.id).toBe('100');
    expect(s.command).toBe('/usr/bin/sleep 60');
    expect(reg.list().map((x) => x.id)).toEqual(['100']);
    procs[0].finish(0);
    await tick();
    expect(reg.list()).toEqual([]);
    expect(() => reg.get('100')).toThrow(/session not found: 100/);
  });

  it('replays the scrollback to a later attach, then live output', async () => {
    const { reg, procs } = setup();
    const first = recorder();
    const s = reg.start(init({ tty: true }), first);
    procs[0].io.stdout(new TextEncoder().encode('before'));
    const later = recorder();
    s.attach(later, { replay: true });
    procs[0].io.stdout(new TextEncoder().encode('after'));
    expect(first.out).toEqual(['stdout:before', 'stdout:after']);
    expect(later.out).toEqual(['stdout:before', 'stdout:after']);
  });

  it('keeps at most SCROLLBACK_BYTES for replay, the tail of a large output, in memory of its own', () => {
    const { reg, procs } = setup();
    const s = reg.start(init({ tty: true }));
    const big = new Uint8Array(4 * SCROLLBACK_BYTES);
    big.fill(0x61);
    big.fill(0x7a, big.length - 10);
    procs[0].io.stdout(big);
    const chunks: Uint8Array[] = [];
    s.attach({ output: (_stream, data) => void chunks.push(data), exit() {} }, { replay: true });
    const replayed = Buffer.concat(chunks);
    expect(replayed.length).toBe(SCROLLBACK_BYTES);
    expect(replayed.subarray(-10).toString()).toBe('z'.repeat(10));
    // A copy: the replay buffer does not keep the whole 256 KiB output alive.
    expect(chunks.every((c) => c.buffer.byteLength <= SCROLLBACK_BYTES)).toBe(true);
  });

  it('replays the last SCROLLBACK_BYTES of output when a large chunk is followed by a small one', () => {
    const { reg, procs } = setup();
    const s = reg.start(init({ tty: true }));
    const enc = new TextEncoder();
    procs[0].io.stdout(enc.encode('first\n'));
    procs[0].io.stdout(new Uint8Array(SCROLLBACK_BYTES + 1000).fill(0x61));
    procs[0].io.stdout(enc.encode('last\n'));
    const chunks: Uint8Array[] = [];
    s.attach({ output: (_stream, data) => void chunks.push(data), exit() {} }, { replay: true });
    const replayed = Buffer.concat(chunks);
    expect(replayed.length).toBe(SCROLLBACK_BYTES);
    expect(replayed.subarray(-5).toString()).toBe('last\n');
    expect(replayed[0]).toBe(0x61);
  });

  it('a non-TTY command is killed as soon as its last client leaves, not while another is attached', async () => {
    const { reg, procs } = setup();
    expect(DEFAULT_NON_TTY_AFTER_DISCONNECT).toBe('at-once');
    const l = recorder();
    const s = reg.start(init(), l);
    const other = recorder();
    const detachOther = s.attach(other, { replay: false });
    s.detachListener(l);
    expect(procs[0].signals).toEqual([]);
    detachOther();
    expect(procs[0].signals).toEqual(['KILL']);
  });

  it('max_run_after_disconnect=10s keeps a non-TTY command 10 s after its last client leaves; re-attaching in time saves it', async () => {
    const { reg, procs, clock } = setup();
    const l = recorder();
    const s = reg.start(init({ afterDisconnect: { afterMs: 10_000 } }), l);
    s.detachListener(l);
    clock.advance(9_999);
    expect(procs[0].signals).toEqual([]);
    const again = recorder();
    const detach = s.attach(again, { replay: false });
    clock.advance(20_000);
    expect(procs[0].signals).toEqual([]);
    detach();
    clock.advance(10_000);
    expect(procs[0].signals).toEqual(['KILL']);
  });

  it('TTY and detachable sessions keep running without clients; max_run_after_disconnect overrides', () => {
    const { reg, procs, clock } = setup();
    for (const over of [{ tty: true }, { detachable: true }]) {
      const l = recorder();
      reg.start(init(over), l).detachListener(l);
    }
    const l = recorder();
    reg.start(init({ afterDisconnect: { afterMs: 1000 } }), l).detachListener(l);
    clock.advance(60 * 60_000);
    expect(procs.map((p) => p.signals)).toEqual([[], [], ['KILL']]);
  });

  it('endAll ends every session (restore, delete)', async () => {
    const { reg } = setup();
    reg.start(init());
    reg.start(init({ tty: true }));
    await reg.endAll();
    await tick();
    expect(reg.list()).toEqual([]);
  });
});

describe('SessionRegistry places under the session cap', () => {
  it('counts running sessions and reserved places; a release gives its place back once, however often it is called', async () => {
    const { procs, reg } = setup();
    expect(reg.count).toBe(0);
    const release = reg.reserve();
    const other = reg.reserve();
    expect(reg.count).toBe(2);
    release();
    release();
    expect(reg.count).toBe(1);
    reg.start(init(), recorder());
    expect(reg.count).toBe(2);
    other();
    expect(reg.count).toBe(1);
    procs[0]!.finish(0);
    await new Promise((r) => setImmediate(r));
    expect(reg.count).toBe(0);
  });
});

describe('SessionRegistry.validate: the working directory, or why the sprite cannot say', () => {
  it('a missing dir is 400 invalid_request; a machine that does not answer at all is 503 sprite_unavailable, not a missing dir', async () => {
    const { reg } = setup();
    await expect(reg.validate({ dir: '/nope' })).rejects.toMatchObject({ kind: 'invalid_request', message: 'chdir /nope: no such file or directory' });
    const machine = (reg as unknown as { deps: { machine: { fs: { stat: (p: string) => Promise<unknown> } } } }).deps.machine;
    machine.fs.stat = () => Promise.reject(new Error('the agent connection was lost'));
    await expect(reg.validate({ dir: '/home/sprite' })).rejects.toMatchObject({ kind: 'sprite_unavailable', message: 'sprite unreachable: the agent connection was lost' });
  });
});
