/**
 * The typed view of a validated request: path parameters, query and body of an operation, typed per operationId
 * by the generated OpenAPI `operations`, built once by the dispatcher (app.ts) for every handler. It owns these
 * types and that one construction; it does not validate (express-openapi-validator has checked and coerced every
 * part before), look handlers up, or know the handlers' context (context.ts types the handlers).
 */
import type { Request } from 'express';
import type { operations } from '../../../generated/openapi.d.ts';

/** A REST operation of the spec, by its operationId (the handler name, "one name, four places"). */
export type OperationId = keyof operations;

/** What an operation without path parameters, or without query parameters, offers: nothing to read. */
type Nothing = Record<never, never>;

type Parameters<K extends OperationId> = operations[K]['parameters'];

/** The request body declaration of `K` (`never` for an operation that takes none). */
type RequestBody<K extends OperationId> = NonNullable<operations[K]['requestBody']>;

/** Path parameters of `K`, as the spec names them (`{name}`, `{session_id}`, …). */
export type PathOf<K extends OperationId> = Parameters<K> extends { path: infer P } ? P : Nothing;

/** Query of `K`; parameters the spec does not declare still arrive (`allowUnknownQueryParameters`), untyped. */
export type QueryOf<K extends OperationId> = Parameters<K> extends { query?: infer Q } ? ([NonNullable<Q>] extends [never] ? Nothing : NonNullable<Q>) : Nothing;

/** The operations whose body is raw bytes whatever its Content-Type (`application/octet-stream` in the spec). */
export type RawBodyOperation = {
  [K in OperationId]: [RequestBody<K>] extends [never] ? never : RequestBody<K> extends { content: { 'application/octet-stream': unknown } } ? K : never;
}[OperationId];

/**
 * Body of `K`: the raw bytes of a raw-body operation (empty when none came), the parsed JSON of a JSON one
 * (`undefined` when the spec makes it optional and none came), `undefined` for an operation without a body.
 */
export type BodyOf<K extends OperationId> = [RequestBody<K>] extends [never]
  ? undefined
  : K extends RawBodyOperation
    ? Buffer
    : RequestBody<K> extends { content: { 'application/json': infer B } }
      ? B | (undefined extends operations[K]['requestBody'] ? undefined : never)
      : never;

/**
 * What a handler of `K` reads: `path`, `query` and `body` typed from the spec, and the Express `req` itself for what
 * the spec does not type (headers, the raw URL, the socket). A union `K` gives the union of the views, so one
 * function may serve operations that share their parameters.
 */
export type RequestView<K extends OperationId> = K extends OperationId
  ? { path: PathOf<K>; query: QueryOf<K>; body: BodyOf<K>; req: Request }
  : never;

/** The raw-body operations, checked against the spec both ways: a missing or an extra one is a type error. */
const RAW_BODY_OPERATIONS: { readonly [K in RawBodyOperation]: true } = { writeFile: true, execHttp: true };

/**
 * The typed view of `req` for operation `operationId`. The validator has already checked `req.params` (set from its
 * path parameters), `req.query` and `req.body` against the operation, so this relabels them rather than parsing;
 * a raw-body operation's body is always a Buffer (`Buffer.alloc(0)` when none was read, http/raw-body.ts).
 */
export function requestView<K extends OperationId>(operationId: K, req: Request): RequestView<K> {
  const body: unknown = Object.hasOwn(RAW_BODY_OPERATIONS, operationId) ? (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)) : req.body;
  return { path: req.params, query: req.query, body, req } as RequestView<K>;
}
