import { describe, expect, it } from 'vitest';
import { formatTable, ROWS, tableRows, verdict, type Results } from './report.ts';
import { percentile, summarize } from './load.ts';

const row = (id: string) => ROWS.find((r) => r.id === id)!;
const rest = (reqPerSec: number) => ({ reqPerSec, p50: 1, p99: 2, requests: 1, cpuUsPerOp: 100, fromUs: 0, toUs: 1 });
const ws = (p50: number, p99: number, execsPerSec: number) => ({ latency: { n: 1, p50, p99, mean: p50 }, execsPerSec, execs: 1, cpuUsPerOp: 100, fromUs: 0, toUs: 1 });

describe('bench table verdicts (issue 11 targets)', () => {
  it('REST throughput passes at exactly 0.6x plain Express and fails just below', () => {
    expect(verdict(row('restRps'), { 'plain-express': { rest: rest(1000) }, spritzer: { rest: rest(600) } })).toBe('PASS');
    expect(verdict(row('restRps'), { 'plain-express': { rest: rest(1000) }, spritzer: { rest: rest(599) } })).toBe('FAIL');
  });

  it('WS exec latency targets compare against bare Node, where lower is better', () => {
    const results: Results = { 'bare-node': { wsExec: ws(1, 2, 1000) }, spritzer: { wsExec: ws(1.6, 6, 600) } };
    expect(verdict(row('wsP50'), results)).toBe('FAIL');
    expect(verdict(row('wsP99'), results)).toBe('PASS');
    expect(verdict(row('wsRate'), results)).toBe('PASS');
  });

  it('absolute targets need no baseline; a ratio target without its baseline has no verdict', () => {
    expect(verdict(row('coldStart'), { spritzer: { coldStartMs: 401 } })).toBe('FAIL');
    expect(verdict(row('coldStart'), { spritzer: { coldStartMs: 399 } })).toBe('PASS');
    expect(verdict(row('restRps'), { spritzer: { rest: rest(600) } })).toBe('-');
  });

  it('prints only measured rows, with ratios to each baseline and a dash for missing figures', () => {
    const results: Results = { 'bare-node': { rest: rest(4000) }, 'plain-express': { rest: rest(2000) }, spritzer: { rest: rest(1000) } };
    const rows = tableRows(results);
    expect(rows.map((r) => r.id)).toEqual(['restRps', 'restP99', 'restCpu']);
    expect(rows[0]!.ratios).toEqual({ 'bare-node': 0.25, 'plain-express': 0.5 });
    expect(rows[0]!.result).toBe('FAIL');
    const md = formatTable({ spritzer: { fsFirst100: 3500 } }, true).split('\n');
    expect(md).toHaveLength(3);
    expect(md[2]).toContain('| 3,500 |');
    expect(md[2]).toContain('| — |');
    expect(md[2]!.endsWith('| PASS |')).toBe(true);
  });
});

describe('bench latency summary', () => {
  it('uses nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100, unsorted
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(summarize([1, 2, 3]).mean).toBe(2);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
  });
});

describe('bench busy-loop row (issue 11 item 5)', () => {
  it('passes strictly under 100 ms only', () => {
    const busy = (maxMs: number) => ({ spritzer: { busy: { loops: 10, samples: [maxMs], maxMs } } });
    expect(verdict(row('busyHealth'), busy(99))).toBe('PASS');
    expect(verdict(row('busyHealth'), busy(100))).toBe('FAIL');
    expect(tableRows(busy(2000))[0]!.target).toBe('< 100 ms');
  });
});
