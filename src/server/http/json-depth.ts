/**
 * Guards against pathological JSON bodies before they are parsed: a body nested deeper than `MAX_JSON_DEPTH`
 * is refused by a linear byte scan that runs before `JSON.parse` (so a 1 MB run of `[` costs one pass over the
 * bytes, not a parse that allocates a tree), and `DEFAULT_MAX_JSON_BODY_BYTES` caps the body size. Such a value
 * would otherwise stall the event loop while it is parsed, and overflow the stack when it is serialised back.
 * It does not parse JSON or answer requests; the body parser and the error middleware do.
 */
import { jsonShapeProblem } from '../../protocol/json-shape.ts';

/** The deepest JSON nesting a request body may have. Real payloads need a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Default cap on a JSON request body, in bytes (1 MiB); `--max-json-body` / `SPRITZER_MAX_JSON_BODY` (docs/limits.md).
 * @deviation real Sprites publish no body limit; 1 MiB is far above any documented JSON body.
 */
export const DEFAULT_MAX_JSON_BODY_BYTES = 1024 * 1024;

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

/**
 * True when the JSON text in `bytes` (UTF-8) opens more than `max` nested arrays/objects at some point, counted
 * like {@link withinJsonDepth} (the root container is level 1). One pass, constant memory, and it stops at the
 * first level too deep; brackets inside strings (with `\"` escapes) do not count. It does not validate the
 * JSON: text that is not JSON is left for the parser to refuse.
 */
export function exceedsJsonDepth(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  return jsonShapeProblem(bytes, { maxDepth: max }) === 'depth';
}

/**
 * A `verify` hook for `express.json` (body-parser calls it with the raw body before `JSON.parse`): throws a
 * 400 error (`status: 400`, which the error middleware turns into the `invalid_request` envelope) when the body
 * is nested deeper than `max` levels.
 * @see https://github.com/expressjs/body-parser#verify
 */
export function refuseDeepJson(max = MAX_JSON_DEPTH): (req: unknown, res: unknown, buf: Buffer) => void {
  return (_req, _res, buf) => {
    if (exceedsJsonDepth(buf, max)) {
      throw Object.assign(new Error(`JSON body nested deeper than ${max} levels`), { status: 400, type: 'entity.too.deep', expose: true });
    }
  };
}
