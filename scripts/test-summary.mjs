// Prints vitest's JSON report as the plain closing line CI reads: "N passed, N failed, N skipped".
// Failed tests are named first (file, test, first line of the message), so a CI log that keeps only its tail
// still says what broke.
import { readFileSync, existsSync } from 'node:fs';
import { relative } from 'node:path';

const file = process.argv[2] ?? '.tmp/vitest-report.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  console.error(`test-summary: no report at ${file} (a step before vitest failed)`);
  process.exit(0);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
for (const suite of r.testResults ?? []) {
  for (const t of suite.assertionResults ?? []) {
    if (t.status !== 'failed') continue;
    const why = String(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
    console.log(`FAILED ${relative(process.cwd(), suite.name)} > ${t.fullName}: ${why}`);
  }
  if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
    console.log(`FAILED ${relative(process.cwd(), suite.name)}: ${String(suite.message ?? '').split('\n')[0].slice(0, 300)}`);
  }
}
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
