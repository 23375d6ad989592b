import { describe, expect, it } from 'vitest';
import { FakeClock } from '../core/clock.ts';
import { SequentialIds } from '../core/ids.ts';
import { SpritesModel, BOOT_AFTER_MS, WARM_AFTER_MS, COLD_AFTER_MS } from './sprites.ts';
import { createEngine } from '../machines/memory/engines.ts';
import { MemoryMachineFactory, type MemoryMachine } from '../machines/memory/machine.ts';
import type { Sprite } from './sprites.ts';
import { kindOf as kind, kindOfAsync as kindAsync } from '../../../test/support/model.ts';

function model() {
  const clock = new FakeClock();
  const m = new SpritesModel({
    clock,
    ids: new SequentialIds(),
    machines: new MemoryMachineFactory(createEngine('interpreter', { clock }), clock),
    organization: 'acme',
    publicUrl: 'https://sprites.app',
  });
  return { clock, m };
}

/** The in-memory disk of a sprite of this model. */
function vfsOf(s: Sprite) {
  return (s.machine as MemoryMachine).vfs;
}

describe('SpritesModel', () => {
  it('status: create gives cold, the first boot (1 s) gives running, 30 s idle gives warm, later cold', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'a' });
    expect(s.status()).toBe('cold');
    expect(s.lastActiveAt).toBeNull();
    clock.advance(BOOT_AFTER_MS - 1);
    expect(s.status()).toBe('cold');
    clock.advance(1);
    expect(s.status()).toBe('running');
    expect(s.lastStartedAt).toBe(s.createdAt + BOOT_AFTER_MS);
    clock.advance(WARM_AFTER_MS);
    expect(s.status()).toBe('warm');
    clock.advance(COLD_AFTER_MS - WARM_AFTER_MS);
    expect(s.status()).toBe('cold');
  });

  it('status: activity gives running at once, also before the boot, and idle time counts from the later of the two', async () => {
    const { clock, m } = model();
    const s = await m.create({ name: 'a' });
    clock.advance(200);
    s.touch();
    expect(s.status()).toBe('running');
    expect(s.lastStartedAt).toBe(s.createdAt + 200);
    clock.advance(WARM_AFTER_MS - 200);
    // 30 s after the touch, but only 29.2 s after the boot completed.
    expect(s.status()).toBe('running');
    clock.advance(BOOT_AFTER_MS);
    expect(s.status()).toBe('warm');
    s.touch();
    expect(s.status()).toBe('running');
    expect(s.lastActiveAt).toBe(clock.now());
  });

  it('rejects a taken name (also while its machine boots) and names that are not DNS labels', async () => {
    const { m } = model();
    const booting = m.create({ name: 'b' });
    expect(await kindAsync(() => m.create({ name: 'b' }))).toBe('sprite_exists');
    await booting;
    await m.create({ name: 'a' });
    expect(await kindAsync(() => m.create({ name: 'a' }))).toBe('sprite_exists');
    for (const bad of ['A', '-a', 'a_b', 'a'.repeat(64), '']) expect(await kindAsync(() => m.create({ name: bad }))).toBe('invalid_sprite_name');
  });

  it('lists by name in pages; has_more exactly when a token is returned; bad tokens are rejected', async () => {
    const { m } = model();
    for (const n of ['c', 'a', 'b', 'x-1']) await m.create({ name: n });
    const p1 = m.list({ maxResults: 2 });
    expect(p1.sprites.map((s) => s.name)).toEqual(['a', 'b']);
    expect(p1.hasMore).toBe(true);
    const p2 = m.list({ maxResults: 2, continuationToken: p1.nextContinuationToken! });
    expect(p2.sprites.map((s) => s.name)).toEqual(['c', 'x-1']);
    expect(p2).toMatchObject({ hasMore: false, nextContinuationToken: null });
    expect(m.list({ maxResults: 100 }).sprites).toHaveLength(4);
    expect(m.list({ prefix: 'x' }).sprites.map((s) => s.name)).toEqual(['x-1']);
    expect(kind(() => m.list({ continuationToken: '!!!' }))).toBe('invalid_request');
  });

  it('checkpoints are immutable snapshots with ids never reused; the current one cannot be deleted', async () => {
    const { m } = model();
    const s = await m.create({ name: 'cp' });
    vfsOf(s).writeFile('/home/sprite/f', 'one');
    const v1 = await s.createCheckpoint('first');
    vfsOf(s).writeFile('/home/sprite/f', 'two');
    const v2 = await s.createCheckpoint('');
    expect([v1.id, v2.id]).toEqual(['v1', 'v2']);
    expect(v2).toMatchObject({ sourceId: 'v1' });
    expect(v2.history.toArray()).toEqual(['v1']);
    expect(kind(() => s.deleteCheckpoint('v2'))).toBe('checkpoint_current');
    await s.restoreCheckpoint('v1');
    expect(new TextDecoder().decode(vfsOf(s).readFile('/home/sprite/f'))).toBe('one');
    s.deleteCheckpoint('v2');
    expect(kind(() => s.getCheckpoint('v2'))).toBe('checkpoint_not_found');
    expect((await s.createCheckpoint('')).id).toBe('v3');
  });

  it('delete removes the sprite; a new sprite of that name has a new id and an empty filesystem', async () => {
    const { m } = model();
    const s = await m.create({ name: 'd' });
    vfsOf(s).writeFile('/home/sprite/x', 'x');
    await m.delete('d');
    expect(kind(() => m.get('d'))).toBe('sprite_not_found');
    const again = await m.create({ name: 'd' });
    expect(again.id).not.toBe(s.id);
    expect(vfsOf(again).exists('/home/sprite/x')).toBe(false);
  });

  it('builds sprite URLs from the public URL with a stable org suffix', async () => {
    const { m } = model();
    expect((await m.create({ name: 'web' })).url).toMatch(/^https:\/\/web-[a-z]{5}\.sprites\.app$/);
  });
});
