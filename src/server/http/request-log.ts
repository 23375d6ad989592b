/**
 * One log line per request, cheaply: `{req: {method, url}, res: {statusCode}, responseTime}` with the message
 * `request completed` (the shape pino-http wrote, minus its child logger and serializers, which cost ≈ 11 % of a
 * REST request: docs/performance.md). Level `info`, or `error` for a 5xx; nothing is built or hooked when the
 * logger's level would drop the line (e.g. `--log-level warn`). Headers are never logged (they carry bearer
 * tokens). The start's own warm-up request is not logged (http/warm-up.ts). It owns only the request line; errors
 * are logged by http/errors.ts.
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isWarmUp } from './warm-up.ts';

/** A monotonic time source in milliseconds (injected; `performance.now` in the server). */
export type MonotonicMs = () => number;

/**
 * The middleware: on the response's `finish` (or `close` before it, logged with `aborted: true`) writes the line
 * through `logger`. The level check is made per request (a logger's level can change at run time) and skips the
 * listener when neither `info` nor `error` would be written.
 */
export function requestLog(logger: Logger, now: MonotonicMs = () => performance.now()): RequestHandler {
  return (req, res, next) => {
    const info = logger.isLevelEnabled('info');
    if ((!info && !logger.isLevelEnabled('error')) || isWarmUp(req.headers)) return next();
    const started = now();
    const method = req.method;
    const url = req.originalUrl;
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      const statusCode = res.statusCode;
      const line = { req: { method, url }, res: { statusCode }, responseTime: Math.round(now() - started), ...(res.writableFinished ? {} : { aborted: true }) };
      if (statusCode >= 500) logger.error(line, 'request errored');
      else if (info) logger.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
