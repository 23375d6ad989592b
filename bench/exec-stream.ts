/**
 * Exec streaming benchmark (output is sent in bounded chunks, docs/limits.md): how long `cat` of an 8 MiB and a
 * 60 MiB file takes over WebSocket exec, and the worst latency of `GET /_spritzer/health` while it runs (a stalled
 * event loop shows up there).
 * The server runs in its own process (`tsx src/server/main.ts`) so the probe's own event loop is not the one
 * being measured. `--server-dir <dir>` runs another checkout's server (a before/after comparison). It prints
 * figures only; tests never run it and never assert wall-clock time.
 * `--url <base>` uses a server that is already running (started with `--token bench-token`, e.g. under
 * `node --cpu-prof --import tsx src/server/main.ts`, to profile it).
 * Usage: `npx tsx bench/exec-stream.ts [--server-dir <dir> | --url <base>] [--sizes 8,60]`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const MiB = 1024 * 1024;
const TOKEN = 'bench-token';
const HERE = path.dirname(fileURLToPath(import.meta.url));

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** Starts `src/server/main.ts` of `dir` on a free port; resolves with its base URL. */
async function startServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(path.join(dir, 'node_modules/.bin/tsx'), ['src/server/main.ts', '--addr', '127.0.0.1:0', '--log-level', 'silent', '--token', TOKEN], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { url, child };
}

async function call(url: string, method: string, p: string, body?: Uint8Array | object): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` };
  let payload: BodyInit | undefined;
  if (body instanceof Uint8Array) {
    headers['Content-Type'] = 'application/octet-stream';
    payload = body as BodyInit;
  } else if (body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(url + p, { method, headers, body: payload });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status}`);
  return res;
}

/**
 * Probes health back to back until `stop` is set; resolves with the worst latency in ms, the count, and how many
 * probes failed (a long stall makes keep-alive connections race their idle timeout: ECONNRESET).
 */
async function probeHealth(url: string, stop: { done: boolean }): Promise<{ maxMs: number; count: number; failed: number }> {
  let maxMs = 0;
  let count = 0;
  let failed = 0;
  while (!stop.done) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/_spritzer/health`);
      await res.arrayBuffer();
    } catch {
      failed++;
    }
    maxMs = Math.max(maxMs, performance.now() - t0);
    count++;
    await new Promise((r) => setTimeout(r, 5));
  }
  return { maxMs, count, failed };
}

/** Runs `cat file` over WebSocket exec; resolves with the bytes of stdout received, frames and the exit code. */
function wsCat(url: string, file: string): Promise<{ bytes: number; frames: number; maxFrame: number; exit: number | null }> {
  const q = new URLSearchParams([['cmd', 'cat'], ['cmd', file], ['path', 'cat'], ['stdin', 'false']]);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/sprites/bench/exec?${q}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
      maxPayload: 1024 * MiB,
    });
    let bytes = 0;
    let frames = 0;
    let maxFrame = 0;
    let exit: number | null = null;
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return;
      if (data[0] === 1) {
        bytes += data.length - 1;
        frames++;
        maxFrame = Math.max(maxFrame, data.length);
      } else if (data[0] === 3) exit = data[1]!;
    });
    ws.on('close', () => resolve({ bytes, frames, maxFrame, exit }));
    ws.on('error', reject);
  });
}

async function main(): Promise<void> {
  const dir = path.resolve(arg('--server-dir', path.join(HERE, '..')));
  const sizes = arg('--sizes', '8,60').split(',').map(Number);
  const given = arg('--url', '');
  const { url, child } = given ? { url: given, child: undefined } : await startServer(dir);
  process.once('exit', () => child?.kill('SIGKILL')); // never leave the server behind, even on a crash
  try {
    await call(url, 'POST', '/v1/sprites', { name: 'bench' });
    console.log(`server: ${dir}`);
    console.log('| file | cat time | stdout bytes | frames | largest frame | max health latency | health probes (failed) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const size of sizes) {
      const data = new Uint8Array(size * MiB);
      randomFillSync(data);
      // Printable bytes, so engines that treat output as text do not change its length.
      for (let i = 0; i < data.length; i++) data[i] = 0x41 + (data[i]! % 26);
      const file = `/home/sprite/f${size}.bin`;
      await call(url, 'PUT', `/v1/sprites/bench/fs/write?path=${encodeURIComponent(file)}`, data);
      const stop = { done: false };
      const probe = probeHealth(url, stop);
      const t0 = performance.now();
      const r = await wsCat(url, file);
      const ms = performance.now() - t0;
      stop.done = true;
      const h = await probe;
      console.log(
        `| ${size} MiB | ${(ms / 1000).toFixed(2)} s | ${r.bytes}${r.bytes === data.length ? '' : ' (WRONG)'} | ${r.frames} | ${r.maxFrame} B | ${h.maxMs.toFixed(0)} ms | ${h.count} (${h.failed}) |`,
      );
    }
  } finally {
    child?.kill('SIGTERM');
  }
}

await main();
