/**
 * The body-parsing step of the REST app as one middleware: a request that announces no body (no
 * `Content-Length`, no `Transfer-Encoding`, as every GET and DELETE) skips it in one check, instead of passing
 * through each parser's layer and content-type test (≈ 4 % of a GET: docs/performance.md "Per REST request").
 * A request with a body runs the given parsers in order, as separate `app.use` layers did. It owns that sequencing
 * only; the parsers and their limits are the caller's.
 */
import type { RequestHandler } from 'express';

/**
 * One middleware that runs `parsers` in order (each must call `next` once; an error stops the chain and goes to
 * the error middleware) when the request has a body, and none of them otherwise.
 */
export function bodyStage(parsers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const parser = parsers[i++];
      if (!parser) return next();
      try {
        void parser(req, res, step);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
