import { describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { SequentialIds } from '../core/ids.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { SpritesModel, type Sprite } from './sprites.ts';
import { CheckpointHistory } from './checkpoint-history.ts';
import { ModelError } from '../core/errors.ts';
import { createEngine } from '../machines/memory/engines.ts';
import { MemoryMachineFactory, type MemoryMachine } from '../machines/memory/machine.ts';
import type { Machine, MachineSnapshot } from '../machines/port.ts';
import { factoryWith, kindOf } from '../../../test/support/model.ts';

// The automatic checkpoint a restore takes of the state it replaces (docs/wire-reference.md §7.2, §7.5): its id,
// fields and place in the list, its bounds, and how it persists.

/**
 * How a test machine departs from the memory machine: a failing snapshot, a failed boot, a restore held until
 * `holdRestore` resolves; what it snapshotted, released and was told to restore.
 */
interface Quirks {
  /** Snapshots reject: with this error, or `snapshot failed`. */
  failSnapshots?: boolean | Error;
  bootFailure?: string;
  holdRestore?: Promise<void>;
  snapshots: number;
  restores: number;
  released: MachineSnapshot[];
}

/** A model of in-memory sprites over a fake clock, with `limits` over the defaults and machines with `quirks`. */
function model(limits: Partial<Limits> = {}) {
  const clock = new FakeClock();
  clock.advance(1_776_191_193_888 - clock.now());
  const quirks: Quirks = { snapshots: 0, restores: 0, released: [] };
  const inner = new MemoryMachineFactory(createEngine('interpreter', { clock }), clock);
  const machines = factoryWith(inner, { create: async (spec) => withQuirks(await inner.create(spec), quirks) });
  const m = new SpritesModel({ clock, ids: new SequentialIds(), machines, organization: 'acme', publicUrl: 'https://sprites.app', limits: { ...DEFAULT_LIMITS, ...limits } });
  return { clock, m, quirks };
}

/** `machine` with the members `quirks` replace: the memory machine's own otherwise. */
function withQuirks(machine: Machine, quirks: Quirks): Machine {
  return new Proxy(machine, {
    get(target, prop) {
      if (prop === 'bootFailure' && quirks.bootFailure !== undefined) return quirks.bootFailure;
      if (prop === 'snapshot') {
        return () => {
          quirks.snapshots++;
          if (!quirks.failSnapshots) return target.snapshot();
          return Promise.reject(quirks.failSnapshots instanceof Error ? quirks.failSnapshots : new Error('snapshot failed'));
        };
      }
      if (prop === 'restore') {
        return async (snap: MachineSnapshot) => {
          quirks.restores++;
          await quirks.holdRestore;
          return target.restore(snap);
        };
      }
      if (prop === 'releaseSnapshot') return async (snap: MachineSnapshot) => void quirks.released.push(snap);
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const read = (s: Sprite, path: string) => new TextDecoder().decode((s.machine as MemoryMachine).vfs.readFile(path));
const write = (s: Sprite, path: string, text: string) => (s.machine as MemoryMachine).vfs.writeFile(path, text);
const ids = (cps: Array<{ id: string }>) => cps.map((c) => c.id);

describe('the automatic checkpoint a restore takes first', () => {
  it('holds the state the restore replaced: auto-<ms>, is_auto, a comment naming the restore, taken now, no v<n> used', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'box' });
    write(s, '/home/sprite/f', 'one');
    await s.createCheckpoint('base');
    write(s, '/home/sprite/f', 'two');
    clock.advance(5000);
    const t = clock.now();
    await s.restoreCheckpoint('v1');
    expect(read(s, '/home/sprite/f')).toBe('one');
    const auto = s.getCheckpoint(`auto-${t}`);
    expect({ ...auto, snapshot: undefined, history: auto.history.toArray() }).toStrictEqual({
      id: `auto-${t}`,
      createTime: t,
      comment: 'pre-restore of v1',
      sourceId: 'v1',
      history: ['v1'],
      isAuto: true,
      snapshot: undefined,
    });
    expect(s.currentCheckpointId).toBe('v1');
    expect(s.nextCheckpointNumber).toBe(2);
    expect((await s.createCheckpoint('next')).id).toBe('v2');

    // Restoring the automatic one brings the replaced state back, and takes another one first.
    await s.restoreCheckpoint(auto.id);
    expect(read(s, '/home/sprite/f')).toBe('two');
    expect(s.currentCheckpointId).toBe(auto.id);
    const second = s.listCheckpoints({ includeAuto: true })[0];
    expect([second.id, second.createTime, second.comment, second.isAuto, second.sourceId]).toStrictEqual([`auto-${t + 1}`, t + 1, `pre-restore of ${auto.id}`, true, 'v2']);
    const v3 = await s.createCheckpoint('');
    expect([v3.id, v3.sourceId, v3.history.toArray()]).toStrictEqual(['v3', auto.id, ['v1', auto.id]]);
  });

  it('is hidden from the default list, listed newest first with includeAuto, found by id, and deletable unless current', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'box' });
    await s.createCheckpoint('a');
    clock.advance(10);
    await s.createCheckpoint('b');
    clock.advance(10);
    await s.restoreCheckpoint('v1');
    const auto = `auto-${clock.now()}`;
    expect(ids(s.listCheckpoints({ includeAuto: false }))).toStrictEqual(['v2', 'v1']);
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([auto, 'v2', 'v1']);
    expect(s.getCheckpoint(auto).isAuto).toBe(true);
    s.deleteCheckpoint(auto);
    expect(kindOf(() => s.getCheckpoint(auto))).toBe('checkpoint_not_found');
    await s.restoreCheckpoint('v2');
    const next = s.listCheckpoints({ includeAuto: true })[0].id;
    await s.restoreCheckpoint(next);
    expect(kindOf(() => s.deleteCheckpoint(next))).toBe('checkpoint_current');
  });

  it('keeps the newest N per sprite, releasing the snapshots of the others; never the current one', async () => {
    const { clock, m, quirks } = model({ autoCheckpointsMax: 2 });
    const s = await m.create({ name: 'box' });
    await s.createCheckpoint('');
    const autos: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      autos.push(`auto-${clock.now()}`);
      await s.restoreCheckpoint('v1');
    }
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([autos[3], autos[2], 'v1']);
    expect(quirks.released).toHaveLength(2);
    // Restoring the older of the two kept takes a newer one: the restored one stays beyond N, being current.
    clock.advance(1000);
    await s.restoreCheckpoint(autos[2]);
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([`auto-${clock.now()}`, autos[3], autos[2], 'v1']);
    clock.advance(1000);
    await s.restoreCheckpoint('v1');
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([`auto-${clock.now()}`, `auto-${clock.now() - 1000}`, 'v1']);
    expect(quirks.released).toHaveLength(4);
  });

  it('goes when older than the max age, at the next list or lookup on the clock', async () => {
    const { clock, m } = model({ autoCheckpointMaxAgeMs: 60_000 });
    const s = await m.create({ name: 'box' });
    await s.createCheckpoint('');
    await s.restoreCheckpoint('v1');
    const auto = `auto-${clock.now()}`;
    clock.advance(60_000);
    expect(s.getCheckpoint(auto).id).toBe(auto);
    clock.advance(1);
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual(['v1']);
    expect(kindOf(() => s.getCheckpoint(auto))).toBe('checkpoint_not_found');
  });

  it('ids never repeat: two restores in one millisecond get the next one', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'box' });
    await s.createCheckpoint('');
    await s.restoreCheckpoint('v1');
    await s.restoreCheckpoint('v1');
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([`auto-${clock.now() + 1}`, `auto-${clock.now()}`, 'v1']);
  });

  it('is not taken with --auto-checkpoints 0: a restore snapshots nothing', async () => {
    const { m, quirks } = model({ autoCheckpointsMax: 0 });
    const s = await m.create({ name: 'box' });
    await s.createCheckpoint('');
    expect(s.takesAutoCheckpoints).toBe(false);
    await s.restoreCheckpoint('v1');
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual(['v1']);
    expect([quirks.snapshots, quirks.released.length]).toStrictEqual([1, 0]);
  });

  it('one a restore is under way to stays while the bounds apply meanwhile, and is current afterwards', async () => {
    const { clock, m, quirks } = model({ autoCheckpointsMax: 1 });
    const s = await m.create({ name: 'box' });
    write(s, '/home/sprite/f', 'one');
    await s.createCheckpoint('');
    write(s, '/home/sprite/f', 'two');
    await s.restoreCheckpoint('v1');
    const old = `auto-${clock.now()}`;
    clock.advance(1000);
    let release!: () => void;
    quirks.holdRestore = new Promise((r) => (release = r));
    const restoring = s.restoreCheckpoint(old);
    while (quirks.restores < 2) await new Promise((r) => setImmediate(r));
    // The newer one (taken by this restore) is within the bound; the old one is kept because it is being restored.
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([`auto-${clock.now()}`, old, 'v1']);
    release();
    await restoring;
    expect(read(s, '/home/sprite/f')).toBe('two');
    expect(s.currentCheckpointId).toBe(old);
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([`auto-${clock.now()}`, old, 'v1']);
    expect(quirks.released).toHaveLength(0);
  });

  it('a snapshot that fails fails the restore and replaces nothing; a sprite that failed to boot is restored without one', async () => {
    const { m, quirks } = model();
    const s = await m.create({ name: 'box' });
    write(s, '/home/sprite/f', 'one');
    await s.createCheckpoint('');
    write(s, '/home/sprite/f', 'two');
    quirks.failSnapshots = true;
    await expect(s.restoreCheckpoint('v1')).rejects.toThrow('snapshot failed');
    expect(read(s, '/home/sprite/f')).toBe('two');
    quirks.bootFailure = 'sh is gone';
    await s.restoreCheckpoint('v1');
    expect(read(s, '/home/sprite/f')).toBe('one');
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual(['v1']);
  });

  it('a sprite whose checkpoints fill its disk quota is restored without one; a checkpoint is refused, none listed', async () => {
    const { m, quirks } = model();
    const s = await m.create({ name: 'box' });
    write(s, '/home/sprite/f', 'one');
    await s.createCheckpoint('');
    write(s, '/home/sprite/f', 'two');
    quirks.failSnapshots = new ModelError('checkpoint_no_space', 'no space left on device');
    await expect(s.createCheckpoint('')).rejects.toMatchObject({ kind: 'checkpoint_no_space' });
    await s.restoreCheckpoint('v1');
    expect(read(s, '/home/sprite/f')).toBe('one');
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual(['v1']);
  });

  it('persists: a sprite rebuilt with automatic checkpoints never reuses their ids, even with the clock behind', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'box' });
    const snapshot = await s.machine.snapshot();
    const later = clock.now() + 60_000;
    s.restorePersisted({
      checkpoints: [
        { id: 'v1', createTime: 1, comment: '', sourceId: null, history: CheckpointHistory.EMPTY, isAuto: false, snapshot },
        { id: `auto-${later}`, createTime: later, comment: 'pre-restore of v1', sourceId: 'v1', history: CheckpointHistory.EMPTY.append('v1'), isAuto: true, snapshot },
      ],
      currentCheckpointId: 'v1',
      nextCheckpoint: 2,
      updatedAt: 1,
    });
    await s.restoreCheckpoint('v1');
    expect(ids(s.listCheckpoints({ includeAuto: true }))).toStrictEqual([`auto-${later + 1}`, `auto-${later}`, 'v1']);
  });
});
