import { describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { SequentialIds } from '../core/ids.ts';
import { SpritesModel, BOOT_AFTER_MS, WARM_AFTER_MS, COLD_AFTER_MS, MAX_PAGE_SIZE, type Sprite } from './sprites.ts';
import { createEngine } from '../machines/memory/engines.ts';
import { MemoryMachineFactory, type MemoryMachine } from '../machines/memory/machine.ts';
import type { MachineFactory } from '../machines/port.ts';
import { factoryWith, kindOf, kindOfAsync } from '../../../test/support/model.ts';

// The sprites model as the REST API exposes it (docs/wire-reference.md §3, §7, §11): fields of a new sprite, status
// over time, names, pages, updates, URLs and checkpoints.

function model(opts: { organization?: string; publicUrl?: string; machines?: (f: MachineFactory) => MachineFactory } = {}) {
  const clock = new FakeClock();
  const factory = new MemoryMachineFactory(createEngine('interpreter', { clock }), clock);
  const m = new SpritesModel({
    clock,
    ids: new SequentialIds(),
    machines: opts.machines ? opts.machines(factory) : factory,
    organization: opts.organization ?? 'acme',
    publicUrl: 'publicUrl' in opts ? opts.publicUrl : 'https://sprites.app',
  });
  return { clock, m };
}

const vfsOf = (s: Sprite) => (s.machine as MemoryMachine).vfs;

describe('a new sprite', () => {
  it('has its id, name, organization, times, labels, URL settings, config and environment', async () => {
    const { clock, m } = model();
    clock.advance(7000);
    const labels = ['x'];
    const s = await m.create({ name: 'box', labels, urlSettings: { auth: 'public' }, config: { cpus: 2 }, environment: { A: '1' } });
    labels.push('y');
    expect({
      id: s.id,
      name: s.name,
      organization: s.organization,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      labels: s.labels,
      urlSettings: s.urlSettings,
      config: s.config,
      environment: s.environment,
      lastActiveAt: s.lastActiveAt,
      lastStartedAt: s.lastStartedAt,
      currentCheckpointId: s.currentCheckpointId,
      checkpoints: s.checkpoints,
      status: s.status(),
    }).toStrictEqual({
      id: 'sprite-00000000-0000-4000-8000-000000000001',
      name: 'box',
      organization: 'acme',
      createdAt: clock.now(),
      updatedAt: clock.now(),
      labels: ['x'],
      urlSettings: { auth: 'public' },
      config: { cpus: 2 },
      environment: { A: '1' },
      lastActiveAt: null,
      lastStartedAt: null,
      currentCheckpointId: null,
      checkpoints: [],
      status: 'cold',
    });
    const plain = await m.create({ name: 'plain' });
    expect(plain.labels).toStrictEqual([]);
    expect(plain.urlSettings).toStrictEqual({ auth: 'sprite' });
    expect(m.all().map((x) => x.name)).toStrictEqual(['box', 'plain']);
  });

  it('has a URL built from the public URL and a stable organization suffix', async () => {
    expect((await model().m.create({ name: 'web' })).url).toBe('https://web-fmaff.sprites.app');
    expect((await model({ organization: 'personal', publicUrl: 'http://localhost:8080/' }).m.create({ name: 'web' })).url).toBe(
      'http://web-zvgmq.localhost:8080',
    );
    expect((await model({ organization: '', publicUrl: 'https://x.dev' }).m.create({ name: 'web' })).url).toBe('https://web-dewtr.x.dev');
  });

  it('without a public URL: the local path-routed URL on where spritzer listens, following it when it is set', async () => {
    const { m } = model({ publicUrl: undefined });
    const s = await m.create({ name: 'web' });
    expect(s.url).toBe('http://127.0.0.1:4290/s/web');
    m.localBase = 'http://127.0.0.1:5555';
    expect([s.url, m.urlFor('other')]).toEqual(['http://127.0.0.1:5555/s/web', 'http://127.0.0.1:5555/s/other']);
  });

  it('needs a DNS-label name that no other sprite has', async () => {
    const { m } = model();
    for (const good of ['a', '0', 'a-b', 'a--b', 'a'.repeat(63)]) await m.create({ name: good });
    for (const bad of ['a-', '-a', 'a.b', 'a'.repeat(64), ' a']) {
      expect(await kindOfAsync(() => m.create({ name: bad }))).toBe('invalid_sprite_name');
      await expect(m.create({ name: bad })).rejects.toThrow(`invalid sprite name: ${JSON.stringify(bad)}`);
    }
    await expect(m.create({ name: 'a' })).rejects.toThrow('a sprite named a already exists');
    expect(() => m.get('nope')).toThrow('sprite not found');
    expect(kindOf(() => m.get('nope'))).toBe('sprite_not_found');
  });

  it('asks the factory for a machine named and numbered as the sprite', async () => {
    const specs: unknown[] = [];
    const { m } = model({ machines: (f) => factoryWith(f, { create: (spec) => (specs.push(spec), f.create(spec)) }) });
    const s = await m.create({ name: 'x' });
    expect(specs).toMatchObject([{ name: 'x', id: s.id }]);
    expect(specs).toHaveLength(1);
  });

  it('frees its name when its machine cannot be created', async () => {
    let fail = true;
    const { m } = model({
      machines: (f) => factoryWith(f, { create: (spec) => (fail ? Promise.reject(new Error('no room')) : f.create(spec)) }),
    });
    await expect(m.create({ name: 'x' })).rejects.toThrow('no room');
    expect(kindOf(() => m.get('x'))).toBe('sprite_not_found');
    fail = false;
    expect((await m.create({ name: 'x' })).name).toBe('x');
  });
});

describe('status over time', () => {
  it('is running under 30 s idle, warm from 30 s, cold from 5 min', async () => {
    expect([WARM_AFTER_MS, COLD_AFTER_MS]).toStrictEqual([30_000, 300_000]);
    const { clock, m } = model();
    const s = await m.create({ name: 'a' });
    clock.advance(BOOT_AFTER_MS);
    s.touch();
    clock.advance(WARM_AFTER_MS - 1);
    expect(s.status()).toBe('running');
    clock.advance(1);
    expect(s.status()).toBe('warm');
    clock.advance(COLD_AFTER_MS - WARM_AFTER_MS - 1);
    expect(s.status()).toBe('warm');
    clock.advance(1);
    expect(s.status()).toBe('cold');
  });

  it('stays running while a task is live, whatever the idle time', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'a' });
    s.tasks.create('job', '1h');
    clock.advance(COLD_AFTER_MS * 2);
    expect(s.status()).toBe('running');
  });

  it('stays running while a command runs, and counts a command or a service as activity', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'a' });
    const session = s.sessions.start({ argv: ['sleep', '3600'], env: {}, dir: '/home/sprite', tty: false, rows: 24, cols: 80, stdin: true, detachable: true });
    clock.advance(COLD_AFTER_MS * 2);
    expect(s.status()).toBe('running');
    session.process.signal('KILL');
    await session.process.exit;
    await new Promise((r) => setImmediate(r));
    expect(s.lastActiveAt).toBe(clock.now());
    clock.advance(COLD_AFTER_MS);
    expect(s.status()).toBe('cold');
    await s.services.put('web', { cmd: 'sleep', args: ['3600'] });
    expect(s.lastActiveAt).toBe(clock.now());
    expect(s.status()).toBe('running');
  });

  it('records when it last started: on the first activity, and again only after it stopped running', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'a' });
    const t0 = clock.now();
    s.touch();
    expect([s.lastStartedAt, s.lastActiveAt]).toStrictEqual([t0, t0]);
    clock.advance(10_000);
    s.touch();
    expect([s.lastStartedAt, s.lastActiveAt]).toStrictEqual([t0, t0 + 10_000]);
    clock.advance(WARM_AFTER_MS);
    s.touch();
    expect([s.lastStartedAt, s.lastActiveAt]).toStrictEqual([clock.now(), clock.now()]);
  });
});

describe('org counters', () => {
  const recount = (m: SpritesModel) => {
    const counts = { running: 0, warm: 0, cold: 0 };
    for (const s of m.all()) counts[s.status()] += 1;
    return counts;
  };

  it('follow creates, boots, activity, tasks, idle time and deletes, asked once or many times', async () => {
    const { clock, m } = model();
    await m.create({ name: 'a' });
    const [b, c] = [await m.create({ name: 'b' }), await m.create({ name: 'c' })];
    const seen: Array<Record<string, number>> = [];
    const look = () => {
      expect(m.orgCounts()).toStrictEqual(recount(m));
      expect(m.orgCounts()).toStrictEqual(recount(m));
      seen.push(m.orgCounts());
    };
    look();
    clock.advance(BOOT_AFTER_MS);
    look();
    clock.advance(WARM_AFTER_MS);
    look();
    b.touch();
    look();
    c.tasks.create('job', '1h');
    look();
    clock.advance(COLD_AFTER_MS - WARM_AFTER_MS);
    look();
    await m.delete('b');
    look();
    expect(seen).toStrictEqual([
      { running: 0, warm: 0, cold: 3 },
      { running: 3, warm: 0, cold: 0 },
      { running: 0, warm: 3, cold: 0 },
      { running: 1, warm: 2, cold: 0 },
      { running: 2, warm: 1, cold: 0 },
      { running: 1, warm: 1, cold: 1 },
      { running: 1, warm: 0, cold: 1 },
    ]);
  });

  it('count a sprite whose machine stops booting as cold, and running again once it boots', async () => {
    let failure: string | undefined;
    const listeners = new Set<() => void>();
    const failing = (inner: MachineFactory) =>
      factoryWith(inner, {
        create: async (spec) => {
          const machine = await inner.create(spec);
          return new Proxy(machine, {
            get: (target, prop, receiver) => {
              if (prop === 'bootFailure') return failure;
              if (prop === 'onBootFailureChange') return (l: () => void) => (listeners.add(l), () => listeners.delete(l));
              return Reflect.get(target, prop, receiver);
            },
          });
        },
      });
    const { clock, m } = model({ machines: failing });
    await m.create({ name: 'a' });
    clock.advance(BOOT_AFTER_MS);
    expect(m.orgCounts()).toStrictEqual({ running: 1, warm: 0, cold: 0 });
    failure = 'the disk no longer boots';
    for (const l of listeners) l();
    expect(m.orgCounts()).toStrictEqual({ running: 0, warm: 0, cold: 1 });
    failure = undefined;
    for (const l of listeners) l();
    expect(m.orgCounts()).toStrictEqual({ running: 1, warm: 0, cold: 0 });
  });

  it('are counted once for every page of a listing while nothing changes, so listing all sprites is linear', async () => {
    const { clock, m } = model();
    for (let i = 0; i < 3 * MAX_PAGE_SIZE; i++) await m.create({ name: `s${i}` });
    clock.advance(BOOT_AFTER_MS);
    const sprites = m.all();
    let asked = 0;
    for (const s of sprites) {
      const statusAt = s.statusAt.bind(s);
      s.statusAt = (now) => (asked++, statusAt(now));
    }
    let token: string | undefined;
    let pages = 0;
    do {
      const page = m.list({ continuationToken: token });
      expect(m.orgCounts()).toStrictEqual({ running: sprites.length, warm: 0, cold: 0 });
      token = page.nextContinuationToken ?? undefined;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(asked).toBe(sprites.length);
  });

  it('look at each sprite only as its own status changes while a listing crosses their boots one after another', async () => {
    const { clock, m } = model();
    for (let i = 0; i < 3 * MAX_PAGE_SIZE; i++) {
      await m.create({ name: `s${String(i).padStart(3, '0')}` });
      clock.advance(1);
    }
    const sprites = m.all();
    let asked = 0;
    for (const s of sprites) {
      const statusAt = s.statusAt.bind(s);
      s.statusAt = (now) => (asked++, statusAt(now));
    }
    // Half-way through their boots (created 1 ms apart): every page, a ms later, sees more of them booted.
    clock.advance(BOOT_AFTER_MS - sprites.length / 2);
    let token: string | undefined;
    const running: number[] = [];
    do {
      const page = m.list({ continuationToken: token, maxResults: 5 });
      const counts = m.orgCounts();
      expect(counts).toStrictEqual(recount(m));
      running.push(counts.running);
      token = page.nextContinuationToken ?? undefined;
      clock.advance(1);
    } while (token);
    expect(running.length).toBe(sprites.length / 5);
    expect(running[running.length - 1]!).toBeGreaterThan(running[0]!);
    // By the counters: each sprite read when first counted and at its boot (the test's own recount reads each once
    // per page).
    expect(asked - running.length * sprites.length).toBeLessThanOrEqual(2 * sprites.length);
  });
});

describe('list, update, delete', () => {
  it('clamps the page size to 1..50, and has more exactly when a name follows the page', async () => {
    expect(MAX_PAGE_SIZE).toBe(50);
    const { m } = model();
    for (let i = 0; i < 51; i++) await m.create({ name: `s${String(i).padStart(2, '0')}` });
    expect(m.list({}).sprites).toHaveLength(50);
    expect(m.list({ maxResults: 100 }).sprites).toHaveLength(50);
    expect(m.list({ maxResults: 0 }).sprites.map((s) => s.name)).toStrictEqual(['s00']);
    expect(m.list({ maxResults: -5 }).sprites).toHaveLength(1);
    const last = m.list({ maxResults: 2, continuationToken: m.list({ maxResults: 49 }).nextContinuationToken! });
    expect(last.sprites.map((s) => s.name)).toStrictEqual(['s49', 's50']);
    expect(last).toMatchObject({ hasMore: false, nextContinuationToken: null });
    expect(m.list({ continuationToken: '' }).sprites[0]!.name).toBe('s00');
  });

  it('lists in byte order of names, and a token resumes strictly after its name', async () => {
    const { m } = model();
    for (const n of ['b', 'a1', 'a-b', 'a']) await m.create({ name: n });
    const p1 = m.list({ maxResults: 1 });
    expect(p1.sprites.map((s) => s.name)).toStrictEqual(['a']);
    expect(p1.nextContinuationToken).toBe(Buffer.from('a').toString('base64url'));
    expect(m.list({ continuationToken: p1.nextContinuationToken! }).sprites.map((s) => s.name)).toStrictEqual(['a-b', 'a1', 'b']);
    expect(m.list({ prefix: 'a' }).sprites.map((s) => s.name)).toStrictEqual(['a', 'a-b', 'a1']);
  });

  it('refuses a token that does not name a sprite name', async () => {
    const { m } = model();
    for (const token of [Buffer.from('Not A Name').toString('base64url'), '=']) {
      expect(() => m.list({ continuationToken: token })).toThrow('invalid continuation_token');
      expect(kindOf(() => m.list({ continuationToken: token }))).toBe('invalid_request');
    }
  });

  it('updates URL settings and labels, each only when given, and stamps updatedAt', async () => {
    const { clock, m } = model();
    await m.create({ name: 'a', labels: ['one'] });
    clock.advance(1000);
    const settings = { auth: 'public' as const };
    const s = m.update('a', { urlSettings: settings });
    settings.auth = 'sprite' as never;
    expect([s.urlSettings, s.labels, s.updatedAt]).toStrictEqual([{ auth: 'public' }, ['one'], clock.now()]);
    expect(m.update('a', { clearLabels: true }).labels).toStrictEqual([]);
    expect(m.update('a', { clearLabels: true, labels: ['two'] }).labels).toStrictEqual(['two']);
    expect(m.update('a', {}).labels).toStrictEqual(['two']);
    expect(m.get('a').urlSettings).toStrictEqual({ auth: 'public' });
    expect(kindOf(() => m.update('nope', {}))).toBe('sprite_not_found');
  });

  it('delete and clear end what the sprites run', async () => {
    const { m } = model();
    const a = await m.create({ name: 'a' });
    const b = await m.create({ name: 'b' });
    a.tasks.create('job', '1h');
    b.tasks.create('job', '1h');
    await m.delete('a');
    expect(a.tasks.busy()).toBe(false);
    expect(await kindOfAsync(() => m.delete('a'))).toBe('sprite_not_found');
    await m.create({ name: 'c' });
    await m.clear();
    expect(b.tasks.busy()).toBe(false);
    expect(m.all()).toStrictEqual([]);
    expect(m.list({}).sprites).toStrictEqual([]);
  });

  it('a server shutdown keeps the disks of machines that can halt; delete and an admin reset destroy them', async () => {
    const calls: string[] = [];
    const { m } = model({
      machines: (f) =>
        factoryWith(f, {
          create: async (spec) => {
            const machine = await f.create(spec);
            const halting = spec.name !== 'plain';
            return Object.assign(machine, {
              destroy: async () => void calls.push(`destroy ${spec.name}`),
              ...(halting ? { halt: async () => void calls.push(`halt ${spec.name}`) } : {}),
            });
          },
        }),
    });
    await m.create({ name: 'kept' });
    await m.create({ name: 'plain' });
    await m.create({ name: 'gone' });
    await m.delete('gone');
    await m.clear({ keepDisks: true });
    expect(calls.sort()).toStrictEqual(['destroy gone', 'destroy plain', 'halt kept']);
    calls.length = 0;
    await m.create({ name: 'reset' });
    await m.clear();
    expect(calls).toStrictEqual(['destroy reset']);
  });
});

describe('checkpoints', () => {
  it('chain their sources and history, stamp the clock, and make the sprite running', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'cp' });
    clock.advance(1000);
    const v1 = await s.createCheckpoint('one');
    const v2 = await s.createCheckpoint('two');
    const v3 = await s.createCheckpoint('three');
    expect(s.status()).toBe('running');
    expect({ ...v1, snapshot: undefined, history: v1.history.toArray() }).toStrictEqual({
      id: 'v1',
      createTime: clock.now(),
      comment: 'one',
      sourceId: null,
      history: [],
      isAuto: false,
      snapshot: undefined,
    });
    expect([v2.sourceId, v2.history.toArray(), v3.sourceId, v3.history.toArray()]).toStrictEqual(['v1', ['v1'], 'v2', ['v1', 'v2']]);
    await s.restoreCheckpoint('v1');
    expect(s.currentCheckpointId).toBe('v1');
    const v4 = await s.createCheckpoint('four');
    expect([v4.id, v4.sourceId, v4.history.toArray()]).toStrictEqual(['v4', 'v1', ['v1']]);
    expect(s.getCheckpoint('v2')).toBe(v2);
    expect(() => s.getCheckpoint('v9')).toThrow('checkpoint not found: v9');
  });

  it('deletes any but the current one, which is checkpoint_current also as "Current"', async () => {
    const { m } = model();
    const s = await m.create({ name: 'cp' });
    expect(kindOf(() => s.deleteCheckpoint('Current'))).toBe('checkpoint_not_found');
    await s.createCheckpoint('');
    await s.createCheckpoint('');
    expect(kindOf(() => s.deleteCheckpoint('Current'))).toBe('checkpoint_current');
    expect(() => s.deleteCheckpoint('v2')).toThrow('cannot delete active checkpoint');
    expect(kindOf(() => s.deleteCheckpoint('v7'))).toBe('checkpoint_not_found');
    s.deleteCheckpoint('v1');
    expect(s.checkpoints.map((c) => c.id)).toStrictEqual(['v2']);
  });

  it('restore ends commands, brings the disk back, and makes the sprite running', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'r' });
    vfsOf(s).writeFile('/home/sprite/f', 'one');
    await s.createCheckpoint('');
    vfsOf(s).writeFile('/home/sprite/f', 'two');
    clock.advance(BOOT_AFTER_MS + COLD_AFTER_MS);
    expect(s.status()).toBe('cold');
    expect(await kindOfAsync(() => s.restoreCheckpoint('v5'))).toBe('checkpoint_not_found');
    await s.restoreCheckpoint('v1');
    expect(new TextDecoder().decode(vfsOf(s).readFile('/home/sprite/f'))).toBe('one');
    expect(s.status()).toBe('running');
  });

  it('restart keeps the files and makes the sprite running', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'r' });
    vfsOf(s).writeFile('/home/sprite/f', 'kept');
    clock.advance(COLD_AFTER_MS);
    await s.restart();
    expect(new TextDecoder().decode(vfsOf(s).readFile('/home/sprite/f'))).toBe('kept');
    expect(s.status()).toBe('running');
  });
});
