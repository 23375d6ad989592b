/**
 * `npm run bench:runtime -- [--node FILE]`: the whole benchmark (`bench/run.ts`) on two Node runtimes, in alternating
 * rounds (A, B, A, B, …) so that a change in the machine's load falls on both, and one table of spritzer's figure,
 * its ratio to the same-runtime baselines and its verdict on each runtime. It decides nothing by itself; the
 * runtime decision and its table live in docs/performance.md "Runtime". Never part of `npm test`.
 * @see bench/run.ts (the measures), bench/lib/report.ts (targets)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { TableRow } from './lib/report.ts';
import { ROOT } from './lib/servers.ts';
import { compareRuntimes, formatComparison, type RuntimeRun } from './lib/runtime-compare.ts';

const HELP = `usage: npm run bench:runtime -- [--node FILE] [options]
  --node FILE     the runtime to compare (default: Node 24 from the npm registry, scripts/node24.sh)
  --base FILE     the runtime it is compared with (default: the node running this script)
  --rounds N      rounds of A then B (default 2); each round is one full \`bench/run.ts\` per runtime
  --quick         pass --quick to bench/run.ts
  --only LIST     pass --only to bench/run.ts
  --markdown      print the table as Markdown`;

const { values } = parseArgs({
  options: {
    node: { type: 'string' },
    base: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    markdown: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`bench:runtime: --rounds must be a whole number ≥ 1, got ${values.rounds}`);
  process.exit(2);
}

const runtimes = [values.base ? resolve(values.base) : process.execPath, values.node ? resolve(values.node) : node24()];
const versions = runtimes.map((bin) => spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '');
for (const [i, v] of versions.entries()) {
  if (!v) {
    console.error(`bench:runtime: ${runtimes[i]} does not run`);
    process.exit(2);
  }
}

/** The pinned Node 24 runtime, installed into .cache/node24 on first use (scripts/node24.sh). */
function node24(): string {
  const r = spawnSync('bash', [join(ROOT, 'scripts/node24.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) {
    console.error('bench:runtime: could not install Node 24 (scripts/node24.sh); pass --node FILE');
    process.exit(2);
  }
  return r.stdout.trim();
}

const dir = mkdtempSync(join(tmpdir(), 'bench-runtime-'));
const runs: RuntimeRun[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const [i, bin] of runtimes.entries()) {
    const json = join(dir, `round${round}-${i}.json`);
    const args = ['--import', 'tsx', 'bench/run.ts', '--node', bin, '--json', json];
    if (values.quick) args.push('--quick');
    if (values.only) args.push('--only', values.only);
    process.stderr.write(`bench:runtime: round ${round}, ${versions[i]}\n`);
    // bench/run.ts exits 1 when a target fails: that is a figure here, not an error.
    const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 && r.status !== 1) {
      console.error(`bench:runtime: bench/run.ts on ${versions[i]} failed (exit ${r.status ?? r.signal})`);
      process.exit(2);
    }
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { rows: TableRow[] };
    runs.push({ runtime: versions[i]!, rows: doc.rows });
  }
}
console.log(`runtimes: ${versions.join(' vs ')}, ${rounds} round(s) each, alternating${values.quick ? ', --quick' : ''}`);
console.log(formatComparison(compareRuntimes(runs, versions as [string, string]), versions as [string, string], values.markdown));
