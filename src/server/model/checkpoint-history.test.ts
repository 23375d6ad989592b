import { describe, expect, it } from 'vitest';
import { CheckpointHistory, withAncestor } from './checkpoint-history.ts';

/** A chain v1 → v2 → … → vN as the model builds it: each history is the parent's plus the parent's id. */
function chain(n: number): Array<{ id: string; history: CheckpointHistory }> {
  const out: Array<{ id: string; history: CheckpointHistory }> = [];
  for (let i = 1; i <= n; i++) {
    const parent = out[i - 2];
    out.push({ id: `v${i}`, history: parent ? parent.history.append(parent.id) : CheckpointHistory.EMPTY });
  }
  return out;
}

describe('CheckpointHistory', () => {
  it('renders ancestors oldest first and answers includes', () => {
    const cps = chain(4);
    expect(cps[0]!.history.toArray()).toEqual([]);
    expect(cps[3]!.history.toArray()).toEqual(['v1', 'v2', 'v3']);
    expect(cps[3]!.history.includes('v2')).toBe(true);
    expect(cps[3]!.history.includes('v4')).toBe(false);
  });

  it('takes linear space: each history is one node on top of its parent’s, shared, not a copy', () => {
    const cps = chain(11_000);
    const unshared = cps.filter((c, i) => i > 0 && (c.history.before !== cps[i - 1]!.history || c.history.length !== i));
    expect(unshared).toEqual([]);
    expect(cps.at(-1)!.history.toArray()).toHaveLength(10_999);
  });
});

describe('withAncestor (?history=)', () => {
  it('keeps the items whose history contains the id, in order', () => {
    const cps = chain(5);
    const branch = { id: 'v6', history: cps[1]!.history.append('v2') }; // restored to v2, then a checkpoint
    const all = [...cps, branch];
    expect(withAncestor(all, 'v3').map((c) => c.id)).toEqual(['v4', 'v5']);
    expect(withAncestor(all, 'v2').map((c) => c.id)).toEqual(['v3', 'v4', 'v5', 'v6']);
    expect(withAncestor(all, 'v9')).toEqual([]);
  });

  it('looks at each shared history node once (10x the checkpoints: about 10x the steps, not 100x)', () => {
    const steps = (n: number) => {
      const meter = { steps: 0 };
      expect(withAncestor([...chain(n)].reverse(), 'nope', meter)).toEqual([]);
      return meter.steps;
    };
    expect(steps(1000)).toBeLessThanOrEqual(1000);
    expect(steps(10_000)).toBeLessThanOrEqual(10_000);
  });
});
