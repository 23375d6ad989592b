import { describe, expect, it } from 'vitest';
import { formatTable, ROWS, tableRows, verdict, type Results } from './report.ts';
import { percentile, summarize } from './load.ts';

const row = (id: string) => ROWS.find((r) => r.id === id)!;
const rest = (reqPerSec: number) => ({ reqPerSec, p50: 1, p99: 2, requests: 1, cpuUsPerOp: 100, fromUs: 0, toUs: 1 });
const ws = (p50: number, p99: number, execsPerSec: number) => ({ latency: { n: 1, p50, p99, mean: p50 }, execsPerSec, execs: 1, cpuUsPerOp: 100, fromUs: 0, toUs: 1 });

describe('bench table verdicts', () => {
  it('REST throughput passes at exactly 0.6x plain Express and fails just below', () => {
    expect(verdict(row('restRps'), { 'plain-express': { rest: rest(1000) }, spritzer: { rest: rest(600) } })).toBe('PASS');
    expect(verdict(row('restRps'), { 'plain-express': { rest: rest(1000) }, spritzer: { rest: rest(599) } })).toBe('FAIL');
  });

  it('WS exec latency targets compare against bare Node, where lower is better', () => {
    const results: Results = { 'bare-node': { wsExec: ws(1, 2, 1000) }, spritzer: { wsExec: ws(2.1, 6, 500) } };
    expect(verdict(row('wsP50'), results)).toBe('FAIL');
    expect(verdict(row('wsP99'), results)).toBe('PASS');
    expect(verdict(row('wsRate'), results)).toBe('PASS');
    expect(verdict(row('wsRate'), { ...results, spritzer: { wsExec: ws(2, 6, 499) } })).toBe('FAIL');
    expect(verdict(row('wsP50'), { ...results, spritzer: { wsExec: ws(2, 6, 500) } })).toBe('PASS');
  });

  it('HTTP exec p50 passes up to 2.5x bare Node', () => {
    const http = (p50: number) => ({ n: 1, p50, p99: p50, mean: p50, cpuUsPerOp: 1 });
    expect(verdict(row('httpP50'), { 'bare-node': { httpExec: http(1) }, spritzer: { httpExec: http(2.5) } })).toBe('PASS');
    expect(verdict(row('httpP50'), { 'bare-node': { httpExec: http(1) }, spritzer: { httpExec: http(2.51) } })).toBe('FAIL');
  });

  it('fs write targets are 0.8x the plain Express app, for the first 100 files and the large run', () => {
    const r = (s: number, e: number): Results => ({ 'plain-express': { fsFirst100: e, fsLarge: { files: 10, filesPerSec: e } }, spritzer: { fsFirst100: s, fsLarge: { files: 10, filesPerSec: s } } });
    expect(verdict(row('fs100'), r(800, 1000))).toBe('PASS');
    expect(verdict(row('fs100'), r(799, 1000))).toBe('FAIL');
    expect(verdict(row('fsLarge'), r(799, 1000))).toBe('FAIL');
    expect(verdict(row('fsLarge'), { spritzer: { fsLarge: { files: 10, filesPerSec: 5000 } } })).toBe('-');
  });

  it('cold start must meet both its ratio to Express and its absolute bound', () => {
    const r = (s: number, e: number): Results => ({ 'plain-express': { coldStartMs: e }, spritzer: { coldStartMs: s } });
    expect(verdict(row('coldStart'), r(390, 300))).toBe('PASS');
    expect(verdict(row('coldStart'), r(401, 300))).toBe('FAIL'); // under 1.6x, over 400 ms
    expect(verdict(row('coldStart'), r(330, 200))).toBe('FAIL'); // under 400 ms, over 1.6x
    expect(verdict(row('coldStart'), { spritzer: { coldStartMs: 401 } })).toBe('FAIL');
    expect(verdict(row('coldStart'), { spritzer: { coldStartMs: 399 } })).toBe('-'); // the ratio is not measured
    expect(tableRows(r(390, 300))[0]!.target).toBe('≤ 1.6× plain-express and ≤ 400 ms');
  });

  it('memory per sprite: RSS up to 20 KiB and heap up to 10 KiB', () => {
    const mem = (perSpriteKiB: number, heapPerSpriteKiB: number): Results => ({ spritzer: { perSprite: { sprites: 1000, rssDeltaKiB: 0, perSpriteKiB, heapPerSpriteKiB } } });
    expect(verdict(row('perSprite'), mem(20, 11))).toBe('PASS');
    expect(verdict(row('perSprite'), mem(20.1, 1))).toBe('FAIL');
    expect(verdict(row('perSpriteHeap'), mem(30, 10))).toBe('PASS');
    expect(verdict(row('perSpriteHeap'), mem(1, 10.1))).toBe('FAIL');
  });

  it('a ratio target without its baseline has no verdict; an informational row has none either', () => {
    expect(verdict(row('restRps'), { spritzer: { rest: rest(600) } })).toBe('-');
    expect(verdict(row('restP99'), { 'plain-express': { rest: rest(1000) }, spritzer: { rest: rest(600) } })).toBe('-');
  });

  it('prints only measured rows, with ratios to each baseline and a dash for missing figures', () => {
    const results: Results = { 'bare-node': { rest: rest(4000) }, 'plain-express': { rest: rest(2000) }, spritzer: { rest: rest(1000) } };
    const rows = tableRows(results);
    expect(rows.map((r) => r.id)).toEqual(['restRps', 'restP99', 'restCpu']);
    expect(rows[0]!.ratios).toEqual({ 'bare-node': 0.25, 'plain-express': 0.5 });
    expect(rows[0]!.result).toBe('FAIL');
    const md = formatTable({ 'plain-express': { fsFirst100: 4000 }, spritzer: { fsFirst100: 3500 } }, true).split('\n');
    expect(md).toHaveLength(3);
    expect(md[2]).toContain('| 3,500 |');
    expect(md[2]).toContain('| — |');
    expect(md[2]).toContain('| 0.88× |');
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

describe('bench busy-loop row', () => {
  it('passes strictly under 100 ms only', () => {
    const busy = (maxMs: number) => ({ spritzer: { busy: { loops: 10, samples: [maxMs], maxMs } } });
    expect(verdict(row('busyHealth'), busy(99))).toBe('PASS');
    expect(verdict(row('busyHealth'), busy(100))).toBe('FAIL');
    expect(tableRows(busy(2000))[0]!.target).toBe('< 100 ms');
  });
});
