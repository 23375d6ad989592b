/**
 * Refuses a request whose declared body (`Content-Length`) is over its limit as soon as the headers are in, with
 * the 413 the body parsers would give (they read the whole declared body before they answer), then reads and
 * discards the body up to `DISCARD_BOUND_BYTES`, as Go's net/http does after a handler, so a client that writes its
 * whole body before reading (most do) reads the status instead of EPIPE; a body declared past the bound is not read
 * and the connection closes once the answer is out. It owns that early check only; bodies within their limits, and
 * chunked bodies (no declared length), are still read and limited by the parsers (app.ts's body stage).
 * @see docs/limits.md "JSON request body size", https://pkg.go.dev/net/http (maxPostHandlerReadBytes)
 */
import type { RequestHandler } from 'express';
import { execStdinTooLarge } from './exec-body.ts';
import { sendApiError } from './errors.ts';

const EXEC_PATH = /^\/v1\/sprites\/[^/]+\/exec\/?$/i;
const WRITE_PATH = /^\/v1\/sprites\/[^/]+\/fs\/write\/?$/i;

/**
 * How much of a refused body is read and discarded so that its client can read the 413 (bytes): a 5 MB JSON body is
 * drained and the connection stays usable; past this, the connection closes after the answer.
 */
export const DISCARD_BOUND_BYTES = 16 * 1024 * 1024;

/** The limits the early check applies (bytes). */
export interface DeclaredBodyLimits {
  /** `--max-json-body`: every body except exec stdin and fs/write file content. */
  maxJsonBodyBytes: number;
  /** `--max-stdin-bytes`: the body of `POST …/exec` (HTTP exec stdin). */
  maxStdinBytes: number;
}

/**
 * Middleware placed before the body parsers. A request with a `Content-Length` above its limit gets, before any
 * body byte reaches a parser, a 413: a body declared within `DISCARD_BOUND_BYTES` is read and discarded first and
 * then answered (the connection stays open for the next request); past the bound it is answered at once with
 * `Connection: close` and the connection ends once that is sent:
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
    const detail = `the request body declares ${declared} bytes; spritzer's limit is ${limit} bytes (--max-json-body)`;
    const answer = () =>
      exec
        ? sendApiError(res, 413, execStdinTooLarge(limits.maxStdinBytes))
        : sendApiError(res, 413, { error: 'invalid_request', message: 'request entity too large', errors: [detail] });
    if (declared <= DISCARD_BOUND_BYTES) {
      // Drained first, then answered: Node closes (or, for keep-alive, gives up) a connection whose request body is
      // unread when the answer ends, and a client still writing gets EPIPE. A client gone meanwhile gets nothing.
      req.once('end', answer);
      req.resume();
      return;
    }
    res.setHeader('Connection', 'close');
    // Past the bound the body is not read: once the answer is out, the connection ends rather than wait for it.
    res.once('finish', () => req.socket.destroySoon());
    answer();
  };
}
