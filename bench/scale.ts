/**
 * `npm run bench:scale`: the scale curves on the default engine — 10 / 100 / 1,000 / 10,000 sprites held at once
 * (RSS, create p50/p99, REST GET p50 of one sprite, listing them all), and 1 / 10 / 100 concurrent WebSocket execs
 * on one sprite and across sprites. Prints each curve with its growth exponent (figure ∝ size^k, over the whole span
 * and over the last step) and a verdict that nothing grows faster than linearly, and writes one SVG chart per curve. Never part of
 * `npm test`; tests never assert wall-clock time.
 * @see docs/performance.md "Scale"
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSprite, deleteSprite, pool, request, wsExecOnce } from './lib/load.ts';
import { renderTable } from './lib/report.ts';
import { execCurve, growthExponent, spriteCurve, type ExecStep, type SpriteStep } from './lib/scale-load.ts';
import { ROOT, startServer } from './lib/servers.ts';
import { lineChartSvg, type Series } from './lib/svg-plot.ts';

const HELP = `usage: npm run bench:scale -- [options]
  --quick        10 / 100 / 1,000 sprites and 1 s per exec level (figures are noisier)
  --out DIR      where the SVG charts go (default .tmp/bench/scale)
  --markdown     print the tables as Markdown
  --node FILE    the node binary spritzer runs on (default: this one)`;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    markdown: { type: 'boolean', default: false },
    node: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const quick = values.quick!;
const SIZES = quick ? [10, 100, 1000] : [10, 100, 1000, 10_000];
const LEVELS = [1, 10, 100];
const SECONDS = quick ? 1 : 3;
const outDir = resolve(values.out ?? join(ROOT, '.tmp/bench/scale'));
const log = (msg: string) => process.stderr.write(`bench:scale: ${msg}\n`);

/**
 * The bound each curve must stay under, as a growth exponent: a per-request figure must stay flat (k ≤ 0.25: at
 * most ×5.6 over three decades), listing everything may grow linearly (k ≤ 1.25), exec latency with concurrency
 * at most linearly (k ≤ 1.25: a queue, never worse).
 */
const BOUNDS = { flat: 0.25, linear: 1.25 };

interface Curve {
  name: string;
  points: Array<[number, number]>;
  bound: number;
}

/**
 * The curve's growth over its whole span and over its last step (where the largest sizes show the asymptote: a cost
 * quadratic from 1,000 sprites on hides in an exponent fitted from 10); the verdict takes the larger.
 */
function verdictOf(c: Curve): { k: string; kLast: string; result: string } {
  const k = growthExponent(c.points);
  const kLast = growthExponent(c.points.slice(-2));
  const worst = Math.max(k ?? -Infinity, kLast ?? -Infinity);
  const text = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(2));
  return { k: text(k), kLast: text(kLast), result: Number.isFinite(worst) ? (worst <= c.bound ? 'PASS' : 'FAIL') : '-' };
}

function num(x: number, digits = 2): string {
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function spriteTable(steps: SpriteStep[]): string {
  const head = ['sprites', 'RSS (MiB)', 'RSS per added sprite (KiB)', 'create p50 (ms)', 'create p99 (ms)', 'GET p50 (ms)', 'list all (ms)', 'pages'];
  const rows = steps.map((s, i) => {
    const prev = steps[i - 1];
    const perSprite = prev ? (((s.rssMiB - prev.rssMiB) * 1024) / (s.sprites - prev.sprites)).toFixed(1) : '—';
    return [s.sprites.toLocaleString('en-US'), num(s.rssMiB, 1), perSprite, num(s.createP50), num(s.createP99), num(s.getP50), num(s.listAllMs, 1), String(s.listPages)];
  });
  return renderTable(head, rows, values.markdown);
}

function execTable(label: string, steps: ExecStep[]): string {
  const head = [`${label}: clients`, 'p50 (ms)', 'p99 (ms)', 'execs/s'];
  return renderTable(head, steps.map((s) => [String(s.clients), num(s.p50), num(s.p99), num(s.execsPerSec, 0)]), values.markdown);
}

function chart(file: string, title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const path = join(outDir, file);
  writeFileSync(path, lineChartSvg({ title, xLabel, yLabel, logX: true, series }));
  return path;
}

async function main(): Promise<number> {
  mkdirSync(outDir, { recursive: true });
  const load0 = loadavg()[0]!;
  const server = await startServer('spritzer', { node: values.node ? resolve(values.node) : undefined });
  try {
    // Warm-up: V8 compiles the create, GET, list and exec paths here, not inside the first step.
    await pool(50, 16, (i) => createSprite(server, `warm-${i}`));
    for (let i = 0; i < 200; i++) await request(`${server.url}/v1/sprites/warm-${i % 50}`);
    for (let i = 0; i < 20; i++) await request(`${server.url}/v1/sprites?max_results=10`);
    for (let i = 0; i < 50; i++) await wsExecOnce(server, 'warm-0');
    await pool(50, 16, (i) => deleteSprite(server, `warm-${i}`));
    log(`sprites held: ${SIZES.join(', ')}`);
    const sprites = await spriteCurve(server, SIZES);
    log(`execs on one sprite and across sprites: ${LEVELS.join(', ')} clients, ${SECONDS} s each`);
    const one = await execCurve(server, LEVELS, () => 'scale-0', SECONDS);
    for (let i = SIZES.at(-1)!; i < Math.max(...LEVELS); i++) await createSprite(server, `scale-${i}`);
    const across = await execCurve(server, LEVELS, (i) => `scale-${i}`, SECONDS);

    console.log(`spritzer scale curves, shell engine, ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores, load ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}${quick ? ', --quick' : ''}`);
    console.log(`\n${spriteTable(sprites)}\n\n${execTable('one sprite', one)}\n\n${execTable('across sprites', across)}\n`);

    const size = (s: SpriteStep) => s.sprites;
    const curves: Curve[] = [
      { name: 'create p50 vs sprites held', points: sprites.map((s) => [size(s), s.createP50]), bound: BOUNDS.flat },
      { name: 'GET p50 vs sprites held', points: sprites.map((s) => [size(s), s.getP50]), bound: BOUNDS.flat },
      { name: 'RSS above the first step vs sprites added', points: sprites.slice(1).map((s) => [size(s) - sprites[0]!.sprites, s.rssMiB - sprites[0]!.rssMiB]), bound: BOUNDS.linear },
      { name: 'list all vs sprites held', points: sprites.map((s) => [size(s), s.listAllMs]), bound: BOUNDS.linear },
      { name: 'exec p50 vs clients, one sprite', points: one.map((s) => [s.clients, s.p50]), bound: BOUNDS.linear },
      { name: 'exec p50 vs clients, across sprites', points: across.map((s) => [s.clients, s.p50]), bound: BOUNDS.linear },
    ];
    const verdicts = curves.map((c) => ({ c, ...verdictOf(c) }));
    console.log(renderTable(['curve', 'growth exponent k, whole span', 'k, last step', 'bound', 'result'], verdicts.map((v) => [v.c.name, v.k, v.kLast, `≤ ${v.c.bound}`, v.result]), values.markdown));

    const files = [
      chart('sprites-rss.svg', 'RSS vs sprites held (shell)', 'sprites held', 'MiB', [{ name: 'RSS', points: sprites.map((s) => [size(s), s.rssMiB]) }]),
      chart('sprites-latency.svg', 'Latency vs sprites held (shell)', 'sprites held', 'ms', [
        { name: 'create p50', points: sprites.map((s) => [size(s), s.createP50]) },
        { name: 'create p99', points: sprites.map((s) => [size(s), s.createP99]) },
        { name: 'GET p50', points: sprites.map((s) => [size(s), s.getP50]) },
      ]),
      chart('sprites-list.svg', 'Listing every sprite (shell)', 'sprites held', 'ms', [{ name: 'list all', points: sprites.map((s) => [size(s), s.listAllMs]) }]),
      chart('exec-concurrency.svg', 'WS exec echo ok vs concurrent clients (shell)', 'concurrent clients', 'ms', [
        { name: 'p50, one sprite', points: one.map((s) => [s.clients, s.p50]) },
        { name: 'p99, one sprite', points: one.map((s) => [s.clients, s.p99]) },
        { name: 'p50, across', points: across.map((s) => [s.clients, s.p50]) },
        { name: 'p99, across', points: across.map((s) => [s.clients, s.p99]) },
      ]),
    ];
    console.log(`\ncharts: ${files.join(', ')}`);
    return verdicts.some((v) => v.result === 'FAIL') ? 1 : 0;
  } finally {
    await server.stop();
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  console.error(`bench:scale: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  process.exitCode = 2;
}
