/**
 * The SDK's other WebSockets: the TCP `proxy` (`ProxyConnection`: init `{host, port}`, the `connected` answer,
 * then raw binary both ways), the port watch and the filesystem watch (`SocketWatch`: JSON messages as an
 * async iterable). They share exec's injectable WebSocket, bearer header and handshake errors
 * (`SpritesApiError` with status and parsed body). They do not retry or reconnect, and do not use `/control`.
 * @see docs/wire-reference.md §6; spec/asyncapi.yaml channels proxy, portsWatch, fsWatch
 */
import { EventQueue } from './event-queue.ts';
import type { PortWatchMessage, WatchEventMessage } from '../protocol/messages.ts';
import { SocketProtocolError } from './errors.ts';
import { onRefusedHandshake, openSocket, type ExecConnection, type WebSocketLike } from './exec.ts';

/** How long `proxy` waits for the `connected` answer by default, in ms (the JS SDK's 10 s). */
export const PROXY_CONNECT_TIMEOUT_MS = 10_000;

/** The WebSocket close a proxy or watch socket ended with (1006 when the connection dropped). */
export interface SocketClose {
  code: number;
  reason: string;
}

/** Options of `proxy`. @see docs/wire-reference.md §6.1 */
export interface ProxyOptions {
  /** Host to dial from inside the sprite; default `localhost` (the server's default when omitted). */
  host?: string;
  /** TCP port 1–65535 (the server closes 1003 "Invalid port number" otherwise). */
  port: number;
  /** How long to wait for `{status:"connected"}`, in ms; default {@link PROXY_CONNECT_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** Options of `watchFilesystem`. @see docs/wire-reference.md §6.3 */
export interface WatchFilesystemOptions {
  /** Watch whole subtrees (default true) or only the paths and their direct children. */
  recursive?: boolean;
  /** Base for relative `paths` (default `/`). */
  workingDir?: string;
}

/**
 * A message of the filesystem watch: `{type:"subscribed", paths}` answers the subscribe;
 * `{type:"event", path, event: "create"|"write"|"remove"|"rename"|"chmod", timestamp, size, isDir}` reports a
 * change; `{type:"error", message}` a failure. The production shape is UNCONFIRMED, so fields stay optional.
 */
export type FsWatchMessage = WatchEventMessage;

/** A message of the port watch: `port_list` first, then `port_opened` / `port_closed`. */
export type { PortWatchMessage };

/**
 * What proxy and watch sockets share: a queue behind an async iterator, the `closed` promise, `ready` (which
 * the subclass resolves) and first-failure-wins error handling. Iterate at most once; leaving a `for await`
 * early closes the socket.
 */
export abstract class SocketStream<T> implements AsyncIterable<T> {
  /** Resolves with the close code and reason once the socket closed, however it ended. Never rejects. */
  readonly closed: Promise<SocketClose>;
  /** Resolves when the socket is usable; rejects with `SpritesApiError` or `SocketProtocolError`. */
  protected readonly ready: Promise<void>;
  protected isReady = false;
  protected closing = false;
  private readonly items = new EventQueue<T>();
  private resolveClosed!: (close: SocketClose) => void;
  private resolveReady!: () => void;
  private rejectReady!: (err: Error) => void;

  constructor(
    protected readonly ws: WebSocketLike,
    private readonly what: string,
  ) {
    this.closed = new Promise<SocketClose>((res) => (this.resolveClosed = res));
    this.ready = new Promise<void>((res, rej) => ((this.resolveReady = res), (this.rejectReady = rej)));
    this.ready.catch(() => undefined);
    ws.binaryType = 'arraybuffer';
    onRefusedHandshake(ws, (err) => this.fail(err));
    ws.addEventListener('open', () => this.onOpen());
    ws.addEventListener('message', (ev: { data: unknown }) => {
      if (!this.finished) this.onMessage(ev.data);
    });
    ws.addEventListener('error', (ev: { message?: string; error?: Error }) => {
      this.fail(new SocketProtocolError('connection_failed', ev.error?.message ?? ev.message ?? 'WebSocket error'));
    });
    ws.addEventListener('close', (ev: { code: number; reason: string }) => {
      this.onClose(ev.code, ev.reason ?? '');
      this.resolveClosed({ code: ev.code, reason: ev.reason ?? '' });
    });
  }

  /** Closes the socket (default 1000). Iteration then ends normally. */
  close(code = 1000, reason?: string): void {
    this.closing = true;
    this.ws.close(code, reason);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    try {
      yield* this.items;
    } finally {
      if (!this.finished) this.close();
    }
  }

  private get finished(): boolean {
    return this.items.done;
  }

  protected abstract onOpen(): void;
  protected abstract onMessage(data: unknown): void;
  /** Whether a close after `ready` ends iteration normally (otherwise it throws `SocketProtocolError('closed')`). */
  protected abstract cleanClose(code: number): boolean;

  protected push(item: T): void {
    this.items.push(item);
  }

  protected markReady(): void {
    if (this.finished || this.isReady) return;
    this.isReady = true;
    this.resolveReady();
  }

  /** Parses a text frame as JSON; on failure breaks the protocol and returns undefined. */
  protected json(data: unknown): Record<string, unknown> | undefined {
    if (typeof data !== 'string') return undefined;
    try {
      const value: unknown = JSON.parse(data);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // falls through
    }
    this.protocolBreak(`text frame is not a JSON object: ${data.slice(0, 100)}`);
    return undefined;
  }

  protected protocolBreak(message: string): void {
    this.fail(new SocketProtocolError('bad_frame', message));
    this.closing = true;
    this.ws.close(1002, 'protocol error');
  }

  private onClose(code: number, reason: string): void {
    const detail = `${code}${reason ? ` ${reason}` : ''}`;
    if (!this.isReady) this.fail(new SocketProtocolError('closed_before_ready', `${this.what} socket closed (${detail}) before it was ready`, code, reason));
    else if (this.closing || this.cleanClose(code)) this.finish();
    else this.fail(new SocketProtocolError('closed', `${this.what} socket closed (${detail})`, code, reason));
  }

  private finish(): void {
    this.items.end();
  }

  /** First failure wins: `ready` rejects with it (if still pending) and iteration ends with it. */
  protected fail(err: Error): void {
    if (this.finished) return;
    this.rejectReady(err);
    this.items.end(err);
  }
}

/**
 * An open TCP tunnel into a sprite (`proxyConnect` / `proxyConnectOutput`). Async-iterate it for the bytes
 * the target sends (binary frames only; text frames after the handshake are ignored); iteration ends when
 * either side closes — read `closed` for the code (1000 normal, 1001 "upstream closed" when the target
 * ended the connection). A network error after the handshake makes the iteration throw
 * `SocketProtocolError('connection_failed')`.
 * @see docs/wire-reference.md §6.1
 */
export class ProxyConnection extends SocketStream<Uint8Array> {
  /** `host:port` as the server reported it in `{status:"connected", target}`. */
  target = '';
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Wraps a socket that is connecting; sends `init` once open. */
  constructor(
    ws: WebSocketLike,
    private readonly init: { host?: string; port: number },
    timeoutMs: number,
  ) {
    super(ws, 'proxy');
    this.timer = setTimeout(() => {
      this.fail(new SocketProtocolError('timeout', `no {status:"connected"} within ${timeoutMs} ms`));
      this.closing = true;
      this.ws.close(1000);
    }, timeoutMs);
    const clear = () => clearTimeout(this.timer);
    this.ready.then(clear, clear);
    void this.closed.then(clear);
  }

  /** Resolves once the target was dialled. */
  waitConnected(): Promise<void> {
    return this.ready;
  }

  /** Sends bytes to the target as one binary frame (strings are UTF-8). Throws once the tunnel is closed. */
  write(data: Uint8Array | string): void {
    if (this.closing || this.ws.readyState !== 1) throw new SocketProtocolError('closed', 'the proxy socket is closed');
    this.ws.send(typeof data === 'string' ? new TextEncoder().encode(data) : data);
  }

  /** Optionally writes a last chunk, then closes the tunnel (1000). WebSockets have no half-close. */
  end(data?: Uint8Array | string): void {
    if (data !== undefined) this.write(data);
    this.close();
  }

  protected onOpen(): void {
    this.ws.send(JSON.stringify({ host: this.init.host ?? 'localhost', port: this.init.port }));
  }

  protected onMessage(data: unknown): void {
    if (typeof data !== 'string') {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : undefined;
      if (!bytes) return this.protocolBreak('binary frame of an unsupported type');
      return this.push(bytes);
    }
    if (this.isReady) return; // the relay carries binary frames only (§6.1)
    const msg = this.json(data);
    if (!msg) return;
    if (msg.status !== 'connected') return this.protocolBreak(`expected {status:"connected"}, got ${data.slice(0, 100)}`);
    this.target = typeof msg.target === 'string' ? msg.target : `${this.init.host ?? 'localhost'}:${this.init.port}`;
    this.markReady();
  }

  protected cleanClose(): boolean {
    return true;
  }
}

/**
 * A watch socket: async-iterate it for the server's JSON messages, in order; call `close()` when done
 * (iteration then ends normally, as it does when the server closes with 1000, 1001 or 1005; any other close
 * throws `SocketProtocolError('closed')` with the code and reason). Binary frames are ignored; a text frame
 * that is not a JSON object throws `SocketProtocolError('bad_frame')`.
 * @see docs/wire-reference.md §6.2, §6.3
 */
export class SocketWatch<T> extends SocketStream<T> {
  constructor(
    ws: WebSocketLike,
    what: string,
    private readonly first?: unknown,
  ) {
    super(ws, what);
  }

  /** Resolves once the socket is open (and the first message, if any, was sent). */
  waitOpen(): Promise<void> {
    return this.ready;
  }

  protected onOpen(): void {
    if (this.first !== undefined) this.ws.send(JSON.stringify(this.first));
    this.markReady();
  }

  protected onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    const msg = this.json(data);
    if (msg) this.push(msg as T);
  }

  protected cleanClose(code: number): boolean {
    return code === 1000 || code === 1001 || code === 1005;
  }
}

/**
 * Opens a TCP tunnel to `host:port` inside the sprite: sends `{host, port}`, waits for
 * `{status:"connected", target}`, and resolves the `ProxyConnection`.
 * Rejects with `SpritesApiError` (refused handshake: 401, 404 unknown sprite, 429 …, with status and parsed
 * body) or `SocketProtocolError`: `closed_before_ready` with `closeCode`/`closeReason` (1011 "Failed to
 * connect to target: …" when the dial failed, 1003 "Invalid port number" / "Expected JSON initialization
 * message" for a bad init), `timeout`, `bad_frame`, `connection_failed`.
 * @see docs/wire-reference.md §6.1
 */
export async function proxy(conn: ExecConnection, spriteName: string, opts: ProxyOptions): Promise<ProxyConnection> {
  const connection = new ProxyConnection(await openSocket(conn, spriteName, 'proxy'), { host: opts.host, port: opts.port }, opts.timeoutMs ?? PROXY_CONNECT_TIMEOUT_MS);
  await connection.waitConnected();
  return connection;
}

/**
 * Watches the ports listened on in the sprite; resolves once the socket is open. Yields
 * `{type:"port_list", ports:[{port, address, pid}…]}` first, then `{type:"port_opened"|"port_closed", port,
 * address, pid}`. Rejects with `SpritesApiError` (refused handshake) or `SocketProtocolError`.
 * @see docs/wire-reference.md §6.2
 */
export async function watchPorts(conn: ExecConnection, spriteName: string): Promise<SocketWatch<PortWatchMessage>> {
  const watch = new SocketWatch<PortWatchMessage>(await openSocket(conn, spriteName, 'ports/watch'), 'ports watch');
  await watch.waitOpen();
  return watch;
}

/**
 * Watches `paths` for changes: sends `{type:"subscribe", paths, recursive, workingDir}` (defaults `true`, `/`)
 * once open, then resolves. Yields `subscribed` (the resolved paths), then one `event` per change (`create`,
 * `write`, `remove`, `chmod`, …) and possibly `error` messages. Wait for `subscribed` before relying on
 * changes being seen. Rejects with `SpritesApiError` (refused handshake) or `SocketProtocolError`; a
 * subscribe the server refuses ends the iteration with `SocketProtocolError('closed')` (close 1008).
 * @see docs/wire-reference.md §6.3
 */
export async function watchFilesystem(conn: ExecConnection, spriteName: string, paths: string | readonly string[], opts: WatchFilesystemOptions = {}): Promise<SocketWatch<FsWatchMessage>> {
  const subscribe = { type: 'subscribe', paths: typeof paths === 'string' ? [paths] : [...paths], recursive: opts.recursive ?? true, workingDir: opts.workingDir ?? '/' };
  const watch = new SocketWatch<FsWatchMessage>(await openSocket(conn, spriteName, 'fs/watch'), 'fs watch', subscribe);
  await watch.waitOpen();
  return watch;
}
