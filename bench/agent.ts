/**
 * Agent benchmark: the exec round trip of `echo ok` through the real bundled agent on the host (spawn frame → fork
 * + exec → output → exit frame), p50/p99 over sequential runs, plus an fs `stat` round trip for the protocol's own
 * cost. Run with `npm run bench:agent`; it prints figures only (the target: exec round trip p50 ≤ 5 ms) and
 * is never run by tests.
 */
import { startTestAgent } from '../test/support/agent.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const WARMUP = 20;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const agent = await startTestAgent();
try {
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' };
  let pid = 1;
  const execOnce = async (): Promise<number> => {
    let out = '';
    const t0 = performance.now();
    const p = agent.client.spawn(
      { argv: ['echo', 'ok'], env, dir: '/home/sprite', tty: false, rows: 24, cols: 80, uid: 1000, gid: 1000 },
      { stdout: (d) => (out += Buffer.from(d).toString()), stderr: () => undefined },
      { stdin: false, pid: pid++ },
    );
    const code = await p.exit;
    const ms = performance.now() - t0;
    if (code !== 0 || out !== 'ok\n') throw new Error(`echo ok gave exit ${code} and ${JSON.stringify(out)}`);
    return ms;
  };
  for (let i = 0; i < WARMUP; i++) await execOnce();
  const exec: number[] = [];
  for (let i = 0; i < RUNS; i++) exec.push(await execOnce());

  const stat: number[] = [];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const t0 = performance.now();
    await agent.client.fs.stat('/home/sprite');
    if (i >= WARMUP) stat.push(performance.now() - t0);
  }

  const row = (name: string, xs: number[], target?: number) =>
    `${name.padEnd(34)} p50 ${pct(xs, 50).toFixed(2).padStart(7)} ms   p99 ${pct(xs, 99).toFixed(2).padStart(7)} ms` +
    (target === undefined ? '' : `   target p50 ≤ ${target} ms: ${pct(xs, 50) <= target ? 'PASS' : 'FAIL'}`);
  console.log(`agent bench (${RUNS} runs each, host, --root temp dir)`);
  console.log(row('exec round trip `echo ok`', exec, 5));
  console.log(row('fs stat round trip', stat));
} finally {
  await agent.stop();
}
