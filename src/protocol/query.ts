/**
 * Turns a WebSocket upgrade's query string into the object the spec's `bindings.ws.query` schemas describe:
 * repeatable parameters (`cmd`, `env`) are arrays, `cmd[]` counts as `cmd`, everything else is one string.
 * It does not validate (the ws router validates the object against spec/asyncapi.yaml) nor convert types.
 * @see spec/asyncapi.yaml info.description "Query parameters"; docs/wire-reference.md §4.2
 */

/** Query parameters that may repeat; their values keep their order. */
export const REPEATABLE_QUERY_PARAMS = ['cmd', 'env'] as const;

/**
 * Builds the query object. `search` is a `URLSearchParams` or a query string (with or without `?`).
 * A repeated single-valued parameter keeps its first value. `cmd` and `cmd[]` values join in the order they appear.
 * Example: `?cmd=sh&cmd=-c&cmd=echo%20hi&stdin=true` → `{cmd: ['sh','-c','echo hi'], stdin: 'true'}`.
 * @see docs/wire-reference.md §4.2 ("SRV also accepts `cmd[]`")
 */
export function wsQueryObject(search: URLSearchParams | string): Record<string, string | string[]> {
  // Stryker disable next-line ConditionalExpression: new URLSearchParams(params) is an equal copy of params.
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const out = new Map<string, string | string[]>();
  for (const [rawKey, value] of params) {
    const key = rawKey === 'cmd[]' ? 'cmd' : rawKey;
    if ((REPEATABLE_QUERY_PARAMS as readonly string[]).includes(key)) {
      const list = (out.get(key) as string[] | undefined) ?? [];
      list.push(value);
      out.set(key, list);
    } else if (!out.has(key)) {
      out.set(key, value);
    }
  }
  // fromEntries defines own properties, so a `__proto__` parameter cannot touch the prototype.
  return Object.fromEntries(out);
}
