import { describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { SequentialIds } from '../core/ids.ts';
import { Sprite, SpritesModel } from './sprites.ts';
import { CheckpointHistory } from './checkpoint-history.ts';
import { createEngine } from '../machines/memory/engines.ts';
import { MemoryMachineFactory, type MemoryMachine } from '../machines/memory/machine.ts';
import { Vfs } from '../machines/memory/vfs.ts';
import { kindOf, kindOfAsync } from '../../../test/support/model.ts';

// The persistence hooks of the sprites model (src/server/store): a sprite rebuilt from a data dir goes back into
// the model with its checkpoints, current checkpoint, id counter and times.

function model() {
  const clock = new FakeClock();
  const machines = new MemoryMachineFactory(createEngine('interpreter', { clock }), clock);
  const m = new SpritesModel({ clock, ids: new SequentialIds(), machines, organization: 'acme', publicUrl: 'https://sprites.app' });
  return { clock, m, machines };
}

describe('persistence hooks', () => {
  it('adopts a rebuilt sprite: listed and found by name; a second one of that name is sprite_exists', async () => {
    const { clock, m, machines } = model();
    const vfs = Vfs.skeleton(() => clock.now());
    vfs.writeFile('/home/sprite/kept', 'yes');
    const machine = await machines.create({ name: 'back', id: 'sprite-x' }, { vfs });
    expect((machine as MemoryMachine).vfs).toBe(vfs);
    const s = new Sprite('sprite-x', 'back', 'acme', 123, 'https://back.example', { name: 'back', labels: ['l'] }, machine, clock);
    m.adopt(s);
    expect(m.get('back')).toBe(s);
    expect(m.list({}).sprites.map((x) => x.id)).toEqual(['sprite-x']);
    expect(kindOf(() => m.adopt(s))).toBe('sprite_exists');
    expect(await kindOfAsync(() => m.create({ name: 'back' }))).toBe('sprite_exists');
  });

  it('restores checkpoints, the current one, the id counter and updatedAt; the next checkpoint continues the ids', async () => {
    const { m } = model();
    const s = await m.create({ name: 'box' });
    expect(s.nextCheckpointNumber).toBe(1);
    const snapshot = await s.machine.snapshot();
    const history = CheckpointHistory.EMPTY.append('v4');
    s.restorePersisted({
      checkpoints: [{ id: 'v5', createTime: 9, comment: 'c', sourceId: 'v4', history, isAuto: false, snapshot }],
      currentCheckpointId: 'v5',
      nextCheckpoint: 7,
      updatedAt: 42,
    });
    expect(s.checkpoints.map((c) => c.id)).toEqual(['v5']);
    expect(s.currentCheckpointId).toBe('v5');
    expect(s.updatedAt).toBe(42);
    expect(s.nextCheckpointNumber).toBe(7);
    const next = await s.createCheckpoint('after');
    expect(next.id).toBe('v7');
    expect(next.sourceId).toBe('v5');
    expect(next.history.toArray()).toEqual(['v4', 'v5']);
    expect(s.nextCheckpointNumber).toBe(8);
  });
});
