/**
 * Generators for the fuzz suites: fast-check arbitraries built from the JSON Schemas of spec/openapi.yaml
 * (valid-looking values) and the mutations a hostile or buggy client sends (wrong types, huge strings, deep
 * nesting, odd unicode, NUL bytes, bad percent-encoding), plus a raw HTTP client that sends a request target as
 * written. It judges nothing; the suites do. Schemas are read as the spec has them (`$ref` inside the document).
 * @see https://fast-check.dev/docs/core-blocks/arbitraries/
 */
import http from 'node:http';
import fc from 'fast-check';

type Json = Record<string, unknown>;

/** Follows local `$ref`s (`#/components/…`) in `doc`. */
export function resolveRef(doc: Json, node: unknown): Json {
  let cur = node as Json;
  for (let i = 0; cur && typeof cur.$ref === 'string' && i < 20; i++) {
    let at: unknown = doc;
    for (const key of (cur.$ref as string).replace(/^#\//, '').split('/')) at = (at as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    cur = at as Json;
  }
  return cur ?? {};
}

/** Strings that are odd for a server: NUL, controls, lone surrogates, RTL marks, combining marks, non-characters, emoji. */
export const ODD_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\ud800',
  'x\udfffy',
  '\u202egnp.exe',
  'e\u0301\u0301\u0301',
  '\uffff\ufffe',
  '\u{1f4a9}\u{1f468}\u200d\u{1f469}',
  '../../../../etc/passwd',
  '%00',
  '\r\nX-Injected: 1',
  '',
  ' ',
];

/** An odd string: one of {@link ODD_STRINGS}, or fast-check's full-unicode strings (lone surrogates included). */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('\u0000', '/', '.', '%', '\\', '"', '\u00ff', 'é', '\ud83d'), maxLength: 30 }),
);

/** A huge string (64 KiB – 1.5 MiB; past the JSON body limit at the top). */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('A', 'é', '\u{1f4a9}', '\u0000'), fc.constantFrom(64 * 1024, 300_000, 1_500_000))
  .map(([c, n]) => c.repeat(Math.ceil(n / c.length)));

/** JSON text of an array or object nested `depth` levels (a raw body: `JSON.stringify` of it would recurse). */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(65, 200, 5_000, 100_000), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

/** Percent-encoding that does not decode to UTF-8, or is not percent-encoding at all. */
export const badPercent: fc.Arbitrary<string> = fc.constantFrom('%', '%z', '%zz', '%C3%28', '%ED%A0%80', '%FF', '%E0%A4%A', '%%41', '%u0041', '%00');

/** A value of a different JSON type than `schema` asks for. */
export function wrongType(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constant([]),
    fc.constant({}),
    fc.string({ maxLength: 8 }),
    fc.constant([[[null]]]),
    fc.constant({ __proto__: { polluted: true } }),
    fc.constant({ constructor: { prototype: { polluted: true } } }),
  );
}

/**
 * An arbitrary for values of `schema` (a JSON Schema from `doc`): enums, consts, objects with their required and
 * some optional properties, arrays, strings within their length bounds, numbers within their bounds. Patterns
 * and formats are honoured only where cheap (`date-time`), so some values are invalid: both kinds are wanted.
 * `depth` stops recursion through self-referencing schemas.
 */
export function fromSchema(doc: Json, schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(doc, schema);
  if (depth > 4) return fc.constant(null);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key])) return fc.oneof(...(s[key] as unknown[]).map((x) => fromSchema(doc, x, depth + 1)));
  }
  if (Array.isArray(s.allOf)) {
    const merged: Json = {};
    for (const part of s.allOf as unknown[]) Object.assign(merged, resolveRef(doc, part));
    return fromSchema(doc, merged, depth + 1);
  }
  let type = s.type as string | string[] | undefined;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => fromSchema(doc, { ...s, type: t }, depth)));
  if (!type) type = s.properties ? 'object' : s.items ? 'array' : 'string';
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: (s.minimum as number | undefined) ?? -1000, max: (s.maximum as number | undefined) ?? 100_000 });
    case 'number':
      return fc.double({ min: (s.minimum as number | undefined) ?? -1e6, max: (s.maximum as number | undefined) ?? 1e6, noNaN: true });
    case 'array': {
      const maxLength = Math.min((s.maxItems as number | undefined) ?? 4, 4);
      return fc.array(fromSchema(doc, s.items ?? {}, depth + 1), { minLength: Math.min((s.minItems as number | undefined) ?? 0, maxLength), maxLength });
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set((s.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = fromSchema(doc, v, depth + 1);
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 });
      return fc.record(record, { requiredKeys: keys.filter((k) => required.has(k)) });
    }
    default: {
      if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      const minLength = (s.minLength as number | undefined) ?? 0;
      const maxLength = Math.max(minLength, Math.min((s.maxLength as number | undefined) ?? 24, 24));
      return fc.string({ minLength, maxLength });
    }
  }
}

/**
 * Replaces one value somewhere inside `value` (or `value` itself) by `replacement`: the walk picks a child with
 * `pick` (a number from fast-check) at each level, and stops at a random depth.
 */
export function mutateAt(value: unknown, replacement: unknown, pick: number[]): unknown {
  if (pick.length === 0 || value === null || typeof value !== 'object') return replacement;
  const keys = Object.keys(value as object);
  if (keys.length === 0) return replacement;
  const [head, ...rest] = pick;
  const key = keys[head! % keys.length]!;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[key] = mutateAt(copy[key], replacement, rest);
  return copy;
}

/** One HTTP exchange, read whole (chunked or not). */
export interface FuzzReply {
  status: number;
  contentType: string | null;
  body: Buffer;
}

/**
 * Sends one request with `target` (path and query) exactly as written; a target that node's client refuses
 * (characters outside `!`–`ÿ`) rejects with its error, which callers treat as "not sendable". Times out after
 * 15 s (a hang is a failure, reported with the target).
 */
export function send(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: Buffer,
  agent?: http.Agent,
): Promise<FuzzReply> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    let req: http.ClientRequest;
    // Without it, node sends a GET's body unframed: the server would read those bytes as the next request.
    if (body) headers = { ...headers, 'content-length': String(body.length) };
    try {
      req = http.request({ host: hostname, port, method, path: target, headers, agent, timeout: 15_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: (res.headers['content-type'] as string | undefined) ?? null, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
    } catch (err) {
      reject(Object.assign(err as Error, { unsendable: true }));
      return;
    }
    req.on('timeout', () => req.destroy(new Error(`no answer in 15 s: ${method} ${target.slice(0, 200)}`)));
    req.on('error', reject);
    req.end(body);
  });
}
