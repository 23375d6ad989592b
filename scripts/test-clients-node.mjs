// The `"kind": "node"` suites of scripts/test-clients.mjs: npm clients run by Node's own test runner.
//
// A node suite's directory holds a package.json and a package-lock.json that pin the client (exact versions) and its
// test files (`*.test.mjs`). The packages install with `npm ci` into .cache/clients/node-ID (never into the
// repository's node_modules, whose @fly/sprites and friends would otherwise shadow the suite's own), again whenever
// either file changes (a stamp holds their hash, as the venv's does). The test files are copied beside that
// node_modules on every run, so that their imports resolve to the suite's packages, and run with
// `node --test --test-reporter=junit`, whose report the runner counts as it counts pytest's.
//
// The server is started here, once per suite and engine, as `node bin/spritzer.mjs --addr 127.0.0.1:0 --token T
// --exec ENGINE` (on the container engine with --ephemeral and a namespace of its own, as the pytest and Go helpers
// do), and the tests get it the way a user's program gets a Sprites account: SPRITES_BASE_URL and SPRITES_TOKEN, and
// SPRITZER_EXEC naming the engine.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The suite's packages installed in `.cache/clients/node-ID` (npm ci, skipped while the stamp matches) and its test
 * files copied into `<stage>/suite/`. Returns `{ stage, files, installSeconds }` (installSeconds: the npm ci's wall
 * time, 0 when the stamp matched), or `{ error }` saying which step failed.
 */
export function stageNodeSuite(root, suite) {
  if (!/^[a-z0-9-]+$/.test(suite.id)) throw new Error(`test/external/clients/clients.json: suite id ${suite.id} is not a plain name`);
  const dir = join(root, suite.dir);
  const stage = join(root, '.cache/clients', `node-${suite.id}`);
  const manifest = ['package.json', 'package-lock.json'];
  for (const f of manifest) if (!existsSync(join(dir, f))) return { error: `${suite.dir}/${f} is missing` };
  const hash = createHash('sha256');
  for (const f of manifest) hash.update(readFileSync(join(dir, f)));
  const want = hash.digest('hex');
  const stamp = join(stage, '.spritzer-stamp');
  let installSeconds = 0;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== want) {
    mkdirSync(stage, { recursive: true });
    rmSync(stamp, { force: true });
    for (const f of manifest) cpSync(join(dir, f), join(stage, f));
    const t0 = process.hrtime.bigint();
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: stage, stdio: 'inherit' });
    installSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) return { error: `npm ci of ${suite.dir}/package-lock.json failed (${r.error?.message ?? `exit ${r.status}`})` };
    writeFileSync(stamp, want);
    console.log(`test-clients: npm ci for ${suite.id} took ${installSeconds.toFixed(1)} s`);
  }
  const copy = join(stage, 'suite');
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true, filter: (src) => !src.split('/').includes('node_modules') });
  const files = readdirSync(copy).filter((f) => f.endsWith('.test.mjs')).sort();
  if (files.length === 0) return { error: `${suite.dir} has no *.test.mjs file` };
  const runtime = nodeRuntime(root, suite);
  if (runtime.error) return runtime;
  return { stage, node: runtime.node, files: files.map((f) => join(copy, f)), installSeconds };
}

const READY = /spritzer listening on (http:\/\/\S+)/;

/**
 * Starts `node <bin> --addr 127.0.0.1:0 --token <random> --exec <engine>` in a process group of its own and resolves
 * once it printed its ready line and `GET /_spritzer/health` answered 200: `{ url, token, stop() }`. Rejects (after
 * stopping it) when it exits first or is not healthy within `timeoutMs`, with its last output lines.
 */
export function startServer({ bin, engine, env, timeoutMs = 120_000 }) {
  const token = `spritzer-node-${randomBytes(8).toString('hex')}`;
  const args = [bin, '--addr', '127.0.0.1:0', '--token', token, '--exec', engine];
  // Container sprites outlive a server unless it is ephemeral; a namespace of its own keeps runs apart.
  if (engine === 'container') args.push('--ephemeral', '--namespace', `spritzer-test-${randomBytes(4).toString('hex')}`);
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  let exited = null;
  const gone = new Promise((resolve) => child.on('exit', (code, signal) => {
    exited = code ?? signal;
    resolve();
  }));
  const stop = async () => {
    if (exited === null) {
      signalGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 30_000);
      await gone;
      clearTimeout(timer);
    }
    signalGroup(child.pid, 'SIGKILL'); // whatever it started in its group and left behind
  };
  return new Promise((resolve, reject) => {
    let url;
    const fail = async (what) => {
      await stop();
      reject(new Error(`spritzer (${args.join(' ')}) ${what}:\n${log.slice(-30).join('\n')}`));
    };
    const onData = (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (line) log.push(line);
        const m = url ? undefined : READY.exec(line);
        if (m) {
          url = m[1];
          waitHealthy();
        }
      }
      if (log.length > 200) log.splice(0, log.length - 200);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const deadline = Date.now() + timeoutMs;
    const startTimer = setTimeout(() => url || fail(`printed no ready line within ${timeoutMs / 1000} s`), timeoutMs);
    gone.then(() => {
      clearTimeout(startTimer);
      if (!url) fail(`exited (${exited}) before printing its ready line`);
    });
    async function waitHealthy() {
      clearTimeout(startTimer);
      while (exited === null) {
        try {
          const res = await fetch(`${url}/_spritzer/health`, { signal: AbortSignal.timeout(2000) });
          if (res.status === 200) return resolve({ url, token, stop });
        } catch {
          /* not answering yet */
        }
        if (Date.now() > deadline) return fail(`did not answer /_spritzer/health within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      fail(`exited (${exited}) before answering /_spritzer/health`);
    }
  });
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/**
 * The Node that runs a suite's tests: this one, or with `"runtime": "node24"` Node 24 from scripts/node24.sh (pinned,
 * installed from the npm registry into .cache/node24 once), for clients whose engines need it. `{ node }` or `{ error }`.
 */
export function nodeRuntime(root, suite) {
  if (suite.runtime === undefined) return { node: process.execPath };
  if (suite.runtime !== 'node24') throw new Error(`test/external/clients/clients.json: suite ${suite.id}: unknown runtime ${suite.runtime}`);
  const r = spawnSync('bash', [join(root, 'scripts/node24.sh')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const node = r.stdout?.trim();
  return r.status === 0 && node ? { node } : { error: `scripts/node24.sh failed (exit ${r.status})` };
}

/**
 * Runs a staged suite's test files with `node --test` (on `node`) against a started server: the JUnit report goes to
 * `xml`, the spec reporter's text to `out` (an array the caller prints). Resolves with the runner's exit status.
 */
export function runNodeTests({ node, stage, files, xml, env, out }) {
  const args = ['--test', '--test-concurrency=1', '--test-reporter=junit', `--test-reporter-destination=${xml}`, '--test-reporter=spec', '--test-reporter-destination=stdout', ...files];
  return new Promise((resolve) => {
    const child = spawn(node, args, { cwd: stage, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => out.push(String(d)));
    child.stderr.on('data', (d) => out.push(String(d)));
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code ?? 1));
  });
}
