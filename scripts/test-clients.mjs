// Runs the real Sprites clients of test/external/clients/clients.json (and the pytest and Go test helpers) against
// spritzer, once per engine, unchanged, from their own registries: Python ones in a venv under
// .cache/clients/venv (pinned by test/external/clients/requirements.txt) or, for a suite whose dependencies conflict
// with that venv's, in the venv it names (`"venv": "NAME"`: .cache/clients/venv-NAME, pinned by
// test/external/clients/requirements-NAME.txt); Go ones by `go test` (pinned by go.sum); npm ones (`"kind": "node"`)
// by Node's test runner, each from its own package-lock.json installed into .cache/clients/node-ID
// (scripts/test-clients-node.mjs, which also starts their server). Installs run first, one suite at a time; then the
// rows run in two lanes at once (the sandbox engine's, and the shell and container engines'), each row's output
// printed whole when it ends.
// Writes .tmp/clients-report.json (what docs/works-with.md is generated from: `npm run docs:works-with`) and
// ends with the plain line "N passed, N failed"; exits non-zero on any failure or on a client that could not run.
//
//   node scripts/test-clients.mjs [--engine shell,sandbox,container] [--only id,id]
//
// The container engine needs a Docker daemon and the test image: without DOCKER_HOST, the whole run goes through
// scripts/with-docker.sh (which starts dockerd, builds the image once into .cache/container, and stops the daemon).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runNodeTests, stageNodeSuite, startServer } from './test-clients-node.mjs';

const root = resolve(import.meta.dirname, '..');
const USAGE = 'usage: node scripts/test-clients.mjs [--engine shell,sandbox,container] [--only id,id]';
let values;
try {
  ({ values } = parseArgs({ options: { engine: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (err) {
  console.error(`test-clients: ${err.message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const manifest = JSON.parse(readFileSync(join(root, 'test/external/clients/clients.json'), 'utf8'));
const tmp = join(root, '.tmp/clients');
mkdirSync(tmp, { recursive: true });

/** Runs a command with inherited output; returns its exit status. */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) {
    console.error(`test-clients: ${cmd}: ${r.error.message}`);
    return 127;
  }
  return r.status ?? 1;
}

/** Why the sandbox engine cannot run here, or undefined when it can (Linux, root, bwrap, mkfs.btrfs). */
function sandboxUnavailable() {
  if (process.platform !== 'linux') return 'needs Linux';
  if (process.getuid?.() !== 0) return 'needs root';
  for (const tool of ['bwrap', 'mkfs.btrfs']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `needs ${tool} (apt-get install bubblewrap btrfs-progs)`;
  }
  return undefined;
}

/** Why the container engine cannot run here (no daemon or no image), or undefined when it can. */
function containerUnavailable() {
  if (!process.env.DOCKER_HOST) return 'needs a Docker daemon: DOCKER_HOST, or root for scripts/with-docker.sh to start one';
  if (!process.env.SPRITZER_SPRITE_IMAGE) return 'needs SPRITZER_SPRITE_IMAGE (the sprite image)';
  return undefined;
}

/** Where a suite's venv lives and what pins it: the shared one, or `venv-NAME` for a suite with `"venv": "NAME"`. */
function venvOf(suite) {
  if (suite.venv !== undefined && !/^[a-z0-9-]+$/.test(suite.venv)) throw new Error(`test/external/clients/clients.json: suite ${suite.id}: venv ${suite.venv} is not a plain name`);
  const dir = join(root, '.cache/clients', suite.venv ? `venv-${suite.venv}` : 'venv');
  const requirements = join(root, 'test/external/clients', suite.venv ? `requirements-${suite.venv}.txt` : 'requirements.txt');
  return { dir, requirements, python: join(dir, 'bin/python') };
}

/** The venv with its requirements file and clients/python installed; reinstalled when either changed. */
function setupPython({ dir: venv, requirements: req, python }) {
  const stamp = join(venv, '.spritzer-stamp');
  const hash = createHash('sha256');
  hash.update(readFileSync(req));
  for (const f of ['pyproject.toml', 'src/pytest_spritzer/server.py', 'src/pytest_spritzer/plugin.py', 'src/pytest_spritzer/__init__.py']) {
    hash.update(readFileSync(join(root, 'clients/python', f)));
  }
  const want = hash.digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return 0;
  if (!existsSync(python) && run('python3', ['-m', 'venv', venv]) !== 0) return 1;
  // --no-compile: byte-compiling every installed module up front costs a third of the install (~15 s per venv); the
  // few modules a suite imports are compiled when first imported.
  if (run(python, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '--no-compile', '-r', req]) !== 0) return 1;
  // the plugin installs from the repository without any download (its build backend is in-tree)
  if (run(python, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '--no-index', '--force-reinstall', '--no-deps', './clients/python']) !== 0) return 1;
  writeFileSync(stamp, want);
  return 0;
}

/** Counts of a JUnit XML report (pytest's, or node --test's junit reporter): {passed, failed, skipped, cases: [{name, result}]}. */
function readJunit(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, cases: [] };
  const xml = readFileSync(file, 'utf8');
  const cases = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = /(?:^|\s)name="([^"]*)"/.exec(m[1])?.[1] ?? '?';
    const body = m[3] ?? '';
    const skip = /<skipped\b([^>]*)/.exec(body);
    const why = skip ? /message="([^"]*)"/.exec(skip[1])?.[1] : undefined;
    const result = /<(failure|error)\b/.test(body) ? 'failed' : skip ? 'skipped' : 'passed';
    cases.push({ name, result, ...(why ? { why: why.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>') } : {}) });
  }
  return tally(cases);
}

/** Counts of `go test -json` output: every leaf test (a subtest, or a test without subtests), with the reason
 * a skipped one gave. */
function readGoJson(text, out) {
  const ended = new Map();
  const output = new Map();
  const failedPackages = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line);
    const key = `${e.Package.split('/').pop()}.${e.Test ?? ''}`;
    if (e.Action === 'output' && e.Output) {
      out.push(e.Output);
      if (e.Test) output.set(key, [...(output.get(key) ?? []), e.Output.trim()]);
    }
    if (e.Test && ['pass', 'fail', 'skip'].includes(e.Action)) ended.set(key, { pkg: e.Package, test: e.Test, action: e.Action });
    if (!e.Test && e.Action === 'fail') failedPackages.push(e.Package);
  }
  const names = [...ended.keys()];
  const cases = [];
  for (const [key, t] of ended) {
    if (names.some((n) => n.startsWith(`${key}/`))) continue;
    const result = { pass: 'passed', fail: 'failed', skip: 'skipped' }[t.action];
    const why = t.action === 'skip' ? (output.get(key) ?? []).filter((l) => l && !l.startsWith('---') && !l.startsWith('===')).pop() : undefined;
    cases.push({ name: key, result, ...(why ? { why: why.replace(/^\S+_test\.go:\d+: /, '') } : {}) });
  }
  for (const pkg of failedPackages) {
    if (!cases.some((c) => c.result === 'failed')) cases.push({ name: `${pkg} (build or TestMain)`, result: 'failed' });
  }
  return tally(cases);
}

function tally(cases) {
  const n = (r) => cases.filter((c) => c.result === r).length;
  return { passed: n('passed'), failed: n('failed'), skipped: n('skipped'), cases };
}

const engines = (values.engine ?? 'shell,sandbox,container').split(',');
for (const e of engines) if (!['shell', 'sandbox', 'container'].includes(e)) throw new Error(`--engine: unknown engine ${e}`);
// Without root, with-docker.sh can neither install nor start a daemon: the container rows are then "not run" (their
// reason says what is missing) and the other engines still run.
const canStartDocker = process.platform === 'linux' && process.getuid?.() === 0;
if (engines.includes('container') && !process.env.DOCKER_HOST && !process.env.SPRITZER_CLIENTS_NO_DOCKER && canStartDocker) {
  // A daemon of its own for the run; the flag stops a second wrap when with-docker.sh could not set DOCKER_HOST.
  const r = spawnSync('bash', ['scripts/with-docker.sh', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, SPRITZER_CLIENTS_NO_DOCKER: '1' },
  });
  process.exit(r.status ?? 1);
}
const only = values.only?.split(',');
const baseEnv = { ...process.env, SPRITZER_BIN: join(root, 'bin/spritzer.mjs'), GOFLAGS: '-mod=readonly' };
delete baseEnv.SPRITZER_CMD;
const results = [];
const pythonReady = new Map();

/**
 * Runs a command with its output (stdout and stderr as they come) appended to `out`; resolves with its status and its
 * stdout alone.
 */
function runInto(out, cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!opts.quietStdout) out.push(String(d));
    });
    child.stderr.on('data', (d) => out.push(String(d)));
    child.on('error', (e) => {
      out.push(`test-clients: ${cmd}: ${e.message}\n`);
      resolve({ status: 127, stdout });
    });
    child.on('close', (code) => resolve({ status: code ?? 1, stdout }));
  });
}

/** A staged node suite's run on one engine: its own server, its tests, the counts of their JUnit report. */
async function runNodeSuite(suite, engine, staged, env, out) {
  let server;
  try {
    server = await startServer({ bin: baseEnv.SPRITZER_BIN, engine, env });
  } catch (e) {
    out.push(`test-clients: ${e.message}\n`);
    return { passed: 0, failed: 1, skipped: 0, cases: [], reason: `spritzer did not start: ${e.message.split('\n')[0]}` };
  }
  try {
    const xml = join(tmp, `${suite.id}-${engine}.xml`);
    rmSync(xml, { force: true });
    const status = await runNodeTests({ ...staged, xml, out, env: { ...env, SPRITES_BASE_URL: server.url, SPRITES_TOKEN: server.token } });
    const counts = readJunit(xml);
    if (status !== 0 && counts.failed === 0) counts.failed = 1;
    return counts;
  } finally {
    await server.stop();
  }
}

/**
 * What each suite needs before it runs, made once and one suite at a time (their installs print as they go): the
 * venv, the Go modules, the staged npm install. Resolves with the counts a suite's rows get when it failed.
 */
function prepare(suite) {
  if (suite.kind === 'pytest') {
    const venv = venvOf(suite);
    if (!pythonReady.has(venv.dir)) pythonReady.set(venv.dir, setupPython(venv));
    return pythonReady.get(venv.dir) === 0 ? {} : { failed: { passed: 0, failed: 1, skipped: 0, cases: [], reason: `pip install of ${venv.requirements.slice(root.length + 1)} failed` } };
  }
  if (suite.kind === 'go') {
    return run('go', ['mod', 'download'], { cwd: join(root, suite.dir), env: baseEnv }) === 0 ? {} : { failed: { passed: 0, failed: 1, skipped: 0, cases: [], reason: 'go mod download failed' } };
  }
  if (suite.kind === 'node') {
    const staged = stageNodeSuite(root, suite);
    return staged.error ? { failed: { passed: 0, failed: 1, skipped: 0, cases: [], reason: staged.error } } : { staged };
  }
  throw new Error(`test/external/clients/clients.json: suite ${suite.id} has unknown kind ${suite.kind}`);
}

/** One suite on one engine: its tests' counts, their output in `out`. */
async function runRow(suite, engine, ready, out) {
  const env = { ...baseEnv, SPRITZER_EXEC: engine };
  if (ready.failed) return { ...ready.failed };
  if (suite.kind === 'pytest') {
    const xml = join(tmp, `${suite.id}-${engine}.xml`);
    rmSync(xml, { force: true });
    await runInto(out, venvOf(suite).python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${xml}`, suite.dir], { env });
    return readJunit(xml);
  }
  if (suite.kind === 'go') {
    const r = await runInto(out, 'go', ['test', '-json', '-count=1', ...(suite.goArgs ?? []), './...'], { cwd: join(root, suite.dir), env, quietStdout: true });
    const counts = readGoJson(r.stdout, out);
    if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
    return counts;
  }
  return runNodeSuite(suite, engine, ready.staged, env, out);
}

const suites = manifest.suites.filter((suite) => !only || only.includes(suite.id));
const prepared = new Map(suites.map((suite) => [suite.id, prepare(suite)]));
// The rows run in two lanes at once: the sandbox engine's in one, the shell and container engines' in the other (one
// container row at a time, on the run's one daemon). Most of a row is waiting on its client and its sprites, so the
// two lanes share the cores well; each row's output is printed whole when it ends.
const lanes = new Map();
for (const suite of suites) {
  for (const engine of engines) {
    const row = { id: suite.id, client: suite.client, version: suite.version, exercises: suite.exercises, engine };
    results.push(row);
    const lane = engine === 'sandbox' ? 'sandbox' : 'other';
    if (!lanes.has(lane)) lanes.set(lane, []);
    lanes.get(lane).push({ suite, engine, row });
  }
}
await Promise.all([...lanes.values()].map(async (rows) => {
  for (const { suite, engine, row } of rows) {
    const why = engine === 'sandbox' ? sandboxUnavailable() : engine === 'container' ? containerUnavailable() : undefined;
    if (why) {
      Object.assign(row, { result: 'not run', reason: `${engine} engine ${why}`, passed: 0, failed: 0, skipped: 0 });
      console.log(`\n== ${suite.id} on ${engine}: NOT RUN (${row.reason})`);
      continue;
    }
    const started = Date.now();
    const out = [];
    const ready = prepared.get(suite.id);
    const counts = await runRow(suite, engine, ready, out);
    if (ready.staged?.installSeconds && !results.some((r) => r.id === suite.id && r.installSeconds)) row.installSeconds = Math.round(ready.staged.installSeconds * 10) / 10;
    Object.assign(row, counts, { result: counts.failed > 0 ? 'failed' : counts.passed > 0 ? 'passed' : 'ran no test' });
    if (row.result === 'ran no test') row.failed = 1;
    row.seconds = Math.round((Date.now() - started) / 100) / 10;
    process.stdout.write(`\n== ${suite.id} on ${engine}\n${out.join('')}`);
    console.log(`== ${suite.id} on ${engine}: ${row.result} (${row.passed} passed, ${row.failed} failed, ${row.skipped} skipped) in ${row.seconds} s`);
  }
}));
for (const u of manifest.unavailable ?? []) {
  console.log(`\n== ${u.client}: CANNOT RUN HERE: ${u.reason}`);
}
writeFileSync(join(root, '.tmp/clients-report.json'), JSON.stringify({ engines, results, unavailable: manifest.unavailable ?? [] }, null, 2) + '\n');
const sum = (k) => results.reduce((a, r) => a + (r[k] ?? 0), 0);
const notRun = results.filter((r) => r.result === 'not run');
for (const r of results.filter((r) => r.result === 'failed' || r.result === 'ran no test')) {
  console.log(`FAILED ${r.id} on ${r.engine}: ${(r.cases ?? []).filter((c) => c.result === 'failed').map((c) => c.name).join(', ') || r.reason || r.result}`);
}
for (const r of notRun) console.log(`NOT RUN ${r.id} on ${r.engine}: ${r.reason}`);
console.log(`clients: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
process.exit(sum('failed') > 0 || (notRun.length > 0 && process.env.CI) ? 1 : 0);
