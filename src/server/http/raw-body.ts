/**
 * Raw request bodies whatever their Content-Type: the body of `PUT …/fs/write` (the file's bytes) and of
 * `POST …/exec` (the command's stdin) is taken as bytes when it comes with no Content-Type, `text/plain`,
 * `application/json`, `application/x-www-form-urlencoded` or anything else, as curl `-T` / `--data-binary` and
 * the Sprites guide's Python example send it. It only relabels such a request as `application/octet-stream` before
 * the body parsers run; it does not read the body (http/exec-body.ts and `express.raw` do) nor decide its use.
 * @see docs/wire-reference.md §4.10, §8.2
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** The paths whose body is always raw bytes: `PUT /v1/sprites/{name}/fs/write` and `POST /v1/sprites/{name}/exec`. */
const RAW_BODY_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'PUT', path: /^\/v1\/sprites\/[^/]+\/fs\/write\/?$/ },
  { method: 'POST', path: /^\/v1\/sprites\/[^/]+\/exec\/?$/ },
];

/** The media type every raw body is parsed as. */
export const RAW_MEDIA_TYPE = 'application/octet-stream';

/** True when the request announces a body (a `Content-Length`, even 0, or a `Transfer-Encoding`), as type-is judges. */
function announcesBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/**
 * True when `method` + `path` (the raw path, no query) is one of the raw-body operations (`writeFile`, `execHttp`).
 * Matching is case-sensitive, like the app's routing.
 */
export function isRawBodyRoute(method: string, path: string): boolean {
  return RAW_BODY_ROUTES.some((r) => r.method === method && r.path.test(path));
}

/**
 * Middleware placed before the body parsers: a request to a raw-body operation that carries a body with another
 * (or no) Content-Type is relabelled `application/octet-stream`, so the raw parsers read it and the validator
 * accepts it instead of a 415, and the bytes arrive unchanged (no charset decoding, no form or JSON parsing).
 * One that announces no body at all (no `Content-Length`, no `Transfer-Encoding`: `curl -X PUT` without data) has
 * a body of length zero (RFC 9112 §6.3) and is given `Content-Length: 0`, so it writes an empty file or runs with
 * empty stdin, as with an explicit empty body, instead of a 415. The original Content-Type is kept in
 * `x-spritzer-original-content-type` for the logs. Other requests pass untouched.
 */
export function rawBodyRoutes(): RequestHandler {
  return (req, _res, next) => {
    if ((req.method === 'PUT' || req.method === 'POST') && isRawBodyRoute(req.method, req.path)) {
      if (!announcesBody(req)) req.headers['content-length'] = '0';
      const original = req.headers['content-type'];
      if (original === undefined || original.split(';')[0].trim().toLowerCase() !== RAW_MEDIA_TYPE) {
        if (original !== undefined) req.headers['x-spritzer-original-content-type'] = original;
        req.headers['content-type'] = RAW_MEDIA_TYPE;
      }
    }
    next();
  };
}
