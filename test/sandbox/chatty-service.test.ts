/**
 * A sprite's service logs as the sprite's code can make them. A service that writes output without pause (`yes`):
 * the agent writes its log inside the sprite and spritzer gets none of it while nobody listens, so spritzer holds
 * nearly nothing while the log grows by hundreds of MiB, keeps serving another sprite, and stops the service when
 * asked (once, every output chunk crossed to spritzer and back as a write: spritzer's memory grew by about 1 GB every
 * 5 seconds, and later its CPU went to appending the log). A log the sprite user filled itself, read back through the
 * in-sprite API: the reply holds at most the log's last LOG_REPLY_MAX_BYTES / LOG_REPLY_MAX_LINES; before, a 20 MB log
 * of one-letter lines took spritzer's heap past its limit and down with every sprite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, TOKEN, wsExec } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { LOG_REPLY_MAX_LINES } from '../../src/server/model/services.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox chatty service');
/** How much log the service writes before the memory is judged. */
const LOG_BYTES = 256 * 1024 * 1024;
/** Growth of this process (the server runs in it) allowed while it does: the bound, the streams' buffers, GC slack. */
const ALLOWED_GROWTH = 160 * 1024 * 1024;

describe.skipIf(skip)('a service that writes without pause', () => {
  let srv: RunningServer;
  const call = (...a: Parameters<ReturnType<typeof api>>) => api(srv.url)(...a);
  const run = (sprite: string, argv: string[]) => wsExec(srv.url, `/v1/sprites/${sprite}/exec?${execQuery(argv)}`);
  beforeAll(async () => {
    srv = await startTestServer('sandbox', { token: TOKEN });
    for (const name of ['chatty', 'bystander']) expect((await call('POST', '/v1/sprites', { name })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });

  it('costs spritzer a bounded amount of memory while its log grows, and other sprites stay served', async () => {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const served: string[] = [];
    let logged = 0;
    try {
      expect((await call('PUT', '/v1/sprites/chatty/services/spew?duration=0s', { cmd: 'yes', args: ['A'.repeat(100)] })).status).toBeLessThan(300);
      for (let i = 0; i < 600 && logged < LOG_BYTES; i++) {
        served.push((await run('bystander', ['echo', 'ok'])).stdout);
        const size = await run('chatty', ['stat', '-c', '%s', '/.sprite/logs/services/spew.log']);
        logged = Number(size.stdout.trim()) || 0;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      clearInterval(sampler);
    }
    console.log(`chatty service: log ${(logged / 2 ** 20).toFixed(0)} MiB; peak growth ${((peak - baseline) / 2 ** 20).toFixed(1)} MiB (allowed ${ALLOWED_GROWTH / 2 ** 20})`);
    expect(logged).toBeGreaterThanOrEqual(LOG_BYTES);
    expect(peak - baseline).toBeLessThan(ALLOWED_GROWTH);
    expect(served.every((o) => o === 'ok\n')).toBe(true);
    expect((await call('POST', '/v1/sprites/chatty/services/spew/stop')).status).toBe(200);
    expect((await call('GET', '/v1/sprites/chatty/services/spew')).json.state.status).toBe('stopped');
    expect((await run('chatty', ['tail', '-c', '102', '/.sprite/logs/services/spew.log'])).stdout).toMatch(/A{100}\n|not logged/);
  }, 300_000);

  it('replays a log the sprite user made huge in bounded memory, from inside the sprite', async () => {
    expect((await call('PUT', '/v1/sprites/chatty/services/idle?duration=0s', { cmd: 'sleep', args: ['3600'] })).status).toBeLessThan(300);
    const fill = await run('chatty', ['sh', '-c', 'rm -f /.sprite/logs/services/idle.log; yes a | head -c 40000000 > /.sprite/logs/services/idle.log && id -u']);
    expect(fill.stdout).toBe('1001\n');
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    let replay;
    try {
      replay = await run('chatty', ['sh', '-c', 'curl -s --unix-socket /.sprite/api.sock http://sprite/v1/services/idle/logs | wc -l']);
    } finally {
      clearInterval(sampler);
    }
    console.log(`huge service log: peak growth ${((peak - baseline) / 2 ** 20).toFixed(1)} MiB for a 40 MB log (allowed ${ALLOWED_GROWTH / 2 ** 20})`);
    // The note, the last LOG_REPLY_MAX_LINES lines, and `complete`.
    expect(replay.stdout.trim()).toBe(String(LOG_REPLY_MAX_LINES + 2));
    expect(peak - baseline).toBeLessThan(ALLOWED_GROWTH);
    expect((await run('bystander', ['echo', 'ok'])).stdout).toBe('ok\n');
  }, 120_000);
});

