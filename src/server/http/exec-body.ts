/**
 * The request body of HTTP exec (`POST /v1/sprites/{name}/exec`), which is the command's stdin: read here with
 * the exec stdin limit instead of the server-wide raw-body limit, so an oversized stdin is refused with 413 in the
 * JSON envelope before it is buffered. It does not decide whether the body is used (`stdin=true`, routes/exec.ts).
 * @see docs/wire-reference.md §4.10, §2.4; docs/limits.md
 */
import express, { type RequestHandler } from 'express';
import type { ExecStreamLimits } from '../config/exec-limits.ts';
import { sendApiError, type ApiErrorBody } from './errors.ts';

const EXEC_PATH = /^\/v1\/sprites\/[^/]+\/exec\/?$/i;

/**
 * Middleware for the app's body parsing step: on `POST …/exec` it parses an `application/octet-stream` body of at
 * most `limits.maxStdinBytes` (a larger `Content-Length` is refused before any byte is read) and answers 413
 * `{"error":"payload_too_large","message":…}` past it; any other request passes through untouched.
 */
export function execBodyLimit(limits: Pick<ExecStreamLimits, 'maxStdinBytes'>): RequestHandler {
  const parse = express.raw({ limit: limits.maxStdinBytes, type: 'application/octet-stream' });
  return (req, res, next) => {
    if (req.method !== 'POST' || !EXEC_PATH.test(req.path)) return next();
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type !== 'entity.too.large') return next(err);
      sendApiError(res, 413, execStdinTooLarge(limits.maxStdinBytes));
    });
  };
}

/** The 413 body of an HTTP exec whose stdin (the request body) passes `maxStdinBytes`. */
export function execStdinTooLarge(maxStdinBytes: number): ApiErrorBody {
  return {
    error: 'payload_too_large',
    message: `exec stdin (the request body) is larger than ${maxStdinBytes} bytes, spritzer's limit (--max-stdin-bytes)`,
  };
}
