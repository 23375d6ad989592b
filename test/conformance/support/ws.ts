/**
 * Raw `ws` clients for the conformance suite: a recorded WebSocket connection whose every incoming frame is
 * validated against spec/asyncapi.yaml (the server-output operation of its channel), failed handshakes checked
 * against `HandshakeError`, and an exec runner built on it. It speaks the wire (§4.4 frames) directly; it is
 * not the SDK.
 */
import { WebSocket } from 'ws';
import type { Target } from './target.ts';
import { queryString, type QueryValue } from './http.ts';
import { specValidator } from './spec-validator.ts';

/** One frame the server sent, in arrival order. */
export interface RecordedFrame {
  binary: boolean;
  data: Uint8Array;
  /** The AsyncAPI message key it matched (`stdout`, `sessionInfo`, …). */
  message: string;
  /** Parsed JSON of a text frame. */
  json?: any;
}

/** A failed handshake: HTTP status and validated JSON body. */
export class HandshakeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(`handshake failed with HTTP ${status}: ${JSON.stringify(body)}`);
    this.name = 'HandshakeFailure';
  }
}

/** What chooses the messages a binary frame may be, given the frames so far (undefined = any). */
export type BinaryMessages = (frames: RecordedFrame[]) => string[] | undefined;

/** Options of {@link connectWs}. */
export interface ConnectOptions {
  /** The AsyncAPI operation describing what the server sends (e.g. `execCommandOutput`). */
  output: string;
  query?: Record<string, QueryValue>;
  /** `Authorization` value; default `Bearer <token>`; `null` sends none. */
  authorization?: string | null;
  binaryMessages?: BinaryMessages;
}

/** Every connection opened since the last {@link takeViolations} (the per-test check drains it). */
const opened: WsConnection[] = [];

/**
 * The spec violations seen on every connection opened since the last call, and forgets those connections.
 * `useConformance()` calls it after each test so that no frame goes unchecked.
 */
export function takeViolations(): Error[] {
  const found = opened.flatMap((c) => (c.violation ? [c.violation] : []));
  opened.length = 0;
  return found;
}

/** An open, recording WebSocket. */
export class WsConnection {
  readonly frames: RecordedFrame[] = [];
  /** Resolves when the socket closes (code 1005/1006 when there was no close frame). */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** The first validation error of an incoming frame, if any (tests assert it is undefined). */
  violation: Error | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly ws: WebSocket,
    readonly upgradeHeaders: Record<string, string | string[] | undefined>,
    output: string,
    binaryMessages: BinaryMessages | undefined,
  ) {
    const validator = specValidator();
    opened.push(this);
    ws.on('message', (raw, isBinary) => {
      const data = new Uint8Array(Array.isArray(raw) ? Buffer.concat(raw) : (raw as Buffer));
      const frame: RecordedFrame = { binary: isBinary, data, message: '?' };
      try {
        frame.message = validator.checkFrame(output, data, isBinary, isBinary ? binaryMessages?.(this.frames) : undefined);
        if (!isBinary) {
          const text = Buffer.from(data).toString('utf8');
          frame.json = JSON.parse(text.startsWith('control:') ? text.slice(8) : text);
        }
      } catch (err) {
        this.violation ??= err as Error;
      }
      this.frames.push(frame);
      for (const wake of [...this.waiters]) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of [...this.waiters]) wake();
      });
    });
  }

  /** Waits until a frame satisfies `pred` (safety timeout, not an assertion); rejects if the socket closes first. */
  waitFor(pred: (f: RecordedFrame) => boolean, timeoutMs = 15_000): Promise<RecordedFrame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.frames.find(pred);
        if (hit) return done(() => resolve(hit));
        if (this.ws.readyState === WebSocket.CLOSED) return done(() => reject(new Error('socket closed before the expected frame')));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no expected frame within ${timeoutMs} ms`))), timeoutMs);
      const done = (then: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        then();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Sends a binary frame. */
  sendBinary(bytes: Uint8Array | number[]): void {
    this.ws.send(Buffer.from(bytes as Uint8Array), { binary: true });
  }

  /** Sends a text frame (objects as JSON). */
  sendText(value: string | object): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }
}

/**
 * Opens a WebSocket to `path` on the target. Resolves once open; rejects with {@link HandshakeFailure}
 * (body validated against the AsyncAPI `HandshakeError`) when the server answers with an HTTP status.
 */
export function connectWs(target: Target, path: string, opts: ConnectOptions): Promise<WsConnection> {
  const url = target.baseUrl.replace(/^http/, 'ws') + path + queryString(opts.query);
  const auth = opts.authorization === undefined ? `Bearer ${target.token}` : opts.authorization;
  const ws = new WebSocket(url, { headers: auth === null ? {} : { Authorization: auth }, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    let upgradeHeaders: Record<string, string | string[] | undefined> = {};
    let conn: WsConnection | undefined;
    ws.on('upgrade', (res) => {
      upgradeHeaders = res.headers;
      // Attach the recorder before 'open' so that frames sent right after the upgrade are not missed.
      conn = new WsConnection(ws, upgradeHeaders, opts.output, opts.binaryMessages);
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => {
        try {
          const body = specValidator().checkHandshakeError(res.statusCode ?? 0, res.headers['content-type'] ?? null, text);
          reject(new HandshakeFailure(res.statusCode ?? 0, body, res.headers));
        } catch (err) {
          reject(err);
        }
        ws.terminate();
      });
    });
    ws.on('open', () => resolve(conn!));
    ws.on('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/** Exec options, the query of §4.2. */
export interface ExecOptions {
  stdin?: boolean;
  env?: string[];
  dir?: string;
  tty?: boolean;
  rows?: number;
  cols?: number;
  detachable?: boolean;
}

/** What one exec produced. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  /** From the `[3, code]` frame (non-TTY) or the text `exit` message (TTY); null if neither came. */
  exitCode: number | null;
  sessionInfo: any;
  frames: RecordedFrame[];
  closeCode: number;
  upgradeHeaders: Record<string, string | string[] | undefined>;
  violation: Error | undefined;
}

/** The exec query the SDKs send: `cmd` repeated, `path` = argv[0], `stdin`, then the options. */
export function execQuery(argv: string[], opts: ExecOptions = {}): Record<string, QueryValue> {
  return {
    cmd: argv,
    path: argv[0],
    stdin: opts.stdin ?? false,
    env: opts.env,
    dir: opts.dir,
    tty: opts.tty ? true : undefined,
    rows: opts.rows,
    cols: opts.cols,
    detachable: opts.detachable ? true : undefined,
  };
}

/** Non-TTY binary frames must be stdout/stderr/exit frames; TTY ones raw output (decided by `session_info`). */
export const execBinaryMessages: BinaryMessages = (frames) => {
  const info = frames.find((f) => f.message === 'sessionInfo')?.json;
  if (!info) return undefined;
  return info.tty ? ['ttyOutput'] : ['stdout', 'stderr', 'exitFrame'];
};

/** Opens an exec socket for `argv` on sprite `name` (validated as `execCommandOutput`). */
export function openExec(target: Target, name: string, argv: string[], opts: ExecOptions = {}): Promise<WsConnection> {
  return connectWs(target, `/v1/sprites/${name}/exec`, {
    output: 'execCommandOutput',
    query: execQuery(argv, opts),
    binaryMessages: execBinaryMessages,
  });
}

/** Decodes a recorded exec conversation into stdout, stderr and the exit code. */
export function summarizeExec(conn: WsConnection, closeCode: number): ExecResult {
  const sessionInfo = conn.frames.find((f) => f.message === 'sessionInfo')?.json;
  const tty = Boolean(sessionInfo?.tty);
  let stdout = '';
  let stderr = '';
  let exitCode: number | null = null;
  for (const f of conn.frames) {
    if (!f.binary) {
      if (f.json?.type === 'exit' && exitCode === null) exitCode = f.json.exit_code;
      continue;
    }
    if (tty) {
      stdout += Buffer.from(f.data).toString('utf8');
      continue;
    }
    const payload = Buffer.from(f.data.subarray(1)).toString('utf8');
    if (f.data[0] === 1) stdout += payload;
    else if (f.data[0] === 2) stderr += payload;
    else if (f.data[0] === 3) exitCode = f.data[1];
  }
  return { stdout, stderr, exitCode, sessionInfo, frames: conn.frames, closeCode, upgradeHeaders: conn.upgradeHeaders, violation: conn.violation };
}

/**
 * Runs `argv` to completion over an exec socket. `send` runs once the socket is open (stdin frames, text
 * messages). Resolves when the server closes the socket.
 */
export async function runExec(
  target: Target,
  name: string,
  argv: string[],
  opts: ExecOptions = {},
  send?: (conn: WsConnection) => void,
): Promise<ExecResult> {
  const conn = await openExec(target, name, argv, opts);
  send?.(conn);
  const { code } = await conn.closed;
  return summarizeExec(conn, code);
}
