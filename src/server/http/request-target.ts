/**
 * The request-target checks every request and every upgrade passes before anything routes it: a target that
 * does not parse as a URL (`GET http://[ HTTP/1.1`) and a path with broken percent-encoding (`/v1/sprites/%ff`)
 * are answered 400 in the outer API's JSON envelope (docs/wire-reference.md §2.4, the outer API's JSON envelope), the same on REST and on a
 * WebSocket handshake. It only judges the target; it does not route, authenticate or answer.
 */
import type { ApiErrorBody } from './errors.ts';

/** The base a relative (origin-form) request-target is resolved against; only its path and query matter. */
const BASE = 'http://spritzer.local';

/**
 * Parses a request-target (origin-form `/p?q`, absolute-form `http://h/p?q`, or `*`) the way the upgrade router
 * and Express see it. Returns null when it is not a URL at all (e.g. `http://[`), where Node's URL parser throws.
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-3.2 (request-target forms)
 */
export function parseRequestTarget(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', BASE);
  } catch {
    return null;
  }
}

/**
 * Turns an absolute-form request-target (`GET http://host/p?q HTTP/1.1`, as proxies send) into origin-form in place:
 * `req.url` becomes `/p?q` and the target's authority becomes the `Host` header, as RFC 9112 §3.2.2 and §7.2 ask
 * of a server ("MUST accept the absolute-form", "MUST ignore the received Host header"). `url` is the target parsed
 * by {@link parseRequestTarget}. Other forms are left as they are.
 */
export function toOriginForm(req: { url?: string; headers: Record<string, string | string[] | undefined> }, url: URL): void {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(req.url ?? '')) return;
  req.url = url.pathname + url.search;
  if (url.host) req.headers.host = url.host;
}

/** The 400 body for a request-target that is not a URL. */
export function badTargetBody(target: string | undefined): ApiErrorBody {
  const shown = JSON.stringify(String(target ?? '').slice(0, 200));
  return { error: 'invalid_request', message: 'malformed request-target', errors: [`request-target ${shown} is not a valid URL`] };
}

/**
 * The 400 body for a path whose percent-encoding does not decode (a `%` not followed by two hex digits, or
 * bytes that are not UTF-8, such as `%ff`), or undefined when every segment of `pathname` decodes. REST and
 * WebSocket paths use the same answer. `pathname` is the raw (still encoded) path, e.g. `URL.pathname`.
 * @deviation Go's servers decode `%ff` to a raw byte and route it; spritzer refuses paths that are not UTF-8.
 */
export function malformedPathBody(pathname: string): ApiErrorBody | undefined {
  if (!pathname.includes('%')) return undefined;
  for (const segment of pathname.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      const shown = JSON.stringify(segment.slice(0, 200));
      return {
        error: 'invalid_request',
        message: 'malformed percent-encoding in the path',
        errors: [`path segment ${shown} is not valid percent-encoded UTF-8`],
      };
    }
  }
  return undefined;
}

/**
 * The 400 body for a query string (`search`, with or without its leading `?`, still encoded) in which some
 * parameter name or value does not percent-decode (`path=%ZZ`, `a=%ff`), or undefined when all of them decode.
 * The same rule as {@link malformedPathBody}: URLSearchParams and qs would otherwise keep the broken escape as
 * literal text, so `fs/read?path=%ZZ` read a file named `%ZZ` instead of refusing the
 * request (docs/limits.md "Percent-encoding in a query").
 * @deviation Go's servers keep such a value as it is (net/url's Query drops the parameter); spritzer refuses it.
 */
export function malformedQueryBody(search: string): ApiErrorBody | undefined {
  if (!search.includes('%')) return undefined;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    for (const part of eq < 0 ? [pair] : [name, pair.slice(eq + 1)]) {
      try {
        decodeURIComponent(part);
      } catch {
        const shown = JSON.stringify(part.slice(0, 200));
        return {
          error: 'invalid_request',
          message: 'malformed percent-encoding in the query',
          errors: [`query parameter ${JSON.stringify(name.slice(0, 200))}: ${shown} is not valid percent-encoded UTF-8`],
        };
      }
    }
  }
  return undefined;
}
