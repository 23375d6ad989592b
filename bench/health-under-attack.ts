/**
 * Health under attack (no single request may stall spritzer for everyone else, docs/limits.md): for each hostile
 * input that used to stall the event loop, the latency of `GET /_spritzer/health` requested back to back while the
 * input is handled, against spritzer in its own process (the CLI from source, default flags), so the client's own
 * work does not count. Prints a table (answers, median, p95, max, and whether every answer came within 100 ms),
 * after a row without any attack (the machine's own noise). Run with `npm run bench:attacks`; `--only <group>`
 * runs one group, named by the number in the table's first column (4 exec output, 5 JSON bombs, 6 deep paths,
 * 7 fs/watch, 8 checkpoints, 9 sprite field sizes, 10 fault rules and service chains; e.g. `--only 4`);
 * `--cpu-prof <dir>` has the server write a CPU profile. Figures only: tests never run it and never assert time
 * (the tests under test/integration/ assert that health answered and that earlier state is intact).
 */
import { WebSocket } from 'ws';
import { startServer, type StartedServer } from './lib/servers.ts';

const AUTH = { Authorization: 'Bearer bench' };
const MiB = 1024 * 1024;

/** Runs `attack` while health is requested back to back; returns the attack's wall time and each health latency (ms). */
async function underProbe(url: string, attack: () => Promise<unknown>): Promise<{ attackMs: number; latencies: number[]; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  let done = false;
  const loop = (async () => {
    do {
      const t0 = performance.now();
      const res = await fetch(`${url}/_spritzer/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== 200) failed++;
    } while (!done);
  })();
  const t0 = performance.now();
  await attack();
  const attackMs = performance.now() - t0;
  done = true;
  await loop;
  return { attackMs, latencies, failed };
}

const rows: string[][] = [['item', 'attack', 'attack time', 'health answers', 'median', 'p95', 'max', 'all ≤ 100 ms']];
async function row(item: string, what: string, url: string, attack: () => Promise<unknown>): Promise<void> {
  const { attackMs, latencies, failed } = await underProbe(url, attack);
  const sorted = [...latencies].sort((a, b) => a - b);
  const max = sorted.at(-1) ?? NaN;
  rows.push([
    item,
    what,
    `${attackMs.toFixed(0)} ms`,
    `${sorted.length}${failed ? ` (${failed} not 200)` : ''}`,
    `${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms`,
    `${sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!.toFixed(1)} ms`,
    `${max.toFixed(1)} ms`,
    max <= 100 && !failed ? 'yes' : 'no',
  ]);
  console.error(rows.at(-1)!.join(' | '));
}

const call = (url: string, method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}) =>
  fetch(url + path, { method, headers: { ...AUTH, ...headers }, body, duplex: 'half' } as RequestInit).then(async (r) => ({ status: r.status, text: await r.text() }));
const json = (url: string, method: string, path: string, body: unknown) => call(url, method, path, JSON.stringify(body), { 'Content-Type': 'application/json' });

/** One WebSocket exec of `argv` that reads everything; resolves with the stdout byte count and the exit code. */
function wsExec(url: string, sprite: string, argv: string[]): Promise<{ bytes: number; exit: number }> {
  const q = argv.map((a) => `cmd=${encodeURIComponent(a)}`).join('&');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sprites/${sprite}/exec?${q}`, { headers: AUTH, maxPayload: 256 * MiB });
    let bytes = 0;
    let exit = -1;
    ws.on('message', (d: Buffer, binary) => {
      if (!binary) return;
      if (d[0] === 1) bytes += d.length - 1;
      if (d[0] === 3) exit = d[1]!;
    });
    ws.on('close', () => resolve({ bytes, exit }));
    ws.on('error', reject);
  });
}

const argAfter = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const only = argAfter('--only');
/** `--cpu-prof <dir>`: the server writes a V8 CPU profile there when it stops (to find what holds the event loop). */
const profDir = argAfter('--cpu-prof');
/**
 * `--warm`: before a group's rows, call each operation the group uses once with a small input, so the rows show the
 * input's own cost, not the first call of an operation (the validator compiles an operation's schemas on its first
 * request: docs/limits.md).
 */
const warm = process.argv.includes('--warm');
const want = (item: string) => only === undefined || only === item;

let server: StartedServer | undefined;
try {
  server = await startServer('spritzer', { spritzerEntry: 'src/server/main.ts', nodeFlags: profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [] });
  const url = server.url;
  // The machine's own noise: health alone for 2 s, no attack.
  await row('–', 'no attack (2 s of health only)', url, () => new Promise((r) => setTimeout(r, 2000)));

  if (want('4')) {
    await json(url, 'POST', '/v1/sprites', { name: 'out' });
    if (warm) await wsExec(url, 'out', ['true']);
    for (const size of [8, 60]) {
      const put = await call(url, 'PUT', `/v1/sprites/out/fs/write?path=%2Fhome%2Fsprite%2Fbig${size}`, new Uint8Array(size * MiB).fill(0x61));
      if (put.status !== 200) throw new Error(`write: ${put.status} ${put.text}`);
      await row('4', `WS exec cat of a ${size} MiB file`, url, async () => {
        const r = await wsExec(url, 'out', ['cat', `/home/sprite/big${size}`]);
        if (r.bytes !== size * MiB || r.exit !== 0) throw new Error(`cat: ${r.bytes} bytes, exit ${r.exit}`);
      });
    }
  }

  if (want('5')) {
    const bomb = '['.repeat(5 * 1024 * 1024) + ']'.repeat(5 * 1024 * 1024);
    await row('5', 'POST /v1/sprites, 10 MB of nested [ (Content-Length)', url, () => call(url, 'POST', '/v1/sprites', bomb, { 'Content-Type': 'application/json' }));
    const chunk = new TextEncoder().encode('['.repeat(64 * 1024));
    await row('5', 'the same, chunked (no Content-Length)', url, () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= 10 * MiB) return c.close();
          sent += chunk.length;
          c.enqueue(chunk);
        },
      });
      return call(url, 'POST', '/v1/sprites', body as unknown as BodyInit, { 'Content-Type': 'application/json' });
    });
    await row('5', 'POST /v1/sprites, 1 MiB of unclosed [', url, () => call(url, 'POST', '/v1/sprites', '['.repeat(MiB - 1), { 'Content-Type': 'application/json' }));
  }

  if (want('6')) {
    await json(url, 'POST', '/v1/sprites', { name: 'paths' });
    if (warm) {
      await call(url, 'PUT', '/v1/sprites/paths/fs/write?mkdirParents=true&path=/w/x', 'x');
      await call(url, 'GET', '/v1/sprites/paths/fs/list?path=/w&recursive=true');
      await call(url, 'DELETE', '/v1/sprites/paths/fs/delete?path=/w&recursive=true');
    }
    for (const depth of [5000, 6000]) {
      await row('6', `fs/write mkdirParents, ${depth} levels deep`, url, () => call(url, 'PUT', `/v1/sprites/paths/fs/write?mkdirParents=true&path=/t${'/a'.repeat(depth)}`, 'x'));
    }
    await row('6', 'fs/write at the deepest legal path (2,046 levels), then list -R and rm -r', url, async () => {
      await call(url, 'PUT', `/v1/sprites/paths/fs/write?mkdirParents=true&path=/t${'/a'.repeat(2045)}/f`, 'x');
      await call(url, 'GET', '/v1/sprites/paths/fs/list?path=/t&recursive=true');
      await call(url, 'DELETE', '/v1/sprites/paths/fs/delete?path=/t&recursive=true');
    });
  }

  if (want('7')) {
    await json(url, 'POST', '/v1/sprites', { name: 'watched' });
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sprites/watched/fs/watch`, { headers: AUTH });
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    await row('7', 'fs/watch subscribe with 200,000 copies of /, then 20 writes', url, async () => {
      const subscribed = new Promise((r) => ws.once('message', r));
      ws.send(JSON.stringify({ type: 'subscribe', paths: Array(200_000).fill('/'), recursive: true }));
      await subscribed;
      for (let i = 0; i < 20; i++) await call(url, 'PUT', `/v1/sprites/watched/fs/write?path=/tmp/f${i}`, 'x');
    });
    ws.pause(); // a watcher that stops reading
    await call(url, 'PUT', `/v1/sprites/watched/fs/write?mkdirParents=true&path=/big/x/${'d'.repeat(250)}/f`, 'x');
    await row('7', '200 writes with a watcher that stopped reading', url, async () => {
      for (let i = 0; i < 200; i++) await call(url, 'PUT', `/v1/sprites/watched/fs/write?path=/big/x/${'d'.repeat(250)}/g${i}`, 'x'.repeat(4096));
    });
    ws.terminate();
  }

  if (want('8')) {
    await json(url, 'POST', '/v1/sprites', { name: 'cps' });
    const N = 2000;
    await row('8', `create ${N} checkpoints (one after another)`, url, async () => {
      for (let i = 0; i < N; i++) await json(url, 'POST', '/v1/sprites/cps/checkpoint', { comment: `c${i}` });
    });
    await row('8', `GET …/checkpoints with ${N} checkpoints`, url, () => call(url, 'GET', '/v1/sprites/cps/checkpoints'));
    await row('8', `GET …/checkpoints?history=v1 with ${N}`, url, () => call(url, 'GET', '/v1/sprites/cps/checkpoints?history=v1'));
  }

  if (want('9')) {
    if (warm) {
      await json(url, 'POST', '/v1/sprites', { name: 'warm9' });
      await call(url, 'GET', '/v1/sprites');
    }
    await row('9', '20 sprites with every field at its cap, then GET /v1/sprites', url, async () => {
      for (let i = 0; i < 20; i++) {
        await json(url, 'POST', '/v1/sprites', { name: `full${i}`, labels: Array(64).fill('l'.repeat(128)), config: { region: 'x'.repeat(64) }, environment: { E: 'e'.repeat(60_000) } });
      }
      await call(url, 'GET', '/v1/sprites');
    });
    await row('9', 'POST /v1/sprites with a 900 KB config (refused)', url, () => json(url, 'POST', '/v1/sprites', { name: 'big', config: { junk: 'z'.repeat(900_000) } }));
  }

  if (want('10')) {
    if (warm) {
      await json(url, 'POST', '/_spritzer/faults', { status: 500, sprite: 'nobody' });
      await call(url, 'DELETE', '/_spritzer/faults');
    }
    await row('10', '1,001 fault rules over HTTP', url, async () => {
      for (let i = 0; i < 1001; i++) await json(url, 'POST', '/_spritzer/faults', { status: 500, sprite: 'nobody' });
    });
    await call(url, 'DELETE', '/_spritzer/faults');
    await json(url, 'POST', '/v1/sprites', { name: 'chain' });
    await row('10', 'a needs chain of 256 services', url, async () => {
      for (let i = 0; i < 256; i++) {
        await json(url, 'PUT', `/v1/sprites/chain/services/s${i}?duration=0`, { cmd: 'sleep', args: ['1000'], needs: i === 0 ? [] : [`s${i - 1}`] });
      }
    });
  }
} finally {
  await server?.stop();
}

console.log(rows.map((r) => `| ${r.join(' | ')} |`).join('\n'));
