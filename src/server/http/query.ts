/**
 * The query-string parser of the REST app (Express's `query parser` setting): Express 5's "extended" parser (qs with
 * `allowPrototypes`) without qs's silent caps, which turned a 21st repeated `cmd` into an object (a 400 "must be
 * array") and dropped every parameter after the 1,000th. A long command line through query parameters (exec's
 * repeated `cmd`) must arrive whole; the size of the whole request line is bounded by `--max-header-size` instead
 * (http/oversize.ts). It owns only the parsing of `req.query`; handlers that need the order of repeated
 * parameters read `URLSearchParams` themselves.
 * @see https://github.com/ljharb/qs#parsing-arrays; https://expressjs.com/en/api.html#app.settings.table
 */
import qs from 'qs';

/** Bracketed indices above this (`a[100001]=x`) make an object, as qs does above its default of 20. */
export const MAX_QUERY_ARRAY_INDEX = 100_000;

/**
 * Parses `str` (the query without `?`) into `req.query`: repeated keys become arrays of any length, every parameter
 * is kept, nesting stays at qs's default depth (5). Never throws on input.
 */
export function parseQuery(str: string): Record<string, unknown> {
  return qs.parse(str, { allowPrototypes: true, arrayLimit: MAX_QUERY_ARRAY_INDEX, parameterLimit: Infinity });
}
