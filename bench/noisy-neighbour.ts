/**
 * The "noisy neighbour" run of the sandbox engine: four sprites attack their own limits at once — a fork bomb
 * (bash `:(){ :|:& };:`, stopped by the sprite's pids limit), a memory hog (python3 allocating past the sprite's
 * memory limit, OOM-killed and started again), a disk filler (dd past the sprite's disk quota, deleted and
 * written again) and a log flooder (a service running `yes`, its log written inside its sprite, nobody listening)
 * — while a fifth sprite runs `echo ok` execs. It prints the fourth sprite's exec latency p50/p99
 * idle and under the attack, in the same run, and the ratio (the target: p99 within 2× of idle). The limits are
 * the engine's host-sized defaults (docs/limits.md) unless `--memory <MiB>` / `--pids <n>` / `--cpus <n>` (a CFS quota in cores; none by default) say otherwise; the disk
 * filler's and the log flooder's quota is 256 MiB. Tests never run it and never assert wall-clock time. Needs Linux, root and bubblewrap.
 * Busy sprites yield the CPU after `--yield-after <ms>` (the engine's default; 0 never: the comparison without it).
 * With the figures, the host's own counters for both phases (bench/lib/contention.ts): run-queue waits, where the
 * CPU went (spritzer, kernel threads by kind, the rest), reclaim, writeback and pressure stalls.
 * Run: `npm run bench:noisy` (`-- --execs 300 --settle 3000`; `--only fork,memory,disk,log` runs a subset of the attackers).
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { buildAgent } from '../src/server/machines/agent/bundle.ts';
import { SandboxMachineFactory, type SandboxMachine } from '../src/server/machines/sandbox/sandbox-machine.ts';
import { defaultSpriteResources } from '../src/server/config/sprite-resources.ts';
import { startScript } from './lib/sprite-shell.ts';
import { contentionTable, measureContention } from './lib/contention.ts';

const { values } = parseArgs({
  options: {
    execs: { type: 'string', default: '200' }, settle: { type: 'string' }, memory: { type: 'string' }, pids: { type: 'string' }, cpus: { type: 'string' },
    // `--sandbox-cpu-yield-after` (ms; 0 never): how long an attacker may keep a core busy before it yields the CPU.
    'yield-after': { type: 'string', default: String(defaultSpriteResources().cpuYieldAfterMs) },
    // A comma-separated subset of the attackers (`fork`, `memory`, `disk`, `log`): which one the victim contends with.
    only: { type: 'string' },
  },
});
const EXECS = Number(values.execs);
const YIELD_AFTER_MS = Number(values['yield-after']);
/** The attackers run this long before the measuring starts: by default long enough for busy ones to yield. */
const SETTLE_MS = values.settle ? Number(values.settle) : YIELD_AFTER_MS + 3000;
const MiB = 1024 ** 2;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))]!;
}

/** `EXECS` sequential `echo ok` execs; resolves with each one's round trip in ms. */
async function echoes(m: SandboxMachine): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < EXECS; i++) {
    const t0 = performance.now();
    const r = startScript(m, 'echo ok');
    const code = await r.exit;
    if (code !== 0 || r.out() !== 'ok\n') throw new Error(`echo ok failed (exit ${code}, ${JSON.stringify(r.out())})`);
    times.push(performance.now() - t0);
  }
  return times;
}

const ATTACKS = {
  'fork bomb': 'bash -c \':(){ :|:& };:\'; sleep 600',
  'memory hog': 'while :; do python3 -c "a = []\nwhile True: a.append(bytearray(64 * 1024 * 1024))"; done',
  'disk filler': 'while :; do dd if=/dev/zero of=fill bs=1M count=1024 conv=fsync 2>/dev/null; rm -f fill; done',
  // As a service runs: its output goes to its log (the agent writes it inside the sprite), and nobody listens.
  'log flooder': 'exec yes flood-flood-flood-flood-flood-flood-flood-flood',
};
/** The log of the log flooder; truncated now and then so that it stays under the sprite's disk quota. */
const FLOOD_LOG = { path: '/.sprite/logs/services/flood.log', tap: false };

if (process.platform !== 'linux' || process.getuid?.() !== 0 || spawnSync('bwrap', ['--version']).status !== 0) {
  console.log('bench:noisy skipped: needs Linux, root and bubblewrap');
  process.exit(0);
}
await buildAgent();
const defaults = defaultSpriteResources();
const limits = {
  memoryBytes: values.memory ? Number(values.memory) * MiB : defaults.memoryBytes,
  pids: values.pids ? Number(values.pids) : defaults.pids,
  ...(values.cpus ? { cpus: Number(values.cpus) } : {}),
};
const factory = await SandboxMachineFactory.open({ limits, spares: 0, cpuYieldAfterMs: YIELD_AFTER_MS });
console.log(`noisy neighbour: limits per sprite ${Math.round(limits.memoryBytes / MiB)} MiB, ${limits.pids} pids, ${limits.cpus ?? 'no'} CPU quota (${factory.limitsMode}); busy sprites yield after ${YIELD_AFTER_MS || 'never'} ms; disk filler quota 256 MiB; ${EXECS} execs each phase`);
console.log('(the machine may be shared with other work: read the figures as one run, idle and noisy side by side)');
try {
  const victim = await factory.create({ name: 'victim', id: 'noisy-victim' });
  const wanted = values.only?.split(',');
  const names = (Object.keys(ATTACKS) as Array<keyof typeof ATTACKS>).filter((n) => !wanted || wanted.includes(n.split(' ')[0]!));
  const attackers = await Promise.all(names.map((n, i) => factory.create({ name: `noisy-${i}`, id: `noisy-${i}`, diskQuotaBytes: n === 'disk filler' || n === 'log flooder' ? 256 * MiB : undefined })));
  await echoes(victim); // warm-up, not counted
  const idleHost = measureContention();
  const idle = await echoes(victim);
  const idleContention = idleHost.stop();
  const running = names.map((n, i) => startScript(attackers[i]!, ATTACKS[n], n === 'log flooder' ? FLOOD_LOG : undefined));
  const flooder = attackers[names.indexOf('log flooder')];
  const trim = setInterval(() => flooder && void startScript(flooder, `truncate -s 0 ${FLOOD_LOG.path}`), 2000);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const held = await Promise.all(attackers.map(async (m) => (await m.processes()).pids.length));
  const yielding = attackers.map((m) => m.cpuYielding);
  const noisyHost = measureContention();
  const noisy = await echoes(victim);
  const noisyContention = noisyHost.stop();
  clearInterval(trim);
  await Promise.all(attackers.map((m) => m.stop()));
  await Promise.all(running.map((r) => r.exit));
  const row = (label: string, xs: number[]) => console.log(`${label.padEnd(28)} p50 ${pct(xs, 50).toFixed(2).padStart(7)} ms   p99 ${pct(xs, 99).toFixed(2).padStart(7)} ms`);
  row('victim echo ok, idle', idle);
  row('victim echo ok, neighbours', noisy);
  console.log(`host processes held by the attackers when measuring: ${names.map((n, i) => `${n} ${held[i]}`).join(', ')}`);
  console.log(`attackers yielding the CPU when measuring: ${names.filter((_, i) => yielding[i]).join(', ') || 'none'}; the victim ${victim.cpuYielding ? 'yielding (!)' : 'not yielding'}`);
  // What the host contended on while the victim measured: the evidence behind the ratio.
  console.log(contentionTable({ idle: idleContention, neighbours: noisyContention }));
  const ratio = pct(noisy, 99) / pct(idle, 99);
  console.log(`p99 noisy / idle: ${ratio.toFixed(2)}×  target ≤ 2×  ${ratio <= 2 ? 'ok' : 'MISSED'}`);
} finally {
  await factory.close();
}
