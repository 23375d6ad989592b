/**
 * Test helpers: start spritzer in-process on port 0 with a chosen engine and sequential ids, and small
 * clients for REST and WebSocket exec that record exactly what the wire carried.
 */
import { pino } from 'pino';
import { WebSocket } from 'ws';
import { startServer, defaultDeps, type RunningServer } from '../../src/server/server.ts';
import { createEngine } from '../../src/server/machines/memory/engines.ts';
import { MemoryMachineFactory } from '../../src/server/machines/memory/machine.ts';
import type { ExecEngine } from '../../src/server/machines/memory/engine.ts';
import type { Clock } from '../../src/server/core/clock.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import type { Deps } from '../../src/server/context.ts';
import type { SandboxFactoryOptions } from '../../src/server/machines/sandbox/sandbox-machine.ts';

/**
 * The engines the integration suites run on: `shell` and `interpreter`; or, in the `integration-sandbox` project
 * (`SPRITZER_INTEGRATION_EXEC=sandbox`), the sandbox engine only (docs/fidelity.md lists what it skips, and why).
 */
export const ENGINES: readonly EngineName[] = process.env.SPRITZER_INTEGRATION_EXEC === 'sandbox' ? ['sandbox'] : ['shell', 'interpreter'];
export type EngineName = 'shell' | 'interpreter' | 'sandbox';
/** True in the `integration-sandbox` project: suites written for the shell engine alone skip (they ran already). */
export const SANDBOX_RUN = ENGINES[0] === 'sandbox';
export const TOKEN = 'test-token';

/** In-memory machines running `engine` (for tests that inject an engine of their own). */
export function memoryMachines(engine: ExecEngine, clock: Clock): MemoryMachineFactory {
  return new MemoryMachineFactory(engine, clock);
}

/**
 * Starts a server for one test file: `engine`'s machines (the sandbox factory opened with the server's clock and
 * `sandbox`, e.g. a `dataDir` or an egress gate with a test double of the outside), sequential ids, a silent logger
 * and response validation on; `overrides` replace any of those deps. Rejects as the sandbox factory does when the
 * host cannot run it (not Linux, not root, no bubblewrap).
 */
export async function startTestServer(
  engine: EngineName = 'shell',
  overrides: Partial<Deps> = {},
  sandbox: Omit<SandboxFactoryOptions, 'clock'> = {},
): Promise<RunningServer> {
  const clock = overrides.clock ?? new SystemClock();
  const machines =
    overrides.machines ??
    (engine === 'sandbox'
      ? await (await import('../../src/server/machines/sandbox/sandbox-machine.ts')).SandboxMachineFactory.open({ ...sandbox, clock })
      : memoryMachines(createEngine(engine, { clock, stdinGraceMs: 30 }), clock));
  return startServer(
    defaultDeps({
      clock,
      ids: new SequentialIds(),
      machines,
      logger: pino({ level: 'silent' }),
      validateResponses: true,
      ...overrides,
    }),
  );
}

/** A REST helper bound to a server. */
export function api(base: string, token = TOKEN) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { Authorization: `Bearer ${token}`, ...headers } };
    if (body instanceof Uint8Array || typeof body === 'string') {
      init.body = body as BodyInit;
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/octet-stream';
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    }
    const res = await fetch(base + path, init);
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json: json as any };
  };
}

/** Everything one WebSocket exec produced, in order. */
export interface ExecRecord {
  events: Array<{ kind: 'text'; value: any } | { kind: 'binary'; bytes: Uint8Array }>;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  closeCode: number;
  sessionInfo: any;
  upgradeHeaders: Record<string, string | string[] | undefined>;
}

/** Builds an exec query string from argv and options, the way the SDKs do. */
export function execQuery(argv: string[], opts: { stdin?: boolean; env?: string[]; dir?: string; tty?: boolean; rows?: number; cols?: number; extra?: Record<string, string> } = {}): string {
  const q = new URLSearchParams();
  for (const a of argv) q.append('cmd', a);
  if (argv.length) q.set('path', argv[0]);
  q.set('stdin', String(opts.stdin ?? false));
  for (const e of opts.env ?? []) q.append('env', e);
  if (opts.dir) q.set('dir', opts.dir);
  if (opts.tty) q.set('tty', 'true');
  if (opts.rows) q.set('rows', String(opts.rows));
  if (opts.cols) q.set('cols', String(opts.cols));
  for (const [k, v] of Object.entries(opts.extra ?? {})) q.set(k, v);
  return q.toString();
}

/**
 * Runs one exec over WebSocket. `send` is called once the socket is open (for stdin frames and text
 * messages). Resolves when the socket closes.
 */
export function wsExec(
  base: string,
  path: string,
  send?: (ws: WebSocket) => void,
  token = TOKEN,
): Promise<ExecRecord> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { Authorization: `Bearer ${token}` } });
    const rec: ExecRecord = { events: [], stdout: '', stderr: '', exitCode: null, closeCode: 0, sessionInfo: undefined, upgradeHeaders: {} };
    ws.on('upgrade', (res) => (rec.upgradeHeaders = res.headers));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => reject(Object.assign(new Error(`handshake ${res.statusCode}`), { status: res.statusCode, body, headers: res.headers })));
    });
    ws.on('open', () => send?.(ws));
    ws.on('message', (data, isBinary) => {
      if (!isBinary) {
        const value = JSON.parse(data.toString());
        rec.events.push({ kind: 'text', value });
        if (value.type === 'session_info' && !rec.sessionInfo) rec.sessionInfo = value;
        if (value.type === 'exit') rec.exitCode = value.exit_code;
        return;
      }
      const bytes = new Uint8Array(data as Buffer);
      rec.events.push({ kind: 'binary', bytes });
      if (rec.sessionInfo?.tty) {
        rec.stdout += Buffer.from(bytes).toString();
        return;
      }
      const payload = Buffer.from(bytes.subarray(1)).toString();
      if (bytes[0] === 1) rec.stdout += payload;
      else if (bytes[0] === 2) rec.stderr += payload;
      else if (bytes[0] === 3) rec.exitCode = bytes[1];
    });
    ws.on('close', (code) => {
      rec.closeCode = code;
      resolve(rec);
    });
    ws.on('error', (err) => {
      if (!(err as Error).message.startsWith('Unexpected server response')) reject(err);
    });
  });
}
