import { describe, expect, it } from 'vitest';
import { FaultRegistry } from './faults.ts';
import { kindOf } from '../../../test/support/model.ts';

describe('FaultRegistry', () => {
  it('holds at most maxRules rules; one more is invalid_request and changes nothing', () => {
    const faults = new FaultRegistry(3);
    for (let i = 0; i < 3; i++) faults.add({ status: 500, sprite: `s${i}` });
    expect(kindOf(() => faults.add({ status: 503 }))).toBe('invalid_request');
    expect(faults.list().map((r) => r.id)).toEqual(['fault-1', 'fault-2', 'fault-3']);
  });

  it('a rule with an existing id replaces it (moved to the end) even when full', () => {
    const faults = new FaultRegistry(2);
    faults.add({ id: 'a', status: 500 });
    faults.add({ id: 'b', status: 501 });
    faults.add({ id: 'a', status: 502 });
    expect(faults.list().map((r) => [r.id, r.status])).toEqual([
      ['b', 501],
      ['a', 502],
    ]);
  });

  it('matches the first rule in order, consumes `times`, and frees the slot of a used-up rule', () => {
    const faults = new FaultRegistry(2);
    faults.add({ operationId: 'getSprite', status: 429, times: 1 });
    faults.add({ status: 500 });
    expect(faults.take('getSprite', 'x')?.status).toBe(429);
    expect(faults.take('getSprite', 'x')?.status).toBe(500);
    expect(faults.list()).toHaveLength(1);
    faults.add({ status: 503 });
    expect(faults.list()).toHaveLength(2);
    faults.clear();
    expect(faults.take('getSprite', 'x')).toBeUndefined();
  });
});
