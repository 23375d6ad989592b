/**
 * The load each row of the benchmark puts on a running server, and what it reads back: REST GET through
 * autocannon, WebSocket exec and HTTP exec of `echo ok` through a `ws` client and `node:http`, fs writes,
 * sprites created with one file (memory per sprite) and create/delete cycles (heap). Every answer is checked
 * (a wrong status or frame throws), so a broken server cannot post a fast figure. It owns no server process
 * (see `servers.ts`) and no verdicts (see `report.ts`).
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { WebSocket } from 'ws';
import type { StartedServer } from './servers.ts';

/** Monotonic milliseconds. */
export type Now = () => number;
const defaultNow: Now = () => performance.now();

const AUTH = 'Bearer bench';
const EXPECTED_WS_STDOUT = Buffer.from([1, 0x6f, 0x6b, 0x0a]); // [1]"ok\n"
const EXPECTED_HTTP_EXEC = Buffer.from([1, 0x6f, 0x6b, 0x0a, 3, 0]); // [1]"ok\n" [3][0]

/** Latency summary in ms. */
export interface Latency {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** Nearest-rank percentile (`p` in 0–100) of unsorted samples; NaN for none. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const s = [...samples].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1]!;
}

/** p50 / p99 / mean of samples in ms. */
export function summarize(samples: number[]): Latency {
  const mean = samples.reduce((a, b) => a + b, 0) / (samples.length || 1);
  return { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), mean };
}

/** Monotonic µs now (the clock `--cpu-prof` timestamps use), for profile windows. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request on a keep-alive connection; resolves with status and body. */
export function request(
  url: string,
  opts: { method?: string; body?: Uint8Array | string; contentType?: string } = {},
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { authorization: AUTH };
    if (opts.body !== undefined) {
      headers['content-type'] = opts.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(opts.body);
    }
    const req = http.request(url, { method: opts.method ?? 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function expectStatus(what: string, p: Promise<{ status: number; body: Buffer }>, ...ok: number[]): Promise<Buffer> {
  const { status, body } = await p;
  if (!ok.includes(status)) throw new Error(`${what}: HTTP ${status} ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

/** `POST /v1/sprites {name}` → 201 (spritzer `createSprite`). */
export function createSprite(server: StartedServer, name: string): Promise<Buffer> {
  return expectStatus(`create ${name}`, request(`${server.url}/v1/sprites`, { method: 'POST', body: JSON.stringify({ name }) }), 201);
}

/** `DELETE /v1/sprites/{name}` → 204 (spritzer `deleteSprite`). */
export function deleteSprite(server: StartedServer, name: string): Promise<Buffer> {
  return expectStatus(`delete ${name}`, request(`${server.url}/v1/sprites/${name}`, { method: 'DELETE' }), 204);
}

/** `PUT …/fs/write?path=&workingDir=/&mkdirParents=true` with an octet-stream body → 200 (spritzer `writeFile`). */
export function writeFile(server: StartedServer, name: string, path: string, data: Uint8Array): Promise<Buffer> {
  const q = new URLSearchParams({ path, workingDir: '/', mkdirParents: 'true' });
  return expectStatus(
    `write ${path}`,
    request(`${server.url}/v1/sprites/${name}/fs/write?${q}`, { method: 'PUT', body: data, contentType: 'application/octet-stream' }),
    200,
  );
}

/** REST GET figures from autocannon. */
export interface RestResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  /** Server CPU (all threads, user + system) per request, µs. Robust to a busy machine, unlike req/s. */
  cpuUsPerOp: number;
  /** Monotonic µs window of the measured run (for `--cpu-prof` summaries). */
  fromUs: number;
  toUs: number;
}

/**
 * `GET /v1/sprites/{name}` with autocannon, `connections` connections for `seconds` after a 1 s warm-up.
 * Throws on any non-2xx answer or socket error.
 */
export async function restGet(server: StartedServer, name: string, seconds: number, connections = 16): Promise<RestResult> {
  const url = `${server.url}/v1/sprites/${name}`;
  const opts = { url, connections, headers: { authorization: AUTH } };
  await autocannon({ ...opts, duration: 1 });
  const fromUs = monotonicUs();
  const cpu0 = server.cpuMs();
  const r = await autocannon({ ...opts, duration: seconds });
  const cpuUsPerOp = ((server.cpuMs() - cpu0) * 1000) / r.requests.total;
  const toUs = monotonicUs();
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`REST GET on ${server.kind}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, cpuUsPerOp, fromUs, toUs };
}

/**
 * One WebSocket exec of `echo ok` (`?cmd=echo&cmd=ok&path=echo`, no stdin, as the Go and Python SDKs send when
 * there is no stdin): resolves with ms from `new WebSocket` to the exit frame, after checking the frames
 * (`session_info` allowed, `[1]ok\n`, `[3][0]`) and the 1000 close (docs/wire-reference.md §4.4).
 */
export function wsExecOnce(server: StartedServer, name: string, now: Now = defaultNow): Promise<number> {
  const wsUrl = `${server.url.replace(/^http/, 'ws')}/v1/sprites/${name}/exec?cmd=echo&cmd=ok&path=echo`;
  return new Promise((resolve, reject) => {
    const t0 = now();
    let exitAt: number | undefined;
    let stdoutOk = false;
    const ws = new WebSocket(wsUrl, { headers: { authorization: AUTH }, perMessageDeflate: false });
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return;
      if (data[0] === 1) stdoutOk = data.equals(EXPECTED_WS_STDOUT);
      else if (data[0] === 3) {
        exitAt = now();
        if (data.length !== 2 || data[1] !== 0) reject(new Error(`exit frame ${data.toString('hex')}`));
      }
    });
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => reject(new Error(`WS exec on ${server.kind}: HTTP ${res.statusCode}`)));
    ws.on('close', (code) => {
      if (exitAt === undefined || !stdoutOk || code !== 1000) {
        reject(new Error(`WS exec on ${server.kind}: close ${code}, exit ${exitAt !== undefined}, stdout ok ${stdoutOk}`));
      } else resolve(exitAt - t0);
    });
  });
}

/** WS exec latency (sequential, after 20 warm-up execs) and throughput (`clients` clients in a loop). */
export interface WsExecResult {
  latency: Latency;
  execsPerSec: number;
  execs: number;
  /** Server CPU per exec during the 16-client run, µs. */
  cpuUsPerOp: number;
  fromUs: number;
  toUs: number;
}

/** `n` sequential WS execs, then `clients` clients exec'ing back to back for `seconds`. */
export async function wsExec(server: StartedServer, name: string, n: number, seconds: number, clients = 16, now: Now = defaultNow): Promise<WsExecResult> {
  for (let i = 0; i < 20; i++) await wsExecOnce(server, name, now);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await wsExecOnce(server, name, now));
  const fromUs = monotonicUs();
  const cpu0 = server.cpuMs();
  const t0 = now();
  const end = t0 + seconds * 1000;
  let execs = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (now() < end) {
        await wsExecOnce(server, name, now);
        execs++;
      }
    }),
  );
  const elapsed = now() - t0;
  const cpuUsPerOp = ((server.cpuMs() - cpu0) * 1000) / execs;
  return { latency: summarize(samples), execsPerSec: (execs / elapsed) * 1000, execs, cpuUsPerOp, fromUs, toUs: monotonicUs() };
}

/** HTTP exec latency, and server CPU per exec over the sequential run (µs). */
export type HttpExecResult = Latency & { cpuUsPerOp: number };

/**
 * `n` sequential HTTP execs of `echo ok` (`POST …/exec?cmd=echo&cmd=ok`, docs/wire-reference.md §4.10) on a keep-alive
 * connection, after 20 warm-up execs; ms from request to the end of the framed body, which must be exactly
 * `[1]ok\n[3][0]`.
 */
export async function httpExec(server: StartedServer, name: string, n: number, now: Now = defaultNow): Promise<HttpExecResult> {
  const url = `${server.url}/v1/sprites/${name}/exec?cmd=echo&cmd=ok`;
  const once = async (): Promise<number> => {
    const t0 = now();
    const body = await expectStatus(`HTTP exec on ${server.kind}`, request(url, { method: 'POST' }), 200);
    const ms = now() - t0;
    if (!body.equals(EXPECTED_HTTP_EXEC)) throw new Error(`HTTP exec on ${server.kind}: body ${body.toString('hex')}`);
    return ms;
  };
  for (let i = 0; i < 20; i++) await once();
  const samples: number[] = [];
  const cpu0 = server.cpuMs();
  for (let i = 0; i < n; i++) samples.push(await once());
  return { ...summarize(samples), cpuUsPerOp: ((server.cpuMs() - cpu0) * 1000) / n };
}

/** Runs `task(i)` for i in 0..count-1 with `inFlight` at a time; resolves with the elapsed ms. */
export async function pool(count: number, inFlight: number, task: (i: number) => Promise<unknown>, now: Now = defaultNow): Promise<number> {
  let next = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return now() - t0;
}

/**
 * fs write rate: a fresh sprite `name`, then `files` writes of 10 KiB (`/home/sprite/bench/d<i/100>/f<i>.bin`,
 * parents created), 16 in flight. Files per second over the whole run, the first write included.
 */
export async function fsWrite(server: StartedServer, name: string, files: number, inFlight = 16, now: Now = defaultNow): Promise<number> {
  await createSprite(server, name);
  const data = new Uint8Array(10 * 1024).fill(0x61);
  const ms = await pool(files, inFlight, (i) => writeFile(server, name, `/home/sprite/bench/d${Math.floor(i / 100)}/f${i}.bin`, data), now);
  return (files / ms) * 1000;
}

/** Memory per sprite: RSS (after GC, through the heap probe) before and after `count` sprites with one 1 KiB file. */
export interface PerSpriteResult {
  sprites: number;
  rssDeltaKiB: number;
  perSpriteKiB: number;
  heapPerSpriteKiB: number;
}

/**
 * Creates `count` sprites (16 in flight) each holding one 1 KiB file, and reports what they added. Needs
 * `heapProbe`. Before the measure, `count` warm-up sprites are made the same way (and kept): the one-time costs of
 * the first thousand — the young generation growing to its working size (up to 24 MiB that never shrinks), V8
 * compiling the create and write paths (its compiler's memory is taken by threads of its own and not given back) —
 * land there, so the measured sprites show what each one holds (docs/performance.md "Memory per sprite").
 */
export async function memoryPerSprite(server: StartedServer, count: number): Promise<PerSpriteResult> {
  const data = new Uint8Array(1024).fill(0x62);
  const one = async (name: string) => {
    await createSprite(server, name);
    await writeFile(server, name, '/home/sprite/one.txt', data);
  };
  await pool(count, 16, (i) => one(`warm-${i}`));
  const before = await server.heap();
  const rssBefore = server.rssKiB();
  await pool(count, 16, (i) => one(`mem-${i}`));
  const after = await server.heap();
  const rssDeltaKiB = server.rssKiB() - rssBefore;
  return {
    sprites: count,
    rssDeltaKiB,
    perSpriteKiB: rssDeltaKiB / count,
    heapPerSpriteKiB: (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1024 / count,
  };
}

/** Heap (used, after GC) before and after one round of create/delete cycles, in MiB, and their ratio. */
export interface HeapRound {
  startMiB: number;
  endMiB: number;
  ratio: number;
}

/**
 * Two rounds of `cycles` create/delete cycles on one server. The target figure (`startMiB`, `endMiB`, `ratio`) is
 * the second round: the first also holds V8 compiling the hot functions (optimised code, deopt data and the maps'
 * dependent-code lists grow by ≈ 2.5 MiB in it, none of it sprite state: docs/performance.md "Heap after cycles"),
 * and a leak grows both rounds alike. `firstRound` is that first round, shown beside it.
 */
export interface HeapCyclesResult extends HeapRound {
  cycles: number;
  firstRound: HeapRound;
}

const CYCLE_FILE = new Uint8Array(1024).fill(0x62);
const MiB = 1024 * 1024;

/**
 * 50 warm-up cycles, then two rounds of `cycles` sequential create → write a 1 KiB file → HTTP exec `echo ok` →
 * delete cycles; heap read through the heap probe before and after each round (a leak shows as growth: the end must be
 * within 10 % of the start, docs/performance.md "How it is measured").
 */
export async function heapCycles(server: StartedServer, cycles: number): Promise<HeapCyclesResult> {
  // Each cycle also writes a file and runs an HTTP exec, so a session, process or VFS left behind by delete shows.
  const cycle = async (name: string) => {
    await createSprite(server, name);
    await writeFile(server, name, '/home/sprite/f.txt', CYCLE_FILE);
    const body = await expectStatus(`HTTP exec on ${server.kind}`, request(`${server.url}/v1/sprites/${name}/exec?cmd=echo&cmd=ok`, { method: 'POST' }), 200);
    if (!body.equals(EXPECTED_HTTP_EXEC)) throw new Error(`HTTP exec on ${server.kind}: body ${body.toString('hex')}`);
    await deleteSprite(server, name);
  };
  const round = async (prefix: string): Promise<HeapRound> => {
    const start = (await server.heap()).heapUsed;
    for (let i = 0; i < cycles; i++) await cycle(`${prefix}-${i}`);
    const end = (await server.heap()).heapUsed;
    return { startMiB: start / MiB, endMiB: end / MiB, ratio: end / start };
  };
  for (let i = 0; i < 50; i++) await cycle(`warm-${i}`);
  const firstRound = await round('first');
  const second = await round('cycle');
  return { cycles, ...second, firstRound };
}

/** Health latency while other sprites are busy: every sample in ms (`timeoutMs` when it did not answer). */
export interface BusyResult {
  loops: number;
  samples: number[];
  maxMs: number;
}

/**
 * Health beside busy loops (one command's endless loop must not stall the server): `loops` sprites each run
 * `while true; do :; done` over a WebSocket exec, then `GET /_spritzer/health` is timed `samples` times, one after
 * another, each given up after `timeoutMs`. The sockets are dropped at the end; the server may stay stalled, so run
 * this on a process of its own.
 */
export async function busyHealth(server: StartedServer, loops = 10, samples = 5, timeoutMs = 2000, now: Now = defaultNow): Promise<BusyResult> {
  const q = new URLSearchParams([['cmd', 'sh'], ['cmd', '-c'], ['cmd', 'while true; do :; done'], ['path', 'sh']]);
  const sockets: WebSocket[] = [];
  for (let i = 0; i < loops; i++) {
    await createSprite(server, `busy-${i}`);
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v1/sprites/busy-${i}/exec?${q}`, { headers: { authorization: AUTH } });
    ws.on('error', () => {}); // a stalled server may never finish the handshake
    sockets.push(ws);
  }
  // Give the loops a moment to start (all opened, or half a second at most).
  await Promise.race([
    Promise.all(sockets.map((ws) => new Promise((r) => ws.once('open', r)))),
    new Promise((r) => setTimeout(r, 500)),
  ]);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = now();
    const answered = await Promise.race([
      request(`${server.url}/_spritzer/health`).then(() => true, () => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs)),
    ]);
    times.push(answered ? now() - t0 : timeoutMs);
  }
  for (const ws of sockets) ws.terminate();
  return { loops, samples: times, maxMs: Math.max(...times) };
}
