/**
 * Compile-once route matching for express-openapi-validator: its `lookupRoute` (5.6.2,
 * `middlewares/openapi.metadata.js`) calls `pathToRegexp` for every path of the spec on every request, which was
 * ≈ 22 % of a REST request's CPU (docs/performance.md "Per REST request"). This module memoises `pathToRegexp` by
 * route and options in the copy of path-to-regexp the validator loads, so each template is compiled once. It owns
 * only that cache; matching, validation and routing stay the validator's.
 * @see https://github.com/cdimascio/express-openapi-validator/pull/1217 (the same fix upstream, "cache route matchers")
 */
import { validatorModule } from './internals.ts';

type PathToRegexp = (path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean }) => {
  regexp: RegExp;
  keys: Array<{ name: string }>;
};

/** Marks a memoised function, so installing twice keeps one cache. */
const MEMOISED = Symbol.for('spritzer.pathToRegexp.memoised');

/**
 * Replaces `pathToRegexp` in the path-to-regexp module that express-openapi-validator requires with a memoised
 * one: the same result object for the same `(path, sensitive, strict, end)`. Safe because the validator only calls
 * `regexp.exec` on a non-global RegExp (no `lastIndex` state) and reads `keys`. Idempotent; returns the number of
 * templates cached so far (a function, for tests). Throws if the validator's path-to-regexp has no `pathToRegexp`.
 */
export function memoiseValidatorRoutes(): () => number {
  const mod = validatorModule('path-to-regexp') as { pathToRegexp: PathToRegexp & { [MEMOISED]?: Map<string, unknown> } };
  if (typeof mod.pathToRegexp !== 'function') throw new Error('path-to-regexp without pathToRegexp: the validator changed');
  const existing = mod.pathToRegexp[MEMOISED];
  if (existing) return () => existing.size;
  const original = mod.pathToRegexp;
  // By template, then by the three flags as a 3-bit index: no string is built per call (38 calls per request).
  const cache = new Map<string, Array<ReturnType<PathToRegexp> | undefined>>();
  const memoised = ((path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean }) => {
    if (typeof path !== 'string') return original(path, options);
    const variant = (options?.sensitive ? 1 : 0) | (options?.strict ? 2 : 0) | (options?.end === false ? 4 : 0);
    let byVariant = cache.get(path);
    if (!byVariant) {
      byVariant = [];
      cache.set(path, byVariant);
    }
    return (byVariant[variant] ??= original(path, options));
  }) as PathToRegexp & { [MEMOISED]?: Map<string, unknown> };
  memoised[MEMOISED] = cache;
  mod.pathToRegexp = memoised;
  return () => cache.size;
}
