/**
 * Exec over WebSocket for the SDK: `spawn` (a streaming `ExecCommand` with stdin, EOF, signals, resize and
 * TTY), `run` (collects `{stdout, stderr, exitCode}`) and `attach` to a running session. Frames are decoded by
 * the shared codec. A socket that closes without the exit frame fails with
 * `ExecProtocolError('closed_before_exit')`, never exit 0. It does not retry, reconnect or use `/control`.
 * @see docs/wire-reference.md §4.2–§4.7; spec/asyncapi.yaml
 */
import { EventQueue } from './event-queue.ts';
import { StreamId, decodeFrame, encodeFrame, FrameError } from '../protocol/frames.ts';
import { CONTROL_PREFIX, decodeControl } from '../protocol/control.ts';
import type { SessionInfoMessage, ExitMessage, PortOpenedMessage, PortClosedMessage } from '../protocol/messages.ts';
import { ExecProtocolError, apiErrorFrom, parseErrorBody, type SpritesApiError } from './errors.ts';

/**
 * The part of a WebSocket the SDK uses: the standard event-target API (`ws` and WHATWG sockets both have it).
 * When `on` exists (the `ws` library), a refused handshake is read through `unexpected-response` so that it
 * becomes a `SpritesApiError` with the HTTP status and body.
 */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: any) => void): void;
  on?(event: string, listener: (...args: any[]) => void): unknown;
  terminate?(): void;
}

/**
 * A WebSocket class constructed as `new WebSocket(url, {headers})` — `ws` (the default on Node) and undici's
 * WebSocket accept this form; the bearer token travels in `headers.Authorization`.
 */
export type WebSocketConstructor = new (url: string, options: { headers: Record<string, string> }) => WebSocketLike;

/** Where and how exec sockets connect. */
export interface ExecConnection {
  /** http(s) base URL; the socket URL swaps the scheme for ws(s). */
  baseUrl: string;
  token: string | undefined;
  /** Resolves the WebSocket class (the injected one, or `ws`). */
  WebSocket(): Promise<WebSocketConstructor>;
}

/** Options of a new command. @see docs/wire-reference.md §4.2 */
export interface ExecOptions {
  /** Environment; when given it **replaces** the default environment. A record or `KEY=VALUE` strings. */
  env?: Record<string, string> | string[];
  /** Working directory (server default `/home/sprite`). */
  dir?: string;
  /** Allocate a PTY: raw bytes both ways, stdout and stderr merged. */
  tty?: boolean;
  /** Initial PTY size (TTY only); server defaults 24×80. */
  rows?: number;
  cols?: number;
  /** Create a detachable session (one that outlives this socket). */
  detachable?: boolean;
  /**
   * Run over the control socket (`/control?op=exec&…`, the docs' auto-start form, docs/wire-reference.md §5.1)
   * instead of `/exec`: one control socket per command, no pool. The frames are those of `/exec` plus the
   * `control:` envelopes; an `op.error` fails the command with `ExecProtocolError` `op_error`.
   */
  control?: boolean;
}

/** Options of {@link run}: {@link ExecOptions} plus the stdin to feed (then EOF). */
export interface RunOptions extends ExecOptions {
  /** Bytes or UTF-8 text written to stdin before EOF. Non-TTY: EOF (`[4]`) is always sent. */
  stdin?: Uint8Array | string;
}

/** What {@link run} returns: output decoded as UTF-8 and the exit code 0–255. */
export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** One event of an `ExecCommand`, in arrival order. TTY output arrives as `stdout`. */
export type ExecEvent =
  | { type: 'stdout'; data: Uint8Array }
  | { type: 'stderr'; data: Uint8Array }
  | { type: 'port_opened'; port: PortOpenedMessage }
  | { type: 'port_closed'; port: PortClosedMessage }
  | { type: 'exit'; exitCode: number };

/**
 * A running command (or an attached session) over one WebSocket. Async-iterate it for output events (the
 * last is `exit`; the iteration then throws `ExecProtocolError` if the socket closed before any exit).
 * `exit` resolves with the exit code 0–255 or rejects with `ExecProtocolError('closed_before_exit')`.
 * Iterate at most once.
 * @see docs/wire-reference.md §4.4 (non-TTY frames), §4.5 (TTY), §4.6 (messages)
 */
export class ExecCommand implements AsyncIterable<ExecEvent> {
  /** Resolves with the exit code; rejects with `ExecProtocolError` or, before the upgrade, `SpritesApiError`. */
  readonly exit: Promise<number>;
  /** The first `session_info` message (set once `spawn`/`attach` resolved). */
  sessionInfo: SessionInfoMessage | undefined;
  /** Resolves on `session_info`; rejects when the socket fails first. */
  readonly ready: Promise<SessionInfoMessage>;

  private tty: boolean | undefined;
  private exitCode: number | undefined;
  private readonly pending: Uint8Array[] = [];
  private readonly events = new EventQueue<ExecEvent>();
  private resolveExit!: (code: number) => void;
  private rejectExit!: (err: Error) => void;
  private resolveReady!: (info: SessionInfoMessage) => void;
  private rejectReady!: (err: Error) => void;

  /** Wraps a socket that is connecting. `tty` is the requested mode (undefined: learn it from `session_info`). */
  constructor(
    private readonly ws: WebSocketLike,
    tty: boolean | undefined,
  ) {
    this.tty = tty;
    this.exit = new Promise<number>((res, rej) => ((this.resolveExit = res), (this.rejectExit = rej)));
    this.ready = new Promise<SessionInfoMessage>((res, rej) => ((this.resolveReady = res), (this.rejectReady = rej)));
    // Handled here so that a caller who only iterates never sees an unhandled rejection.
    this.exit.catch(() => undefined);
    this.ready.catch(() => undefined);
    ws.binaryType = 'arraybuffer';
    onRefusedHandshake(ws, (err) => this.fail(err));
    ws.addEventListener('message', (ev: { data: unknown }) => this.onMessage(ev.data));
    ws.addEventListener('error', (ev: { message?: string; error?: Error }) => {
      this.fail(new ExecProtocolError('connection_failed', ev.error?.message ?? ev.message ?? 'WebSocket error'));
    });
    ws.addEventListener('close', (ev: { code: number; reason: string }) => this.onClose(ev.code, ev.reason));
  }

  /** Writes stdin: `[0]+data` in non-TTY mode, raw bytes in TTY mode. Strings are UTF-8. */
  writeStdin(data: Uint8Array | string): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    this.ws.send(this.tty ? bytes : encodeFrame(StreamId.Stdin, bytes));
  }

  /** Ends stdin: sends the single byte `[4]` (in TTY mode the same byte is Ctrl-D). @see docs/wire-reference.md §4.4 */
  endStdin(): void {
    this.ws.send(Uint8Array.of(StreamId.StdinEof));
  }

  /** Sends `{"type":"signal","signal":name}`; `TERM` and `SIGTERM` are both accepted by the server. */
  signal(name: string): void {
    this.ws.send(JSON.stringify({ type: 'signal', signal: name }));
  }

  /** Sends `{"type":"resize","cols","rows"}` (TTY only; uint16 each). */
  resize(cols: number, rows: number): void {
    this.ws.send(JSON.stringify({ type: 'resize', cols, rows }));
  }

  /** Closes the socket (1000). A non-detachable command is then killed by the server. */
  close(): void {
    this.ws.close(1000);
  }

  [Symbol.asyncIterator](): AsyncIterator<ExecEvent> {
    return this.events[Symbol.asyncIterator]();
  }

  private get finished(): boolean {
    return this.events.done;
  }

  private push(event: ExecEvent): void {
    this.events.push(event);
  }

  private onMessage(data: unknown): void {
    if (this.finished) return;
    if (typeof data === 'string') return this.onText(data);
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : undefined;
    if (!bytes) return this.protocolBreak('binary frame of an unsupported type');
    if (!this.sessionInfo) this.pending.push(bytes);
    else this.onBinary(bytes);
  }

  private onText(text: string): void {
    if (text.startsWith(CONTROL_PREFIX)) return this.onControl(text);
    let msg: { type?: unknown } & Record<string, unknown>;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.protocolBreak('text frame is not JSON');
    }
    switch (msg.type) {
      case 'session_info': {
        if (this.sessionInfo) return;
        const info = msg as unknown as SessionInfoMessage;
        this.sessionInfo = info;
        this.tty ??= info.tty === true;
        this.resolveReady(info);
        for (const bytes of this.pending.splice(0)) this.onBinary(bytes);
        return;
      }
      case 'exit':
        return this.onExit((msg as unknown as ExitMessage).exit_code);
      case 'port_opened':
        return this.push({ type: 'port_opened', port: msg as unknown as PortOpenedMessage });
      case 'port_closed':
        return this.push({ type: 'port_closed', port: msg as unknown as PortClosedMessage });
      default:
        return; // Unknown server messages are ignored, as every official SDK does.
    }
  }

  /** A control envelope (control socket): `op.error` fails the command; `op.ack` and `op.complete` are not needed. */
  private onControl(text: string): void {
    let envelope: ReturnType<typeof decodeControl>;
    try {
      envelope = decodeControl(text);
    } catch (err) {
      return this.protocolBreak((err as Error).message);
    }
    if (envelope?.type === 'op.error') {
      this.fail(new ExecProtocolError('op_error', envelope.args.error));
      this.ws.close(1000);
    }
  }

  private onBinary(bytes: Uint8Array): void {
    if (this.finished) return;
    if (this.tty) return this.push({ type: 'stdout', data: bytes });
    try {
      const { streamId, payload } = decodeFrame(bytes);
      if (streamId === StreamId.Stdout) this.push({ type: 'stdout', data: payload });
      else if (streamId === StreamId.Stderr) this.push({ type: 'stderr', data: payload });
      else if (streamId === StreamId.Exit) this.onExit(payload[0]!);
    } catch (err) {
      if (err instanceof FrameError) return this.protocolBreak(err.message);
      throw err;
    }
  }

  private onExit(code: unknown): void {
    if (this.exitCode !== undefined || this.finished) return;
    if (typeof code !== 'number' || !Number.isInteger(code)) return this.protocolBreak('exit without an integer code');
    this.exitCode = code;
    this.push({ type: 'exit', exitCode: code });
    this.events.end();
    this.resolveExit(code);
    // Nothing follows the exit (§4.4); closing ourselves avoids waiting for a server that lingers.
    this.ws.close(1000);
  }

  private onClose(code: number, reason: string): void {
    if (!this.sessionInfo && this.pending.length) {
      this.tty ??= false;
      for (const bytes of this.pending.splice(0)) this.onBinary(bytes);
    }
    if (this.exitCode !== undefined) return;
    this.fail(new ExecProtocolError('closed_before_exit', `socket closed (${code}${reason ? ` ${reason}` : ''}) before the exit frame`, code, reason));
  }

  private protocolBreak(message: string): void {
    this.fail(new ExecProtocolError('bad_frame', message));
    this.ws.close(1002, 'protocol error');
  }

  /** First failure wins; the exit and ready promises reject with it and iteration ends with it. */
  private fail(err: Error): void {
    if (this.finished) return;
    this.events.end(err);
    this.rejectExit(err);
    this.rejectReady(err);
  }
}

/** The parts of Node's `http.IncomingMessage` read from a refused handshake. */
interface NodeLikeResponse {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  setEncoding(enc: string): void;
  on(event: string, listener: (...args: any[]) => void): unknown;
}

/**
 * Turns a refused handshake into a `SpritesApiError` with the HTTP status, parsed body and headers, then tears
 * the socket down. Only sockets with `on` (the `ws` library) expose the answer; others just fail to connect.
 * Call it right after constructing the socket.
 */
export function onRefusedHandshake(ws: WebSocketLike, fail: (err: SpritesApiError) => void): void {
  ws.on?.('unexpected-response', (req: { destroy(): void }, res: NodeLikeResponse) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      fail(apiErrorFrom(res.statusCode ?? 0, parseErrorBody(text), headers));
      req.destroy();
      ws.terminate?.();
    });
  });
}

/**
 * Constructs a socket to `/v1/sprites/{name}/{channel}[?query]` (http(s) base → ws(s)) with the bearer header.
 * The caller attaches its listeners (and {@link onRefusedHandshake}) before yielding to the event loop.
 */
export async function openSocket(conn: ExecConnection, spriteName: string, channel: string, query?: URLSearchParams): Promise<WebSocketLike> {
  const WebSocketClass = await conn.WebSocket();
  const q = query?.toString();
  const url = `${conn.baseUrl.replace(/^http/, 'ws')}/v1/sprites/${encodeURIComponent(spriteName)}/${channel}${q ? `?${q}` : ''}`;
  const headers: Record<string, string> = conn.token ? { Authorization: `Bearer ${conn.token}` } : {};
  return new WebSocketClass(url, { headers });
}

/**
 * The query of a new command: `cmd` per argv element, `path` = argv[0], `stdin=true`, then `env` (repeated
 * `KEY=VALUE`), `dir`, `tty`, `rows`, `cols`, `detachable` when set — the form the JS SDK sends.
 * @see docs/wire-reference.md §4.2
 */
export function execQuery(argv: readonly string[], opts: ExecOptions = {}): URLSearchParams {
  if (argv.length === 0) throw new TypeError('exec needs at least one argv element');
  const q = new URLSearchParams();
  for (const a of argv) q.append('cmd', a);
  q.set('path', argv[0]!);
  q.set('stdin', 'true');
  const env = Array.isArray(opts.env) ? opts.env : Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of env) q.append('env', e);
  if (opts.dir !== undefined) q.set('dir', opts.dir);
  if (opts.tty) q.set('tty', 'true');
  if (opts.rows !== undefined) q.set('rows', String(opts.rows));
  if (opts.cols !== undefined) q.set('cols', String(opts.cols));
  if (opts.detachable) q.set('detachable', 'true');
  return q;
}

/**
 * Opens a socket to `/v1/sprites/{name}/{channel}?{query}` with the bearer header and resolves once
 * `session_info` arrived. Rejects with `SpritesApiError` (refused handshake, with status and parsed body) or
 * `ExecProtocolError` (network failure, or closed before `session_info`).
 */
async function open(conn: ExecConnection, spriteName: string, channel: string, query: URLSearchParams, tty: boolean | undefined): Promise<ExecCommand> {
  const command = new ExecCommand(await openSocket(conn, spriteName, channel, query), tty);
  await command.ready;
  return command;
}

/**
 * Starts `argv` on a sprite and returns the streaming command once `session_info` arrived.
 * @see docs/wire-reference.md §4.2, §4.3
 */
export function spawn(conn: ExecConnection, spriteName: string, argv: readonly string[], opts: ExecOptions = {}): Promise<ExecCommand> {
  if (!opts.control) return open(conn, spriteName, 'exec', execQuery(argv, opts), opts.tty === true);
  const query = new URLSearchParams([['op', 'exec'], ...execQuery(argv, opts)]);
  return open(conn, spriteName, 'control', query, opts.tty === true);
}

/**
 * Attaches to a running session (`/exec/{session_id}?stdin=true`); TTY mode is read from `session_info`.
 * The server replays the scrollback as stdout first. A dead id is refused at the handshake (`SpritesApiError`
 * 404).
 * @see docs/wire-reference.md §4.7
 */
export function attach(conn: ExecConnection, spriteName: string, sessionId: string): Promise<ExecCommand> {
  return open(conn, spriteName, `exec/${encodeURIComponent(sessionId)}`, new URLSearchParams({ stdin: 'true' }), undefined);
}

/**
 * Runs `argv` to completion: feeds `opts.stdin` (if any), sends EOF (non-TTY), and collects output.
 * A non-zero exit is a result, not an error. Throws `SpritesApiError` / `ExecProtocolError` as {@link spawn}.
 * @see docs/wire-reference.md §4.4
 */
export async function run(conn: ExecConnection, spriteName: string, argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const { stdin, ...execOpts } = opts;
  const command = await spawn(conn, spriteName, argv, execOpts);
  if (stdin !== undefined) command.writeStdin(stdin);
  if (!opts.tty) command.endStdin();
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  let exitCode = -1;
  for await (const event of command) {
    if (event.type === 'stdout') out.push(event.data);
    else if (event.type === 'stderr') err.push(event.data);
    else if (event.type === 'exit') exitCode = event.exitCode;
  }
  return { stdout: utf8(out), stderr: utf8(err), exitCode };
}

function utf8(parts: Uint8Array[]): string {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}
