/**
 * The errors @spritzer/sdk throws: `SpritesApiError` for any HTTP status ≥ 400 (and for a refused WebSocket
 * handshake), `FilesystemError` for the fs family's `{error, code, path}` bodies, `SpritesStreamError` for an
 * NDJSON stream that ends in an `error` event, and `ExecProtocolError` for an exec socket that breaks the
 * protocol. It does not retry or wait on rate limits; callers read `retryAfter` and decide.
 * @see docs/wire-reference.md §2.2, §2.4, §8.9
 */

/** Codes a filesystem error may carry; anything else the server sends becomes `UNKNOWN`. @see docs/wire-reference.md §8.9 */
export type FilesystemErrorCode =
  | 'ENOENT'
  | 'EEXIST'
  | 'ENOTDIR'
  | 'EISDIR'
  | 'EACCES'
  | 'ENOTEMPTY'
  | 'EINVAL'
  | 'EIO'
  | 'ELOOP'
  | 'UNKNOWN';

const FS_CODES: ReadonlySet<string> = new Set(['ENOENT', 'EEXIST', 'ENOTDIR', 'EISDIR', 'EACCES', 'ENOTEMPTY', 'EINVAL', 'EIO', 'ELOOP']);

/** The `X-RateLimit-*` response headers, as integers (`reset` is unix seconds). Absent headers are absent. */
export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  reset?: number;
}

/**
 * An HTTP error answer of the Sprites API (status ≥ 400), or a refused exec handshake.
 * - JSON envelopes (§2.4, the outer API's JSON envelope): `error` is the code or human string, `message` the text (falls back to
 *   `error`), and `errors`, `limit`, `window_seconds`, `retry_after_seconds`, `current_count`,
 *   `upgrade_available`, `upgrade_url` are copied when present (integers as sent).
 * - text/plain in-VM errors (§2.4, the in-VM text errors): the trimmed text is the `message`; `error` is undefined.
 * - Headers: `retryAfter` (seconds, from `Retry-After`) and `rateLimit` (`X-RateLimit-*`), read on every error.
 * @see docs/wire-reference.md §2.2, §2.4
 */
export class SpritesApiError extends Error {
  /** HTTP status, e.g. 404, 429. */
  readonly status: number;
  /** The envelope's `error` field (a machine code such as `sprite_creation_rate_limited`, or human text). */
  readonly error: string | undefined;
  /** Validation messages (`{"errors": [...]}`). */
  readonly errors: string[] | undefined;
  /** Rate limit: how many calls the window allows. */
  readonly limit: number | undefined;
  /** Rate limit: the window, in seconds. */
  readonly window_seconds: number | undefined;
  /** Rate limit: seconds to wait before retrying (body field). */
  readonly retry_after_seconds: number | undefined;
  /** Rate limit: how many calls were counted in the window. */
  readonly current_count: number | undefined;
  readonly upgrade_available: boolean | undefined;
  readonly upgrade_url: string | undefined;
  /** `Retry-After` header, in seconds. */
  readonly retryAfter: number | undefined;
  /** `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` headers. */
  readonly rateLimit: RateLimitHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;
  /** All response headers. */
  readonly headers: Headers;

  constructor(status: number, body: unknown, headers: Headers = new Headers()) {
    const obj = isObject(body) ? body : undefined;
    const text = typeof body === 'string' ? body.trim() : undefined;
    const error = typeof obj?.error === 'string' ? obj.error : undefined;
    const message = typeof obj?.message === 'string' ? obj.message : (error ?? (text || `HTTP ${status}`));
    super(message);
    this.name = 'SpritesApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.error = error;
    this.errors = Array.isArray(obj?.errors) ? obj.errors.filter((e): e is string => typeof e === 'string') : undefined;
    this.limit = num(obj?.limit);
    this.window_seconds = num(obj?.window_seconds);
    this.retry_after_seconds = num(obj?.retry_after_seconds);
    this.current_count = num(obj?.current_count);
    this.upgrade_available = typeof obj?.upgrade_available === 'boolean' ? obj.upgrade_available : undefined;
    this.upgrade_url = typeof obj?.upgrade_url === 'string' ? obj.upgrade_url : undefined;
    this.retryAfter = intHeader(headers, 'Retry-After');
    this.rateLimit = dropUndefined({
      limit: intHeader(headers, 'X-RateLimit-Limit'),
      remaining: intHeader(headers, 'X-RateLimit-Remaining'),
      reset: intHeader(headers, 'X-RateLimit-Reset'),
    });
  }
}

/**
 * A filesystem endpoint's error `{error, code, path}` (§8.9). `code` is one of {@link FilesystemErrorCode}
 * (unknown codes become `UNKNOWN`); `path` is the absolute path the server named.
 * @see docs/wire-reference.md §8.9
 */
export class FilesystemError extends SpritesApiError {
  readonly code: FilesystemErrorCode;
  readonly path: string;

  constructor(status: number, body: { error: string; code: string; path: string }, headers?: Headers) {
    super(status, body, headers);
    this.name = 'FilesystemError';
    this.code = FS_CODES.has(body.code) ? (body.code as FilesystemErrorCode) : 'UNKNOWN';
    this.path = body.path;
  }
}

/**
 * The error for an HTTP error answer: a `FilesystemError` when the body is the fs envelope (string `code` and
 * `path`), a `SpritesApiError` otherwise. `body` is the parsed JSON or the raw text.
 */
export function apiErrorFrom(status: number, body: unknown, headers?: Headers): SpritesApiError {
  if (isObject(body) && typeof body.code === 'string' && typeof body.path === 'string') {
    return new FilesystemError(status, { error: typeof body.error === 'string' ? body.error : body.code, code: body.code, path: body.path }, headers);
  }
  return new SpritesApiError(status, body, headers);
}

/** Parses an error body text as JSON when it is JSON, else keeps the text. */
export function parseErrorBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * An NDJSON operation whose stream ended with an `error` event (checkpoint create/restore, exec kill, or a
 * service stream carrying an `error` line), thrown by the `…AndWait` conveniences and `EventStream.wait()`.
 * `event` is the error line as sent.
 */
export class SpritesStreamError extends Error {
  constructor(
    message: string,
    readonly event: unknown,
  ) {
    super(message);
    this.name = 'SpritesStreamError';
  }
}

/** Why an exec socket broke the protocol. */
export type ExecProtocolErrorCode =
  /** The socket closed with no exit frame (non-TTY) and no `exit` message (TTY). Never reported as exit 0. */
  | 'closed_before_exit'
  /** The control socket refused the command (`op.error`; the message is its `args.error`). */
  | 'op_error'
  /** A binary frame that does not decode (unknown stream id, bad exit frame) or a text frame that is not JSON. */
  | 'bad_frame'
  /** The WebSocket failed before or during the handshake without an HTTP answer (network error). */
  | 'connection_failed';

/**
 * An exec or attach socket that broke the protocol. `closeCode`/`closeReason` are the WebSocket close the
 * client saw, when there was one.
 * @see docs/wire-reference.md §4.4 (the exit frame must be sent), §4.5
 */
export class ExecProtocolError extends Error {
  constructor(
    readonly code: ExecProtocolErrorCode,
    message: string = code,
    readonly closeCode?: number,
    readonly closeReason?: string,
  ) {
    super(message);
    this.name = 'ExecProtocolError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function intHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Why a proxy or watch socket failed. */
export type SocketProtocolErrorCode =
  /** The socket closed before it was ready: before the proxy's `connected` answer, or before a watch opened. */
  | 'closed_before_ready'
  /** A watch socket closed with a code other than 1000, 1001 or 1005 (e.g. 1008 for a refused `subscribe`). */
  | 'closed'
  /** A text frame that is not JSON, or a proxy answer other than `{status:"connected"}`. */
  | 'bad_frame'
  /** The WebSocket failed without an HTTP answer (network error). */
  | 'connection_failed'
  /** The proxy's `connected` answer did not arrive in time. */
  | 'timeout';

/**
 * A proxy or watch socket that broke the protocol or closed too early. `closeCode`/`closeReason` are the
 * WebSocket close the client saw, when there was one — e.g. 1011 "Failed to connect to target: …" when the
 * proxy could not dial, 1003 "Invalid port number" for a bad init.
 * @see docs/wire-reference.md §6.1–§6.3
 */
export class SocketProtocolError extends Error {
  constructor(
    readonly code: SocketProtocolErrorCode,
    message: string = code,
    readonly closeCode?: number,
    readonly closeReason?: string,
  ) {
    super(message);
    this.name = 'SocketProtocolError';
  }
}
