/**
 * A raw `fetch` client for the conformance suite that validates every response against spec/openapi.yaml
 * before a test sees it: the operation is found from method + path, then status, content type, JSON body and
 * every NDJSON line are checked (a mismatch throws `SpecViolation`). It is deliberately not the typed SDK.
 */
import type { Target } from './target.ts';
import { SpecViolation, specValidator, type SpecValidator } from './spec-validator.ts';

/** A query value: repeated for arrays, omitted when undefined. */
export type QueryValue = string | number | boolean | string[] | undefined;

/** Options of one request. */
export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** An object is sent as JSON; a Uint8Array or string as `application/octet-stream`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** `Authorization` header value; default `Bearer <target token>`; `null` sends none. */
  authorization?: string | null;
}

/** What came back, already validated. */
export interface WireResponse {
  operationId: string;
  status: number;
  headers: Headers;
  contentType: string | null;
  bytes: Uint8Array;
  text: string;
  /** Parsed JSON body (application/json). */
  json?: any;
  /** Parsed NDJSON lines (application/x-ndjson). */
  lines?: any[];
}

/** Builds a query string; arrays repeat the key (`cmd=a&cmd=b`), as the SDKs send it. */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) q.append(k, item);
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A request function bound to a target. */
export type Call = (method: string, path: string, opts?: RequestOptions) => Promise<WireResponse>;

/**
 * Returns `call(method, path, opts)`. Every response is validated against the operation that serves
 * `method path`; a path that no operation serves throws before the request is sent.
 */
export function httpClient(target: () => Target, validator: SpecValidator = specValidator()): Call {
  return async (method, path, opts = {}) => {
    const op = validator.findOperation(method, path);
    if (!op) throw new SpecViolation(`no operation in spec/openapi.yaml serves ${method} ${path}`);
    const t = target();
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.authorization === undefined ? `Bearer ${t.token}` : opts.authorization;
    if (auth !== null) headers.Authorization = auth;
    let body: BodyInit | undefined;
    if (opts.body instanceof Uint8Array || typeof opts.body === 'string') {
      body = opts.body as BodyInit;
      headers['Content-Type'] ??= 'application/octet-stream';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(t.baseUrl + path + queryString(opts.query), { method, headers, body });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const contentType = res.headers.get('content-type');
    const checked = validator.checkResponse(op, res.status, contentType, bytes);
    return {
      operationId: op.operationId,
      status: res.status,
      headers: res.headers,
      contentType,
      bytes,
      text: Buffer.from(bytes).toString('utf8'),
      json: checked.json,
      lines: checked.lines,
    };
  };
}
