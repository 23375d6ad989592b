/**
 * Host id ranges of sandbox sprites: slots are distinct, the lowest free one is reused, a kept data dir gives each
 * sprite its range back, prune frees what no saved sprite names, and bad settings are refused naming the flag; a
 * layer's files move into a range, the sprite user's old uid 1000 to its 1001 (root needed for that part).
 */
import { describe, expect, it } from 'vitest';
import { lchown, lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkIdRangeSettings, IdRanges, LAYER_IDS_FILE, readLayerIds, shiftLayer } from './id-ranges.ts';

const ROOT = process.getuid?.() === 0;

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

  it.skipIf(!ROOT)('moves a layer of layout 2 into another range, the sprite user\'s old 1000 to 1001; a layer of layout 3 keeps 1000', () =>
    withDir(async (dir) => {
      const [from, to] = [200_000, 400_000];
      const files = { root: 0, old: 1000, other: 1001, far: 70_000 } as const;
      await mkdir(join(dir, 'root'));
      for (const [name, id] of Object.entries(files)) {
        await writeFile(join(dir, 'root', name), name);
        await lchown(join(dir, 'root', name), name === 'far' ? id : from + id, name === 'far' ? id : from + id);
      }
      await writeFile(join(dir, LAYER_IDS_FILE), JSON.stringify({ layout: 2, hostBase: from, size: 65536 }));
      await shiftLayer(dir, to, 65536);
      const owners = async () => Object.fromEntries(await Promise.all(Object.keys(files).map(async (n) => [n, [(await lstat(join(dir, 'root', n))).uid - to, (await lstat(join(dir, 'root', n))).gid - to]])));
      expect(await owners()).toEqual({ root: [0, 0], old: [1001, 1001], other: [1001, 1001], far: [65534, 65534] });
      expect(await readLayerIds(dir)).toEqual({ layout: 3, hostBase: to, size: 65536 });
      expect(await shiftLayer(dir, to, 65536)).toBe(0);
      await lchown(join(dir, 'root', 'old'), to + 1000, to + 1000);
      await shiftLayer(dir, from, 65536);
      expect((await lstat(join(dir, 'root', 'old'))).uid).toBe(from + 1000);
    }));

  it('refuses a layout it does not know, naming it', () =>
    withDir(async (dir) => {
      await writeFile(join(dir, LAYER_IDS_FILE), '{"layout":4,"hostBase":1,"size":65536}\n');
      await expect(readLayerIds(dir)).rejects.toThrow(/layout 4 is not one this spritzer knows \(3\)/);
    }));
});
