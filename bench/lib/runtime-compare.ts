/**
 * Folds the rows of several benchmark runs on two runtimes into one comparison: per measure, the median of
 * spritzer's figure and of its ratio to each same-runtime baseline over the runs of each runtime, and the verdict
 * of every run. It computes and formats only; `bench/runtime.ts` runs the benchmarks.
 */
import { renderTable, type TableRow, type Verdict } from './report.ts';

/** The table rows of one `bench/run.ts --json` run, with the runtime it ran on (`v24.21.0`). */
export interface RuntimeRun {
  runtime: string;
  rows: TableRow[];
}

/** One runtime's figures for one measure: medians over its runs (undefined: never measured). */
export interface RuntimeFigures {
  spritzer?: number;
  ratioBare?: number;
  ratioExpress?: number;
  /** Every run's verdict, in run order. */
  verdicts: Verdict[];
}

/** One measure on both runtimes. */
export interface ComparisonRow {
  id: string;
  measure: string;
  target: string;
  byRuntime: [RuntimeFigures, RuntimeFigures];
}

/** The median of the defined values (the lower middle for an even count); undefined for none. */
export function medianOf(xs: Array<number | undefined>): number | undefined {
  const ys = xs.filter((x): x is number => x !== undefined && Number.isFinite(x)).sort((a, b) => a - b);
  return ys.length ? ys[Math.floor((ys.length - 1) / 2)] : undefined;
}

/**
 * The comparison of `runs` on `runtimes` (two version strings, as the runs name them), one row per measure in the
 * order the first run lists them. Runs on any other runtime are ignored.
 */
export function compareRuntimes(runs: RuntimeRun[], runtimes: [string, string]): ComparisonRow[] {
  const order: string[] = [];
  const meta = new Map<string, { measure: string; target: string }>();
  for (const run of runs) {
    for (const row of run.rows) {
      if (!meta.has(row.id)) {
        order.push(row.id);
        meta.set(row.id, { measure: row.measure, target: row.target });
      }
    }
  }
  return order.map((id) => {
    const figures = runtimes.map((runtime): RuntimeFigures => {
      const rows = runs.filter((r) => r.runtime === runtime).map((r) => r.rows.find((x) => x.id === id)).filter((r): r is TableRow => !!r);
      return {
        spritzer: medianOf(rows.map((r) => r.values.spritzer)),
        ratioBare: medianOf(rows.map((r) => r.ratios['bare-node'])),
        ratioExpress: medianOf(rows.map((r) => r.ratios['plain-express'])),
        verdicts: rows.map((r) => r.result),
      };
    }) as [RuntimeFigures, RuntimeFigures];
    return { id, ...meta.get(id)!, byRuntime: figures };
  });
}

function num(x: number | undefined, digits = 2): string {
  return x === undefined ? '—' : x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** The comparison as an aligned text table, or Markdown. Columns per runtime: spritzer, ÷ bare, ÷ express, verdicts. */
export function formatComparison(rows: ComparisonRow[], runtimes: [string, string], markdown = false): string {
  const head = ['measure', 'target'];
  for (const r of runtimes) head.push(`spritzer ${r}`, `÷ bare`, `÷ express`, 'result');
  head.push(`${runtimes[1]} ÷ ${runtimes[0]}`);
  const body = rows.map((row) => {
    const cells = [row.measure, row.target];
    for (const f of row.byRuntime) {
      cells.push(num(f.spritzer), f.ratioBare === undefined ? '—' : `${num(f.ratioBare)}×`, f.ratioExpress === undefined ? '—' : `${num(f.ratioExpress)}×`, f.verdicts.join('/') || '—');
    }
    const [a, b] = row.byRuntime.map((f) => f.spritzer);
    cells.push(a !== undefined && b !== undefined && a !== 0 ? `${num(b / a)}×` : '—');
    return cells;
  });
  return renderTable(head, body, markdown);
}
