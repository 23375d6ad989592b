import { describe, expect, it } from 'vitest';
import { compareRuntimes, formatComparison, medianOf, type RuntimeRun } from './runtime-compare.ts';
import type { TableRow } from './report.ts';

const row = (id: string, spritzer: number, bare?: number, result: TableRow['result'] = 'PASS'): TableRow => ({
  id,
  measure: `${id} (ms)`,
  unit: 'ms',
  values: { spritzer },
  ratios: bare === undefined ? {} : { 'bare-node': spritzer / bare },
  target: '≤ 2× bare-node',
  result,
});

describe('runtime comparison of benchmark runs', () => {
  it('takes the median over each runtime\'s runs, lower middle for an even count, ignoring missing figures', () => {
    expect(medianOf([3, 1, 2])).toBe(2);
    expect(medianOf([4, 1, 3, 2])).toBe(2);
    expect(medianOf([undefined, 5, Number.NaN])).toBe(5);
    expect(medianOf([])).toBeUndefined();
  });

  it('keeps each runtime\'s runs apart and lists every verdict in run order', () => {
    const runs: RuntimeRun[] = [
      { runtime: 'v20', rows: [row('wsP50', 4, 2, 'FAIL')] },
      { runtime: 'v24', rows: [row('wsP50', 2, 1, 'PASS')] },
      { runtime: 'v20', rows: [row('wsP50', 3, 2, 'FAIL'), row('coldStart', 600)] },
      { runtime: 'v24', rows: [row('wsP50', 2.2, 1, 'FAIL')] },
      { runtime: 'v22', rows: [row('wsP50', 100, 1, 'FAIL')] },
    ];
    const [ws, cold] = compareRuntimes(runs, ['v20', 'v24']);
    expect(ws!.byRuntime[0]).toEqual({ spritzer: 3, ratioBare: 1.5, ratioExpress: undefined, verdicts: ['FAIL', 'FAIL'] });
    expect(ws!.byRuntime[1]!.spritzer).toBe(2);
    expect(ws!.byRuntime[1]!.verdicts).toEqual(['PASS', 'FAIL']);
    expect(cold!.id).toBe('coldStart');
    expect(cold!.byRuntime[1]).toEqual({ spritzer: undefined, ratioBare: undefined, ratioExpress: undefined, verdicts: [] });
    const md = formatComparison([ws!, cold!], ['v20', 'v24'], true).split('\n');
    expect(md[0]).toBe('| measure | target | spritzer v20 | ÷ bare | ÷ express | result | spritzer v24 | ÷ bare | ÷ express | result | v24 ÷ v20 |');
    expect(md[2]).toBe('| wsP50 (ms) | ≤ 2× bare-node | 3.00 | 1.50× | — | FAIL/FAIL | 2.00 | 2.00× | — | PASS/FAIL | 0.67× |');
    expect(md[3]!.endsWith('| — | — | — | — | — |')).toBe(true);
  });
});
