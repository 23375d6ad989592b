/**
 * Health under attack (no single request may stall spritzer for everyone else, docs/limits.md): for each hostile
 * input that used to stall the event loop, the latency of `GET /_spritzer/health` requested back to back while the
 * input is handled, against spritzer in its own process (the CLI from source, default flags), so the client's own
 * work does not count. Prints a table (answers, median, p95, max, and whether every answer came within 100 ms),
 * after a row without any attack (the machine's own noise). Run with `npm run bench:attacks`; `--only <group>`
 * runs one group, named by the number in the table's first column (4 exec output, 5 JSON bombs, 6 deep paths,
 * 7 fs/watch, 8 checkpoints, 9 sprite field sizes, 10 fault rules and service chains, 11 oversized and hostile
 * WebSocket messages; e.g. `--only 4`);
 * `--cpu-prof <dir>` has the server write a CPU profile. Figures only: tests never run it and never assert time
 * (the tests under test/integration/ assert that health answered and that earlier state is intact).
 */
import net from 'node:net';
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

const rows: string[][] = [['item', 'attack', 'attack time', 'health answers', 'median', 'p95', 'p99', 'max', 'all ≤ 100 ms']];
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
    `${sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!.toFixed(1)} ms`,
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

/**
 * One client WebSocket message as the bytes on the wire: FIN, the opcode, the length, a zero mask key (so the payload
 * goes as is). Built before a row, so that the attack's client work is a socket write and not masking megabytes
 * in the process that also times health.
 */
function wireMessage(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(14);
  head[0] = 0x80 | (typeof payload === 'string' ? 1 : 2);
  head[1] = 0x80 | 127;
  head.writeBigUInt64BE(BigInt(body.length), 2);
  return Buffer.concat([head, body]); // bytes 10–13: the zero mask key
}

/**
 * Opens `path` over a raw TCP connection `times` times, one after another, writes `frame` (from {@link wireMessage})
 * after the 101 and resolves with the close code of each close frame the server answers with (-1: the connection
 * ended without one, or 30 s passed).
 */
async function frameAttack(url: string, path: string, frame: Buffer, times: number): Promise<number[]> {
  const { hostname, port } = new URL(url);
  const codes: number[] = [];
  for (let i = 0; i < times; i++) {
    codes.push(
      await new Promise<number>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () =>
          socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${AUTH.Authorization}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${Buffer.alloc(16, i).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`),
        );
        let buf = Buffer.alloc(0);
        let upgraded = false;
        socket.on('data', (d: Buffer) => {
          buf = Buffer.concat([buf, d]);
          if (!upgraded) {
            const end = buf.indexOf('\r\n\r\n');
            if (end < 0) return;
            if (!buf.subarray(0, 12).toString().includes('101')) return reject(new Error(`handshake: ${buf.subarray(0, end)}`));
            upgraded = true;
            buf = buf.subarray(end + 4);
            socket.write(frame);
          }
          // Server frames are unmasked; the close frame is 0x88, its length, then the code.
          for (let at = 0; at + 2 <= buf.length; ) {
            const len = buf[at + 1]! & 0x7f;
            const skip = len === 126 ? 4 : len === 127 ? 10 : 2;
            const size = len === 126 ? buf.readUInt16BE(at + 2) : len === 127 ? Number(buf.readBigUInt64BE(at + 2)) : len;
            if (at + skip + size > buf.length) break;
            if ((buf[at]! & 0x0f) === 8) {
              socket.destroy();
              return resolve(buf.readUInt16BE(at + skip));
            }
            at += skip + size;
          }
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(-1));
        // A server that neither refuses nor closes (one without these limits) must not hang the bench.
        setTimeout(() => socket.destroy(), 30_000).unref();
      }),
    );
  }
  return codes;
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
    // 60,000 copies: under the inbound element bound (a message of more than 65,536 items is closed 1008 unread).
    await row('7', 'fs/watch subscribe with 60,000 copies of /, then 20 writes', url, async () => {
      const subscribed = new Promise((r) => ws.once('message', r));
      ws.send(JSON.stringify({ type: 'subscribe', paths: Array(60_000).fill('/'), recursive: true }));
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

  if (want('11')) {
    await json(url, 'POST', '/v1/sprites', { name: 'frames' });
    const times = Number(argAfter('--sockets') ?? 30);
    const opStart = (args: unknown) => `control:${JSON.stringify({ type: 'op.start', op: 'exec', args })}`;
    // Built before the rows: the client's own JSON work is not the server's.
    const attacks: Array<[string, string, string]> = [
      ['/control: a 20 MB text frame of nested [', '/v1/sprites/frames/control', `control:${'['.repeat(10 * MiB)}${']'.repeat(10 * MiB)}`],
      ['/control: op.start with 4,000,000 cmd entries (16 MB)', '/v1/sprites/frames/control', opStart({ cmd: Array(4_000_000).fill('a') })],
      ['/control: op.start with 1 MB of nested [ in args (within the size)', '/v1/sprites/frames/control', `control:{"type":"op.start","op":"exec","args":{"cmd":${'['.repeat(500_000)}${']'.repeat(500_000)}}}`],
      ['/control: op.start with 300,000 cmd entries (within the size)', '/v1/sprites/frames/control', opStart({ cmd: Array(300_000).fill('') })],
      ['/exec: a 16 MB text message', `/v1/sprites/frames/exec?cmd=cat&stdin=true`, 'x'.repeat(16 * MiB)],
      ['/fs/watch: a 20 MB subscribe', '/v1/sprites/frames/fs/watch', JSON.stringify({ type: 'subscribe', paths: Array(1_000_000).fill('/tmp/abcdefghijklm') })],
    ];
    for (const [what, path, payload] of attacks) {
      const frame = wireMessage(payload);
      await row('11', `${what}, ${times} sockets`, url, async () => {
        const codes = await frameAttack(url, path, frame, times);
        if (!codes.every((c) => c === 1008 || c === 1009)) throw new Error(`${what}: closed ${codes.join(', ')}`);
      });
    }
  }
} finally {
  await server?.stop();
}

console.log(rows.map((r) => `| ${r.join(' | ')} |`).join('\n'));
