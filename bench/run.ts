/**
 * `npm run bench`: spritzer side by side with two floors (bare `node:http` + `ws`, plain Express 5 + `ws`), each
 * started in its own process in turn, then the checkpoint benchmark (`bench/checkpoint.ts`). Prints one table with the
 * figures, spritzer's ratio to each baseline, the targets (docs/performance.md) and PASS/FAIL; exits 1 when a target
 * fails. It changes nothing in the servers and is never part of `npm test`. Options: `--help`.
 * @see docs/performance.md
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { busyHealth, createSprite, fsWrite, heapCycles, httpExec, memoryPerSprite, monotonicUs, restGet, wsExec } from './lib/load.ts';
import { formatTable, tableRows, type Figures, type Results } from './lib/report.ts';
import { ROOT, SERVER_KINDS, startServer, type LaunchOptions, type ServerKind, type StartedServer } from './lib/servers.ts';
import { formatSummary, summarizeProfile, type CpuProfile } from './lib/cpuprofile.ts';

const GROUPS = ['start', 'rest', 'exec', 'busy', 'fs', 'memory', 'heap', 'checkpoint'] as const;
type Group = (typeof GROUPS)[number];

const HELP = `usage: npm run bench -- [options]
  --only LIST           groups to run, comma-separated: ${GROUPS.join(',')} (default: all)
  --servers LIST        servers to run: ${SERVER_KINDS.join(',')} (default: all; ratios need the baselines)
  --quick               shorter runs for quick iteration (figures are noisier)
  --json FILE           write every figure, the table rows and the checkpoint output as JSON
  --markdown            print the table as Markdown
  --production          run spritzer with NODE_ENV=production (no response validation)
  --node FILE           the node binary every server runs on (default: this one); \`npm run bench:runtime\`
                        compares two
  --spritzer-entry F    spritzer's entry (default bin/spritzer.mjs, the built server; a .ts file runs under tsx)
  --profile DIR         run every server under --cpu-prof into DIR and summarise its start, REST, WS exec and
                        fs write windows (profiling slows servers down: the table of such a run is not a benchmark)
  --profile-interval µs sampling interval for --profile (default 250)`;

/** The command line, as `node:util` parses it (throws on an unknown option). */
function parseOptions() {
  return parseArgs({
    options: {
      only: { type: 'string' },
      servers: { type: 'string' },
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      production: { type: 'boolean', default: false },
      node: { type: 'string' },
      'spritzer-entry': { type: 'string' },
      profile: { type: 'string' },
      'profile-interval': { type: 'string', default: '250' },
      help: { type: 'boolean', default: false },
    },
  });
}
let values: ReturnType<typeof parseOptions>['values'];
try {
  ({ values } = parseOptions());
} catch (err) {
  console.error(`bench: ${(err as Error).message}\n${HELP}`);
  process.exit(2);
}
if (!/^[1-9]\d*$/.test(values['profile-interval']!)) {
  console.error(`bench: --profile-interval must be a whole number of microseconds, got ${values['profile-interval']}`);
  process.exit(2);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

function listOption<T extends string>(raw: string | undefined, all: readonly T[], what: string): T[] {
  if (raw === undefined) return [...all];
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((i) => !(all as readonly string[]).includes(i));
  if (bad.length || !items.length) {
    console.error(`bench: unknown ${what} ${bad.join(', ') || '(none)'}; expected some of ${all.join(', ')}`);
    process.exit(2);
  }
  return items as T[];
}

const groups = new Set<Group>(listOption(values.only, GROUPS, '--only group'));
const servers = listOption(values.servers, SERVER_KINDS, '--servers name');
const quick = values.quick!;
/** Sizes of each measure: full run / `--quick`. */
const SIZE = quick
  ? { coldRuns: 1, settleMs: 500, restSeconds: 2, wsSequential: 100, wsSeconds: 2, httpSequential: 100, fsLarge: 1000, sprites: 200, cycles: 200 }
  : { coldRuns: 3, settleMs: 1000, restSeconds: 5, wsSequential: 500, wsSeconds: 5, httpSequential: 500, fsLarge: 10_000, sprites: 1000, cycles: 1000 };

// The built server is what users run: build it once here, so no cold start below includes a build.
if (!values['spritzer-entry']) {
  const built = spawnSync(process.execPath, ['bin/ensure-built.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}
const profileDir = values.profile ? resolve(values.profile) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
/** The runtime the servers run on, and its version (the table's header names it). */
const serverNode = values.node ? resolve(values.node) : process.execPath;
const serverNodeVersion = spawnSync(serverNode, ['--version'], { encoding: 'utf8' }).stdout?.trim();
if (!serverNodeVersion) {
  console.error(`bench: --node ${values.node} does not run (\`${serverNode} --version\` printed nothing)`);
  process.exit(2);
}
const launch: LaunchOptions = {
  node: serverNode,
  spritzerEntry: values['spritzer-entry'],
  spritzerEnv: values.production ? { NODE_ENV: 'production' } : {},
  nodeFlags: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${values['profile-interval']}`] : [],
};

/** Load windows of profiled server processes, summarised at the end. */
const windows: Array<{ kind: ServerKind; phase: string; pid: number; fromUs: number; toUs: number; ops?: number }> = [];
const running = new Set<StartedServer>();

async function start(kind: ServerKind, extra: Partial<LaunchOptions> = {}): Promise<StartedServer> {
  const s = await startServer(kind, { ...launch, ...extra });
  running.add(s);
  windows.push({ kind, phase: 'start', pid: s.pid, fromUs: s.spawnedAtUs, toUs: s.readyAtUs });
  return s;
}

async function stop(s: StartedServer): Promise<void> {
  await s.stop();
  running.delete(s);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

/** Cold start, idle RSS, REST and exec on one process per server (after `coldRuns - 1` throwaway starts). */
async function measureServer(kind: ServerKind, f: Figures): Promise<void> {
  if (!groups.has('start') && !groups.has('rest') && !groups.has('exec')) return;
  const colds: number[] = [];
  const runs = groups.has('start') ? SIZE.coldRuns : 1;
  for (let i = 1; i < runs; i++) {
    const s = await start(kind);
    colds.push(s.coldStartMs);
    await stop(s);
  }
  const s = await start(kind);
  colds.push(s.coldStartMs);
  if (groups.has('start')) {
    f.coldStartMs = median(colds);
    await sleep(SIZE.settleMs);
    f.idleRssMiB = s.rssKiB() / 1024;
    log(`${kind}: cold start ${colds.map((c) => c.toFixed(0)).join('/')} ms, idle RSS ${f.idleRssMiB.toFixed(1)} MiB`);
  }
  await createSprite(s, 'bench');
  if (groups.has('rest')) {
    f.rest = await restGet(s, 'bench', SIZE.restSeconds);
    windows.push({ kind, phase: 'rest', pid: s.pid, fromUs: f.rest.fromUs, toUs: f.rest.toUs, ops: f.rest.requests });
    log(`${kind}: REST GET ${f.rest.reqPerSec.toFixed(0)} req/s, p99 ${f.rest.p99} ms`);
  }
  if (groups.has('exec')) {
    f.wsExec = await wsExec(s, 'bench', SIZE.wsSequential, SIZE.wsSeconds);
    windows.push({ kind, phase: 'ws-exec', pid: s.pid, fromUs: f.wsExec.fromUs, toUs: f.wsExec.toUs, ops: f.wsExec.execs });
    f.httpExec = await httpExec(s, 'bench', SIZE.httpSequential);
    log(
      `${kind}: WS exec p50 ${f.wsExec.latency.p50.toFixed(2)} / p99 ${f.wsExec.latency.p99.toFixed(2)} ms, ` +
        `${f.wsExec.execsPerSec.toFixed(0)} execs/s; HTTP exec p50 ${f.httpExec.p50.toFixed(2)} ms`,
    );
  }
  await stop(s);
}

/**
 * fs write on a fresh process of `kind`: the first 100 files of a fresh sprite, then `SIZE.fsLarge` on another. The
 * baselines keep the bytes in a map (bench/baselines/common.ts): their figure is the floor of the transport and
 * the framework for a 10 KiB upload.
 */
async function measureFsWrite(kind: ServerKind, f: Figures): Promise<void> {
  if (!groups.has('fs')) return;
  const s = await start(kind);
  f.fsFirst100 = await fsWrite(s, 'fs-small', 100);
  const fromUs = monotonicUs();
  f.fsLarge = { files: SIZE.fsLarge, filesPerSec: await fsWrite(s, 'fs-large', SIZE.fsLarge) };
  windows.push({ kind, phase: 'fs-write', pid: s.pid, fromUs, toUs: monotonicUs(), ops: SIZE.fsLarge });
  log(`${kind}: fs write ${f.fsFirst100.toFixed(0)} files/s (100), ${f.fsLarge.filesPerSec.toFixed(0)} files/s (${SIZE.fsLarge})`);
  await stop(s);
}

/** Busy loops, memory per sprite and heap cycles: spritzer only, each on a fresh process. */
async function measureSpritzerOnly(f: Figures): Promise<void> {
  if (groups.has('busy')) {
    const s = await start('spritzer');
    f.busy = await busyHealth(s);
    log(`spritzer: health beside ${f.busy.loops} busy loops: ${f.busy.samples.map((x) => x.toFixed(0)).join('/')} ms`);
    running.delete(s);
    await s.stop(1000); // a stalled server cannot run its SIGTERM handler
  }
  if (groups.has('memory')) {
    const s = await start('spritzer', { heapProbe: true });
    f.perSprite = await memoryPerSprite(s, SIZE.sprites);
    log(`spritzer: ${f.perSprite.perSpriteKiB.toFixed(1)} KiB RSS per sprite (heap ${f.perSprite.heapPerSpriteKiB.toFixed(1)} KiB)`);
    await stop(s);
  }
  if (groups.has('heap')) {
    const s = await start('spritzer', { heapProbe: true });
    f.heap = await heapCycles(s, SIZE.cycles);
    const h = f.heap;
    log(`spritzer: heap ${h.firstRound.startMiB.toFixed(1)} → ${h.firstRound.endMiB.toFixed(1)} MiB after ${h.cycles} cycles, then ${h.startMiB.toFixed(1)} → ${h.endMiB.toFixed(1)} MiB after ${h.cycles} more`);
    await stop(s);
  }
}

/** Runs bench/checkpoint.ts in its own process (with --expose-gc); its output is printed as it is. */
function runCheckpoint(): { exitCode: number; output: string } {
  const r = spawnSync(serverNode, ['--expose-gc', '--import', 'tsx', 'bench/checkpoint.ts'], { cwd: ROOT, encoding: 'utf8' });
  return { exitCode: r.status ?? 1, output: `${r.stdout}${r.stderr}` };
}

/**
 * Functions whose inclusive time the profile summaries report: the stages of spritzer's request and exec paths
 * (route lookup, request and response validation, logging, body parsing, the handler, the shell engine).
 */
const FOCUS =
  /^(lookupRoute|writeFile|validate|_validate|loggingMiddleware|onResFinished|jsonParser|rawParser|generateETag|getSprite|toWireSprite|runShell|exists|upgradeExec|handleUpgrade|sendSessionInfo|modifyRequest) /;

/** Summaries of the profiled windows (files `CPU.*.<pid>.*.cpuprofile` in the profile dir). */
function summarizeWindows(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const parts: string[] = [];
  const printed = new Set<string>();
  for (const w of windows) {
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread (1 is tsx's loader worker).
    const file = files.find((f) => f.split('.')[3] === String(w.pid) && f.split('.')[4] === '0');
    if (!file) continue;
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const title = `${w.kind} ${w.phase} (pid ${w.pid}, ${file})`;
    const text = formatSummary(title, summarizeProfile(profile, { fromUs: w.fromUs, toUs: w.toUs, ops: w.ops, focus: FOCUS }));
    writeFileSync(join(dir, `summary-${w.kind}-${w.phase}-${w.pid}.md`), `${text}\n`);
    if (!printed.has(`${w.kind} ${w.phase}`)) parts.push(text);
    printed.add(`${w.kind} ${w.phase}`);
  }
  writeFileSync(join(dir, 'windows.json'), `${JSON.stringify(windows, null, 2)}\n`);
  return parts.join('\n\n');
}

async function main(): Promise<number> {
  const load0 = loadavg();
  const results: Results = {};
  const startedAt = new Date().toISOString();
  log(`${quick ? 'quick' : 'full'} run of ${servers.join(', ')}: ${[...groups].join(', ')}${profileDir ? ` (profiling into ${profileDir})` : ''}`);
  for (const kind of servers) {
    const f: Figures = (results[kind] = {});
    await measureServer(kind, f);
    await measureFsWrite(kind, f);
    if (kind === 'spritzer') await measureSpritzerOnly(f);
  }
  const load1 = loadavg();
  const header =
    `spritzer benchmark, ${startedAt}, servers on node ${serverNodeVersion}, ${cpus().length} cores, load average ${load0[0]!.toFixed(2)} → ${load1[0]!.toFixed(2)}` +
    `${quick ? ', --quick' : ''}${values.production ? ', NODE_ENV=production' : ''}${profileDir ? ', PROFILED (not a benchmark)' : ''}`;
  const rows = tableRows(results);
  if (rows.length) {
    console.log(header);
    console.log(formatTable(results, values.markdown));
  }
  let checkpoint: { exitCode: number; output: string } | undefined;
  if (groups.has('checkpoint')) {
    checkpoint = runCheckpoint();
    console.log(`\ncheckpoint (bench/checkpoint.ts):\n${checkpoint.output.trimEnd()}`);
  }
  if (profileDir) console.log(`\n${summarizeWindows(profileDir)}`);
  if (values.json) {
    const doc = { header, startedAt, node: serverNodeVersion, cores: cpus().length, loadavg: [load0, load1], quick, production: values.production, results, rows, checkpoint };
    writeFileSync(values.json, `${JSON.stringify(doc, null, 2)}\n`);
  }
  const failed = rows.some((r) => r.result === 'FAIL') || (checkpoint !== undefined && checkpoint.exitCode !== 0);
  return failed ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (err) {
  console.error(`bench: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  process.exitCode = 2;
} finally {
  for (const s of running) await s.stop();
  process.exit();
}
