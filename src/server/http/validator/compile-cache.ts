/**
 * Cheaper first requests for express-openapi-validator's schema compiles. On the first request of each operation
 * it compiles (5.6.2, `middlewares/util.js` `useAjvCache`) one schema per request part and one per response status
 * and media type, each embedding the whole spec's `paths` and `components`, which ajv walks every time: 100–350 ms
 * of one synchronous step per operation (the stall behind `GET /v1/sprites` and the first fault rule: every other
 * client waited for it).
 * This module shares one compiled validator among schemas with the same content, and leaves `paths` out of what is
 * compiled when nothing refers into it. It owns that cache only; what is validated, and how, stays the validator's.
 * @see https://github.com/cdimascio/express-openapi-validator/issues/514 (first-request cost)
 */
import { validatorModule } from './internals.ts';

type ValidateFunction = ((data: unknown) => boolean) & { errors?: unknown };
interface AjvLike {
  getSchema(key: string): ValidateFunction | undefined;
  addSchema(schema: object, key: string): unknown;
  removeSchema(key: string): unknown;
}
type UseAjvCache = ((ajv: AjvLike, schema: Record<string, unknown>, key: string) => ValidateFunction | undefined) & { [SHARED]?: () => number };

/** Marks the shared version, so installing twice keeps one cache. */
const SHARED = Symbol.for('spritzer.useAjvCache.shared');

/**
 * Replaces `useAjvCache` in the validator's `middlewares/util.js` (which its request and response validators call
 * through the module's exports) with one that, for a key not compiled yet:
 * - returns the validator already compiled on the same ajv instance for a schema of the same content (the schema
 *   as JSON with its `paths` and `components` left out, and the same `paths` and `components` objects): the
 *   error-response schemas most operations share are compiled once, not once per operation and status;
 * - else compiles the schema without its `paths` (the spec's operations, which the validator adds only for
 *   multi-file `$ref`s), and falls back to the validator's own compile of the whole schema when that fails.
 * A validator is a pure function of its schema and the ajv instance's options, so sharing it changes no answer.
 * Idempotent; returns a function giving the number of distinct compiles so far (for tests). Throws when the
 * validator no longer has `useAjvCache`.
 */
export function shareValidatorCompiles(): () => number {
  const util = validatorModule('./middlewares/util.js') as { useAjvCache: UseAjvCache };
  if (typeof util.useAjvCache !== 'function') throw new Error('express-openapi-validator without useAjvCache: the validator changed');
  const installed = util.useAjvCache[SHARED];
  if (installed) return installed;
  const original = util.useAjvCache;
  const byAjv = new WeakMap<AjvLike, Map<string, ValidateFunction>>();
  const objectIds = new WeakMap<object, number>();
  let nextId = 0;
  const idOf = (o: unknown): number | string => {
    if (o === null || typeof o !== 'object') return String(o);
    let id = objectIds.get(o);
    if (id === undefined) objectIds.set(o, (id = ++nextId));
    return id;
  };
  let compiles = 0;
  const shared = ((ajv, schema, key) => {
    const done = ajv.getSchema(key);
    if (done) return done;
    const content = contentKey(schema, idOf);
    let cache = byAjv.get(ajv);
    if (!cache) byAjv.set(ajv, (cache = new Map()));
    const hit = content === null ? undefined : cache.get(content);
    if (hit) return hit;
    compiles++;
    let validator: ValidateFunction | undefined;
    if ('paths' in schema) {
      const { paths: _paths, ...withoutPaths } = schema;
      try {
        ajv.addSchema(withoutPaths, key);
        validator = ajv.getSchema(key);
      } catch {
        ajv.removeSchema(key); // a `$ref` into paths: compile it the validator's way
      }
    }
    validator ??= original(ajv, schema, key);
    if (validator && content !== null) cache.set(content, validator);
    return validator;
  }) as UseAjvCache;
  const count = () => compiles;
  shared[SHARED] = count;
  util.useAjvCache = shared;
  return count;
}

/** The schema as JSON without `paths` and `components`, prefixed by their identities; null when it is not JSON. */
function contentKey(schema: Record<string, unknown>, idOf: (o: unknown) => number | string): string | null {
  const { paths, components, ...rest } = schema;
  try {
    return `${idOf(paths)}:${idOf(components)}:${JSON.stringify(rest)}`;
  } catch {
    return null;
  }
}
