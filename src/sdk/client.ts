/**
 * `createSpritesClient`: the @spritzer/sdk entry point. Resolves base URL and token (arguments, then
 * `SPRITES_BASE_URL` / `SPRITES_TOKEN`), builds the openapi-fetch client with the bearer header, and joins the
 * operation methods with exec (`run`, `spawn`, `attach`), the proxy and watch sockets (`proxy`, `watchPorts`,
 * `watchFilesystem`) and the NDJSON conveniences. It does not retry,
 * cache or wait on rate limits.
 * @see docs/wire-reference.md §1, §2.1, §18
 */
import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from '../../generated/openapi.d.ts';
import { operationMethods } from './operations.ts';
import { attach, run, spawn, type ExecConnection, type ExecOptions, type RunOptions, type WebSocketConstructor } from './exec.ts';
import { checkpointIdFromComplete, type CheckpointStreamEvent } from './ndjson.ts';
import { proxy, watchFilesystem, watchPorts, type ProxyOptions, type WatchFilesystemOptions } from './watch-proxy.ts';
import { SpritesStreamError } from './errors.ts';

/** The default base URL, as every official SDK has it. */
export const DEFAULT_BASE_URL = 'https://api.sprites.dev';

/** Options of {@link createSpritesClient}; everything is optional. */
export interface SpritesClientOptions {
  /** API base URL; default `SPRITES_BASE_URL`, else `https://api.sprites.dev`. A trailing `/` is trimmed. */
  baseUrl?: string;
  /** Bearer token; default `SPRITES_TOKEN`. Sent on every REST call and WebSocket upgrade. */
  token?: string;
  /** The fetch to use (tests inject one); default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** The WebSocket class, constructed as `new WebSocket(url, {headers})`; default `ws`. */
  WebSocket?: WebSocketConstructor;
  /** Run `run`/`spawn` over the control socket (`ExecOptions.control`) unless a call says otherwise. */
  controlMode?: boolean;
}

/** The result of `createCheckpointAndWait`: the new id (from the `complete` line) and every event. */
export interface CreatedCheckpoint {
  id: string;
  events: CheckpointStreamEvent[];
}

function env(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === '' ? undefined : value;
}

/**
 * Creates a client. Every operationId of spec/openapi.yaml is a method (see `SDK_METHODS`), plus:
 * - `run(sprite, argv, opts)` → `{stdout, stderr, exitCode}`; `spawn(sprite, argv, opts)` → `ExecCommand`;
 *   `attach(sprite, sessionId)` → `ExecCommand`;
 * - `proxy(sprite, {host, port})` → `ProxyConnection`; `watchPorts(sprite)` and
 *   `watchFilesystem(sprite, paths, opts)` → `SocketWatch` (async iterables of JSON messages);
 * - `createCheckpointAndWait(sprite, {comment})` → `{id, events}`; `restoreCheckpointAndWait(sprite, id)` →
 *   the events once the restore completed (both throw `SpritesStreamError` on an `error` line);
 * - `http`: the underlying typed openapi-fetch client, for anything else.
 * @see docs/wire-reference.md §2.1 (bearer auth), §4 (exec), §6 (proxy, watches), §7 (checkpoints)
 */
export function createSpritesClient(options: SpritesClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? env('SPRITES_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const token = options.token ?? env('SPRITES_TOKEN');
  const http: Client<paths> = createClient<paths>({
    baseUrl,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let wsClass: Promise<WebSocketConstructor> | undefined;
  const conn: ExecConnection = {
    baseUrl,
    token,
    WebSocket: () =>
      (wsClass ??= options.WebSocket
        ? Promise.resolve(options.WebSocket)
        : import('ws').then((m) => m.WebSocket as unknown as WebSocketConstructor)),
  };
  const ops = operationMethods({ http });
  const withMode = <T extends ExecOptions>(opts: T | undefined): T => ({ control: options.controlMode === true, ...opts }) as T;

  return {
    ...ops,
    /** The base URL in use (no trailing slash). */
    baseUrl,
    /** The typed openapi-fetch client (bearer header set). */
    http,
    /**
     * Runs `argv` over the exec WebSocket and collects `{stdout, stderr, exitCode}` (UTF-8 strings, exit 0–255).
     * `opts.stdin` is written then EOF is sent. @see docs/wire-reference.md §4.4
     */
    run: (spriteName: string, argv: readonly string[], opts?: RunOptions) => run(conn, spriteName, argv, withMode(opts)),
    /** Starts `argv` and returns the streaming `ExecCommand` (stdin, EOF, signal, resize, events, exit). */
    spawn: (spriteName: string, argv: readonly string[], opts?: ExecOptions) => spawn(conn, spriteName, argv, withMode(opts)),
    /** Attaches to a live session by id (scrollback first). @see docs/wire-reference.md §4.7 */
    attach: (spriteName: string, sessionId: string) => attach(conn, spriteName, sessionId),
    /**
     * Opens a TCP tunnel to `host:port` (host default `localhost`) inside the sprite and resolves once the
     * server answered `{status:"connected", target}`: `target`, `write(bytes)`, `end()`/`close()`, the received
     * chunks as an async iterable, and `closed` → `{code, reason}`. Rejects with `SpritesApiError` (refused
     * handshake) or `SocketProtocolError` (`closed_before_ready` with `closeCode` 1011 "Failed to connect to
     * target: …" or 1003, `timeout` after 10 s, `bad_frame`, `connection_failed`). @see docs/wire-reference.md §6.1
     */
    proxy: (spriteName: string, opts: ProxyOptions) => proxy(conn, spriteName, opts),
    /**
     * Watches listening ports: async-iterate `port_list` (first), then `port_opened` / `port_closed`; `close()`
     * ends it. Rejects with `SpritesApiError` on a refused handshake. @see docs/wire-reference.md §6.2
     */
    watchPorts: (spriteName: string) => watchPorts(conn, spriteName),
    /**
     * Watches `paths` (sends `{type:"subscribe", paths, recursive, workingDir}`): async-iterate `subscribed`,
     * then `event` (`{path, event, timestamp, size, isDir}`) and `error` messages; `close()` ends it. Rejects
     * with `SpritesApiError` on a refused handshake. @see docs/wire-reference.md §6.3
     */
    watchFilesystem: (spriteName: string, paths: string | readonly string[], opts?: WatchFilesystemOptions) => watchFilesystem(conn, spriteName, paths, opts),
    /**
     * Creates a checkpoint and waits for the stream's end; returns the new id parsed from the `complete` line.
     * Throws `SpritesStreamError` on an `error` line or a `complete` line that names no id.
     * @see docs/wire-reference.md §7.1
     */
    async createCheckpointAndWait(spriteName: string, body: { comment?: string } = {}): Promise<CreatedCheckpoint> {
      const events = await (await ops.createCheckpoint(spriteName, body)).wait();
      const complete = events.find((e) => e.type === 'complete');
      const id = checkpointIdFromComplete(complete?.data);
      if (!id) throw new SpritesStreamError('the complete line names no checkpoint id', complete);
      return { id, events };
    },
    /** Restores a checkpoint and waits for `complete` (throws `SpritesStreamError` on `error`). @see docs/wire-reference.md §7.5 */
    async restoreCheckpointAndWait(spriteName: string, checkpointId: string): Promise<CheckpointStreamEvent[]> {
      return (await ops.restoreCheckpoint(spriteName, checkpointId)).wait();
    },
  };
}

/**
 * The AsyncAPI operations (spec/asyncapi.yaml) the SDK implements, keyed by operationId, with the client
 * methods that use them (read by scripts/coverage.ts beside `SDK_METHODS`). Control has no SDK method yet.
 */
export const SDK_WS_METHODS = Object.freeze({
  execCommand: ['run', 'spawn'],
  execCommandOutput: ['run', 'spawn'],
  attachExecSession: ['attach'],
  attachExecSessionOutput: ['attach'],
  proxyConnect: ['proxy'],
  proxyConnectOutput: ['proxy'],
  watchPorts: ['watchPorts'],
  watchFilesystem: ['watchFilesystem'],
  watchFilesystemOutput: ['watchFilesystem'],
} as const);

/** The client `createSpritesClient` returns. */
export type SpritesClient = ReturnType<typeof createSpritesClient>;
