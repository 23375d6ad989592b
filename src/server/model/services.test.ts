import { describe, it, expect } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { Vfs } from '../machines/memory/vfs.ts';
import type { ModelError } from '../core/errors.ts';
import type { EngineProcess, ExecEngine, SpriteContext } from '../machines/memory/engine.ts';
import type { ExecIO, ExecRequest, ExecStartOptions } from '../machines/port.ts';
import { LOG_PENDING_MAX_BYTES } from '../machines/memory/service-log.ts';
import { LOG_LINE_MAX_CHARS } from '../../protocol/service-log.ts';
import { signalNumber } from '../../protocol/signals.ts';
import { kindOf, kindOfAsync, testMachine } from '../../../test/support/model.ts';
import {
  ServiceManager,
  DEFAULT_SERVICE_ENV,
  BACKOFF_RESET_AFTER_MS,
  SIGNAL_WAIT_MS,
  LOG_REPLY_MAX_BYTES,
  LOG_REPLY_MAX_LINES,
  type ServiceEvent,
  type ServiceInput,
} from './services.ts';

/** Signals whose default action ends a process. */
const DEADLY = new Set(['TERM', 'KILL', 'INT', 'HUP', 'QUIT', 'USR1', 'USR2', 'ALRM', 'PIPE']);

/** A process the test drives: it writes and exits when told; deadly signals end it unless it catches them. */
class FakeProcess implements EngineProcess {
  readonly signals: string[] = [];
  readonly exit: Promise<number>;
  /** Signals this process catches (KILL cannot be caught). */
  readonly catches = new Set<string>();
  private resolveExit!: (code: number) => void;
  private done = false;

  constructor(
    readonly pid: number,
    readonly req: ExecRequest,
    private readonly io: ExecIO,
  ) {
    this.exit = new Promise((r) => (this.resolveExit = r));
  }
  out(text: string): void {
    this.io.stdout(new TextEncoder().encode(text));
  }
  err(text: string): void {
    this.io.stderr(new TextEncoder().encode(text));
  }
  finish(code: number): void {
    if (this.done) return;
    this.done = true;
    this.resolveExit(code);
  }
  writeStdin(): void {}
  endStdin(): void {}
  resize(): void {}
  signal(name: string): void {
    this.signals.push(name);
    if (DEADLY.has(name) && (name === 'KILL' || !this.catches.has(name))) this.finish(128 + signalNumber(name)!);
  }
}

class FakeEngine implements ExecEngine {
  readonly name = 'fake';
  readonly started: FakeProcess[] = [];
  failWith: string | null = null;
  /** Signals every new process catches. */
  catches: string[] = [];
  /** The start options of every start, in order. */
  readonly options: ExecStartOptions[] = [];
  start(sprite: SpriteContext, req: ExecRequest, io: ExecIO, opts: ExecStartOptions): EngineProcess {
    this.options.push(opts);
    if (this.failWith) throw new Error(this.failWith);
    const p = new FakeProcess(sprite.allocatePid(), req, io);
    for (const s of this.catches) p.catches.add(s);
    this.started.push(p);
    return p;
  }
  /** The latest process of a command (`argv[0]`). */
  last(cmd: string): FakeProcess {
    const p = [...this.started].reverse().find((x) => x.req.argv[0] === cmd);
    if (!p) throw new Error(`no process for ${cmd}`);
    return p;
  }
  commands(): string[] {
    return this.started.map((p) => p.req.argv[0]);
  }
}

/** Lets promise callbacks (exit handling) run. */
const settle = () => new Promise<void>((r) => setImmediate(r));
/** Lets the machine's log appends of the output so far land (each is a few promise turns). */
const logsLanded = async () => {
  for (let i = 0; i < 5; i++) await settle();
};

function setup(limits?: ConstructorParameters<typeof ServiceManager>[0]['limits']) {
  const clock = new FakeClock();
  const engine = new FakeEngine();
  const vfs = Vfs.skeleton(() => clock.now());
  let nextPid = 100;
  const sprite: SpriteContext = { name: 'demo', vfs, allocatePid: () => nextPid++ };
  let activity = 0;
  const inner = testMachine(engine, sprite);
  // Every spawn is the memory machine's; `taps` records what the manager asked of each process's `tap`.
  const taps: Array<[string, boolean]> = [];
  const spawned: ExecRequest[] = [];
  const machine = new Proxy(inner, {
    get(target, key) {
      if (key !== 'spawn') return Reflect.get(target, key, target);
      return (req: ExecRequest, io: ExecIO, opts: ExecStartOptions) => {
        spawned.push(req);
        const p = target.spawn(req, io, opts);
        return { pid: p.pid, exit: p.exit, writeStdin: p.writeStdin, endStdin: p.endStdin, resize: p.resize, signal: p.signal, tap: (on: boolean) => (taps.push([req.argv[0]!, on]), p.tap(on)) };
      };
    },
  });
  const services = new ServiceManager({ clock, machine, onActivity: () => activity++, ...(limits ? { limits } : {}) });
  const events: Array<ServiceEvent & { service: string }> = [];
  const watch = (name: string) => services.subscribe(name, (e) => events.push({ ...e, service: name }));
  const types = (name?: string) => events.filter((e) => !name || e.service === name).map((e) => e.type);
  const readLog = async (name: string) => {
    await logsLanded();
    return new TextDecoder().decode(vfs.readFile(`/.sprite/logs/services/${name}.log`));
  };
  return { clock, engine, vfs, services, events, watch, types, readLog, activity: () => activity, taps, spawned };
}

const svc = (cmd: string, more: Partial<ServiceInput> = {}): ServiceInput => ({ cmd, ...more });

describe('ServiceManager put / get / list', () => {
  it('creates a service and starts its command through the engine', async () => {
    const t = setup();
    t.watch('web');
    await t.services.put('web', svc('python3', { args: ['-m', 'http.server', '3000'], httpPort: 3000, env: { A: '1' } }));
    const p = t.engine.last('python3');
    expect(p.req.argv).toEqual(['python3', '-m', 'http.server', '3000']);
    expect(p.req.env).toEqual({ ...DEFAULT_SERVICE_ENV, A: '1' });
    expect(p.req.dir).toBe('/home/sprite');
    expect(p.req.tty).toBe(false);
    expect(t.services.get('web')).toEqual({
      name: 'web', cmd: 'python3', args: ['-m', 'http.server', '3000'], needs: [], httpPort: 3000, env: { A: '1' },
      state: { name: 'web', status: 'running', pid: p.pid, startedAt: t.clock.now(), restartCount: 0 },
    });
    expect(t.events[0]).toMatchObject({ type: 'started', timestamp: t.clock.now(), data: 'Service web started' });
    expect(t.activity()).toBeGreaterThan(0);
  });

  it('honours dir and lists services by name', async () => {
    const t = setup();
    await t.services.put('b', svc('sleep', { dir: '/tmp' }));
    await t.services.put('a', svc('sleep'));
    expect(t.engine.last('sleep').req.dir).toBe('/home/sprite');
    expect(t.engine.started[0].req.dir).toBe('/tmp');
    expect(t.services.list().map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('answers service_not_found for an unknown service', async () => {
    const t = setup();
    expect(kindOf(() => t.services.get('nope'))).toBe('service_not_found');
    expect(kindOf(() => t.services.start('nope'))).toBe('service_not_found');
    expect(kindOf(() => t.services.stop('nope'))).toBe('service_not_found');
    expect(await kindOfAsync(() => t.services.logs('nope'))).toBe('service_not_found');
    expect(kindOf(() => t.services.delete('nope'))).toBe('service_not_found');
  });

  it.each<[string, string, ServiceInput]>([
    ['a missing cmd', 'web', {}],
    ['an empty cmd', 'web', { cmd: '  ' }],
    ['args that are not strings', 'web', { cmd: 'x', args: [1 as unknown as string] }],
    ['an unknown need', 'web', { cmd: 'x', needs: ['db'] }],
    ['a need on itself', 'web', { cmd: 'x', needs: ['web'] }],
    ['a port out of range', 'web', { cmd: 'x', httpPort: 70000 }],
    ['a fractional port', 'web', { cmd: 'x', httpPort: 80.5 }],
    ['env values that are not strings', 'web', { cmd: 'x', env: { A: 1 as unknown as string } }],
    ['a name with a slash', 'a/b', { cmd: 'x' }],
    ['an empty name', '', { cmd: 'x' }],
  ])('rejects %s as service_invalid without starting anything', (_, name, input) => {
    const t = setup();
    expect(kindOf(() => t.services.put(name, input))).toBe('service_invalid');
    expect(t.engine.started).toEqual([]);
    expect(t.services.list()).toEqual([]);
  });

  it('rejects a needs cycle and keeps the old definition', async () => {
    const t = setup();
    await t.services.put('a', svc('a'));
    await t.services.put('b', svc('b', { needs: ['a'] }));
    await t.services.put('c', svc('c', { needs: ['b'] }));
    let err: ModelError | undefined;
    try {
      t.services.put('a', svc('a2', { needs: ['c'] }));
    } catch (e) {
      err = e as ModelError;
    }
    expect(err?.kind).toBe('service_invalid');
    expect(err?.message).toBe('dependency cycle: a -> c -> b -> a');
    expect(t.services.get('a')).toMatchObject({ cmd: 'a', needs: [] });
  });

  it('allows only one service with an HTTP port', async () => {
    const t = setup();
    await t.services.put('web', svc('web', { httpPort: 3000 }));
    let err: ModelError | undefined;
    try {
      t.services.put('api', svc('api', { httpPort: 8080 }));
    } catch (e) {
      err = e as ModelError;
    }
    expect(err?.kind).toBe('service_conflict');
    expect(err?.message).toBe('another service already has an HTTP port configured');
    await t.services.put('api', svc('api'));
    await t.services.put('web', svc('web', { httpPort: 8080 }));
    expect(t.services.get('web').httpPort).toBe(8080);
  });

  it('restarts a running service with its new definition on update', async () => {
    const t = setup();
    await t.services.put('web', svc('node', { args: ['v1.js'] }));
    const first = t.engine.last('node');
    t.watch('web');
    await t.services.put('web', svc('node', { args: ['v2.js'] }));
    expect(first.signals).toEqual(['TERM']);
    expect(t.types()).toEqual(['stopping', 'stopped', 'started']);
    expect(t.engine.last('node').req.argv).toEqual(['node', 'v2.js']);
    expect(t.services.get('web').state).toMatchObject({ status: 'running', pid: t.engine.last('node').pid });
  });
});

describe('ServiceManager needs order', () => {
  it('starts needs first, depth first in needs order, each once', async () => {
    const t = setup();
    await t.services.put('db', svc('db'));
    await t.services.put('cache', svc('cache', { needs: ['db'] }));
    await t.services.put('queue', svc('queue'));
    for (const n of ['db', 'cache', 'queue']) await t.services.stop(n);
    t.engine.started.length = 0;
    await t.services.put('web', svc('web', { needs: ['cache', 'queue', 'db'] }));
    expect(t.engine.commands()).toEqual(['db', 'cache', 'queue', 'web']);
  });

  it('starts stopped needs on start, and leaves running ones alone', async () => {
    const t = setup();
    await t.services.put('db', svc('db'));
    await t.services.put('web', svc('web', { needs: ['db'] }));
    await t.services.stop('web');
    const dbPid = t.services.get('db').state.pid;
    t.services.start('web');
    expect(t.services.get('db').state.pid).toBe(dbPid);
    await t.services.stop('web');
    await t.services.stop('db');
    t.engine.started.length = 0;
    t.services.start('web');
    expect(t.engine.commands()).toEqual(['db', 'web']);
  });
});

describe('ServiceManager output and logs', () => {
  it('writes lines to the log (stderr prefixed) and to subscribers, across chunk boundaries', async () => {
    const t = setup();
    t.watch('web');
    await t.services.put('web', svc('web'));
    const p = t.engine.last('web');
    const before = t.activity();
    p.out('hel');
    p.out('lo\nwor');
    p.err('oops\n');
    p.out('ld\n');
    p.out('tail');
    expect(await t.readLog('web')).toBe('hello\n[stderr] oops\nworld\n');
    expect(t.events.filter((e) => e.type === 'stdout' || e.type === 'stderr').map((e) => [e.type, e.data])).toEqual([
      ['stdout', 'hello'],
      ['stderr', 'oops'],
      ['stdout', 'world'],
    ]);
    expect(t.activity()).toBeGreaterThan(before);
    p.finish(0);
    await settle();
    expect(await t.readLog('web')).toBe('hello\n[stderr] oops\nworld\ntail\n');
    expect(t.types().slice(-2)).toEqual(['stdout', 'exit']);
  });

  it('decodes UTF-8 split between chunks', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    const p = t.engine.last('web');
    const bytes = new TextEncoder().encode('héllo\n');
    (p as unknown as { io: ExecIO }).io.stdout(bytes.slice(0, 2));
    (p as unknown as { io: ExecIO }).io.stdout(bytes.slice(2));
    expect(await t.readLog('web')).toBe('héllo\n');
  });

  it('reads back the log as events, all or the last lines', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    const p = t.engine.last('web');
    p.out('one\ntwo\n');
    p.err('three\n');
    await logsLanded(); // the machine appends to the log as the sprite's disk allows, not before logs() reads
    expect((await t.services.logs('web')).map((e) => [e.type, e.data])).toEqual([
      ['stdout', 'one'],
      ['stdout', 'two'],
      ['stderr', 'three'],
    ]);
    expect((await t.services.logs('web', 2)).map((e) => e.data)).toEqual(['two', 'three']);
    expect(await t.services.logs('web', 0)).toEqual([]);
    expect((await t.services.logs('web'))[0].timestamp).toBe(t.clock.now());
  });

  it('has no log lines before any output', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    expect(await t.services.logs('web')).toEqual([]);
  });

  it('names one combined log file in log_files and the complete event', () => {
    const t = setup();
    const path = '/.sprite/logs/services/web.log';
    expect(t.services.logFiles('web')).toEqual({ combined: path, stdout: path, stderr: path });
    expect(t.services.completeEvent('web')).toEqual({
      type: 'complete', timestamp: t.clock.now(), logFiles: { combined: path, stdout: path, stderr: path },
    });
  });

  it('stops delivering events after unsubscribe', async () => {
    const t = setup();
    const off = t.watch('web');
    await t.services.put('web', svc('web'));
    off();
    t.engine.last('web').out('quiet\n');
    expect(t.types()).toEqual(['started']);
  });
});

describe('ServiceManager restart with backoff', () => {
  it('restarts an exited command after 1 s, 2 s, 4 s … capped at 30 s', async () => {
    const t = setup();
    t.watch('web');
    await t.services.put('web', svc('web'));
    const delays = [1000, 2000, 4000, 8000, 16000, 30000, 30000];
    for (const [i, delay] of delays.entries()) {
      t.engine.last('web').finish(1);
      await settle();
      const crashedAt = t.clock.now();
      expect(t.services.get('web').state).toEqual({
        name: 'web', status: 'starting', restartCount: i, nextRestartAt: crashedAt + delay, error: 'exited with code 1',
      });
      const count = t.engine.started.length;
      t.clock.advance(delay - 1);
      expect(t.engine.started.length).toBe(count);
      t.clock.advance(1);
      expect(t.engine.started.length).toBe(count + 1);
      expect(t.services.get('web').state).toMatchObject({ status: 'running', restartCount: i + 1, startedAt: t.clock.now() });
      expect(t.services.get('web').state.nextRestartAt).toBeUndefined();
    }
    expect(t.events.find((e) => e.type === 'exit')).toMatchObject({ exitCode: 1 });
  });

  it('starts the backoff over after a long run', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.last('web').finish(1);
    await settle();
    t.clock.advance(1000);
    t.engine.last('web').finish(1);
    await settle();
    expect(t.services.get('web').state.nextRestartAt).toBe(t.clock.now() + 2000);
    t.clock.advance(2000);
    t.clock.advance(60_000);
    t.engine.last('web').finish(0);
    await settle();
    expect(t.services.get('web').state).toMatchObject({ nextRestartAt: t.clock.now() + 1000, error: 'exited with code 0' });
  });

  it('marks a command the engine cannot start as failed and retries it', async () => {
    const t = setup();
    t.watch('web');
    t.engine.failWith = 'no such engine feature';
    await t.services.put('web', svc('web'));
    expect(t.services.get('web').state).toMatchObject({
      status: 'failed', error: 'Failed to start service: no such engine feature', nextRestartAt: t.clock.now() + 1000,
    });
    expect(t.events.map((e) => [e.type, e.data ?? e.exitCode])).toEqual([
      ['error', 'Failed to start service: no such engine feature'],
      ['exit', 1],
    ]);
    t.engine.failWith = null;
    t.clock.advance(1000);
    expect(t.services.get('web').state).toMatchObject({ status: 'running', restartCount: 1 });
    expect(t.services.get('web').state.error).toBeUndefined();
  });

  it('starts at once, with a fresh backoff, when start is called during the wait', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    for (let i = 0; i < 3; i++) {
      t.engine.last('web').finish(1);
      await settle();
      t.clock.advance(t.services.get('web').state.nextRestartAt! - t.clock.now());
    }
    t.engine.last('web').finish(1);
    await settle();
    t.services.start('web');
    expect(t.services.get('web').state.status).toBe('running');
    expect(t.clock.pending()).toBe(0);
    t.engine.last('web').finish(1);
    await settle();
    expect(t.services.get('web').state.nextRestartAt).toBe(t.clock.now() + 1000);
  });
});

describe('ServiceManager start / stop / restart', () => {
  it('refuses to start a running service', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    expect(kindOf(() => t.services.start('web'))).toBe('service_conflict');
  });

  it('stops with TERM: stopping, stopped with the exit code, and stays stopped (sticky)', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.watch('web');
    const p = t.engine.last('web');
    const stopped = t.services.stop('web', 5000);
    expect(t.services.get('web').state.status).toBe('stopping');
    expect(await stopped).toBe(143);
    expect(p.signals).toEqual(['TERM']);
    expect(t.events.map((e) => [e.type, e.exitCode])).toEqual([['stopping', undefined], ['stopped', 143]]);
    expect(t.services.get('web').state).toEqual({ name: 'web', status: 'stopped', restartCount: 0 });
    t.clock.advance(120_000);
    expect(t.engine.started.length).toBe(1);
    expect(t.clock.pending()).toBe(0);
    t.services.start('web');
    expect(t.services.get('web').state.status).toBe('running');
  });

  it('sends KILL when TERM is ignored for the whole timeout', async () => {
    const t = setup();
    t.engine.catches = ['TERM'];
    await t.services.put('web', svc('web'));
    const p = t.engine.last('web');
    const stopped = t.services.stop('web', 3000);
    t.clock.advance(2999);
    expect(p.signals).toEqual(['TERM']);
    expect(t.services.get('web').state.status).toBe('stopping');
    t.clock.advance(1);
    expect(p.signals).toEqual(['TERM', 'KILL']);
    expect(await stopped).toBe(137);
    expect(t.services.get('web').state.status).toBe('stopped');
  });

  it('answers service_not_running when stopping a stopped service, and joins a stop in progress', async () => {
    const t = setup();
    t.engine.catches = ['TERM'];
    await t.services.put('web', svc('web'));
    const first = t.services.stop('web', 1000);
    const second = t.services.stop('web', 1000);
    t.clock.advance(1000);
    expect(await first).toBe(137);
    expect(await second).toBe(137);
    expect(kindOf(() => t.services.stop('web'))).toBe('service_not_running');
  });

  it('cancels a pending restart on stop', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.last('web').finish(1);
    await settle();
    t.watch('web');
    expect(await t.services.stop('web')).toBeNull();
    expect(t.types()).toEqual(['stopping', 'stopped']);
    expect(t.clock.pending()).toBe(0);
    t.clock.advance(60_000);
    expect(t.engine.started.length).toBe(1);
    expect(t.services.get('web').state.status).toBe('stopped');
  });

  it('restarts: stop events, then a new process', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    const oldPid = t.services.get('web').state.pid;
    t.watch('web');
    await t.services.restart('web');
    expect(t.types()).toEqual(['stopping', 'stopped', 'started']);
    expect(t.services.get('web').state).toMatchObject({ status: 'running', restartCount: 0 });
    expect(t.services.get('web').state.pid).not.toBe(oldPid);
  });

  it('restart of a stopped service just starts it', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    await t.services.stop('web');
    t.watch('web');
    await t.services.restart('web');
    expect(t.types()).toEqual(['started']);
  });
});

describe('ServiceManager signal', () => {
  it('rejects an unknown signal with invalid and a stopped service with service_not_running', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    expect(kindOf(() => t.services.signal('web', 'SIGNOPE'))).toBe('invalid');
    await t.services.stop('web');
    expect(kindOf(() => t.services.signal('web', 'HUP'))).toBe('service_not_running');
    expect(kindOf(() => t.services.signal('ghost', 'HUP'))).toBe('service_not_found');
  });

  it('delivers a caught signal, in any spelling, without a restart', async () => {
    const t = setup();
    t.engine.catches = ['HUP'];
    await t.services.put('web', svc('web'));
    await t.services.signal('web', 'sighup');
    expect(t.engine.last('web').signals).toEqual(['HUP']);
    expect(t.services.get('web').state).toMatchObject({ status: 'running', restartCount: 0 });
  });

  it('counts death by TERM as a crash: restart after the backoff, restart_count grows', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.watch('web');
    await t.services.signal('web', 'SIGTERM');
    expect(t.events.map((e) => [e.type, e.exitCode])).toEqual([['exit', 143]]);
    expect(t.services.get('web').state).toMatchObject({ status: 'starting', error: 'exited with code 143' });
    t.clock.advance(1000);
    expect(t.services.get('web').state).toMatchObject({ status: 'running', restartCount: 1 });
  });

  it('waits at most 10 s for TERM to end the command', async () => {
    const t = setup();
    t.engine.catches = ['TERM'];
    await t.services.put('web', svc('web'));
    let done = false;
    void t.services.signal('web', 'TERM').then(() => (done = true));
    t.clock.advance(9999);
    await settle();
    expect(done).toBe(false);
    t.clock.advance(1);
    await settle();
    expect(done).toBe(true);
    expect(t.services.get('web').state.status).toBe('running');
  });
});

describe('ServiceManager delete', () => {
  it('refuses while running or while another service needs it; keeps the log', async () => {
    const t = setup();
    await t.services.put('db', svc('db'));
    await t.services.put('web', svc('web', { needs: ['db'] }));
    t.engine.last('db').out('ready\n');
    await t.services.stop('db');
    expect(kindOf(() => t.services.delete('web'))).toBe('service_conflict');
    expect(kindOf(() => t.services.delete('db'))).toBe('service_conflict');
    await t.services.stop('web');
    t.services.delete('web');
    t.services.delete('db');
    expect(t.services.list()).toEqual([]);
    expect(await t.readLog('db')).toBe('ready\n');
    expect(kindOf(() => t.services.get('db'))).toBe('service_not_found');
  });

  it('refuses while a restart is pending', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.last('web').finish(1);
    await settle();
    expect(kindOf(() => t.services.delete('web'))).toBe('service_conflict');
  });
});

describe('ServiceManager shutdown and restore', () => {
  it('shutdown kills everything, cancels pending restarts and restarts nothing', async () => {
    const t = setup();
    await t.services.put('a', svc('a'));
    await t.services.put('b', svc('b'));
    t.engine.last('b').finish(1);
    await settle();
    await t.services.shutdown();
    expect(t.engine.last('a').signals).toEqual(['KILL']);
    expect(t.services.list().map((s) => s.state.status)).toEqual(['stopped', 'stopped']);
    expect(t.clock.pending()).toBe(0);
    t.clock.advance(120_000);
    expect(t.engine.started.length).toBe(2);
  });

  it('restoreFromDefinitions brings back the services meant to run, in needs order', async () => {
    const t = setup();
    await t.services.put('db', svc('db'));
    await t.services.put('web', svc('web', { needs: ['db'] }));
    await t.services.put('cron', svc('cron'));
    await t.services.stop('cron');
    const before = { db: t.services.get('db').state.pid, web: t.services.get('web').state.pid };
    t.engine.started.length = 0;
    await t.services.restoreFromDefinitions();
    expect(t.engine.commands()).toEqual(['db', 'web']);
    expect(t.services.get('db').state.pid).not.toBe(before.db);
    expect(t.services.get('web').state.pid).not.toBe(before.web);
    expect(t.services.get('cron').state.status).toBe('stopped');
  });
});

describe('ServiceManager, in detail', () => {
  it('gives commands the sprite user environment, no stdin, and a log file from the start', async () => {
    const t = setup();
    expect(DEFAULT_SERVICE_ENV).toStrictEqual({
      HOME: '/home/sprite',
      USER: 'sprite',
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      LANG: 'C.UTF-8',
    });
    await t.services.put('web', svc('web'));
    expect(t.engine.options).toStrictEqual([{ stdin: false }]);
    expect(await t.readLog('web')).toBe('');
    expect(await t.services.logs('web')).toStrictEqual([]);
  });

  it('names the service in every refusal', async () => {
    const t = setup();
    await t.services.put('db', svc('db'));
    await t.services.put('web', svc('web', { needs: ['db'] }));
    expect(() => t.services.start('web')).toThrow('service web is already running');
    expect(() => t.services.get('nope')).toThrow('service not found: nope');
    expect(() => t.services.signal('web', 'BOGUS')).toThrow('invalid signal: BOGUS');
    expect(() => t.services.delete('db')).toThrow('service db is running');
    await t.services.stop('db');
    expect(() => t.services.stop('db')).toThrow('service db is not running');
    expect(() => t.services.signal('db', 'TERM')).toThrow('service db is not running');
    expect(() => t.services.delete('db')).toThrow('service db is needed by web');
  });

  it.each<[string, string, unknown, string]>([
    ['a bad name', 'a b', { cmd: 'x' }, 'invalid service name: "a b"'],
    ['a name of 64 characters', 'a'.repeat(64), { cmd: 'x' }, `invalid service name: "${'a'.repeat(64)}"`],
    ['a null definition', 'web', null, 'invalid service definition'],
    ['a string definition', 'web', 'x', 'invalid service definition'],
    ['no cmd', 'web', {}, 'cmd is required'],
    ['args not an array', 'web', { cmd: 'x', args: 'a' }, 'args must be an array of strings'],
    ['needs not strings', 'web', { cmd: 'x', needs: [1] }, 'needs must be an array of strings'],
    ['env null', 'web', { cmd: 'x', env: null }, 'env must be an object of strings'],
    ['env an array', 'web', { cmd: 'x', env: ['A=1'] }, 'env must be an object of strings'],
    ['env a string', 'web', { cmd: 'x', env: 'A=1' }, 'env must be an object of strings'],
    ['a relative dir', 'web', { cmd: 'x', dir: 'tmp' }, 'dir must be an absolute path'],
    ['a dir that is not a string', 'web', { cmd: 'x', dir: 5 }, 'dir must be an absolute path'],
    ['port 0', 'web', { cmd: 'x', httpPort: 0 }, 'invalid http_port: 0'],
    ['port 65536', 'web', { cmd: 'x', httpPort: 65536 }, 'invalid http_port: 65536'],
    ['a string port', 'web', { cmd: 'x', httpPort: '80' }, 'invalid http_port: "80"'],
    ['a need on itself', 'web', { cmd: 'x', needs: ['web'] }, 'dependency cycle: web -> web'],
    ['an unknown need', 'web', { cmd: 'x', needs: ['db'] }, 'unknown dependency: db'],
  ])('refuses %s with its reason', (_name, name, input, message) => {
    const t = setup();
    expect(() => t.services.put(name, input as ServiceInput)).toThrow(message);
    expect(kindOf(() => t.services.put(name, input as ServiceInput))).toBe('service_invalid');
    expect(t.services.list()).toStrictEqual([]);
  });

  it('accepts ports 1 and 65535, a 63-character name, and keeps only the fields given', async () => {
    await setup().services.put('a'.repeat(63), svc('x', { httpPort: 1 }));
    const t = setup();
    await t.services.put('b', svc('y', { httpPort: 65535 }));
    const b = t.services.get('b');
    expect(Object.keys(b).sort()).toStrictEqual(['args', 'cmd', 'env', 'httpPort', 'name', 'needs', 'state']);
    await t.services.put('c', svc('z', { dir: '/tmp' }));
    expect(t.services.get('c').dir).toBe('/tmp');
  });

  it('hands out copies of definitions', async () => {
    const t = setup();
    await t.services.put('web', svc('web', { args: ['a'], env: { A: '1' } }));
    const got = t.services.get('web');
    got.args.push('b');
    got.env.B = '2';
    got.needs.push('x');
    expect(t.services.get('web')).toMatchObject({ args: ['a'], env: { A: '1' }, needs: [] });
  });

  it('shows startedAt only while running, nextRestartAt and the error only while waiting', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    await t.services.stop('web');
    expect(t.services.get('web').state).toStrictEqual({ name: 'web', status: 'stopped', restartCount: 0 });
    t.services.start('web');
    t.engine.last('web').finish(1);
    await settle();
    const waiting = t.services.get('web').state;
    expect(waiting.nextRestartAt).toBe(t.clock.now() + 1000);
    expect(waiting.startedAt).toBeUndefined();
    expect(waiting.error).toBe('exited with code 1');
    t.clock.advance(1000);
    expect(t.services.get('web').state).toStrictEqual({ name: 'web', status: 'running', pid: t.engine.last('web').pid, startedAt: t.clock.now(), restartCount: 1 });
  });

  it('reads back the last lines only for a positive count, and nothing when the log is gone', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.last('web').out('a\nb\n');
    t.engine.last('web').err('c\n');
    await logsLanded();
    expect((await t.services.logs('web', 2)).map((e) => `${e.type}:${e.data}`)).toStrictEqual(['stdout:b', 'stderr:c']);
    expect(await t.services.logs('web', 0)).toStrictEqual([]);
    expect(await t.services.logs('web', -1)).toStrictEqual([]);
    expect((await t.services.logs('web', 10)).length).toBe(3);
    t.vfs.rm('/.sprite/logs', { recursive: true });
    expect(await t.services.logs('web')).toStrictEqual([]);
    t.engine.last('web').out('d\n');
    expect(await t.readLog('web')).toBe('d\n');
  });

  it('writes a last stderr line without newline to the log when the command exits', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.last('web').err('partial');
    t.engine.last('web').finish(1);
    await settle();
    expect(await t.readLog('web')).toBe('[stderr] partial\n');
  });

  it('keeps other subscribers when one leaves, and takes new ones after all left', async () => {
    const t = setup();
    const a: string[] = [];
    const b: string[] = [];
    const offA = t.services.subscribe('web', (e) => a.push(e.type));
    const offB = t.services.subscribe('web', (e) => b.push(e.type));
    offA();
    offA();
    await t.services.put('web', svc('web'));
    expect(a).toStrictEqual([]);
    expect(b).toStrictEqual(['started']);
    offB();
    const c: string[] = [];
    t.services.subscribe('web', (e) => c.push(e.type));
    await t.services.restart('web');
    expect(c).toContain('started');
    expect(b).toStrictEqual(['started']);
  });

  it('never keeps the sprite busy by itself', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    expect(t.services.busy()).toBe(false);
  });

  it('resolves a non-ending signal at once, and TERM once the command has ended or after the wait', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.catches = ['TERM'];
    await t.services.put('caught', svc('caught'));
    await t.services.signal('web', 'USR1');
    let done = false;
    const term = t.services.signal('caught', 'TERM').then(() => (done = true));
    await settle();
    expect(done).toBe(false);
    t.clock.advance(SIGNAL_WAIT_MS);
    await term;
    expect(t.engine.last('caught').signals).toStrictEqual(['TERM']);
  });

  it('refuses a signal while the service is stopping', async () => {
    const t = setup();
    t.engine.catches = ['TERM'];
    await t.services.put('web', svc('web'));
    void t.services.stop('web');
    expect(t.services.get('web').state.status).toBe('stopping');
    expect(kindOf(() => t.services.signal('web', 'KILL'))).toBe('service_not_running');
  });

  it('starts the backoff over after a run of exactly BACKOFF_RESET_AFTER_MS', async () => {
    const t = setup();
    await t.services.put('web', svc('web'));
    t.engine.last('web').finish(1);
    await settle();
    t.clock.advance(1000);
    t.clock.advance(BACKOFF_RESET_AFTER_MS);
    t.engine.last('web').finish(1);
    await settle();
    expect(t.services.get('web').state.nextRestartAt).toBe(t.clock.now() + 1000);
  });

  it('suspend and afterRestore bring back what was meant to run, in name order when nothing needs anything', async () => {
    const t = setup();
    await t.services.put('b', svc('b'));
    await t.services.put('a', svc('a'));
    await t.services.put('c', svc('c'));
    await t.services.stop('c');
    await t.services.suspend();
    expect(t.services.list().map((s) => s.state.status)).toStrictEqual(['stopped', 'stopped', 'stopped']);
    await t.services.put('d', svc('d'));
    t.engine.started.length = 0;
    t.services.afterRestore();
    await settle();
    expect(t.engine.commands()).toStrictEqual(['a', 'b']);
    expect(t.services.get('c').state.status).toBe('stopped');
  });

  it('restores nothing after shutdown', async () => {
    const t = setup();
    await t.services.put('a', svc('a'));
    await t.services.shutdown();
    t.engine.started.length = 0;
    await t.services.restoreFromDefinitions();
    expect(t.engine.started).toStrictEqual([]);
  });

  it('works without an activity callback', async () => {
    const clock = new FakeClock();
    const engine = new FakeEngine();
    const vfs = Vfs.skeleton(() => clock.now());
    let pid = 1;
    const services = new ServiceManager({ clock, machine: testMachine(engine, { name: 'x', vfs, allocatePid: () => pid++ }) });
    await services.put('web', svc('web'));
    engine.last('web').out('hi\n');
    engine.last('web').finish(0);
    await settle();
    await logsLanded();
    expect(new TextDecoder().decode(vfs.readFile('/.sprite/logs/services/web.log'))).toBe('hi\n');
  });
});

describe('ServiceManager.restoreDefinition (persistence hook, src/server/store)', () => {
  it('records a saved service stopped, with its restart count, without starting anything; start runs it', () => {
    const t = setup();
    const def = { name: 'web', cmd: 'sleep', args: ['9'], needs: [], httpPort: 8080, env: { A: '1' }, dir: '/tmp' };
    t.services.restoreDefinition(def, 3);
    expect(t.engine.started).toEqual([]);
    expect(t.services.get('web')).toEqual({ ...def, state: { name: 'web', status: 'stopped', restartCount: 3 } });
    t.services.start('web');
    expect(t.engine.last('sleep').req.argv).toEqual(['sleep', '9']);
    expect(t.engine.last('sleep').req.dir).toBe('/tmp');
    expect(t.services.get('web').state).toMatchObject({ status: 'running', restartCount: 3 });
  });
});

describe('ServiceManager, a service that writes faster than its log is written', () => {
  /** Holds every log write until `release()`; counts the bytes handed to the disk. */
  function slowDisk(t: ReturnType<typeof setup>) {
    const fs = (t.services as unknown as { deps: { machine: { fs: { writeFile: (...a: any[]) => Promise<unknown> } } } }).deps.machine.fs;
    const real = fs.writeFile.bind(fs);
    let gate: Promise<void> = new Promise(() => undefined);
    let open!: () => void;
    const closeGate = () => (gate = new Promise<void>((r) => (open = r)));
    closeGate();
    const held = { calls: 0, bytes: 0 };
    fs.writeFile = async (path: string, data: Uint8Array, opts: unknown) => {
      held.calls++;
      held.bytes += data.length;
      await gate;
      return real(path, data, opts);
    };
    return { held, release: () => open() };
  }

  it('holds at most one pending write per service, logs what fits and says how much it did not log', async () => {
    const t = setup();
    t.watch('spew');
    await t.services.put('spew', svc('yes'));
    await logsLanded();
    const disk = slowDisk(t);
    const p = t.engine.last('yes');
    const line = `${'y'.repeat(1023)}
`;
    const lines = 16 * 1024; // 16 MiB of output while the disk holds every write
    for (let i = 0; i < lines; i++) p.out(line);
    // At most one write under way and one pending buffer of at most the bound: nothing else is held.
    expect(disk.held.calls).toBeLessThanOrEqual(1);
    disk.release();
    const log = await t.readLog('spew');
    expect(disk.held.calls).toBeLessThanOrEqual(2);
    expect(disk.held.bytes).toBeLessThanOrEqual(2 * LOG_PENDING_MAX_BYTES + 200);
    const logged = log.split('\n').filter((l) => l === line.slice(0, -1)).length;
    const dropped = (lines - logged) * line.length;
    expect(dropped).toBeGreaterThan(0);
    expect(log.endsWith(`[spritzer] ${dropped} bytes of output were not logged: the service wrote faster than its log could be written\n`)).toBe(true);
    // The live stream still got every line.
    expect(t.events.filter((e) => e.type === 'stdout').length).toBe(lines);
  });

  it('joins output that arrives while a write is under way into one write', async () => {
    const t = setup();
    await t.services.put('chatty', svc('yes'));
    await logsLanded();
    const disk = slowDisk(t);
    const p = t.engine.last('yes');
    for (let i = 0; i < 100; i++) p.out(`line ${i}\n`);
    disk.release();
    const log = await t.readLog('chatty');
    expect(disk.held.calls).toBeLessThanOrEqual(2);
    expect(log).toBe(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''));
  });

  it('cuts a line longer than the bound, so output without newlines is not held whole', async () => {
    const t = setup();
    t.watch('zero');
    await t.services.put('zero', svc('cat'));
    const p = t.engine.last('cat');
    const chunk = 'z'.repeat(64 * 1024);
    for (let i = 0; i < 40; i++) p.out(chunk); // 2.5 MiB, no newline
    const lines = t.events.filter((e) => e.type === 'stdout').map((e) => e.data as string);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.length <= LOG_LINE_MAX_CHARS)).toBe(true);
    p.finish(0);
    await settle();
    const all = t.events.filter((e) => e.type === 'stdout').map((e) => e.data as string).join('');
    expect(all).toBe(chunk.repeat(40));
  });

  it('logs output up to exactly the bound, and names the first byte past it', async () => {
    const t = setup();
    await t.services.put('edge', svc('yes'));
    await logsLanded();
    const disk = slowDisk(t);
    const p = t.engine.last('yes');
    const line = `${'e'.repeat(1023)}\n`;
    for (let i = 0; i < LOG_PENDING_MAX_BYTES / line.length; i++) p.out(line);
    disk.release();
    expect(await t.readLog('edge')).toBe(line.repeat(LOG_PENDING_MAX_BYTES / line.length));
    const again = slowDisk(t);
    for (let i = 0; i < LOG_PENDING_MAX_BYTES / line.length; i++) p.out(line);
    p.out('x\n');
    again.release();
    const log = await t.readLog('edge');
    expect(log).toBe(`${line.repeat((2 * LOG_PENDING_MAX_BYTES) / line.length)}[spritzer] 2 bytes of output were not logged: the service wrote faster than its log could be written\n`);
  });

  it('cuts lines at exactly the bound: whole pieces, no empty piece, the rest kept for the next output', async () => {
    const t = setup();
    t.watch('cut');
    await t.services.put('cut', svc('cat'));
    const p = t.engine.last('cat');
    const max = LOG_LINE_MAX_CHARS;
    p.out(`${'a'.repeat(2 * max)}\n`);
    p.out('b'.repeat(max));
    p.out(`${'b'.repeat(max + 3)}`);
    p.out('c\n');
    p.out('');
    p.out('\n');
    const got = t.events.filter((e) => e.type === 'stdout').map((e) => e.data as string);
    expect(got).toEqual(['a'.repeat(max), 'a'.repeat(max), 'b'.repeat(max), 'b'.repeat(max), 'bbbc', '']);
    expect(await t.readLog('cut')).toBe(`${got.join('\n')}\n`);
  });
});

describe('ServiceManager.logs of a log as large as the sprite makes it', () => {
  /** A service whose log file the sprite's code replaced with `text`; the reads of the log are recorded. */
  async function withLog(text: string) {
    const t = setup();
    await t.services.put('big', svc('sleep'));
    await logsLanded();
    t.vfs.writeFile('/.sprite/logs/services/big.log', text);
    const fs = (t.services as unknown as { deps: { machine: { fs: { readFile: (...a: any[]) => Promise<Uint8Array> } } } }).deps.machine.fs;
    const real = fs.readFile.bind(fs);
    const reads: number[] = [];
    fs.readFile = async (...a: any[]) => {
      const bytes = await real(...a);
      reads.push(bytes.length);
      return bytes;
    };
    return { t, reads };
  }

  it('reads only the last LOG_REPLY_MAX_BYTES, drops the line cut at its start, and says what it does not show', async () => {
    const line = `${'l'.repeat(999)}\n`;
    const count = 6 * 1024; // 6,144,000 bytes, over the window
    const { t, reads } = await withLog(Array.from({ length: count }, (_, i) => `${String(i).padStart(5, '0')}${line.slice(5)}`).join(''));
    const events = await t.services.logs('big');
    expect(reads).toEqual([LOG_REPLY_MAX_BYTES]);
    const shownLines = Math.floor(LOG_REPLY_MAX_BYTES / line.length);
    const skipped = count * line.length - shownLines * line.length;
    expect(events.length).toBe(shownLines + 1);
    expect(events[0]).toMatchObject({ type: 'stdout', data: `[spritzer] the first ${skipped} bytes of the log are not shown (a reply holds at most its last ${LOG_REPLY_MAX_LINES} lines and ${LOG_REPLY_MAX_BYTES} bytes); the whole log is /.sprite/logs/services/big.log` });
    expect(events[1].data).toBe(`${String(count - shownLines).padStart(5, '0')}${line.slice(5, -1)}`);
    expect(events.at(-1)!.data).toBe(`${String(count - 1).padStart(5, '0')}${line.slice(5, -1)}`);
    // Asking for fewer lines than the window holds: exactly those, and nothing to say.
    expect((await t.services.logs('big', 2)).map((e) => e.data!.slice(0, 5))).toEqual([String(count - 2).padStart(5, '0'), String(count - 1).padStart(5, '0')]);
  });

  it('past the byte window and the line cap both, says the lines it leaves out are those after the skipped bytes', async () => {
    const { t } = await withLog('x\n'.repeat(LOG_REPLY_MAX_BYTES));
    const events = await t.services.logs('big');
    const window = LOG_REPLY_MAX_BYTES / 2 - 1; // the lines read (the one cut at the window's start is dropped)
    expect(events[0].data).toBe(`[spritzer] the first ${LOG_REPLY_MAX_BYTES + 2} bytes of the log and the ${window - LOG_REPLY_MAX_LINES} lines after them are not shown (a reply holds at most its last ${LOG_REPLY_MAX_LINES} lines and ${LOG_REPLY_MAX_BYTES} bytes); the whole log is /.sprite/logs/services/big.log`);
  });

  it('shows at most LOG_REPLY_MAX_LINES lines, and names the lines it leaves out', async () => {
    const { t } = await withLog('x\n'.repeat(LOG_REPLY_MAX_LINES + 7));
    const events = await t.services.logs('big');
    expect(events.length).toBe(LOG_REPLY_MAX_LINES + 1);
    expect(events[0].data).toBe(`[spritzer] the first 7 lines of the log are not shown (a reply holds at most its last ${LOG_REPLY_MAX_LINES} lines and ${LOG_REPLY_MAX_BYTES} bytes); the whole log is /.sprite/logs/services/big.log`);
    expect(events.slice(1).every((e) => e.data === 'x' && e.type === 'stdout')).toBe(true);
    expect((await t.services.logs('big', LOG_REPLY_MAX_LINES + 7)).length).toBe(LOG_REPLY_MAX_LINES + 1);
    expect((await t.services.logs('big', LOG_REPLY_MAX_LINES)).length).toBe(LOG_REPLY_MAX_LINES);
  });

  it('a log that fits is read whole and shown whole, with no note', async () => {
    const { t, reads } = await withLog('a\n[stderr] b\n');
    expect((await t.services.logs('big')).map((e) => [e.type, e.data])).toEqual([['stdout', 'a'], ['stderr', 'b']]);
    expect(reads).toEqual([13]);
  });
});

describe('ServiceManager bounds and taps', () => {
  const LIMITS = { servicesMax: 2, serviceNeedsMax: 2, serviceDefinitionsMaxBytes: 100 };

  it('refuses a service past the per-sprite count and a needs list past its cap, naming the cap; replacing one is no new service', async () => {
    const t = setup(LIMITS);
    await t.services.put('a', svc('x'));
    await t.services.put('b', svc('x', { needs: ['a', 'a'] }));
    expect(kindOf(() => t.services.put('c', svc('x')))).toBe('service_invalid');
    expect(() => t.services.put('c', svc('x'))).toThrow('too many services: at most 2 per sprite');
    await t.services.put('b', svc('y'));
    expect(() => t.services.put('b', svc('x', { needs: ['a', 'a', 'a'] }))).toThrow('too many needs: 3 (at most 2)');
  });

  it('counts every string of a definition as execve counts a command line, all services together, a replaced one once', async () => {
    const t = setup({ ...LIMITS, servicesMax: 10 });
    // cmd 'x' (2) + args 'abc' (4) + env 'K=v' (4) + dir '/d' (3) = 13 bytes.
    await t.services.put('a', svc('x', { args: ['abc'], env: { K: 'v' }, dir: '/d' }));
    // 13 + 'y' (2) + 84 bytes of arg with its NUL + need 'a' (2) = 101: one over.
    expect(() => t.services.put('b', svc('y', { args: ['z'.repeat(83)], needs: ['a'] }))).toThrow(
      'service definitions too large: 101 bytes with this one, at most 100 per sprite',
    );
    await t.services.put('b', svc('y', { args: ['z'.repeat(82)], needs: ['a'] }));
    // Replacing `a` counts its new size in place of its old one: 87 + 13 fits, 87 + 14 does not.
    await t.services.put('a', svc('x', { args: ['abc'], env: { K: 'w' }, dir: '/e' }));
    expect(() => t.services.put('a', svc('x', { args: ['abcd'], env: { K: 'v' }, dir: '/d' }))).toThrow('101 bytes with this one');
    expect(() => t.services.put('c', svc('q'))).toThrow('service definitions too large');
  });

  it('starts a command with its log and taps its output only while someone listens', async () => {
    const t = setup();
    await t.services.put('quiet', svc('q'));
    expect(t.spawned.at(-1)!.log).toEqual({ path: '/.sprite/logs/services/quiet.log', tap: false });
    const stop = t.services.subscribe('quiet', () => undefined);
    const stop2 = t.services.subscribe('quiet', () => undefined);
    stop();
    expect(t.taps).toEqual([['q', true], ['q', true]]);
    stop2();
    expect(t.taps.at(-1)).toEqual(['q', false]);
    t.watch('loud');
    await t.services.put('loud', svc('l'));
    expect(t.spawned.at(-1)!.log).toEqual({ path: '/.sprite/logs/services/loud.log', tap: true });
    t.services.subscribe('never-defined', () => undefined)();
    expect(t.taps.filter(([c]) => c !== 'q')).toEqual([]);
  });
});
