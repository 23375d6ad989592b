#!/usr/bin/env node
/**
 * `npm run mutation [-- [--force] FILE…]`: runs StrykerJS once per module of stryker/modules.mjs (all of them, or the
 * ones whose source path contains one of the FILE arguments; `--…` options go to Stryker), one after the other, then
 * prints the score of each and
 * exits non-zero when a module is under its break threshold or Stryker failed. It owns no Stryker option
 * (stryker.config.mjs does) and no module list (stryker/modules.mjs does).
 * @see README.md "Mutation testing"
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MODULES, moduleSlug } from '../stryker/modules.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
/** Options passed on to every Stryker run, e.g. `--force` (retest every mutant, ignoring the incremental file). */
const strykerFlags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const chosen = args.length === 0 ? MODULES : MODULES.filter((m) => args.some((a) => m.file.includes(a)));
if (chosen.length === 0) {
  console.error(`no module of stryker/modules.mjs matches ${args.join(' ')}`);
  process.exit(2);
}
const strykerBin = fileURLToPath(new URL('../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url));

/**
 * Mutation score in % from a mutation-testing-report-schema JSON file, as Stryker counts it:
 * (killed + timeout) / (killed + timeout + survived + no coverage); errors and ignored mutants do not count.
 */
function score(reportPath) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) if (m.status in count) count[m.status] += 1;
  const detected = count.Killed + count.Timeout;
  const valid = detected + count.Survived + count.NoCoverage;
  return { ...count, score: valid === 0 ? 100 : (100 * detected) / valid };
}

const rows = [];
let failed = false;
for (const mod of chosen) {
  const slug = moduleSlug(mod.file);
  console.log(`\n=== mutation: ${mod.file} (tests: ${mod.tests.join(', ')})`);
  const run = spawnSync(process.execPath, [strykerBin, 'run', 'stryker.config.mjs', ...strykerFlags], {
    stdio: 'inherit',
    env: { ...process.env, SPRITZER_MUTATION_MODULE: mod.file },
  });
  const reportPath = `.tmp/mutation/${slug}.json`;
  const s = run.status === 0 || existsSync(reportPath) ? score(reportPath) : undefined;
  const min = mod.break ?? 90;
  const ok = run.status === 0 && s !== undefined && s.score >= min;
  failed ||= !ok;
  rows.push({ file: mod.file, s, min, ok });
}

console.log('\n| module | score | killed | timeout | survived | no coverage | break |');
console.log('|---|---|---|---|---|---|---|');
for (const { file, s, min, ok } of rows) {
  const cells = s ? [`${s.score.toFixed(2)}%`, s.Killed, s.Timeout, s.Survived, s.NoCoverage] : ['failed', '', '', '', ''];
  console.log(`| ${file} | ${cells.join(' | ')} | ${min}%${ok ? '' : ' ✗'} |`);
}
process.exit(failed ? 1 : 0);
