/**
 * Host id ranges of sandbox sprites: slots are distinct, the lowest free one is reused, a kept data dir gives each
 * sprite its range back, prune frees what no saved sprite names, and bad settings are refused naming the flag.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkIdRangeSettings, IdRanges, readLayerIds } from './id-ranges.ts';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'spritzer-ids-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('IdRanges', () => {
  it('gives each sprite a distinct range, the same one again for the same sprite, and reuses a freed slot', () =>
    withDir(async (dir) => {
      const ids = await IdRanges.open(dir, { base: 1 << 20, size: 65536 }, false);
      const [a, b, c] = await Promise.all([ids.allocate('a'), ids.allocate('b'), ids.allocate('c')]);
      expect(new Set([a, b, c]).size).toBe(3);
      expect([a, b, c].sort()).toEqual([1 << 20, (1 << 20) + 65536, (1 << 20) + 2 * 65536].sort());
      expect(await ids.allocate('b')).toBe(b);
      await ids.release('b');
      expect(await ids.allocate('d')).toBe(b);
    }));

  it('keeps the slots in the data dir for a kept run, and starts empty otherwise; prune frees the rest', () =>
    withDir(async (dir) => {
      const first = await IdRanges.open(dir, { base: 1 << 20, size: 65536 }, false);
      await first.allocate('x');
      const y = await first.allocate('y');
      const kept = await IdRanges.open(dir, { base: 1 << 20, size: 65536 }, true);
      expect(await kept.allocate('y')).toBe(y);
      await kept.prune((key) => key === 'y');
      expect(JSON.parse(await readFile(join(dir, 'id-ranges.json'), 'utf8')).slots).toEqual({ y: 1 });
      const fresh = await IdRanges.open(dir, { base: 1 << 20, size: 65536 }, false);
      expect(await fresh.allocate('z')).toBe(1 << 20);
    }));

  it('refuses a create when every range below 2^32 is taken', () =>
    withDir(async (dir) => {
      const ids = await IdRanges.open(dir, { base: 2 ** 32 - 2 * 65536 - 1, size: 65536 }, false);
      expect(ids.capacity).toBe(2);
      await ids.allocate('a');
      await ids.allocate('b');
      await expect(ids.allocate('c')).rejects.toThrow(/no free sandbox id range: all 2 from --sandbox-uid-base/);
    }));

  it('refuses settings that would reach the host’s own users or past 2^32, naming the flag', () => {
    expect(() => checkIdRangeSettings({ base: 1000, size: 65536 })).toThrow(/--sandbox-uid-base must be a whole number of at least 65536/);
    expect(() => checkIdRangeSettings({ base: 2 ** 32 - 10, size: 65536 })).toThrow(/leaves no room/);
    expect(() => checkIdRangeSettings({ base: 1 << 20, size: 1000 })).toThrow(/at least 65536 ids/);
  });

  it('reads a layer without ids.json as the older layout (host ids are the ids inside)', () =>
    withDir(async (dir) => {
      expect(await readLayerIds(dir)).toEqual({ layout: 1, hostBase: 0, size: 65536 });
    }));
});
