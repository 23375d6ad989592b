/**
 * Remembers what the `shell` engine works out from a script's text alone (whether it may read stdin, its
 * instrumented form), so that an agent repeating the same commands does not have them parsed and rewritten again
 * on every exec: each of those is a full just-bash parse (≈ 3 % of an exec's CPU each: docs/performance.md). It
 * owns only the cache; the functions it wraps must be pure in the script's text. Scripts over
 * {@link MEMO_MAX_SCRIPT_CHARS} are never kept, so the cache stays under ≈ 2 MiB.
 */
import { LRUCache } from 'lru-cache';

/** Most distinct scripts each memo remembers (least recently used dropped first). */
export const MEMO_MAX_ENTRIES = 500;
/** Longest script (UTF-16 code units) a memo keeps; longer ones are worked out on each call. */
export const MEMO_MAX_SCRIPT_CHARS = 2048;

/** `fn(script)`, remembered per script text. `fn` must not throw for a value to be kept, and must be pure. */
export function memoizeByScript<T extends NonNullable<unknown>>(fn: (script: string) => T): (script: string) => T {
  const cache = new LRUCache<string, T>({ max: MEMO_MAX_ENTRIES });
  return (script) => {
    if (script.length > MEMO_MAX_SCRIPT_CHARS) return fn(script);
    const hit = cache.get(script);
    if (hit !== undefined) return hit;
    const value = fn(script);
    cache.set(script, value);
    return value;
  };
}
