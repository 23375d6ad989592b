/**
 * The one table that maps model errors to HTTP: status plus the envelope of the endpoint's family
 * (docs/wire-reference.md §2.4), as one {@link errorAnswer} that REST responses and refused WebSocket handshakes
 * (http/handshake.ts) both send. Outer-API errors are JSON `{error, message?, …}`; filesystem errors `{error, code,
 * path}`; in-VM families answer `text/plain` as the real in-VM server does. It does not decide *when* an error happens.
 */
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ModelError, type ModelErrorKind } from '../core/errors.ts';
import { VfsError, type VfsErrorCode } from '../machines/port.ts';
import { unsupportedMediaTypeBody } from './media-type.ts';

/** JSON error envelope of the outer API (§2.4, the outer API's JSON envelope). */
export interface ApiErrorBody {
  error: string;
  message?: string;
  errors?: string[];
  [k: string]: unknown;
}

const KIND_STATUS: Record<ModelErrorKind, { status: number; family: 'json' | 'text' }> = {
  sprite_not_found: { status: 404, family: 'json' },
  sprite_exists: { status: 409, family: 'json' },
  invalid_sprite_name: { status: 400, family: 'json' },
  invalid_request: { status: 400, family: 'json' },
  rate_limited: { status: 429, family: 'json' },
  sprite_unavailable: { status: 503, family: 'json' },
  sprite_timeout: { status: 504, family: 'json' },
  checkpoint_not_found: { status: 404, family: 'text' },
  checkpoint_current: { status: 409, family: 'text' },
  checkpoint_no_space: { status: 507, family: 'text' },
  // 501 Not Implemented: this server cannot do it at all (not the request's fault, not passing); every SDK reads it as an error.
  checkpoints_unavailable: { status: 501, family: 'text' },
  session_not_found: { status: 404, family: 'text' },
  session_exited: { status: 410, family: 'text' },
  service_not_found: { status: 404, family: 'text' },
  service_conflict: { status: 409, family: 'text' },
  service_not_running: { status: 409, family: 'text' },
  service_invalid: { status: 400, family: 'text' },
  task_not_found: { status: 404, family: 'text' },
  task_exists: { status: 409, family: 'text' },
  invalid: { status: 400, family: 'text' },
};

/**
 * fs error code → status (§8.9; only ENOENT↔404 is confirmed, the rest is our documented choice). ENAMETOOLONG
 * (a path over PATH_MAX/NAME_MAX) is a bad request; ENOSPC (the sprite's disk quota) is 507 Insufficient
 * Storage, which every SDK treats as an error and JS/GO/PY read the `code` of (docs/limits.md); ETIMEDOUT (the
 * sprite's agent did not answer within `--agent-timeout`) is 504 Gateway Timeout, likewise read as an error by all.
 */
export const FS_CODE_STATUS: Record<VfsErrorCode, number> = {
  ENOENT: 404,
  EEXIST: 409,
  ENOTDIR: 400,
  EISDIR: 400,
  ENOTEMPTY: 400,
  EINVAL: 400,
  ELOOP: 400,
  EACCES: 403,
  EPERM: 403,
  ENAMETOOLONG: 400,
  ENOSPC: 507,
  ETIMEDOUT: 504,
};

/** The fs error envelope (§8.9). */
export type FsErrorBody = { error: string; code: string; path: string };

/** The fs error body `{error, code, path}` (§8.9) of `err`; `fsPath` when the error names no path. */
export function fsErrorBody(err: VfsError, fsPath?: string): FsErrorBody {
  return { error: err.message, code: err.code, path: err.path ?? fsPath ?? '' };
}

/**
 * How an error is answered: its status, the headers it adds (`Retry-After` of a rate limit) and its body. A string
 * body is sent as `text/plain; charset=utf-8` with a trailing newline (Go's `http.Error`); an object as JSON.
 */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: ApiErrorBody | FsErrorBody | string;
}

/** The 500 body of an error that is not the client's: no stack trace, no detail. */
const INTERNAL_ERROR: ApiErrorBody = { error: 'internal_error', message: 'internal server error' };

/**
 * The answer to `err` in the envelope of its family: a VfsError is the fs body with its code's status, a
 * ModelError its kind's status and envelope (429 adds `Retry-After`), anything else 500 `internal_error`.
 * `fsPath` (an fs endpoint's path) keeps the fs envelope for a machine that could not boot. `alwaysJson` (a
 * WebSocket handshake, whose refusal clients parse with the structured §2.4 rules) answers the in-VM families as
 * JSON `{error: kind, message}` instead of text.
 */
export function errorAnswer(err: unknown, opts: { fsPath?: string; alwaysJson?: boolean } = {}): ErrorAnswer {
  if (err instanceof VfsError) return { status: FS_CODE_STATUS[err.code] ?? 500, headers: {}, body: fsErrorBody(err, opts.fsPath) };
  if (!(err instanceof ModelError)) return { status: 500, headers: {}, body: INTERNAL_ERROR };
  const { status, family } = KIND_STATUS[err.kind];
  // An fs operation keeps the fs envelope `{error, code, path}` (§8.9), whatever made it fail.
  if (opts.fsPath !== undefined && err.kind === 'sprite_unavailable') {
    return { status, headers: {}, body: { error: err.message, code: 'EIO', path: opts.fsPath } };
  }
  const headers: Record<string, string> = {};
  if (err.kind === 'rate_limited') headers['Retry-After'] = String(Number(err.details.retry_after_seconds ?? 60));
  if (family === 'text' && !opts.alwaysJson) return { status, headers, body: err.message };
  const body: ApiErrorBody =
    err.kind === 'sprite_not_found' ? { error: 'sprite not found' } : { error: jsonCode(err.kind), message: err.message, ...err.details };
  return { status, headers, body };
}

/** Sends a JSON API error. */
export function sendApiError(res: Response, status: number, body: ApiErrorBody): void {
  res.status(status).type('application/json').send(JSON.stringify(body));
}

/** Sends a plain-text in-VM error (`message\n`, like Go's http.Error). */
export function sendTextError(res: Response, status: number, message: string): void {
  res.status(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/**
 * Sends any error thrown by a handler as {@link errorAnswer} gives it. Unknown errors are 500
 * `{"error":"internal_error"}` without a stack trace.
 */
export function sendError(res: Response, err: unknown, fsPath?: string): void {
  const { status, headers, body } = errorAnswer(err, { fsPath });
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (typeof body === 'string') sendTextError(res, status, body);
  else sendApiError(res, status, body);
}

function jsonCode(kind: ModelErrorKind): string {
  switch (kind) {
    case 'sprite_exists':
      return 'sprite already exists';
    case 'invalid_sprite_name':
    case 'invalid_request':
      return 'invalid_request';
    default:
      return kind;
  }
}

/**
 * The app's one error handler: model and fs errors in their family's envelope; validator and body-parser
 * errors (4xx) as `{"error":"invalid_request","message","errors":[…]}` (404/405 as `not found` / `method not
 * allowed`); anything else a logged 500 without a stack trace. An error after the headers just ends the
 * response (an NDJSON stream writes its own terminal line first).
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      logger.error({ err }, 'error after headers were sent');
      return void res.end();
    }
    if (err instanceof ModelError || err instanceof VfsError) {
      const fsPath = /\/v1\/sprites\/[^/]+\/fs\//.test(req.path) ? String(req.query.path ?? req.query.source ?? '') : undefined;
      return sendError(res, err, fsPath);
    }
    const e = err as { status?: number; statusCode?: number; errors?: Array<{ path?: string; message?: string }>; message?: string };
    const status = e?.status ?? e?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      if (status === 404) return sendApiError(res, 404, { error: 'not found', message: `no route for ${req.method} ${req.path}` });
      if (status === 405) {
        // RFC 9110 §15.5.6: a 405 names the methods the target supports (the validator computes them from the spec).
        const allow = (err as { headers?: { Allow?: unknown } }).headers?.Allow;
        if (typeof allow === 'string' && allow !== '') {
          const methods = allow.toUpperCase().split(/,\s*/);
          // Every GET route also answers HEAD (http/head.ts), though the spec lists only GET.
          if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
          res.setHeader('Allow', methods.join(', '));
        }
        return sendApiError(res, 405, { error: 'method not allowed', message: `${req.method} is not allowed on ${req.path}` });
      }
      if (status === 415) return sendApiError(res, 415, unsupportedMediaTypeBody(req)); // http/media-type.ts
      const errors = (e.errors ?? []).map((x) => `${x.path ?? ''} ${x.message ?? ''}`.trim());
      const message = e.message ?? 'invalid request';
      return sendApiError(res, status, { error: 'invalid_request', message, errors: errors.length ? errors : [message] });
    }
    if (typeof status === 'number' && Array.isArray(e.errors)) logger.error({ err }, 'response failed validation');
    else logger.error({ err }, 'handler failed');
    sendError(res, err);
  };
}
