/**
 * A linear byte scan of JSON text that measures its shape — how deep its arrays and objects nest and how many
 * elements and members they hold — without parsing it, so a receiver can refuse a hostile message (a megabyte of
 * `[`, an array of millions of items) before `JSON.parse` builds it. It validates nothing: text that is not JSON is
 * left for the parser to refuse. Used by the REST body stage and by every WebSocket channel that reads JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** The bounds a scan checks; an absent bound is not checked. */
export interface JsonShapeBounds {
  /** Deepest nesting of arrays/objects (the root container is level 1). */
  maxDepth?: number;
  /** Most array elements plus object members in the whole text. */
  maxItems?: number;
}

/** Which bound a text passed first, or undefined when it stayed within both. */
export type JsonShapeProblem = 'depth' | 'items' | undefined;

/**
 * Scans the UTF-8 JSON text in `bytes` once, in constant memory, and stops at the first bound passed. Depth counts
 * open arrays/objects. Items are counted as the commas outside strings plus one for each array or object that is
 * not empty, which is exactly the number of elements and members of valid JSON (`[1,[2,3]]` holds 4, `{}` none).
 * Brackets and commas inside strings (with `\"` escapes) do not count.
 */
export function jsonShapeProblem(bytes: Uint8Array, bounds: JsonShapeBounds): JsonShapeProblem {
  const maxDepth = bounds.maxDepth ?? Infinity;
  const maxItems = bounds.maxItems ?? Infinity;
  let depth = 0;
  let items = 0;
  let inString = false;
  // Whether the container just opened has had no content yet (its first item is counted when content appears).
  let justOpened = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
      continue;
    }
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      depth--;
      justOpened = false;
      continue;
    }
    if (justOpened) {
      justOpened = false;
      if (++items > maxItems) return 'items';
    }
    if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > maxDepth) return 'depth';
      justOpened = true;
    } else if (b === COMMA && ++items > maxItems) return 'items';
  }
  return undefined;
}
