/**
 * `npx tsx bench/sprite-ports.ts [n]`: what a sprite's own port costs (url/sprite-origins.ts) — the memory of `n`
 * idle listeners (default 1,000; each an http.Server and one listening socket), as RSS and V8 heap per listener after
 * a GC, and the time to open and release them all. Never part of `npm test`.
 * @see docs/performance.md "Sprite ports"
 */
import { pino } from 'pino';
import { SpriteOrigins } from '../src/server/url/sprite-origins.ts';

const n = Number(process.argv[2] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
const measure = () => {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};
const relay = { request: () => undefined, upgrade: () => undefined };
const origins = new SpriteOrigins({ relay: () => relay, range: 'auto', logger: pino({ level: 'silent' }), maxHeaderBytes: 1 << 20 });
origins.listenOn('127.0.0.1');
const before = measure();
const t0 = performance.now();
for (let i = 0; i < n; i++) await origins.open(`s${i}`);
const opened = performance.now() - t0;
const after = measure();
const t1 = performance.now();
await origins.close();
const closed = performance.now() - t1;
const kib = (b: number) => (b / 1024).toFixed(1);
console.log(`${n} sprite ports: RSS +${kib((after.rss - before.rss) / n)} KiB and heap +${kib((after.heap - before.heap) / n)} KiB per sprite; open ${(opened / n).toFixed(3)} ms, release ${(closed / n).toFixed(3)} ms per sprite${gc ? '' : ' (run with node --expose-gc for steadier figures)'}`);
