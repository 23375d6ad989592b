import { describe, it, expect } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { TaskRegistry, parseExpire, TASKS_MAX, TASK_NAME_MAX_LENGTH } from './tasks.ts';
import { kindOf } from '../../../test/support/model.ts';

function setup() {
  const clock = new FakeClock();
  let changes = 0;
  const tasks = new TaskRegistry({ clock, onChange: () => changes++ });
  return { clock, tasks, changes: () => changes };
}

describe('TaskRegistry', () => {
  it('creates a task with started and expiry times from the clock', () => {
    const { clock, tasks } = setup();
    const t0 = clock.now();
    expect(tasks.create('agent', '1h')).toEqual({ name: 'agent', startedAt: t0, expiresAt: t0 + 3_600_000 });
    expect(tasks.get('agent').expiresAt).toBe(t0 + 3_600_000);
    expect(tasks.hasLiveTasks()).toBe(true);
    expect(tasks.busy()).toBe(true);
  });

  it('accepts integer seconds', () => {
    const { clock, tasks } = setup();
    expect(tasks.create('a', 90).expiresAt).toBe(clock.now() + 90_000);
  });

  it('refuses a second live task of the same name', () => {
    const { tasks } = setup();
    tasks.create('agent', '10m');
    expect(kindOf(() => tasks.create('agent', '10m'))).toBe('task_exists');
  });

  it('lets a name be reused once its task expired', () => {
    const { clock, tasks } = setup();
    tasks.create('agent', '1s');
    clock.advance(1000);
    expect(() => tasks.create('agent', '1s')).not.toThrow();
  });

  it('makes a task vanish when it expires, not before', () => {
    const { clock, tasks, changes } = setup();
    tasks.create('agent', '30s');
    clock.advance(29_999);
    expect(tasks.list().map((t) => t.name)).toEqual(['agent']);
    const before = changes();
    clock.advance(1);
    expect(tasks.list()).toEqual([]);
    expect(kindOf(() => tasks.get('agent'))).toBe('task_not_found');
    expect(tasks.hasLiveTasks()).toBe(false);
    expect(changes()).toBe(before + 1);
    expect(clock.pending()).toBe(0);
  });

  it('upserts: creates, then refreshes the lease keeping started_at', () => {
    const { clock, tasks } = setup();
    const t0 = clock.now();
    expect(tasks.upsert('agent', '1m').created).toBe(true);
    clock.advance(50_000);
    const { task, created } = tasks.upsert('agent', '1m');
    expect(created).toBe(false);
    expect(task).toEqual({ name: 'agent', startedAt: t0, expiresAt: t0 + 50_000 + 60_000 });
    clock.advance(59_999);
    expect(tasks.hasLiveTasks()).toBe(true);
    clock.advance(1);
    expect(tasks.hasLiveTasks()).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it('refreshes only live tasks', () => {
    const { clock, tasks } = setup();
    expect(kindOf(() => tasks.refresh('ghost', '1m'))).toBe('task_not_found');
    tasks.create('agent', '10s');
    clock.advance(9_000);
    expect(tasks.refresh('agent', '10s').expiresAt).toBe(clock.now() + 10_000);
    clock.advance(9_000);
    expect(tasks.hasLiveTasks()).toBe(true);
  });

  it('lists tasks by name', () => {
    const { tasks } = setup();
    tasks.create('b', '1m');
    tasks.create('a', '2m');
    expect(tasks.list().map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('deletes a task and its timer; unknown names are task_not_found', () => {
    const { clock, tasks } = setup();
    tasks.create('agent', '1m');
    tasks.delete('agent');
    expect(tasks.hasLiveTasks()).toBe(false);
    expect(clock.pending()).toBe(0);
    expect(kindOf(() => tasks.delete('agent'))).toBe('task_not_found');
  });

  it('clears every task and timer', () => {
    const { clock, tasks } = setup();
    tasks.create('a', '1m');
    tasks.create('b', '1m');
    tasks.clear();
    expect(tasks.list()).toEqual([]);
    expect(clock.pending()).toBe(0);
  });

  it('hands out copies', () => {
    const { tasks } = setup();
    tasks.create('a', '1m').expiresAt = 0;
    expect(tasks.get('a').expiresAt).not.toBe(0);
  });

  it.each<[string, unknown]>([
    ['more than 1 h', '1h0m1s'],
    ['3601 seconds', 3601],
    ['zero', '0'],
    ['garbage', 'soon'],
    ['missing', undefined],
  ])('rejects an expire that is %s', (_, expire) => {
    const { tasks } = setup();
    expect(kindOf(() => tasks.create('a', expire as string))).toBe('invalid');
    expect(tasks.hasLiveTasks()).toBe(false);
  });

  it('rejects an empty name', () => {
    const { tasks } = setup();
    expect(kindOf(() => tasks.create(' ', '1m'))).toBe('invalid');
  });
});

describe('parseExpire', () => {
  it('accepts exactly one hour', () => {
    expect(parseExpire('1h')).toBe(3_600_000);
    expect(parseExpire(3600)).toBe(3_600_000);
  });
});

describe('TaskRegistry, in detail', () => {
  it('reports every change of the live set, and none for a clear of nothing', () => {
    const { clock, tasks, changes } = setup();
    tasks.clear();
    expect(changes()).toBe(0);
    tasks.create('a', '1m');
    tasks.upsert('a', '1m');
    tasks.upsert('b', '1m');
    tasks.refresh('a', '2m');
    tasks.delete('b');
    expect(changes()).toBe(5);
    clock.advance(120_000);
    expect(changes()).toBe(6);
    tasks.create('c', '1m');
    tasks.clear();
    expect(changes()).toBe(8);
    expect(tasks.busy()).toBe(false);
  });

  it('restarts the lease on refresh and upsert, leaving one timer per task', () => {
    const { clock, tasks } = setup();
    const t0 = clock.now();
    tasks.create('a', '10s');
    clock.advance(5000);
    expect(tasks.refresh('a', '10s')).toStrictEqual({ name: 'a', startedAt: t0, expiresAt: t0 + 15_000 });
    expect(clock.pending()).toBe(1);
    clock.advance(9999);
    expect(tasks.get('a').name).toBe('a');
    clock.advance(1);
    expect(kindOf(() => tasks.get('a'))).toBe('task_not_found');
    expect(tasks.upsert('a', 5)).toStrictEqual({ task: { name: 'a', startedAt: clock.now(), expiresAt: clock.now() + 5000 }, created: true });
  });

  it('lists copies in byte order of their names', () => {
    const { tasks } = setup();
    for (const n of ['b', 'B', 'a']) tasks.create(n, '1m');
    const list = tasks.list();
    expect(list.map((t) => t.name)).toStrictEqual(['B', 'a', 'b']);
    list[0]!.expiresAt = 0;
    expect(tasks.get('B').expiresAt).not.toBe(0);
  });

  it('names the task in its errors', () => {
    const { tasks } = setup();
    tasks.create('agent', '1m');
    expect(() => tasks.create('agent', '1m')).toThrow('task already exists: agent');
    expect(() => tasks.get('ghost')).toThrow('task not found: ghost');
    expect(() => tasks.delete('ghost')).toThrow('task not found: ghost');
  });

  it.each([undefined, null, 42])('refuses a name that is not a non-empty string: %j', (name) => {
    const { tasks } = setup();
    expect(() => tasks.create(name as unknown as string, '1m')).toThrow('task name is required');
    expect(kindOf(() => tasks.upsert(name as unknown as string, '1m'))).toBe('invalid');
    expect(kindOf(() => tasks.create('', '1m'))).toBe('invalid');
    expect(tasks.list()).toStrictEqual([]);
  });

  it('checks expire before the name is taken, and leaves a live task alone on a bad refresh', () => {
    const { tasks, clock } = setup();
    const t = tasks.create('a', '1m');
    expect(kindOf(() => tasks.refresh('a', '2h'))).toBe('invalid');
    expect(kindOf(() => tasks.upsert('a', 0))).toBe('invalid');
    expect(tasks.get('a')).toStrictEqual(t);
    expect(clock.pending()).toBe(1);
  });
});

describe('parseExpire, in detail', () => {
  it.each<[unknown, string]>([
    [undefined, 'expire is required'],
    [null, 'expire is required'],
    ['0s', 'expire must be positive: "0s"'],
    [0, 'expire must be positive: 0'],
    ['3601s', 'expire must be at most 1h: "3601s"'],
    [3600.001, 'expire must be at most 1h: 3600.001'],
  ])('refuses %j: %s', (expire, message) => {
    expect(() => parseExpire(expire as string)).toThrow(message);
    expect(kindOf(() => parseExpire(expire as string))).toBe('invalid');
  });

  it('accepts the smallest positive lease', () => {
    expect(parseExpire('1ms')).toBe(1);
  });
});

describe('TaskRegistry without a change callback', () => {
  it('creates, expires, deletes and shuts down all the same', () => {
    const clock = new FakeClock();
    const tasks = new TaskRegistry({ clock });
    tasks.create('a', '1s');
    tasks.upsert('b', '1m');
    clock.advance(1000);
    expect(tasks.list().map((t) => t.name)).toStrictEqual(['b']);
    tasks.delete('b');
    tasks.create('c', '1m');
    tasks.shutdown();
    expect(tasks.busy()).toBe(false);
    expect(clock.pending()).toBe(0);
  });
});

describe('TaskRegistry.restore (persistence hook, src/server/store)', () => {
  it('brings back a saved task with its times, expiring at the saved moment', () => {
    const { clock, tasks, changes } = setup();
    const t0 = clock.now();
    expect(tasks.restore({ name: 'lease', startedAt: t0 - 5_000, expiresAt: t0 + 60_000 })).toBe(true);
    expect(tasks.get('lease')).toEqual({ name: 'lease', startedAt: t0 - 5_000, expiresAt: t0 + 60_000 });
    expect(changes()).toBe(1);
    clock.advance(59_999);
    expect(tasks.list()).toHaveLength(1);
    clock.advance(1);
    expect(tasks.list()).toHaveLength(0);
  });

  it('drops a task that expired while the server was down, and never replaces a live one', () => {
    const { clock, tasks } = setup();
    const t0 = clock.now();
    expect(tasks.restore({ name: 'old', startedAt: t0 - 10, expiresAt: t0 })).toBe(false);
    expect(tasks.list()).toEqual([]);
    tasks.create('live', '1h');
    expect(tasks.restore({ name: 'live', startedAt: 1, expiresAt: t0 + 5 })).toBe(false);
    expect(tasks.get('live').expiresAt).toBe(t0 + 3_600_000);
  });
});

describe('TaskRegistry bounds (a sprite creates tasks through its in-sprite API)', () => {
  it('holds at most TASKS_MAX live tasks: one more is refused by create and upsert, a refresh still works', () => {
    const { tasks } = setup();
    for (let i = 0; i < TASKS_MAX; i++) tasks.create(`t${i}`, '1h');
    expect(kindOf(() => tasks.create('one-more', '1h'))).toBe('invalid');
    expect(kindOf(() => tasks.upsert('one-more', '1h'))).toBe('invalid');
    expect(() => tasks.create('one-more', '1h')).toThrow(`too many tasks: at most ${TASKS_MAX} per sprite`);
    expect(tasks.upsert('t0', '30m').created).toBe(false);
    tasks.delete('t1');
    expect(tasks.create('one-more', '1h').name).toBe('one-more');
    expect(tasks.list().length).toBe(TASKS_MAX);
  });

  it('refuses a name longer than TASK_NAME_MAX_LENGTH and keeps nothing of it', () => {
    const { tasks } = setup();
    expect(tasks.create('n'.repeat(TASK_NAME_MAX_LENGTH), '1h').name.length).toBe(TASK_NAME_MAX_LENGTH);
    const long = 'n'.repeat(TASK_NAME_MAX_LENGTH + 1);
    expect(kindOf(() => tasks.create(long, '1h'))).toBe('invalid');
    expect(kindOf(() => tasks.upsert(long, '1h'))).toBe('invalid');
    expect(tasks.list().length).toBe(1);
  });
});

