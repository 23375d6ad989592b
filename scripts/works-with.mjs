// Writes docs/works-with.md from the last `npm run test:clients` (.tmp/clients-report.json): one row per client
// with its version, one column per engine saying how its suite ended there, then what each suite exercises, and the
// clients that cannot run here and why.
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

// One row per suite (in the report's order), one column per engine the run covered.
const engines = report.engines;
const suites = [...new Set(report.results.map((r) => r.id))];
const byId = (id) => report.results.filter((r) => r.id === id);
const resultOn = (id, engine) => {
  const r = byId(id).find((x) => x.engine === engine);
  return r ? result(r) : 'not in this run';
};

const lines = [
  '# Works with',
  '',
  'Real Sprites clients, unchanged, installed from their own registries at the versions pinned in',
  '`test/external/clients/requirements*.txt` (PyPI), the `go.sum` files (Go module proxy) and the npm suites\'',
  '`package-lock.json` files (npm registry), run against spritzer on each engine by `npm run test:clients`',
  '(`scripts/test-clients.mjs`, part of `.ci/run`). No call reaches a model or any host outside the machine. This page is',
  'generated from the last run (`npm run docs:works-with`); the official JS SDK `@fly/sprites` also runs in the',
  'conformance suites (`test/conformance`, with `controlMode: true` in `control.test.ts`).',
  '',
  `| client | version | ${engines.join(' | ')} |`,
  `|---|---|${engines.map(() => '---|').join('')}`,
  ...suites.map((id) => {
    const first = byId(id)[0];
    return `| ${cell(first.client)} | ${cell(first.version)} | ${engines.map((e) => cell(resultOn(id, e))).join(' | ')} |`;
  }),
  '',
  '## What each suite exercises',
  '',
  ...suites.map((id) => `- **${byId(id)[0].client}**: ${byId(id)[0].exercises}`),
  '',
  '## Cannot run here',
  '',
  ...(report.unavailable.length ? report.unavailable.map((u) => `- **${u.client}**: ${u.reason}`) : ['Every listed client ran.']),
  '',
];
writeFileSync(out, lines.join('\n'));
console.log(`wrote ${out} (${suites.length} clients × ${engines.length} engines)`);
