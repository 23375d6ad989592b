/**
 * `npx tsx bench/shell-exec.ts [n]`: what one exec costs inside the `shell` engine alone, without a server or a
 * socket — an in-memory sprite, `bash -c SCRIPT` spawned `n` times one after the other (default 2,000, after 300
 * to warm up) for a few scripts, printing wall and CPU time per exec in µs (CPU: this process's user + system, all
 * threads, so it can exceed wall). Compare two builds by running both in turn, alternating: on a shared machine the
 * CPU column is the steadier one. Never part of `npm test`.
 * @see docs/performance.md "The shell engine's exec"
 */
import { MemoryMachine } from '../src/server/machines/memory/machine.ts';
import { createShellEngine } from '../src/server/machines/memory/shell/engine.ts';
import { SystemClock } from '../src/server/core/clock.ts';

/** Each script with its stdout: a run that answers anything else stops the benchmark (it would time a failure). */
const SCRIPTS: [string, string][] = [
  ['true', ''],
  ['echo ok', 'ok\n'],
  ['echo a; echo b; echo c', 'a\nb\nc\n'],
  ['printf "%s\\n" b a | sort | head -n 1', 'a\n'],
];
const n = Number(process.argv[2] ?? 2000);
const clock = new SystemClock();
const sprite = new MemoryMachine({ name: 'bench', id: 'spr_bench' }, createShellEngine({ clock }), clock, {});

/** Runs `script` once as an exec would; resolves with its stdout. */
async function run(script: string): Promise<string> {
  let out = '';
  const p = sprite.spawn(
    { argv: ['bash', '-c', script], env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80 },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: () => undefined },
    { stdin: false },
  );
  await p.exit;
  return out;
}

for (const [script, expected] of SCRIPTS) {
  const got = await run(script);
  if (got !== expected) {
    console.error(`shell-exec: ${JSON.stringify(script)} printed ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    process.exit(1);
  }
  for (let i = 0; i < 300; i++) await run(script);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await run(script);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  console.log(`${JSON.stringify(script).padEnd(42)} wall ${((1000 * wall) / n).toFixed(0).padStart(5)} µs  CPU ${((cpu.user + cpu.system) / n).toFixed(0).padStart(5)} µs per exec`);
}
