/**
 * The inspector's request log: a ring buffer of the last N API calls and WebSocket sessions (method, path,
 * status, duration, sprite, and truncated request/response bodies), filled by an Express middleware and an
 * upgrade wrapper, read by `GET /_spritzer/requests` (operationId `listSpritzerRequests`). It never stores an
 * `Authorization` header, a `?token=`-style query value or a token sub-protocol. It owns no routing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import type { Clock } from '../model/clock.ts';

/** One logged exchange, as `GET /_spritzer/requests` returns it (schema `SpritzerRequest`). */
export interface RequestRecord {
  /** Increasing from 1 for the server's lifetime. */
  id: number;
  /** `http` for a request, `ws` for a WebSocket handshake and the session that followed. */
  kind: 'http' | 'ws';
  method: string;
  /** Path and query as sent, with secret query values masked. */
  path: string;
  /** HTTP status (101 for an accepted upgrade); 0 while unanswered. */
  status: number;
  /** When it started, ISO 8601. */
  startedAt: string;
  /** Milliseconds from start to the end of the response (for `ws`: to the socket's close); null while open. */
  durationMs: number | null;
  /** The sprite named by `/v1/sprites/{name}/…`, or null. */
  sprite: string | null;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** Request body as text (binary shown as a byte count), cut at the body limit. */
  requestBody: string;
  /** Response body as text, cut at the body limit (streams: their first bytes). */
  responseBody: string;
  /** True when a body was cut. */
  truncated: boolean;
}

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
 * The ring buffer. `middleware()` logs every HTTP request but the inspector's own polls and static files;
 * `wrapUpgrade()` logs every WebSocket handshake and how long its socket lived.
 */
export class RequestLog {
  private readonly capacity: number;
  private readonly bodyBytes: number;
  private readonly records: RequestRecord[] = [];
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
    return [...this.records].reverse();
  }

  /** Forgets every record (`POST /_spritzer/reset`). */
  clear(): void {
    this.records.length = 0;
  }

  private start(kind: 'http' | 'ws', req: IncomingMessage): RequestRecord {
    const path = maskQuery(req.url ?? '/');
    const m = SPRITE_IN_PATH.exec(path);
    let sprite: string | null = null;
    if (m) {
      try {
        sprite = decodeURIComponent(m[1]);
      } catch {
        sprite = m[1];
      }
    }
    const rec: RequestRecord = {
      id: this.nextId++,
      kind,
      method: req.method ?? 'GET',
      path,
      status: 0,
      startedAt: new Date(this.clock.now()).toISOString(),
      durationMs: null,
      sprite,
      requestHeaders: safeHeaders(req.headers),
      responseHeaders: {},
      requestBody: '',
      responseBody: '',
      truncated: false,
    };
    this.records.push(rec);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    return rec;
  }

  /** Express middleware: mount first, so 401s and validator 400s are logged too. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (req.headers[INSPECTOR_POLL_HEADER] === 'poll' || req.path.startsWith('/_spritzer/ui') || req.path === '/favicon.ico') {
        return next();
      }
      const rec = this.start('http', req);
      const t0 = this.clock.now();
      const out = new BodyCapture(this.bodyBytes);
      captureWrites(res, out);
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        rec.status = res.statusCode;
        rec.durationMs = this.clock.now() - t0;
        rec.responseHeaders = safeHeaders(res.getHeaders() as Record<string, unknown>);
        rec.responseBody = out.text();
        const body = describeBody((req as { body?: unknown }).body, this.bodyBytes);
        rec.requestBody = body.text;
        rec.truncated = out.truncated || body.truncated;
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
      const rec = this.start('ws', req);
      const t0 = this.clock.now();
      let first = true;
      /** Reads the status line, headers and body of the first bytes written (the 101 or the rejection). */
      const sniff = (chunk: unknown): void => {
        if (!first || chunk === undefined || chunk === null || typeof chunk === 'function') return;
        first = false;
        const text = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
        if (status) rec.status = Number(status[1]);
        const [headText, bodyText = ''] = text.split('\r\n\r\n');
        rec.responseHeaders = safeHeaders(parseHeaderLines(headText));
        rec.responseBody = cut(bodyText, this.bodyBytes).text;
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
        rec.durationMs = this.clock.now() - t0;
      });
      handle(req, socket, head);
    };
  }
}

/** Collects the first `limit` bytes written to a response. */
class BodyCapture {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(chunk: unknown, encoding?: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    const room = this.limit - this.size;
    if (buf.length > room) this.truncated = true;
    if (room <= 0) return;
    const part = buf.subarray(0, room);
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string {
    return asText(Buffer.concat(this.chunks));
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
