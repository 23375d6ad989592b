/**
 * The differential runner (`npm run differential`): runs every case of test/external/differential/cases/*.txt (the
 * main set) and test/external/differential/held-out/*.txt (the held-out set) on the `shell` engine and on the
 * `sandbox` engine (real bash and GNU coreutils, the reference), each through spritzer's public API (WebSocket exec,
 * fs list/read), and compares stdout, stderr by kind, the exit status and the resulting file tree. Writes
 * test/external/differential/REPORT.md (agreement per group for each set, every main-set difference with both
 * outputs) and .tmp/differential.json (the main set's results); the report's and the console's last line is
 * `differential: N/M identical (P%), S silent, L loud; held-out: n/m identical (p%), s silent`. The held-out set's
 * differences are never printed, here or in the report: only its counts (cases.ts says why).
 *
 * One sprite per engine per group and set; every case runs in a fresh directory `/home/sprite/w/<group>-<n>` made by
 * the same setup script (cases.ts `SETUP`), so no case sees another's files.
 *
 * Flags: `--gate` exits 1 when any main-set difference is silent; `--set main|held-out` runs one set; `--group NAME`
 * runs one group (of each set run); `--only TEXT` runs the cases whose script contains TEXT. REPORT.md is written
 * only by a full run. Needs root (the sandbox engine).
 * @see docs/fidelity.md "Differential corpus"
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, execQuery, memoryMachines, startTestServer, wsExec } from '../../support/server.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { compareCase, loadCorpus, settleUnstable, SETUP, type CaseResult, type CorpusSet, type Outcome, type Tree } from './cases.ts';
import { renderReport } from './report.ts';
import { gateFailures, measure, type Baseline } from './gate.ts';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const gate = args.includes('--gate');
/** A case that runs longer than this on an engine is a hang (the reference's cases all end in well under a second). */
const CASE_TIMEOUT_MS = 20_000;
/** The committed figures `--gate` holds a whole run to (gate.ts). */
const BASELINE = join(here, 'baseline.json');

type Server = Awaited<ReturnType<typeof startTestServer>>;

async function main(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error('differential: the sandbox engine (the reference) needs root; run as root (CI does)');
    process.exit(2);
  }
  const set = flag('--set');
  if (set !== undefined && set !== 'main' && set !== 'held-out') {
    console.error(`differential: --set takes main or held-out, not ${set}`);
    process.exit(2);
  }
  const sets: Array<[CorpusSet, string]> = [['main', 'cases'], ['held-out', 'held-out']];
  let groups = sets.filter(([s]) => !set || s === set).flatMap(([s, dir]) => loadCorpus(join(here, dir), s));
  const group = flag('--group');
  const only = flag('--only');
  if (group) groups = groups.filter((g) => g.name === group);
  if (only) groups = groups.map((g) => ({ ...g, cases: g.cases.filter((c) => c.script.includes(only)) })).filter((g) => g.cases.length > 0);

  const clock = new SystemClock();
  // The shell engine gets a time limit below the runner's, so a runaway loop ends as exit 124 (counted a hang).
  const shell = await startTestServer('shell', {
    clock,
    machines: memoryMachines(createEngine('shell', { clock, stdinGraceMs: 30, shellLimits: { maxCommands: 10_000_000, timeoutMs: 15_000 } }), clock),
  });
  const sandbox = await startTestServer('sandbox', { clock });
  const started = Date.now();
  const results: CaseResult[] = [];
  try {
    for (const g of groups) {
      const name = g.set === 'main' ? `diff-${g.name}` : `diff-${g.set}-${g.name}`;
      await Promise.all([createSprite(shell, name), createSprite(sandbox, name)]);
      for (const [i, c] of g.cases.entries()) {
        const dir = `/home/sprite/w/${g.name}-${i + 1}`;
        const at = { set: g.set, group: g.name, index: i + 1 };
        const runBoth = () => Promise.all([runCase(shell, name, dir, c.script), runCase(sandbox, name, dir, c.script)]);
        const first = compareCase(at, c, ...(await runBoth()));
        const result = first.verdict === 'silent' ? settleUnstable(first, compareCase(at, c, ...(await runBoth()))) : first;
        results.push(result);
        // A held-out difference is counted, never shown (cases.ts).
        if (result.verdict !== 'identical' && g.set === 'main') process.stdout.write(`${result.verdict.padEnd(9)} ${g.name}-${i + 1}: ${oneLine(c.script)}\n`);
      }
      await Promise.all([deleteSprite(shell, name), deleteSprite(sandbox, name)]);
    }
  } finally {
    await shell.close();
    await sandbox.close();
  }
  const report = renderReport(results, { seconds: Math.round((Date.now() - started) / 1000) });
  if (!group && !only && !set) writeFileSync(join(here, 'REPORT.md'), report.markdown);
  mkdirSync('.tmp', { recursive: true });
  writeFileSync('.tmp/differential.json', JSON.stringify(results.filter((r) => r.set === 'main'), null, 1));
  if (report.table) console.log(report.table);
  if (report.heldOutTable) console.log(`held-out set:\n${report.heldOutTable}`);
  console.log(report.summary);
  const whole = !group && !only && !set;
  const figures = measure(results);
  if (whole && args.includes('--write-baseline')) writeFileSync(BASELINE, `${JSON.stringify({ cases: figures.cases, identical: figures.identical, silent: figures.silent }, null, 2)}\n`);
  if (gate) {
    const why = whole ? gateFailures(figures, JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline) : report.silent > 0 ? [`${report.silent} silent differences`] : [];
    for (const w of why) console.error(`differential gate: ${w}`);
    if (why.length > 0) process.exit(1);
  }
}

const oneLine = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s).replace(/\n/g, '⏎');

async function createSprite(server: Server, name: string): Promise<void> {
  const call = api(server.url);
  const res = await call('POST', '/v1/sprites', { name });
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${res.text}`);
}

async function deleteSprite(server: Server, name: string): Promise<void> {
  await api(server.url)('DELETE', `/v1/sprites/${name}`);
}

/** Runs `bash -c script` over WebSocket exec; resolves with its outputs (a hang is closed after CASE_TIMEOUT_MS). */
async function execScript(server: Server, name: string, script: string, dir: string): Promise<Outcome> {
  let socket: { close(): void } | undefined;
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    socket?.close();
  }, CASE_TIMEOUT_MS);
  try {
    const rec = await wsExec(server.url, `/v1/sprites/${name}/exec?${execQuery(['bash', '-c', script], { dir })}`, (ws) => (socket = ws));
    return { stdout: rec.stdout, stderr: rec.stderr, exit: hung ? null : rec.exitCode, hung };
  } finally {
    clearTimeout(timer);
  }
}

/** Makes the case's directory afresh, runs the case in it, and reads the tree it left. */
async function runCase(server: Server, name: string, dir: string, script: string): Promise<Outcome & { tree: Tree; setupError?: string }> {
  const setup = await execScript(server, name, `rm -rf ${dir} && mkdir -p ${dir} && cd ${dir} && ${SETUP}`, '/home/sprite');
  const setupError = setup.exit !== 0 || setup.stderr ? `setup exit ${setup.exit}: ${setup.stderr}` : undefined;
  const out = await execScript(server, name, script, dir);
  const tree = await readTree(server, name, dir);
  return { ...out, tree, ...(setupError ? { setupError } : {}) };
}

/** The tree under `dir` through the fs API: relative path → `type mode size sha` (files are read). */
async function readTree(server: Server, name: string, dir: string): Promise<Tree> {
  const call = api(server.url);
  const list = await call('GET', `/v1/sprites/${name}/fs/list?${new URLSearchParams({ path: dir, recursive: 'true' })}`);
  if (list.status === 404) return { '.': 'missing' };
  if (list.status !== 200) return { '.': `list ${list.status}` };
  const tree: Tree = {};
  for (const e of list.json.entries as Array<{ path: string; type: string; size: number; mode: string }>) {
    const rel = e.path.slice(dir.length + 1);
    // A repository's internals hold the index's stat data, zlib's choices, reflogs and git's sample hooks: what a
    // repository holds is compared through the case's own git commands (status, log, diff), not its bytes.
    if (/(^|\/)\.git\//.test(rel)) continue;
    let content = '';
    // An archive's bytes hold mtimes, owners and the compressor's choices: what it holds is compared (by the case
    // listing or extracting it), not its bytes.
    const archive = /\.(tgz|tar|gz|tbz|bz2|zip|txz|xz|tzst|zst)$/.test(rel);
    if (e.type === 'file' && archive) content = ' (archive)';
    else if (e.type === 'file' && e.size <= 65_536) {
      const res = await fetch(`${server.url}/v1/sprites/${name}/fs/read?${new URLSearchParams({ path: e.path })}`, { headers: { Authorization: 'Bearer test-token' } });
      const bytes = Buffer.from(await res.arrayBuffer());
      const preview = JSON.stringify(bytes.toString('latin1').slice(0, 60)) + (bytes.length > 60 ? '…' : '');
      content = res.status === 200 ? ` ${createHash('sha256').update(bytes).digest('hex').slice(0, 10)} ${preview}` : ` read ${res.status}`;
    }
    // A directory's size is the filesystem's business (4096 on ext4 and btrfs alike is not promised), not the command's.
    tree[rel] = `${e.type} ${e.mode}${e.type === 'directory' || archive ? '' : ` ${e.size}`}${content}`;
  }
  return tree;
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
