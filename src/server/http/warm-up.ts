/**
 * The start's warm-up request: one `GET /_spritzer/health` the server sends itself right after it listens, so the
 * validator has built its routes before "listening" is printed and a user's first call is not the slow one. It is
 * marked with {@link WARM_UP_HEADER}, and neither the request log (http/request-log.ts) nor the inspector's log
 * (inspector/request-log.ts) records it: no client made it. Sent with `node:http`, not `fetch`, which would load
 * undici (≈ 20–40 ms of the start) for this one request.
 * @see docs/performance.md "Start, idle memory and the fs-write floors"
 */
import http from 'node:http';

/** The header that marks the warm-up request (its value is `1`). */
export const WARM_UP_HEADER = 'x-spritzer-warm-up';

/** True when `headers` are those of the warm-up request. */
export function isWarmUp(headers: http.IncomingHttpHeaders): boolean {
  return headers[WARM_UP_HEADER] === '1';
}

/**
 * Sends the warm-up request to the server just started at `host:port` (an unspecified address, `0.0.0.0` or `::`,
 * is reached on loopback) and reads the answer to its end; rejects on a socket error.
 */
export function warmUp(host: string, port: number): Promise<void> {
  const target = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return new Promise((resolve, reject) => {
    http
      .get({ host: target, port, path: '/_spritzer/health', agent: false, headers: { [WARM_UP_HEADER]: '1' } }, (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
