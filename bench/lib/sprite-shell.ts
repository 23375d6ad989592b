/**
 * Running a shell script in a machine directly, for the benchmarks that measure machines without a server
 * (bench/sandbox.ts, bench/noisy-neighbour.ts, bench/k8s.ts): `sh -c script` as the sprite user in its home, stdout collected,
 * stderr dropped. It owns nothing the server does; a benchmark's own figures are its business.
 */
import type { Machine } from '../../src/server/machines/port.ts';

/** Starts `sh -c script` in `m`; `exit` resolves with its exit code, `out()` is the stdout so far. */
export function startScript(m: Pick<Machine, 'spawn'>, script: string, log?: { path: string; tap: boolean }): { exit: Promise<number>; out: () => string } {
  let out = '';
  const p = m.spawn(
    { argv: ['sh', '-c', script], env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/sprite' }, dir: '/home/sprite', tty: false, rows: 24, cols: 80, ...(log ? { log } : {}) },
    { stdout: (d) => (out += Buffer.from(d).toString()), stderr: () => undefined },
    { stdin: false },
  );
  return { exit: p.exit, out: () => out };
}
