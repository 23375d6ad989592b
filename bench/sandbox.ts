/**
 * Sandbox engine benchmark (docs/sandbox.md "Measure"): create + first exec, the `echo ok` round trip, checkpoint and
 * restore of a sprite holding 100 files and 10,000 files / 100 MB, and the memory and processes of an idle sprite. It
 * prints the figures next to their targets (`TARGETS` below); tests never run it and never assert wall-clock time.
 * Needs Linux, root and bubblewrap (it says so and exits 0 otherwise). Run: `npm run bench:sandbox`; `-- --only scale`
 * runs the scale curves alone (1 / 10 / 50 sprites held: create + first exec with and without a spare, the exec round
 * trip, and the host memory an idle sprite costs, as the fall of `MemAvailable` over 20 and over 200 idle sprites),
 * with an SVG chart per curve in `.tmp/bench/scale/`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/servers.ts';
import { lineChartSvg } from './lib/svg-plot.ts';
import { buildAgent } from '../src/server/machines/agent/bundle.ts';
import type { MachineSnapshot } from '../src/server/machines/port.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../src/server/machines/sandbox/sandbox-machine.ts';
import { startScript } from './lib/sprite-shell.ts';
import { timed } from './lib/timing.ts';

const TARGETS = { createP50: 50, echoP50: 5, checkpoint: 20, restore: 300 };

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]!;
}

function ms(n: number): string {
  return `${n.toFixed(1)} ms`;
}

function line(name: string, value: string, target?: string, ok?: boolean): void {
  const verdict = ok === undefined ? '' : ok ? '  ok' : '  MISSED';
  console.log(`${name.padEnd(44)} ${value.padEnd(26)} ${target ? `target ${target}` : ''}${verdict}`);
}

/** Runs `sh -c script` as the sprite user; resolves with stdout and the exit code. */
async function run(m: SandboxMachine, script: string): Promise<{ out: string; code: number }> {
  const started = startScript(m, script);
  const code = await started.exit;
  return { out: started.out(), code };
}

/** Writes `files` files totalling `bytes` under ~/data with one python3 process inside the sprite. */
async function fill(m: SandboxMachine, files: number, bytes: number): Promise<void> {
  const size = Math.floor(bytes / files);
  const py = `import os\nfor i in range(${files}):\n  d = 'data/d%d' % (i // 100)\n  os.makedirs(d, exist_ok=True)\n  open('%s/f%d' % (d, i % 100), 'wb').write(os.urandom(${size}))`;
  const r = await run(m, `python3 -c "${py.replace(/"/g, '\\"')}"`);
  if (r.code !== 0) throw new Error(`fill failed (${r.code})`);
}

async function checkpointRestore(factory: SandboxMachineFactory, label: string, files: number, bytes: number): Promise<void> {
  const m = await factory.create({ name: `bench-${files}`, id: `sprite-bench-${files}` });
  await fill(m, files, bytes);
  const snaps: MachineSnapshot[] = [];
  const cp: number[] = [];
  for (let i = 0; i < 11; i++) {
    await run(m, `echo ${i} > data/marker`);
    const [t, s] = await timed(() => m.snapshot());
    cp.push(t);
    snaps.push(s);
  }
  const rs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [t] = await timed(() => m.restore(snaps[i % snaps.length]!));
    rs.push(t);
  }
  const check = await run(m, 'cat data/marker; ls data | wc -l');
  line(`checkpoint, ${label} (p50 of 11; first)`, `${ms(pct(cp, 50))}; ${ms(cp[0]!)}`, `≤ ${TARGETS.checkpoint} ms`, pct(cp, 50) <= TARGETS.checkpoint);
  line(`restore, ${label} (p50 of 5)`, ms(pct(rs, 50)), `≤ ${TARGETS.restore} ms`, pct(rs, 50) <= TARGETS.restore);
  if (check.out.split('\n')[0] !== '4') console.log(`  (unexpected state after the last restore: ${JSON.stringify(check.out)})`);
  await m.destroy();
}

/** Creates 15 sprites one after another (`spares` kept booted; each create waits for a full pool first, untimed). */
async function createRow(name: string, spares: number): Promise<void> {
  const factory = await SandboxMachineFactory.open({ spares });
  try {
    const create: number[] = [];
    for (let i = 0; i < 15; i++) {
      await factory.spares.settled();
      const [t] = await timed(async () => {
        const m = await factory.create({ name: `s${i}`, id: `sprite-s${i}` });
        const r = await run(m, 'echo ok');
        if (r.out !== 'ok\n') throw new Error(`first exec printed ${JSON.stringify(r.out)}`);
        return m;
      });
      create.push(t);
    }
    line(name, `${ms(pct(create, 50))} / ${ms(pct(create, 99))}`, `p50 ≤ ${TARGETS.createP50} ms`, pct(create, 50) <= TARGETS.createP50);
  } finally {
    await factory.close();
  }
}

/** `MemAvailable` of /proc/meminfo, MiB: the memory the host can still give without swapping. @see proc(5) */
function memAvailableMiB(): number {
  const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
  if (!m) throw new Error('no MemAvailable in /proc/meminfo');
  return Number(m[1]) / 1024;
}

/** One exec of `echo ok` on `m`, checked; ms. */
async function echoOnce(m: SandboxMachine): Promise<number> {
  const [t, r] = await timed(() => run(m, 'echo ok'));
  if (r.out !== 'ok\n') throw new Error(`exec printed ${JSON.stringify(r.out)}`);
  return t;
}

/**
 * The scale curves: at 1, 10 and 50 sprites held, the create + first exec of the next sprite (booted on create,
 * and adopting a ready spare) and the `echo ok` round trip on one of them; then the fall of `MemAvailable` per
 * idle sprite over 20 and over 200 sprites, after the page cache has settled (the real cost to the host, where
 * summing RSS would count shared pages once per process).
 */
async function scale(): Promise<void> {
  const out = join(ROOT, '.tmp/bench/scale');
  mkdirSync(out, { recursive: true });
  const curve: Array<{ held: number; cold: number; spare: number; echo: number }> = [];
  for (const held of [1, 10, 50]) {
    const cold = await SandboxMachineFactory.open({ spares: 0 });
    const warm = await SandboxMachineFactory.open({ spares: 1 });
    const machines: SandboxMachine[] = [];
    try {
      for (let i = 0; i < held; i++) machines.push(await cold.create({ name: `h${i}`, id: `sprite-h${i}` }));
      const [tCold, c] = await timed(async () => {
        const m = await cold.create({ name: 'next', id: 'sprite-next' });
        await echoOnce(m);
        return m;
      });
      machines.push(c);
      await warm.spares.settled();
      const [tSpare, w] = await timed(async () => {
        const m = await warm.create({ name: 'next-spare', id: 'sprite-next-spare' });
        await echoOnce(m);
        return m;
      });
      machines.push(w);
      const echo: number[] = [];
      for (let i = 0; i < 50; i++) echo.push(await echoOnce(machines[0]!));
      curve.push({ held, cold: tCold, spare: tSpare, echo: pct(echo, 50) });
      line(`${held} held: create + first exec cold / with a spare; echo p50`, `${ms(tCold)} / ${ms(tSpare)}; ${ms(pct(echo, 50))}`);
    } finally {
      for (const m of machines) await m.destroy();
      await cold.close();
      await warm.close();
    }
  }
  const mem: Array<[number, number]> = [];
  for (const count of [20, 200]) {
    const factory = await SandboxMachineFactory.open({ spares: 0 });
    const machines: SandboxMachine[] = [];
    try {
      // MemAvailable is the whole host's: how far it moves by itself over the settle time bounds what it can tell.
      const drift0 = memAvailableMiB();
      await new Promise((r) => setTimeout(r, 5000));
      const before = memAvailableMiB();
      const drift = Math.abs(before - drift0);
      for (let i = 0; i < count; i++) machines.push(await factory.create({ name: `idle${i}`, id: `sprite-idle${i}` }));
      await echoOnce(machines[count - 1]!);
      await new Promise((r) => setTimeout(r, 5000)); // let the agents finish starting and the page cache settle
      const perSprite = (before - memAvailableMiB()) / count;
      const unstable = perSprite <= 0 || drift / count > perSprite / 4;
      mem.push([count, Math.max(perSprite, 0)]);
      const note = unstable ? ` (unreliable: the host's MemAvailable moved ${drift.toFixed(0)} MiB in 5 s with no sprite change; rerun on a quiet machine)` : '';
      line(`idle sprite: MemAvailable fall per sprite, over ${count}`, `${perSprite.toFixed(1)} MiB${note}`, '≤ 10 MiB', unstable ? undefined : perSprite <= 10);
    } finally {
      for (const m of machines) await m.destroy();
      await factory.close();
    }
  }
  const held = (k: 'cold' | 'spare' | 'echo') => curve.map((c) => [c.held, c[k]] as [number, number]);
  writeFileSync(
    join(out, 'sandbox-create-exec.svg'),
    lineChartSvg({ title: 'Sandbox: create + first exec, and exec, vs sprites held', xLabel: 'sprites held', yLabel: 'ms', logX: true, series: [
      { name: 'create, cold', points: held('cold') },
      { name: 'create, spare', points: held('spare') },
      { name: 'echo ok p50', points: held('echo') },
    ] }),
  );
  writeFileSync(
    join(out, 'sandbox-idle-memory.svg'),
    lineChartSvg({ title: 'Sandbox: host memory per idle sprite', xLabel: 'idle sprites', yLabel: 'MiB per sprite (MemAvailable fall)', logX: true, series: [{ name: 'per sprite', points: mem }] }),
  );
  console.log(`charts: ${join(out, 'sandbox-create-exec.svg')}, ${join(out, 'sandbox-idle-memory.svg')}`);
}

async function main(): Promise<void> {
  const skip =
    process.platform !== 'linux' ? 'not Linux' : process.getuid?.() !== 0 ? 'not root' : spawnSync('bwrap', ['--version']).status !== 0 ? 'bwrap missing' : '';
  if (skip) {
    console.log(`sandbox bench skipped: ${skip}`);
    return;
  }
  await buildAgent();
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  if (only === 'scale') return scale();
  // Side by side in one run: every sprite booted on create, then adopting a spare (`--sandbox-spares`).
  await createRow('create + first exec, cold (p50 / p99 of 15)', 0);
  await createRow('create + first exec, spare ready (p50 / p99 of 15)', 1);
  if (only === 'create') return;
  const factory = await SandboxMachineFactory.open();
  const load = spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.trim();
  console.log(`sandbox engine: snapshots by ${factory.snapshotMode}, limits by ${factory.limitsMode}; load average ${load}`);
  try {
    const create: number[] = [];
    const machines: SandboxMachine[] = [];
    for (let i = 0; i < 15; i++) {
      const [t, m] = await timed(async () => {
        const m = await factory.create({ name: `c${i}`, id: `sprite-c${i}` });
        const r = await run(m, 'echo ok');
        if (r.out !== 'ok\n') throw new Error(`first exec printed ${JSON.stringify(r.out)}`);
        return m;
      });
      create.push(t);
      machines.push(m);
    }
    line('create + first exec (p50 / p99 of 15)', `${ms(pct(create, 50))} / ${ms(pct(create, 99))}`, `p50 ≤ ${TARGETS.createP50} ms`, pct(create, 50) <= TARGETS.createP50);

    const m = machines[0]!;
    const echo: number[] = [];
    for (let i = 0; i < 200; i++) echo.push((await timed(() => run(m, 'echo ok')))[0]);
    line('exec round trip `echo ok` (p50 / p99 of 200)', `${ms(pct(echo, 50))} / ${ms(pct(echo, 99))}`, `p50 ≤ ${TARGETS.echoP50} ms`, pct(echo, 50) <= TARGETS.echoP50);

    const idle = await Promise.all(machines.map((x) => x.processes()));
    const rss = idle.map((p) => p.rssBytes / 2 ** 20);
    const procs = idle.map((p) => p.pids.length);
    line('idle sprite: processes on the host', `${pct(procs, 50)} (bwrap ×2 + agent)`);
    line('idle sprite: resident memory (p50)', `${pct(rss, 50).toFixed(1)} MiB`);
    for (const x of machines) await x.destroy();

    await checkpointRestore(factory, '100 files', 100, 100 * 1024);
    await checkpointRestore(factory, '10,000 files / 100 MB', 10_000, 100 * 2 ** 20);
  } finally {
    await factory.close();
  }
}

await main();
