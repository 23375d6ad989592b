/**
 * Limits benchmark (docs/limits.md, "Sizes that are bounded by structure"): for each hostile input, the time of the
 * same operation at size n and 10·n (linear work gives a ratio near 10, quadratic near 100), next to the figure
 * measured before the input was bounded. Run with `npm run bench:limits`. It prints figures only; tests never run
 * it and never assert time.
 */
import { pino } from 'pino';
import { Vfs } from '../src/server/machines/memory/vfs.ts';
import { CheckpointHistory, withAncestor } from '../src/server/model/checkpoint-history.ts';
import { findNeedsCycle, startOrder } from '../src/server/model/service-graph.ts';
import { FaultRegistry } from '../src/server/http/faults.ts';
import { watchPaths } from '../src/server/ws/watch-limits.ts';
import { defaultDeps, startServer } from '../src/server/server.ts';
import { SequentialIds } from '../src/server/core/ids.ts';

/** Wall time of `fn` in milliseconds (best of 3). */
async function ms(fn: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

const rows: string[][] = [['input', 'operation', 'n', 'time at n', 'time at 10n', 'ratio', 'before it was bounded']];
async function scaling(item: string, what: string, n: number, run: (n: number) => unknown, before: string): Promise<void> {
  await run(n); // warm up the JIT
  const small = await ms(() => run(n));
  const big = await ms(() => run(10 * n));
  rows.push([item, what, String(n), `${small.toFixed(1)} ms`, `${big.toFixed(1)} ms`, (big / small).toFixed(1), before]);
}

// Deep paths: no VFS operation recurses over the depth of the tree.
await scaling('deep paths', 'mkdir -p, depth n (VFS)', 2000, (n) => new Vfs().mkdir('/a'.repeat(n), { recursive: true }), 'depth 5,000 write: 6.5 s; 6,000: 500 (stack)');
await scaling('deep paths', 'diff + rm -r of a chain n deep', 2000, (n) => {
  const vfs = new Vfs();
  const before = vfs.snapshot();
  vfs.mkdir('/a'.repeat(n), { recursive: true });
  Vfs.diff(before, vfs.snapshot());
  vfs.rm('/a', { recursive: true });
}, 'stack overflow past ~10k levels');

// Watch subscriptions: duplicate and nested paths are dropped.
await scaling('fs/watch', 'subscribe with n copies of /', 200_000, (n) => watchPaths(Array(n).fill('/'), undefined, true), '200,000 copies: every write took 4 s');

// Checkpoint history: a pointer to the parent's, so N checkpoints take O(N) space.
const chain = (n: number) => {
  let h = CheckpointHistory.EMPTY;
  const out: Array<{ history: CheckpointHistory }> = [];
  for (let i = 1; i <= n; i++) {
    out.push({ history: h });
    h = h.append(`v${i}`);
  }
  return out;
};
await scaling('checkpoints', 'n checkpoints in a chain + ?history=v1', 11_000, (n) => withAncestor(chain(n), 'v1'), '11k checkpoints: 528 MB, then 500');

// Fault rules and service chains.
await scaling('faults', 'add n fault rules', 1000, (n) => {
  const f = new FaultRegistry(Infinity);
  for (let i = 0; i < n; i++) f.add({ status: 500, sprite: 'nobody' });
}, '10k rules: 56 s (over HTTP)');
const needs = (n: number) => (name: string) => {
  const i = Number(name.slice(1));
  return i >= 0 && i < n ? (i === 0 ? [] : [`s${i - 1}`]) : undefined;
};
await scaling('services', 'cycle check + start order, chain of n', 2000, (n) => {
  findNeedsCycle(`s${n}`, [`s${n - 1}`], needs(n));
  startOrder([`s${n - 1}`], needs(n));
}, 'chain of 2,919: 425 ms per create');

// Checkpoints and sprite field sizes over HTTP: response sizes.
const srv = await startServer(defaultDeps({ ids: new SequentialIds(), logger: pino({ level: 'silent' }), validateResponses: false }));
const auth = { Authorization: 'Bearer bench', 'Content-Type': 'application/json' };
const post = (path: string, body: unknown) => fetch(srv.url + path, { method: 'POST', headers: auth, body: JSON.stringify(body) }).then((r) => r.text());
for (let i = 0; i < 20; i++) {
  await post('/v1/sprites', { name: `s${i}`, labels: Array(64).fill('l'.repeat(128)), config: { region: 'x'.repeat(64) }, environment: { E: 'e'.repeat(60_000) } });
}
const list = await fetch(`${srv.url}/v1/sprites`, { headers: auth }).then((r) => r.text());
const sprite = srv.spritzer.ctx.model.get('s0');
for (let i = 0; i < 11_000; i++) await sprite.createCheckpoint('');
let cpBytes = 0;
const cpMs = await ms(async () => {
  cpBytes = (await fetch(`${srv.url}/v1/sprites/s0/checkpoints`, { headers: auth }).then((r) => r.text())).length;
});
await srv.close();

console.log(rows.map((r) => `| ${r.join(' | ')} |`).join('\n'));
console.log(`\nsprite field sizes: GET /v1/sprites with 20 sprites at every field's cap: ${(list.length / 1024).toFixed(0)} KiB (before: 183 MB with ~10 MB fields)`);
console.log(`checkpoints: GET …/checkpoints with 11,000 checkpoints: ${(cpBytes / 1024).toFixed(0)} KiB in ${cpMs.toFixed(0)} ms (before: 528 MB held, then a permanent 500)`);
