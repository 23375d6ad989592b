/**
 * Guards against pathologically nested JSON bodies: a body nested deeper than `MAX_JSON_DEPTH` is a 400
 * before any handler runs (such a value would otherwise be stored, then overflow the stack when it is
 * serialised back, breaking every later read of it).
 */

/** The deepest JSON nesting a request body may have. Real payloads need a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects/arrays no deeper than `max` levels. Iterative: never overflows the stack. */
export function withinJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return false;
    for (const child of Object.values(v as object)) stack.push([child, depth + 1]);
  }
  return true;
}
