/**
 * Refuses a request whose declared body (`Content-Length`) is over its limit as soon as the headers are in, with
 * the 413 the body parsers would give, and closes the connection: the parsers (body-parser) read the whole
 * declared body off the socket before they answer. It owns that early check only; bodies within their limits, and
 * chunked bodies (no declared length), are still read and limited by the parsers (app.ts's body stage).
 * @see issue 16 (fresh-user finding); docs/limits.md "JSON request body size"
 */
import type { RequestHandler } from 'express';
import { execStdinTooLarge } from './exec-body.ts';
import { sendApiError } from './errors.ts';

const EXEC_PATH = /^\/v1\/sprites\/[^/]+\/exec\/?$/i;
const WRITE_PATH = /^\/v1\/sprites\/[^/]+\/fs\/write\/?$/i;

/** The limits the early check applies (bytes). */
export interface DeclaredBodyLimits {
  /** `--max-json-body`: every body except exec stdin and fs/write file content. */
  maxJsonBodyBytes: number;
  /** `--max-stdin-bytes`: the body of `POST …/exec` (HTTP exec stdin). */
  maxStdinBytes: number;
}

/**
 * Middleware placed before the body parsers. A request with a `Content-Length` above its limit gets, before any
 * body byte is read, a 413 with `Connection: close`, and the connection ends once it is sent:
 * - `POST /v1/sprites/{name}/exec`: over `maxStdinBytes`, `{"error":"payload_too_large",…}` (http/exec-body.ts);
 * - `PUT …/fs/write`: never (file content is limited by the disk quota, not here);
 * - any other request: over `maxJsonBodyBytes`, `{"error":"invalid_request","message":"request entity too large",
 *   "errors":[…]}`, the body express.json answers with (docs/wire-reference.md §2.4 envelope).
 * Other requests pass untouched.
 */
export function refuseDeclaredOversize(limits: DeclaredBodyLimits): RequestHandler {
  return (req, res, next) => {
    const header = req.headers['content-length'];
    if (header === undefined || !/^\d+$/.test(header)) return next();
    const declared = Number(header);
    if (req.method === 'PUT' && WRITE_PATH.test(req.path)) return next();
    const exec = req.method === 'POST' && EXEC_PATH.test(req.path);
    const limit = exec ? limits.maxStdinBytes : limits.maxJsonBodyBytes;
    if (declared <= limit) return next();
    res.setHeader('Connection', 'close');
    // The declared body is not read: once the answer is out, the connection ends rather than waiting for it.
    res.once('finish', () => req.socket.destroySoon());
    if (exec) return sendApiError(res, 413, execStdinTooLarge(limits.maxStdinBytes));
    const detail = `the request body declares ${declared} bytes; spritzer's limit is ${limit} bytes (--max-json-body)`;
    sendApiError(res, 413, { error: 'invalid_request', message: 'request entity too large', errors: [detail] });
  };
}
