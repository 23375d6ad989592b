// Writes docs/works-with.md from the last `npm run test:clients` (.tmp/clients-report.json): one row per client
// and engine with what its suite exercised and how it ended, then the clients that cannot run here and why.
//   node scripts/works-with.mjs [report.json] [out.md]
import { readFileSync, writeFileSync } from 'node:fs';

const [reportFile = '.tmp/clients-report.json', out = 'docs/works-with.md'] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** "passed (6)", "passed (1); known failure (1): why", "failed (2 of 5): names", "not run: why". */
function result(r) {
  if (r.result === 'not run') return `not run: ${r.reason}`;
  const skipped = (r.cases ?? []).filter((c) => c.result === 'skipped');
  const why = [...new Set(skipped.map((c) => c.why ?? 'skipped'))].join('; ');
  const parts = [];
  if (r.failed) parts.push(`**failed** (${r.failed} of ${r.passed + r.failed}): ${(r.cases ?? []).filter((c) => c.result === 'failed').map((c) => c.name).join(', ')}`);
  else parts.push(`passed (${r.passed})`);
  if (skipped.length) parts.push(`skipped or known failure (${skipped.length}): ${why}`);
  return parts.join('; ');
}

const lines = [
  '# Works with',
  '',
  'Real Sprites clients, unchanged, installed from their own registries at the versions pinned in',
  '`test/external/clients/requirements*.txt` (PyPI) and the `go.sum` files (Go module proxy), run against spritzer on each',
  'engine by `npm run test:clients` (`scripts/test-clients.mjs`, part of `.ci/run`). No call reaches a model or any',
  'host outside the machine. This page is generated from the last run (`npm run docs:works-with`); the official JS',
  'SDK `@fly/sprites` runs in the conformance suites (`test/conformance`, with `controlMode: true` in',
  '`control.test.ts`).',
  '',
  '| client | version | engine | result | what it exercises |',
  '|---|---|---|---|---|',
  ...report.results.map((r) => `| ${cell(r.client)} | ${cell(r.version)} | ${r.engine} | ${cell(result(r))} | ${cell(r.exercises)} |`),
  '',
  '## Cannot run here',
  '',
  ...(report.unavailable.length ? report.unavailable.map((u) => `- **${u.client}**: ${u.reason}`) : ['Every listed client ran.']),
  '',
];
writeFileSync(out, lines.join('\n'));
console.log(`wrote ${out} (${report.results.length} rows)`);
