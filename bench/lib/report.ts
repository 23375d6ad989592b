/**
 * The benchmark's one table: each measure with the figure per server, spritzer's ratio to each baseline, its
 * target and PASS/FAIL. Targets are ratios to a baseline measured in the same run (machines are shared and noisy:
 * ratios hold, absolute times do not), plus the few absolute bounds a user meets directly (idle RSS, memory per
 * sprite, a stalled health check). A row may carry several targets; it passes when all do. It owns formatting and
 * verdicts only; it measures nothing.
 * @see docs/performance.md "Targets"
 */
import type { BusyResult, HeapCyclesResult, HttpExecResult, PerSpriteResult, RestResult, WsExecResult } from './load.ts';
import { SERVER_KINDS, type ServerKind } from './servers.ts';

/** What one server produced (absent: not measured in this run). */
export interface Figures {
  coldStartMs?: number;
  idleRssMiB?: number;
  rest?: RestResult;
  wsExec?: WsExecResult;
  httpExec?: HttpExecResult;
  fsFirst100?: number;
  fsLarge?: { files: number; filesPerSec: number };
  perSprite?: PerSpriteResult;
  heap?: HeapCyclesResult;
  busy?: BusyResult;
}

export type Results = Partial<Record<ServerKind, Figures>>;

/** A target: `spritzer ÷ baseline op value`, or `spritzer op value`. */
export type Target =
  | { kind: 'ratio'; baseline: Exclude<ServerKind, 'spritzer'>; op: '>=' | '<='; value: number }
  | { kind: 'absolute'; op: '>=' | '<=' | '<'; value: number };

/** One row of the table. `group` is the `--only` name that measures it. */
export interface RowDef {
  id: string;
  group: string;
  label: (f: Results) => string;
  unit: string;
  digits: number;
  pick: (f: Figures) => number | undefined;
  /** Every target the row must meet (none: an informational row). */
  targets?: Target[];
}

/** The rows, in the order of docs/performance.md "Targets". */
export const ROWS: RowDef[] = [
  { id: 'coldStart', group: 'start', label: () => 'cold start, spawn → first answer', unit: 'ms', digits: 0, pick: (f) => f.coldStartMs, targets: [{ kind: 'ratio', baseline: 'plain-express', op: '<=', value: 1.6 }, { kind: 'absolute', op: '<=', value: 400 }] },
  { id: 'idleRss', group: 'start', label: () => 'idle RSS', unit: 'MiB', digits: 1, pick: (f) => f.idleRssMiB, targets: [{ kind: 'absolute', op: '<=', value: 90 }] },
  { id: 'restRps', group: 'rest', label: () => 'REST GET /v1/sprites/{name}, 16 conn', unit: 'req/s', digits: 0, pick: (f) => f.rest?.reqPerSec, targets: [{ kind: 'ratio', baseline: 'plain-express', op: '>=', value: 0.6 }] },
  { id: 'restP99', group: 'rest', label: () => 'REST GET p99', unit: 'ms', digits: 1, pick: (f) => f.rest?.p99 },
  { id: 'restCpu', group: 'rest', label: () => 'REST GET, server CPU per request', unit: 'µs', digits: 0, pick: (f) => f.rest?.cpuUsPerOp },
  { id: 'wsP50', group: 'exec', label: () => 'WS exec echo ok, connect → exit, p50', unit: 'ms', digits: 2, pick: (f) => f.wsExec?.latency.p50, targets: [{ kind: 'ratio', baseline: 'bare-node', op: '<=', value: 2 }] },
  { id: 'wsP99', group: 'exec', label: () => 'WS exec p99', unit: 'ms', digits: 2, pick: (f) => f.wsExec?.latency.p99, targets: [{ kind: 'ratio', baseline: 'bare-node', op: '<=', value: 3 }] },
  { id: 'wsRate', group: 'exec', label: () => 'WS exec, 16 clients', unit: 'execs/s', digits: 0, pick: (f) => f.wsExec?.execsPerSec, targets: [{ kind: 'ratio', baseline: 'bare-node', op: '>=', value: 0.5 }] },
  { id: 'wsCpu', group: 'exec', label: () => 'WS exec, server CPU per exec (16 clients)', unit: 'µs', digits: 0, pick: (f) => f.wsExec?.cpuUsPerOp },
  { id: 'httpP50', group: 'exec', label: () => 'HTTP exec echo ok, p50', unit: 'ms', digits: 2, pick: (f) => f.httpExec?.p50, targets: [{ kind: 'ratio', baseline: 'bare-node', op: '<=', value: 2.5 }] },
  { id: 'httpP99', group: 'exec', label: () => 'HTTP exec p99', unit: 'ms', digits: 2, pick: (f) => f.httpExec?.p99 },
  { id: 'httpCpu', group: 'exec', label: () => 'HTTP exec, server CPU per exec', unit: 'µs', digits: 0, pick: (f) => f.httpExec?.cpuUsPerOp },
  {
    id: 'busyHealth',
    group: 'busy',
    label: (r) => `GET /_spritzer/health beside ${r.spritzer?.busy?.loops ?? 10} busy loops, slowest of ${r.spritzer?.busy?.samples.length ?? 5} (2,000 = no answer)`,
    unit: 'ms',
    digits: 0,
    pick: (f) => f.busy?.maxMs,
    targets: [{ kind: 'absolute', op: '<', value: 100 }],
  },
  { id: 'fs100', group: 'fs', label: () => 'fs write 10 KiB, 16 in flight, first 100 files', unit: 'files/s', digits: 0, pick: (f) => f.fsFirst100, targets: [{ kind: 'ratio', baseline: 'plain-express', op: '>=', value: 0.8 }] },
  {
    id: 'fsLarge',
    group: 'fs',
    label: (r) => `fs write 10 KiB, 16 in flight, ${(r.spritzer?.fsLarge?.files ?? 10_000).toLocaleString('en-US')} files`,
    unit: 'files/s',
    digits: 0,
    pick: (f) => f.fsLarge?.filesPerSec,
    targets: [{ kind: 'ratio', baseline: 'plain-express', op: '>=', value: 0.8 }],
  },
  {
    id: 'perSprite',
    group: 'memory',
    label: (r) => `memory per sprite, one 1 KiB file (RSS Δ / ${r.spritzer?.perSprite?.sprites ?? 'N'})`,
    unit: 'KiB',
    digits: 1,
    pick: (f) => f.perSprite?.perSpriteKiB,
    targets: [{ kind: 'absolute', op: '<=', value: 20 }],
  },
  {
    id: 'perSpriteHeap',
    group: 'memory',
    label: (r) => `heap per sprite, one 1 KiB file (heap Δ / ${r.spritzer?.perSprite?.sprites ?? 'N'})`,
    unit: 'KiB',
    digits: 1,
    pick: (f) => f.perSprite?.heapPerSpriteKiB,
    targets: [{ kind: 'absolute', op: '<=', value: 10 }],
  },
  {
    id: 'heapCycles',
    group: 'heap',
    label: (r) => `heap after ${(r.spritzer?.heap?.cycles ?? 1000).toLocaleString('en-US')} create/delete cycles (second round)`,
    unit: '× start',
    digits: 2,
    pick: (f) => f.heap?.ratio,
    targets: [{ kind: 'absolute', op: '<=', value: 1.1 }],
  },
  {
    id: 'heapFirstRound',
    group: 'heap',
    label: (r) => `heap after the first ${(r.spritzer?.heap?.cycles ?? 1000).toLocaleString('en-US')} cycles (V8 still compiling)`,
    unit: '× start',
    digits: 2,
    pick: (f) => f.heap?.firstRound.ratio,
  },
];

/** The outcome of a row: spritzer within its target, outside it, or no target / no figure. */
export type Verdict = 'PASS' | 'FAIL' | '-';

/** spritzer ÷ `baseline` for a row, undefined when either is missing or the baseline is 0. */
export function ratio(row: RowDef, results: Results, baseline: ServerKind): number | undefined {
  const s = results.spritzer ? row.pick(results.spritzer) : undefined;
  const b = results[baseline] ? row.pick(results[baseline]!) : undefined;
  if (s === undefined || b === undefined || b === 0 || !Number.isFinite(s) || !Number.isFinite(b)) return undefined;
  return s / b;
}

/** One target's outcome; `-` when a figure it needs is missing. */
function meets(row: RowDef, target: Target, results: Results): Verdict {
  const x = target.kind === 'ratio' ? ratio(row, results, target.baseline) : results.spritzer ? row.pick(results.spritzer) : undefined;
  if (x === undefined || !Number.isFinite(x)) return '-';
  const { op, value } = target;
  return (op === '>=' ? x >= value : op === '<' ? x < value : x <= value) ? 'PASS' : 'FAIL';
}

/**
 * PASS/FAIL of spritzer against the row's targets: FAIL when any measurable target fails, PASS when every target
 * was measured and met, `-` without targets or when only some could be measured and none failed.
 */
export function verdict(row: RowDef, results: Results): Verdict {
  if (!row.targets?.length) return '-';
  const each = row.targets.map((t) => meets(row, t, results));
  if (each.includes('FAIL')) return 'FAIL';
  return each.every((v) => v === 'PASS') ? 'PASS' : '-';
}

/** The targets as text, e.g. `≥ 0.6× plain-express`, `≤ 1.6× plain-express and ≤ 400 ms`. */
export function targetText(row: RowDef): string {
  return (row.targets ?? [])
    .map((t) => {
      const op = t.op === '>=' ? '≥' : t.op === '<' ? '<' : '≤';
      return t.kind === 'ratio' ? `${op} ${t.value}× ${t.baseline}` : `${op} ${t.value.toLocaleString('en-US')} ${row.unit}`;
    })
    .join(' and ');
}

/** A table row as cells, plus the data written by `--json`. */
export interface TableRow {
  id: string;
  measure: string;
  unit: string;
  values: Partial<Record<ServerKind, number>>;
  ratios: Partial<Record<Exclude<ServerKind, 'spritzer'>, number>>;
  target: string;
  result: Verdict;
}

/** The rows that have at least one figure in `results`. */
export function tableRows(results: Results): TableRow[] {
  const out: TableRow[] = [];
  for (const row of ROWS) {
    const values: TableRow['values'] = {};
    for (const k of SERVER_KINDS) {
      const v = results[k] ? row.pick(results[k]!) : undefined;
      if (v !== undefined) values[k] = v;
    }
    if (Object.keys(values).length === 0) continue;
    const ratios: TableRow['ratios'] = {};
    for (const b of ['bare-node', 'plain-express'] as const) {
      const r = ratio(row, results, b);
      if (r !== undefined) ratios[b] = r;
    }
    out.push({ id: row.id, measure: `${row.label(results)} (${row.unit})`, unit: row.unit, values, ratios, target: targetText(row), result: verdict(row, results) });
  }
  return out;
}

function fmt(x: number | undefined, digits: number): string {
  if (x === undefined) return '—';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The table as aligned plain text (also valid Markdown when `markdown` is set). */
export function formatTable(results: Results, markdown = false): string {
  const head = ['measure', 'bare node', 'plain express', 'spritzer', 'spritzer ÷ bare', 'spritzer ÷ express', 'target', 'result'];
  const digitsOf = new Map(ROWS.map((r) => [r.id, r.digits]));
  const rows = tableRows(results).map((r) => {
    const d = digitsOf.get(r.id) ?? 1;
    return [
      r.measure,
      fmt(r.values['bare-node'], d),
      fmt(r.values['plain-express'], d),
      fmt(r.values.spritzer, d),
      r.ratios['bare-node'] === undefined ? '—' : `${fmt(r.ratios['bare-node'], 2)}×`,
      r.ratios['plain-express'] === undefined ? '—' : `${fmt(r.ratios['plain-express'], 2)}×`,
      r.target,
      r.result,
    ];
  });
  return renderTable(head, rows, markdown);
}

/**
 * Cells as a table: Markdown (`| a | b |` with a `---` line), or plain text with the first column left-aligned,
 * the others right-aligned and a dashed line under the head. Every row has as many cells as `head`.
 */
export function renderTable(head: string[], rows: string[][], markdown = false): string {
  if (markdown) {
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
  }
  const widths = head.map((_, c) => Math.max(...[head, ...rows].map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
