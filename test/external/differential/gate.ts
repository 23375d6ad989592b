/**
 * The differential gate (`npm run differential -- --gate`): the main set's score against the committed baseline
 * (baseline.json). A run fails when it has more silent differences than the baseline, or a smaller identical share;
 * once the baseline's silent count is 0, any silent difference fails. It owns that rule and the baseline file's
 * shape, not the runs (run.ts) or the report (report.ts). `--write-baseline` records a run as the new baseline.
 */
import type { CaseResult } from './cases.ts';

/** The committed figures a run must keep: the main set's counts (excluded cases are not counted). */
export interface Baseline {
  /** Cases compared (main set, not excluded). */
  cases: number;
  /** Of those, identical on both engines. */
  identical: number;
  /** Silent differences (a wrong answer with no refusal): the gate's ceiling. */
  silent: number;
  /**
   * Of a run (never in the committed baseline): silent differences that a second run did not repeat (cases.ts
   * `settleUnstable`). The share check counts them with the identical ones — a regression repeats — while they never
   * count as identical in the figures a baseline records.
   */
  unstable?: number;
}

/** The main set's figures of a run. */
export function measure(results: CaseResult[]): Baseline {
  const main = results.filter((r) => r.set === 'main' && r.verdict !== 'excluded');
  return {
    cases: main.length,
    identical: main.filter((r) => r.verdict === 'identical').length,
    silent: main.filter((r) => r.verdict === 'silent').length,
    unstable: main.filter((r) => r.verdict === 'unstable').length,
  };
}

/** Why `run` fails the gate against `baseline` (empty: it passes). */
export function gateFailures(run: Baseline, baseline: Baseline): string[] {
  const why: string[] = [];
  if (run.silent > baseline.silent) why.push(`${run.silent} silent differences, more than the baseline's ${baseline.silent}`);
  // Shares compared as exact fractions: identical/cases < base.identical/base.cases.
  if ((run.identical + (run.unstable ?? 0)) * baseline.cases < baseline.identical * run.cases) {
    why.push(`identical share ${share(run)} below the baseline's ${share(baseline)}`);
  }
  return why;
}

const share = (b: Baseline) => `${((100 * b.identical) / Math.max(1, b.cases)).toFixed(1)}%`;
