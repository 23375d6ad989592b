/**
 * Starting and stopping the servers under benchmark, each in its own process: the two baselines and spritzer
 * through its CLI entry (`bin/spritzer.mjs`, the built server, as `npm start` runs it, default log level).
 * It measures cold start (spawn → first HTTP answer on `GET /_spritzer/health`) and reads RSS from
 * `/proc/<pid>/status`. It does not generate load (see `load.ts`) and never touches the server's code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtBaseline } from './build-baselines.ts';

/** The three servers, in the order `bench/run.ts` runs them. */
export const SERVER_KINDS = ['bare-node', 'plain-express', 'spritzer'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** Repository root (the servers run with it as their working directory). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How to start a server. */
export interface LaunchOptions {
  /** spritzer's entry: a `.ts` file runs under `--import tsx`; `.js`/`.mjs` runs as is. Default `bin/spritzer.mjs` (dist/). */
  spritzerEntry?: string;
  /** Extra environment for spritzer (e.g. `NODE_ENV=production`). `SPRITZER_*` from the caller's env is dropped. */
  spritzerEnv?: Record<string, string>;
  /** Node flags for every server (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** The node binary every server runs on (default: the one running the bench, `process.execPath`). */
  node?: string;
  /** Load `heap-probe.mjs` and open an IPC channel so {@link StartedServer.heap} works (adds `--expose-gc`). */
  heapProbe?: boolean;
  /** Monotonic milliseconds; default `performance.now`. */
  now?: () => number;
  /** Give up waiting for the first answer after this long (ms). Default 60,000. */
  startTimeoutMs?: number;
}

/** Heap figures read inside the server after two full GCs (bytes). */
export interface HeapReading {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

/** A running server process. */
export interface StartedServer {
  kind: ServerKind;
  pid: number;
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** Spawn → first HTTP answer, in ms. */
  coldStartMs: number;
  /** Monotonic µs (same clock as `--cpu-prof` timestamps) when the process was spawned / first answered. */
  spawnedAtUs: number;
  readyAtUs: number;
  /** Resident set size now, KiB (`VmRSS` of `/proc/<pid>/status`). */
  rssKiB(): number;
  /** CPU time the process has used so far, all threads, user + system, ms (10 ms resolution). */
  cpuMs(): number;
  /** Heap after GC, from inside the process; only with `heapProbe`. */
  heap(): Promise<HeapReading>;
  /** SIGTERM (the servers exit 0 on it, which also writes a `--cpu-prof` profile), SIGKILL after `graceMs` (10 s). */
  stop(graceMs?: number): Promise<void>;
}

/** `VmRSS` of a process in KiB. Throws when the process is gone. @see proc(5) */
export function readRssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

/**
 * User + system CPU time of a process and all its threads, in ms, from fields 14 and 15 of `/proc/<pid>/stat`
 * (clock ticks of USER_HZ, which Linux fixes at 100 for /proc). Throws when the process is gone. @see proc(5)
 */
export function readCpuMs(pid: number): number {
  return cpuMsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** utime + stime of one `/proc/<pid>/stat` line, in ms; the command name may hold spaces and parentheses. */
export function cpuMsFromStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`unreadable /proc stat line: ${stat.slice(0, 80)}`);
  return (ticks * 1000) / 100;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** One `GET` with a fresh connection; resolves with the status, rejects when nothing answers. */
function probe(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { authorization: 'Bearer bench' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

function commandFor(kind: ServerKind, port: number, opts: LaunchOptions): { args: string[]; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SPRITZER_') && k !== 'NODE_ENV') env[k] = v;
  const addr = ['--addr', `127.0.0.1:${port}`];
  const probeFlags = opts.heapProbe ? ['--expose-gc', '--import', './bench/lib/heap-probe.mjs'] : [];
  const flags = [...(opts.nodeFlags ?? []), ...probeFlags];
  if (kind !== 'spritzer') {
    const file = kind === 'bare-node' ? 'bench/baselines/bare-node.ts' : 'bench/baselines/plain-express.ts';
    return { args: [...flags, builtBaseline(ROOT, file), ...addr], env }; // plain node, as spritzer (build-baselines.ts)
  }
  const entry = opts.spritzerEntry ?? 'bin/spritzer.mjs';
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return {
    args: [...flags, ...loader, entry, ...addr],
    env: { ...env, ...opts.spritzerEnv },
  };
}

/**
 * Spawns `kind` on a free port and waits for its first HTTP answer (any status) to `GET /_spritzer/health`,
 * polling every 2 ms. stdout (spritzer's request log) goes to a file in a temp dir, as in a CI job; stderr is
 * kept for the error message. Rejects when the process exits or does not answer within `startTimeoutMs`.
 */
export async function startServer(kind: ServerKind, opts: LaunchOptions = {}): Promise<StartedServer> {
  const now = opts.now ?? (() => performance.now());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { args, env } = commandFor(kind, port, opts);
  const logDir = mkdtempSync(join(tmpdir(), `bench-${kind}-`));
  const stdout = openSync(join(logDir, 'stdout.log'), 'w');
  const spawnedAtUs = Number(process.hrtime.bigint() / 1000n);
  const t0 = now();
  const child: ChildProcess = spawn(opts.node ?? process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', stdout, 'pipe', ...(opts.heapProbe ? (['ipc'] as const) : [])],
  });
  closeSync(stdout);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let exited: string | undefined;
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `exited (code ${code}, signal ${signal})`;
      resolve();
    }),
  );
  const deadline = t0 + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`${kind} ${exited} before answering: ${stderr}`);
    if (now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${kind} did not answer within ${opts.startTimeoutMs ?? 60_000} ms: ${stderr}`);
    }
    try {
      await probe(`${url}/_spritzer/health`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  const coldStartMs = now() - t0;
  const readyAtUs = Number(process.hrtime.bigint() / 1000n);
  const pid = child.pid!;
  return {
    kind,
    pid,
    url,
    coldStartMs,
    spawnedAtUs,
    readyAtUs,
    rssKiB: () => readRssKiB(pid),
    cpuMs: () => readCpuMs(pid),
    heap() {
      if (!child.send) return Promise.reject(new Error('heap() needs heapProbe'));
      return new Promise((resolve) => {
        child.once('message', (m) => resolve(m as HeapReading));
        child.send!('heap');
      });
    },
    async stop(graceMs = 10_000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
