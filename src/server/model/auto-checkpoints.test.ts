import { describe, expect, it } from 'vitest';
import { autoCheckpointsToDrop, autoIdStamp, nextAutoId, preRestoreComment } from './auto-checkpoints.ts';

/** A checkpoint as the bounds see it: manual `v<n>` or automatic `auto-<t>`, taken at `t`. */
function cp(id: string, t: number) {
  return { id, createTime: t, isAuto: id.startsWith('auto-') };
}

const ids = (cs: Array<{ id: string }>) => cs.map((c) => c.id);

describe('automatic checkpoint ids', () => {
  it('are auto-<epoch ms>, and never repeat within a millisecond or when the clock steps back', () => {
    expect(nextAutoId(1776191193888, 0)).toStrictEqual({ id: 'auto-1776191193888', stamp: 1776191193888 });
    expect(nextAutoId(1776191193888.7, 0).id).toBe('auto-1776191193888');
    expect(nextAutoId(1000, 1000)).toStrictEqual({ id: 'auto-1001', stamp: 1001 });
    expect(nextAutoId(500, 1000)).toStrictEqual({ id: 'auto-1001', stamp: 1001 });
    expect(nextAutoId(2000, 1000).id).toBe('auto-2000');
  });

  it('give back the millisecond they name; other ids name none', () => {
    expect(autoIdStamp('auto-1776191193888')).toBe(1776191193888);
    for (const other of ['v3', 'Current', 'auto-', 'auto-12x', 'xauto-12', 'auto-12 ']) expect(autoIdStamp(other)).toBeUndefined();
  });

  it('carry a comment naming the restore they precede', () => {
    expect(preRestoreComment('v3')).toBe('pre-restore of v3');
    expect(preRestoreComment('auto-1001')).toBe('pre-restore of auto-1001');
  });
});

describe('autoCheckpointsToDrop', () => {
  const none = new Set<string>();

  it('keeps the newest `keep` automatic ones and never drops a manual one', () => {
    const all = [cp('v1', 1), cp('auto-2', 2), cp('auto-3', 3), cp('v2', 4), cp('auto-5', 5), cp('auto-6', 6)];
    expect(ids(autoCheckpointsToDrop(all, { keep: 2, maxAgeMs: 0 }, 10, none))).toStrictEqual(['auto-2', 'auto-3']);
    expect(ids(autoCheckpointsToDrop(all, { keep: 4, maxAgeMs: 0 }, 10, none))).toStrictEqual([]);
    expect(ids(autoCheckpointsToDrop(all, { keep: 0, maxAgeMs: 0 }, 10, none))).toStrictEqual(['auto-2', 'auto-3', 'auto-5', 'auto-6']);
  });

  it('drops those older than maxAgeMs (exactly maxAgeMs old stays); 0 sets no age bound', () => {
    const all = [cp('auto-100', 100), cp('auto-200', 200), cp('v1', 0)];
    expect(ids(autoCheckpointsToDrop(all, { keep: 5, maxAgeMs: 100 }, 300, none))).toStrictEqual(['auto-100']);
    expect(ids(autoCheckpointsToDrop(all, { keep: 5, maxAgeMs: 100 }, 301, none))).toStrictEqual(['auto-100', 'auto-200']);
    expect(ids(autoCheckpointsToDrop(all, { keep: 5, maxAgeMs: 0 }, 1e12, none))).toStrictEqual([]);
  });

  it('never drops a kept one (the current checkpoint, a restore under way), which still counts toward keep', () => {
    const all = [cp('auto-1', 1), cp('auto-2', 2), cp('auto-3', 3)];
    expect(ids(autoCheckpointsToDrop(all, { keep: 1, maxAgeMs: 0 }, 10, new Set(['auto-1'])))).toStrictEqual(['auto-2']);
    expect(ids(autoCheckpointsToDrop(all, { keep: 2, maxAgeMs: 0 }, 10, new Set(['auto-3'])))).toStrictEqual(['auto-1']);
    expect(ids(autoCheckpointsToDrop(all, { keep: 5, maxAgeMs: 5 }, 100, new Set(['auto-2', 'v9'])))).toStrictEqual(['auto-1', 'auto-3']);
  });
});
