import { describe, expect, it } from 'vitest';
import { gateFailures, measure } from './gate.ts';
import type { CaseResult } from './cases.ts';

const result = (verdict: CaseResult['verdict'], set: CaseResult['set'] = 'main') => ({ verdict, set }) as CaseResult;

describe('the differential gate', () => {
  it('measures the main set only, without excluded cases', () => {
    const run = [result('identical'), result('silent'), result('loud'), result('excluded'), result('silent', 'held-out')];
    expect(measure(run)).toEqual({ cases: 3, identical: 1, silent: 1, unstable: 0 });
  });

  it('passes a run as good as the baseline or better, in share as well as in silent differences', () => {
    expect(gateFailures({ cases: 100, identical: 90, silent: 5 }, { cases: 100, identical: 90, silent: 5 })).toEqual([]);
    expect(gateFailures({ cases: 200, identical: 181, silent: 4 }, { cases: 100, identical: 90, silent: 5 })).toEqual([]);
  });

  it('fails on one more silent difference, and on a lower identical share even with more identical cases', () => {
    expect(gateFailures({ cases: 100, identical: 90, silent: 6 }, { cases: 100, identical: 90, silent: 5 })).toEqual([
      '6 silent differences, more than the baseline\'s 5',
    ]);
    expect(gateFailures({ cases: 200, identical: 179, silent: 5 }, { cases: 100, identical: 90, silent: 5 })).toEqual([
      'identical share 89.5% below the baseline\'s 90.0%',
    ]);
  });

  it('counts an unstable case as neither identical nor silent, and does not fail the share on it', () => {
    const run = measure([result('identical'), result('unstable')]);
    expect(run).toEqual({ cases: 2, identical: 1, silent: 0, unstable: 1 });
    expect(gateFailures(run, { cases: 2, identical: 2, silent: 0 })).toEqual([]);
    expect(gateFailures({ ...run, unstable: 0 }, { cases: 2, identical: 2, silent: 0 })).toHaveLength(1);
  });

  it('with a baseline of no silent differences, any silent difference fails', () => {
    expect(gateFailures({ cases: 100, identical: 99, silent: 1 }, { cases: 100, identical: 97, silent: 0 })).toHaveLength(1);
  });
});
