// The in-memory machine as the Machine port promises it (src/server/machines/port.ts): processes tracked until they
// exit, stop and restore end them, snapshots rewind the disk, the change feed follows the disk, no network.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock.ts';
import { Vfs } from './vfs.ts';
import type { EngineProcess, ExecEngine, SpriteContext } from './engine.ts';
import { MemoryMachine, MemoryMachineFactory, vfsMachineFs } from './machine.ts';
import type { ExecRequest, MachineSnapshot, VfsChange } from '../port.ts';

const SIGNAL_NUMBERS: Record<string, number> = { TERM: 15, KILL: 9, INT: 2 };

/** An engine whose processes run until signalled (exit 128 + n) or told to finish; it records what it was given. */
class ParkedEngine implements ExecEngine {
  readonly name = 'parked';
  readonly started: { ctx: SpriteContext; req: ExecRequest; proc: EngineProcess; finish: (code: number) => void }[] = [];
  readonly signals: string[] = [];

  start(ctx: SpriteContext, req: ExecRequest): EngineProcess {
    let finish!: (code: number) => void;
    const exit = new Promise<number>((resolve) => (finish = resolve));
    const proc: EngineProcess = {
      pid: ctx.allocatePid(),
      writeStdin: () => {},
      endStdin: () => {},
      resize: () => {},
      signal: (name) => {
        this.signals.push(name);
        finish(128 + (SIGNAL_NUMBERS[name] ?? 0));
      },
      exit,
    };
    this.started.push({ ctx, req, proc, finish });
    return proc;
  }
}

const request = (argv: string[]): ExecRequest => ({ argv, env: {}, dir: '/', tty: false, rows: 24, cols: 80 });
const io = { stdout: () => {}, stderr: () => {} };
const opts = { stdin: false };

function machine(engine: ExecEngine = new ParkedEngine(), extra: { vfs?: Vfs; allocatePid?: () => number } = {}) {
  return new MemoryMachine({ name: 'alpha', id: 'spr_1' }, engine, new FakeClock(), extra);
}

describe('MemoryMachine', () => {
  it('boots a Linux skeleton named after the sprite, unless given a disk', async () => {
    const m = machine();
    expect(new TextDecoder().decode(await m.fs.readFile('/etc/hostname'))).toBe('alpha\n');
    expect(new TextDecoder().decode(await m.fs.readFile('/etc/hostname', { offset: 1, length: 3 }))).toBe('lph');
    expect(new TextDecoder().decode(await m.fs.readFile('/etc/hostname', { offset: 4, length: 10 }))).toBe('a\n');
    expect((await m.fs.stat('/tmp')).type).toBe('directory');
    const given = Vfs.skeleton(() => 0);
    given.writeFile('/only', 'x');
    const adopted = machine(new ParkedEngine(), { vfs: given });
    expect(adopted.vfs).toBe(given);
    await expect(adopted.fs.stat('/etc/hostname')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names its engine and gives each process of the sprite the next pid', () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    expect(m.engine).toBe('parked');
    expect(m.kind).toBe('memory');
    const a = m.spawn(request(['a']), io, opts);
    const b = m.spawn(request(['b']), io, opts);
    expect([a.pid, b.pid]).toStrictEqual([1, 2]);
    expect(engine.started[0]!.ctx.name).toBe('alpha');
    expect(engine.started[0]!.ctx.vfs).toBe(m.vfs);
    const injected = machine(new ParkedEngine(), { allocatePid: () => 77 });
    expect(injected.spawn(request(['c']), io, opts).pid).toBe(77);
  });

  it('stop ends every live process with KILL and waits for their exits; finished ones are not signalled', async () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    const done = m.spawn(request(['done']), io, opts);
    engine.started[0]!.finish(0);
    await done.exit;
    await Promise.resolve();
    const a = m.spawn(request(['a']), io, opts);
    const b = m.spawn(request(['b']), io, opts);
    await m.stop();
    expect(await a.exit).toBe(137);
    expect(await b.exit).toBe(137);
    expect(engine.signals).toStrictEqual(['KILL', 'KILL']);
    await m.stop();
    expect(engine.signals).toHaveLength(2);
  });

  it('stop resolves only after a slow process has really exited', async () => {
    let exited = false;
    const slow: ExecEngine = {
      name: 'slow',
      start: (ctx) => {
        let finish!: (code: number) => void;
        const exit = new Promise<number>((resolve) => (finish = resolve));
        return {
          pid: ctx.allocatePid(),
          writeStdin: () => {},
          endStdin: () => {},
          resize: () => {},
          signal: () => setTimeout(() => ((exited = true), finish(137)), 20),
          exit,
        };
      },
    };
    const m = machine(slow);
    m.spawn(request(['a']), io, opts);
    await m.stop();
    expect(exited).toBe(true);
  });

  it("stamps its files with the machine's clock", async () => {
    const clock = new FakeClock(Date.UTC(2030, 1, 2, 3, 4, 5));
    const m = new MemoryMachine({ name: 'alpha', id: 'spr_1' }, new ParkedEngine(), clock);
    await m.fs.writeFile('/home/t', new TextEncoder().encode('t'));
    expect((await m.fs.stat('/home/t')).mtimeMs).toBe(Date.UTC(2030, 1, 2, 3, 4, 5));
  });

  it('refuses to spawn after destroy, and destroy ends what runs', async () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    const p = m.spawn(request(['a']), io, opts);
    await m.destroy();
    expect(await p.exit).toBe(137);
    expect(() => m.spawn(request(['b']), io, opts)).toThrow('machine destroyed');
    expect(engine.started).toHaveLength(1);
  });

  it('halts as it is destroyed (its disk lives in the process), and never boots badly or reboots by itself', async () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    expect(m.bootFailure).toBeUndefined();
    let rebooted = 0;
    const unsubscribe = m.onReboot(() => rebooted++);
    const p = m.spawn(request(['a']), io, opts);
    await m.halt();
    expect(await p.exit).toBe(137);
    expect(() => m.spawn(request(['b']), io, opts)).toThrow('machine destroyed');
    unsubscribe();
    expect(rebooted).toBe(0);
  });

  it('keeps nothing for an adoption and enforces no network policy, leaving its disk as it was', async () => {
    const m = machine();
    const before = m.vfs.snapshot();
    await expect(m.remember({ createdAt: 1, labels: ['x'] })).resolves.toBeUndefined();
    m.setNetworkPolicy({ rules: [{ domain: '*', action: 'deny' }] });
    expect(m.vfs.snapshot()).toBe(before);
  });

  it('snapshot and restore rewind the disk, ending the processes first', async () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    await m.fs.writeFile('/home/file', new TextEncoder().encode('v1'));
    const snap = await m.snapshot();
    expect(snap.kind).toBe('memory');
    await m.fs.writeFile('/home/file', new TextEncoder().encode('v2'));
    await m.fs.writeFile('/home/new', new TextEncoder().encode('n'));
    const p = m.spawn(request(['a']), io, opts);
    await m.restore(snap);
    expect(await p.exit).toBe(137);
    expect(new TextDecoder().decode(await m.fs.readFile('/home/file'))).toBe('v1');
    await expect(m.fs.stat('/home/new')).rejects.toMatchObject({ code: 'ENOENT' });
    await m.releaseSnapshot();
    await m.restore(snap);
    expect(new TextDecoder().decode(await m.fs.readFile('/home/file'))).toBe('v1');
  });

  it('refuses a snapshot of another machine kind, and keeps its disk', async () => {
    const m = machine();
    await m.fs.writeFile('/keep', new TextEncoder().encode('k'));
    const foreign = { kind: 'sandbox' } as MachineSnapshot;
    await expect(m.restore(foreign)).rejects.toThrow('cannot restore a sandbox snapshot on a memory machine');
    expect(new TextDecoder().decode(await m.fs.readFile('/keep'))).toBe('k');
  });

  it('has no network: connect is refused with ECONNREFUSED unless the engine dials', async () => {
    const m = machine();
    await expect(m.connect('localhost', 8080)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
      message: 'dial tcp localhost:8080: connect: connection refused',
    });
    // Go's error names an IPv6 address in brackets, as net.JoinHostPort writes it
    await expect(m.connect('::1', 8080)).rejects.toMatchObject({ message: 'dial tcp [::1]:8080: connect: connection refused' });
    expect(await m.listeningPorts()).toStrictEqual([]);
    const dialled: [string, string, number][] = [];
    const sentinel = {} as import('node:stream').Duplex;
    const dialing: ExecEngine = {
      ...new ParkedEngine(),
      name: 'dialing',
      start: () => {
        throw new Error('unused');
      },
      connect: async (ctx, host, port) => {
        dialled.push([ctx.name, host, port]);
        return sentinel;
      },
    };
    expect(await machine(dialing).connect('10.0.0.1', 22)).toBe(sentinel);
    expect(dialled).toStrictEqual([['alpha', '10.0.0.1', 22]]);
  });

  it('reports disk changes under the watched path until unsubscribed', async () => {
    const m = machine();
    await m.fs.mkdir('/w', { recursive: true });
    const seen: VfsChange[][] = [];
    const off = m.watch('/w', { recursive: true }, (changes) => seen.push(changes));
    await m.fs.writeFile('/w/a', new TextEncoder().encode('1'));
    await m.fs.writeFile('/elsewhere', new TextEncoder().encode('2'));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((c) => [c.path, c.event])).toStrictEqual([['/w/a', 'create']]);
    off();
    await m.fs.writeFile('/w/b', new TextEncoder().encode('3'));
    expect(seen).toHaveLength(1);
  });

  it('reports usage as the bytes and files of its disk', async () => {
    const m = machine();
    const before = await m.usage();
    await m.fs.writeFile('/home/ten', new TextEncoder().encode('0123456789'));
    const after = await m.usage();
    expect(after.bytes - before.bytes).toBe(10);
    expect(after.files - before.files).toBe(1);
  });
});

describe('MemoryMachine: what its engine reaches through the sprite context', () => {
  it('lists what it spawned and what its engine added (a background job) in its process table, and ends both at stop', async () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    const spawned = m.spawn({ ...request(['/usr/bin/python3', '-m', 'http.server']), tty: true }, io, opts);
    const ctx = engine.started[0]!.ctx;
    let finish!: (code: number) => void;
    const job = { pid: 77, ppid: spawned.pid, args: 'sleep 100', comm: 'sleep', startedAt: 5, tty: null, signal: () => finish(137), exit: new Promise<number>((r) => (finish = r)) };
    ctx.processes!.add(job);
    expect(m.processes.list().map((p) => [p.pid, p.ppid, p.comm, p.args, p.tty])).toEqual([
      [spawned.pid, 1, 'python3', '/usr/bin/python3 -m http.server', 'pts/0'],
      [77, spawned.pid, 'sleep', 'sleep 100', null],
    ]);
    await m.stop();
    expect(await job.exit).toBe(137);
    expect(await spawned.exit).toBe(137);
    expect(m.processes.list()).toEqual([]);
  });

  it('opens the in-sprite API to the last listener, with bytes both ways, and to none once it unsubscribed or the machine is gone', async () => {
    const engine = new ParkedEngine();
    const m = machine(engine);
    m.spawn(request(['sprite-env']), io, opts);
    const ctx = engine.started[0]!.ctx;
    expect(ctx.openApi!()).toBeUndefined();
    const first: import('node:stream').Duplex[] = [];
    const second: import('node:stream').Duplex[] = [];
    const offFirst = m.onApiConnection((c) => first.push(c));
    const offSecond = m.onApiConnection((c) => second.push(c));
    const inside = ctx.openApi!()!;
    expect(first).toHaveLength(0);
    expect(second).toHaveLength(1);
    const got = new Promise<string>((resolve) => second[0]!.once('data', (d: Buffer) => resolve(d.toString())));
    inside.write('GET /v1/services HTTP/1.1\r\n\r\n');
    expect(await got).toBe('GET /v1/services HTTP/1.1\r\n\r\n');
    const back = new Promise<string>((resolve) => inside.once('data', (d: Buffer) => resolve(d.toString())));
    second[0]!.write('HTTP/1.1 200 OK\r\n');
    expect(await back).toBe('HTTP/1.1 200 OK\r\n');
    offFirst(); // an older listener's unsubscribe leaves the current one in place
    expect(ctx.openApi!()).toBeDefined();
    expect(second).toHaveLength(2);
    offSecond();
    expect(ctx.openApi!()).toBeUndefined();
    m.onApiConnection(() => {});
    await m.destroy();
    expect(ctx.openApi!()).toBeUndefined();
  });
});

describe('vfsMachineFs', () => {
  it('with noFollow replaces a link at the path instead of writing through it, and refuses a link above it (ELOOP)', async () => {
    const vfs = Vfs.skeleton(() => 0);
    const fs = vfsMachineFs(vfs);
    await fs.writeFile('/tmp/target', new TextEncoder().encode('keep'));
    vfs.symlink('/tmp/target', '/tmp/link');
    await fs.writeFile('/tmp/link', new TextEncoder().encode('new'), { noFollow: true });
    expect((await fs.lstat('/tmp/link')).type).toBe('file');
    expect(new TextDecoder().decode(await fs.readFile('/tmp/link'))).toBe('new');
    expect(new TextDecoder().decode(await fs.readFile('/tmp/target'))).toBe('keep');
    // Without noFollow the write goes through the link, as a process's would.
    vfs.symlink('/tmp/target', '/tmp/link2');
    await fs.writeFile('/tmp/link2', new TextEncoder().encode('through'));
    expect(new TextDecoder().decode(await fs.readFile('/tmp/target'))).toBe('through');
    vfs.mkdir('/tmp/real');
    vfs.symlink('/tmp/real', '/tmp/dirlink');
    await expect(fs.writeFile('/tmp/dirlink/f', new TextEncoder().encode('x'), { noFollow: true })).rejects.toMatchObject({ code: 'ELOOP', path: '/tmp/dirlink' });
    await expect(fs.stat('/tmp/real/f')).rejects.toMatchObject({ code: 'ENOENT' });
    // Missing parents are made as asked; nothing to replace on the way.
    await fs.writeFile('/tmp/new/dir/f', new TextEncoder().encode('made'), { noFollow: true, mkdirParents: true });
    expect(new TextDecoder().decode(await fs.readFile('/tmp/new/dir/f'))).toBe('made');
    await fs.writeFile('/tmp/plain', new TextEncoder().encode('a'), { noFollow: true });
    expect(new TextDecoder().decode(await fs.readFile('/tmp/plain'))).toBe('a');
  });

  it('answers with the stat of what it wrote and the sizes of what it copied', async () => {
    const vfs = Vfs.skeleton(() => 0);
    const fs = vfsMachineFs(vfs);
    const st = await fs.writeFile('/a', new TextEncoder().encode('abc'));
    expect(st).toMatchObject({ type: 'file', size: 3 });
    await fs.mkdir('/d/e', { recursive: true });
    await fs.writeFile('/d/e/f', new TextEncoder().encode('12345'));
    const copied = await fs.copy('/d', '/c', { recursive: true });
    const sizes = Object.fromEntries(copied.map((c) => [c.dest, c.size]));
    expect(sizes).toMatchObject({ '/c': 0, '/c/e': 0, '/c/e/f': 5 });
    await fs.chmod('/a', 0o600);
    expect((await fs.lstat('/a')).mode & 0o777).toBe(0o600);
    await fs.chown('/a', 4242, 4343);
    expect(await fs.stat('/a')).toMatchObject({ uid: 4242, gid: 4343 });
    await fs.rename('/a', '/b');
    expect((await fs.readdir('/', {})).map((e) => e.name).sort()).toStrictEqual(['b', 'c', 'd', 'home', 'tmp']);
    await fs.rm('/d', { recursive: true });
    expect((await fs.readdir('/c', { recursive: true })).map((e) => e.name).sort()).toStrictEqual(['e', 'f']);
    await expect(fs.stat('/d')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('MemoryMachineFactory', () => {
  it('creates machines on its engine, with structural snapshots, on a given disk when asked', async () => {
    const engine = new ParkedEngine();
    const factory = new MemoryMachineFactory(engine, new FakeClock());
    expect(factory.engine).toBe('parked');
    expect(factory.snapshotMode).toBe('structural');
    const m = await factory.create({ name: 'beta', id: 'spr_2', diskQuotaBytes: 64 * 1024 });
    expect(new TextDecoder().decode(await m.fs.readFile('/etc/hostname'))).toBe('beta\n');
    await expect(m.fs.writeFile('/home/big', new Uint8Array(64 * 1024))).rejects.toMatchObject({ code: 'ENOSPC' });
    const vfs = Vfs.skeleton(() => 0);
    expect((await factory.create({ name: 'gamma', id: 'spr_3' }, { vfs })).vfs).toBe(vfs);
    await factory.close();
  });

  it('has nothing to adopt or let go of at a restart, and saves its disks through its own persistence', async () => {
    const factory = new MemoryMachineFactory(new ParkedEngine(), new FakeClock());
    expect(await factory.adoptExisting()).toEqual([]);
    expect(() => factory.detach()).not.toThrow();
    expect(factory.persistence).toBeDefined();
    await expect(factory.warm()).resolves.toBeUndefined();
  });
});

describe('MemoryMachineFactory with an engine loader', () => {
  it('names the engine at once and asks its loader only when a machine (or warm) needs it', async () => {
    let loads = 0;
    const started: string[] = [];
    const engine: ExecEngine = {
      name: 'shell',
      start: (_sprite, req) => {
        started.push(req.argv.join(' '));
        return { pid: 1, exit: Promise.resolve(0), writeStdin() {}, endStdin() {}, resize() {}, signal() {} };
      },
    };
    const factory = new MemoryMachineFactory({ name: 'shell', load: async () => (loads++, engine) }, new FakeClock());
    expect(factory.engine).toBe('shell');
    expect(loads).toBe(0);
    await factory.warm();
    const machine = await factory.create({ name: 'lazy' } as never);
    await factory.create({ name: 'lazy2' } as never);
    expect(loads).toBe(3); // warm + two creates ask; engineLoader (machines/memory/load.ts) memoises the import
    const proc = machine.spawn({ argv: ['echo', 'hi'], env: {}, dir: '/home/sprite', tty: false } as unknown as ExecRequest, { stdout() {}, stderr() {} } as never, { stdin: false });
    expect(await proc.exit).toBe(0);
    expect(started).toEqual(['echo hi']);
  });

  it('fails a create, not the server, when the engine cannot load', async () => {
    const factory = new MemoryMachineFactory({ name: 'shell', load: async () => { throw new Error('no engine'); } }, new FakeClock());
    await expect(factory.create({ name: 'x' } as never)).rejects.toThrow('no engine');
    await expect(factory.warm()).rejects.toThrow('no engine');
  });
});
