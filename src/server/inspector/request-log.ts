/**
 * The inspector's request log: a ring buffer of the last N API calls and WebSocket sessions (method, path,
 * status, duration, sprite, and truncated request/response bodies), filled by an Express middleware and an
 * upgrade wrapper, read by `GET /_spritzer/requests` (operationId `listSpritzerRequests`). It never stores an
 * `Authorization` header, a `?token=`-style query value or a token sub-protocol. It owns no routing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import type { components } from '../../../generated/openapi.d.ts';
import type { Clock } from '../core/clock.ts';
import { isWarmUp } from '../http/warm-up.ts';

/**
 * One logged exchange, as `GET /_spritzer/requests` returns it (schema `SpritzerRequest`): `id` increasing from 1,
 * `kind` `http` or `ws` (a handshake and the session that followed), `path` with secret query values masked, `status`
 * 101 for an accepted upgrade and 0 while unanswered (a streamed answer, e.g. a service's NDJSON log, has its status from
 * the moment its head is sent, though its body is still open), `startedAt` ISO 8601, `durationMs` to the end of the response
 * (`ws`: the socket's close) or null while open, `sprite` the one `/v1/sprites/{name}/…` names, the bodies as text
 * (binary as a byte count) cut at the body limit, `truncated` when one was cut.
 */
export type RequestRecord = components['schemas']['SpritzerRequest'];

/** Bounds of the log (docs/limits.md "Inspector"). */
export interface RequestLogOptions {
  /** Records kept (oldest dropped first); default 500. */
  capacity?: number;
  /** Bytes of each body kept; default 4096. */
  bodyBytes?: number;
}

/** Header names never stored (case-insensitive). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'sec-websocket-protocol']);
/** Query parameter names whose value is masked. */
const SECRET_QUERY = /^(token|access_token|auth|authorization)$/i;
/** Requests the inspector itself makes to poll; they are not logged. */
export const INSPECTOR_POLL_HEADER = 'x-spritzer-inspector';

const SPRITE_IN_PATH = /^\/v1\/sprites\/([^/?]+)/;

/**
 * The ring buffer. `middleware()` logs every HTTP request but the inspector's own polls and static files and the
 * start's warm-up request (http/warm-up.ts);
 * `wrapUpgrade()` logs every WebSocket handshake and how long its socket lived.
 */
export class RequestLog {
  private readonly capacity: number;
  private readonly bodyBytes: number;
  private readonly entries: Entry[] = [];
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    opts: RequestLogOptions = {},
  ) {
    this.capacity = opts.capacity ?? 500;
    this.bodyBytes = opts.bodyBytes ?? 4096;
  }

  /** The records, newest first. */
  list(): RequestRecord[] {
    const out: RequestRecord[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) out.push(this.entries[i].record());
    return out;
  }

  /** Forgets every record (`POST /_spritzer/reset`). */
  clear(): void {
    this.entries.length = 0;
  }

  /**
   * Opens an entry for `req`. Only references and numbers are taken here; masking, decoding, header filtering and
   * body text happen when the inspector reads the log (`list()`), not on every request (docs/performance.md).
   */
  private start(kind: 'http' | 'ws', req: IncomingMessage): Entry {
    const entry = new Entry(this.nextId++, kind, req.method ?? 'GET', req.url ?? '/', this.clock.now(), req.headers);
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }

  /** Express middleware: mount first, so 401s and validator 400s are logged too. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (req.headers[INSPECTOR_POLL_HEADER] === 'poll' || isWarmUp(req.headers) || req.path.startsWith('/_spritzer/ui') || req.path === '/favicon.ico') {
        return next();
      }
      const entry = this.start('http', req);
      const out = new BodyCapture(this.bodyBytes);
      entry.responseBody = out;
      entry.open = res;
      captureWrites(res, out);
      const finish = (): void => {
        if (entry.finished) return;
        entry.open = undefined;
        entry.status = res.statusCode;
        entry.durationMs = this.clock.now() - entry.startedAt;
        entry.responseHeaders = res.getHeaders() as Record<string, unknown>;
        // Cut now: a request body may be a 1 GB fs write that the log must not keep alive.
        entry.requestBody = describeBody((req as { body?: unknown }).body, this.bodyBytes);
        entry.finished = true;
      };
      res.on('finish', finish);
      res.on('close', finish);
      next();
    };
  }

  /**
   * Wraps an `upgrade` listener: the record's status is read from the first line written on the socket
   * (`HTTP/1.1 101` or a rejection with its JSON body), its duration runs until the socket closes.
   */
  wrapUpgrade(handle: (req: IncomingMessage, socket: Duplex, head: Buffer) => void) {
    return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      const entry = this.start('ws', req);
      let first = true;
      /** Reads the status line, headers and body of the first bytes written (the 101 or the rejection). */
      const sniff = (chunk: unknown): void => {
        if (!first || chunk === undefined || chunk === null || typeof chunk === 'function') return;
        first = false;
        const text = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (status) entry.status = Number(status[1]);
        const [headText, bodyText = ''] = text.split('\r\n\r\n');
        entry.responseHeaders = parseHeaderLines(headText);
        entry.responseBody = cut(bodyText, this.bodyBytes).text;
      };
      const write = socket.write.bind(socket) as (...a: unknown[]) => boolean;
      (socket as { write: unknown }).write = (...args: unknown[]) => {
        sniff(args[0]);
        return write(...args);
      };
      const end = socket.end.bind(socket) as (...a: unknown[]) => Duplex;
      (socket as { end: unknown }).end = (...args: unknown[]) => {
        sniff(args[0]);
        return end(...args);
      };
      socket.once('close', () => {
        entry.durationMs = this.clock.now() - entry.startedAt;
        entry.finished = true;
      });
      handle(req, socket, head);
    };
  }
}

/**
 * One exchange as it happens: references and numbers, turned into a {@link RequestRecord} by `record()` (cached
 * once the exchange has finished, since nothing changes after that).
 */
class Entry {
  status = 0;
  /** An HTTP response not yet finished: its status counts once its head is sent (a stream that stays open). */
  open: ServerResponse | undefined;
  durationMs: number | null = null;
  finished = false;
  responseHeaders: Record<string, unknown> = {};
  responseBody: BodyCapture | string = '';
  requestBody: { text: string; truncated: boolean } = { text: '', truncated: false };
  private done: RequestRecord | undefined;

  constructor(
    readonly id: number,
    readonly kind: 'http' | 'ws',
    readonly method: string,
    readonly url: string,
    readonly startedAt: number,
    readonly requestHeaders: Record<string, unknown>,
  ) {}

  record(): RequestRecord {
    if (this.done) return this.done;
    const path = maskQuery(this.url);
    const out = this.responseBody;
    const rec: RequestRecord = {
      id: this.id,
      kind: this.kind,
      method: this.method,
      path,
      status: this.open?.headersSent ? this.open.statusCode : this.status,
      startedAt: new Date(this.startedAt).toISOString(),
      durationMs: this.durationMs,
      sprite: spriteOf(path),
      requestHeaders: safeHeaders(this.requestHeaders),
      responseHeaders: safeHeaders(this.responseHeaders),
      requestBody: this.requestBody.text,
      responseBody: typeof out === 'string' ? out : out.text(),
      truncated: this.requestBody.truncated || (typeof out !== 'string' && out.truncated),
    };
    if (this.finished) this.done = rec;
    return rec;
  }
}

/** The sprite named by `/v1/sprites/{name}/…` (percent-decoded when it can be), or null. */
function spriteOf(path: string): string | null {
  const m = SPRITE_IN_PATH.exec(path);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/**
 * Collects the first `limit` bytes written to a response. A string chunk is kept as its first `limit` characters
 * (never fewer bytes than that) and encoded only when the log is read, so a large JSON answer is not copied.
 */
class BodyCapture {
  private chunks: Array<Buffer | string> = [];
  private size = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(chunk: unknown, encoding?: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const room = this.limit - this.size;
    if (typeof chunk === 'string' && (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || typeof encoding === 'function')) {
      const bytes = chunk.length > room ? room + 1 : Buffer.byteLength(chunk);
      if (bytes > room) this.truncated = true;
      if (room <= 0) return;
      this.chunks.push(chunk.length > room ? chunk.slice(0, room) : chunk);
      this.size += Math.min(bytes, room);
      return;
    }
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    if (buf.length > room) this.truncated = true;
    if (room <= 0) return;
    this.chunks.push(Buffer.from(buf.subarray(0, room)));
    this.size += Math.min(buf.length, room);
  }
  text(): string {
    const whole = Buffer.concat(this.chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
    return asText(whole.subarray(0, this.limit));
  }
}

function captureWrites(res: ServerResponse, out: BodyCapture): void {
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    out.add(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    out.add(chunk, rest[0]);
    return end(chunk, ...rest);
  };
}

/** Text of a body buffer; binary (a NUL byte or invalid UTF-8) becomes `<N bytes of binary data>`. */
function asText(buf: Buffer): string {
  if (buf.length === 0) return '';
  const text = buf.toString('utf8');
  if (buf.includes(0) || (text.includes('\uFFFD') && !buf.includes(Buffer.from('\uFFFD')))) return `<${buf.length} bytes of binary data>`;
  return text;
}

function cut(text: string, limit: number): { text: string; truncated: boolean } {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= limit) return { text, truncated: false };
  return { text: buf.subarray(0, limit).toString('utf8'), truncated: true };
}

function describeBody(body: unknown, limit: number): { text: string; truncated: boolean } {
  if (body === undefined || body === null) return { text: '', truncated: false };
  if (Buffer.isBuffer(body)) {
    const shown = asText(body.subarray(0, limit));
    return { text: shown.startsWith('<') && shown.endsWith('binary data>') ? `<${body.length} bytes of binary data>` : shown, truncated: body.length > limit };
  }
  if (typeof body === 'object' && Object.keys(body as object).length === 0) return { text: '', truncated: false };
  return cut(typeof body === 'string' ? body : JSON.stringify(body), limit);
}

function safeHeaders(h: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || SECRET_HEADERS.has(k.toLowerCase())) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

function parseHeaderLines(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/** Masks the value of token-like query parameters (`?token=…` → `?token=***`). */
export function maskQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((p) => {
      const eq = p.indexOf('=');
      const name = eq < 0 ? p : p.slice(0, eq);
      return eq >= 0 && SECRET_QUERY.test(name) ? `${name}=***` : p;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
