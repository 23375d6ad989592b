/**
 * express-openapi-validator's middlewares as one Express layer, with its per-request route lookup cached: the
 * validator returns a list of middlewares (path params, metadata = route lookup, security, request and response
 * validation), each its own router layer and promise hop. This runs them as one layer, skips the path-params one
 * after its one-time set-up, and remembers each (method, raw path)'s lookup result (`req.openapi`), so a repeated
 * request does not scan every route of the spec again (`lookupRoute` was 14–22 % of a REST request:
 * docs/performance.md). Validation itself is untouched and runs on every request. It owns that composition only.
 * @see https://github.com/cdimascio/express-openapi-validator/pull/1217 (route lookup caching upstream)
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Most (method, path) lookups remembered; past it the cache starts again empty (sprite names make paths unbounded; 1,000 holds the busy paths and keeps the cache under ~0.3 MiB). */
export const ROUTE_CACHE_MAX = 1_000;

type OpenApiMeta = { pathParams?: Record<string, string> } & Record<string, unknown>;
type WithOpenApi = Request & { openapi?: OpenApiMeta };

/** The lookup cache of one composed chain (exposed for tests). */
export interface RouteLookupCache {
  readonly size: number;
}

/**
 * Composes `middlewares` (as `OpenApiValidator.middleware(...)` returns them, recognised by their function names
 * `pathParamsMiddleware` and `metadataMiddleware`; others run as they are) into one middleware. A lookup is cached
 * only when it matched an operation; a 404/405 or an error always runs the validator's own lookup. Each request gets
 * its own copies of the cached `req.openapi` and its `pathParams` (later stages write to them).
 */
export function composeValidator(middlewares: RequestHandler[], max = ROUTE_CACHE_MAX): RequestHandler & { cache: RouteLookupCache } {
  const cache = new Map<string, OpenApiMeta>();
  let pathParamsReady = false;
  const stages: RequestHandler[] = middlewares.map((mw) => {
    if (mw.name === 'pathParamsMiddleware') {
      return (req, res, next) => {
        if (pathParamsReady) return next();
        return mw(req, res, (err?: unknown) => {
          if (err === undefined || err === null) pathParamsReady = true;
          next(err);
        });
      };
    }
    if (mw.name === 'metadataMiddleware') {
      return (req: WithOpenApi, res, next) => {
        const rawPath = req.originalUrl.split('?', 1)[0];
        const key = `${req.method} ${rawPath}`;
        const hit = cache.get(key);
        if (hit) {
          const pathParams = { ...(hit.pathParams ?? {}) };
          req.openapi = { ...hit, pathParams };
          req.params = pathParams;
          return next();
        }
        return mw(req, res, (err?: unknown) => {
          if ((err === undefined || err === null) && req.openapi?.schema) {
            if (cache.size >= max) cache.clear();
            cache.set(key, { ...req.openapi, pathParams: { ...(req.openapi.pathParams ?? {}) } });
          }
          next(err);
        });
      };
    }
    return mw;
  });
  const composed = (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null && err !== 'route' && err !== 'router') return next(err);
      const stage = stages[i++];
      if (!stage) return next();
      try {
        const r = stage(req, res, step) as unknown;
        if (r instanceof Promise) r.catch(step);
      } catch (e) {
        step(e ?? new Error('validator stage threw'));
      }
    };
    step();
  };
  return Object.assign(composed, { cache: { get size() { return cache.size; } } });
}
