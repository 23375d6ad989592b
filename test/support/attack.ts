/**
 * Helpers for the hostile-input tests (no single request may take spritzer down or stall it, docs/limits.md): raw
 * HTTP over `net` (for request lines and headers that `fetch` refuses to send), a little state seeded before an
 * attack, and the check that the server still answers and that state survived. They assert nothing about timing.
 */
import net from 'node:net';
import { pino, type Logger } from 'pino';
import { expect } from 'vitest';
import { api, TOKEN } from './server.ts';

/** One HTTP response read off a raw socket. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `text` (bytes as written: request line, headers, body) to the server at `base` over a fresh TCP
 * connection and resolves with the first response: its head, then `Content-Length` bytes of body (none when
 * `opts.head`). Resolves early if the server closes the connection. Rejects when the connection closes before a
 * whole response head arrived, so a crashed server cannot pass. `count` > 1 reads that many pipelined responses.
 */
export function rawExchange(base: string, text: string | Buffer, opts: { head?: boolean; count?: number } = {}): Promise<RawResponse[]> {
  const { hostname, port } = new URL(base);
  const want = opts.count ?? 1;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let buf = Buffer.alloc(0);
    const out: RawResponse[] = [];
    const parse = (): boolean => {
      for (;;) {
        if (out.length >= want) return true;
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return false;
        const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of lines) {
          const i = l.indexOf(':');
          headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
        }
        const length = opts.head ? 0 : Number(headers['content-length'] ?? 0);
        if (buf.length < end + 4 + length) return false;
        out.push({ status: Number(statusLine.split(' ')[1]), headers, body: buf.subarray(end + 4, end + 4 + length).toString() });
        buf = buf.subarray(end + 4 + length);
      }
    };
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (parse()) {
        socket.destroy();
        resolve(out);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => (out.length > 0 ? resolve(out) : reject(new Error(`connection closed without a response: ${JSON.stringify(buf.toString())}`))));
  });
}

/** `rawExchange` for a single response. */
export async function rawRequest(base: string, text: string | Buffer, opts: { head?: boolean } = {}): Promise<RawResponse> {
  return (await rawExchange(base, text, opts))[0];
}

/** The sprite and the file every attack test creates first, and expects to find intact afterwards. */
export const KEPT = { sprite: 'keep', path: '/home/sprite/kept.txt', content: 'precious bytes\n' } as const;

/** Creates the sprite `KEPT.sprite` with the file `KEPT.path`. */
export async function seedState(base: string, token = TOKEN): Promise<void> {
  const call = api(base, token);
  expect((await call('POST', '/v1/sprites', { name: KEPT.sprite })).status).toBe(201);
  const w = await call('PUT', `/v1/sprites/${KEPT.sprite}/fs/write?path=${encodeURIComponent(KEPT.path)}`, KEPT.content);
  expect(w.status).toBe(200);
}

/**
 * Asserts the server still serves: `GET /_spritzer/health` answers 200 JSON, the seeded sprite is still there,
 * and its file still holds the same bytes.
 */
export async function expectIntact(base: string, token = TOKEN): Promise<void> {
  const health = await fetch(`${base}/_spritzer/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok' });
  const call = api(base, token);
  expect((await call('GET', `/v1/sprites/${KEPT.sprite}`)).json).toMatchObject({ name: KEPT.sprite });
  const read = await call('GET', `/v1/sprites/${KEPT.sprite}/fs/read?path=${encodeURIComponent(KEPT.path)}`);
  expect({ status: read.status, text: read.text }).toEqual({ status: 200, text: KEPT.content });
}

/** A pino logger that keeps every entry (parsed), and lets a test wait for one instead of sleeping. */
export function captureLogger(): { logger: Logger; entries: Array<Record<string, any>>; waitFor(pred: (e: Record<string, any>) => boolean): Promise<Record<string, any>> } {
  const entries: Array<Record<string, any>> = [];
  const waiters: Array<() => void> = [];
  const logger = pino({ level: 'debug' }, {
    write(line: string) {
      entries.push(JSON.parse(line));
      for (const w of waiters.splice(0)) w();
    },
  });
  return {
    logger,
    entries,
    async waitFor(pred) {
      for (;;) {
        const found = entries.find(pred);
        if (found) return found;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

/** Sends `text` over a fresh TCP connection and resolves with every byte the server wrote until it closed. */
export function rawUntilClose(base: string, text: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/** What the health probe saw while an attack ran: each answer's status and latency (ms, for the test output only). */
export interface HealthDuring {
  statuses: number[];
  latenciesMs: number[];
}

/**
 * Runs `attack` while `GET /_spritzer/health` is requested back to back on `base` (the first request is sent
 * before the attack starts, so at least one is in flight during it); when the attack settles, waits for the
 * request in flight, then asserts that every probe answered 200 and prints one line with the count and the
 * latencies (median, max) under `label`. The latencies are never asserted: the 100 ms figure is measured by
 * `npm run bench:attacks` in a separate process (bench/health-under-attack.ts). Resolves with the attack's result.
 */
export async function withHealthProbe<T>(base: string, label: string, attack: () => Promise<T>): Promise<T> {
  const seen: HealthDuring = { statuses: [], latenciesMs: [] };
  let done = false;
  const loop = (async () => {
    do {
      const t0 = performance.now();
      const res = await fetch(`${base}/_spritzer/health`);
      await res.arrayBuffer();
      seen.latenciesMs.push(performance.now() - t0);
      seen.statuses.push(res.status);
    } while (!done);
  })();
  try {
    return await attack();
  } finally {
    done = true;
    await loop;
    const sorted = [...seen.latenciesMs].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
    console.log(`health during ${label}: ${sorted.length} answers, median ${median.toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`);
    expect(seen.statuses.length).toBeGreaterThan(0);
    expect(seen.statuses.every((s) => s === 200)).toBe(true);
  }
}
