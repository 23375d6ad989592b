/**
 * Typed access to a validated request: the query and JSON body of an operation, typed by the generated
 * OpenAPI `operations`. The validator has already checked and coerced them, so these are casts, not parsers.
 */
import type { Request } from 'express';
import type { operations } from '../../../generated/openapi.d.ts';

type QueryOf<K extends keyof operations> = operations[K]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
type JsonBodyOf<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The validated query of operation `K`. */
export function queryOf<K extends keyof operations>(req: Request, _op: K): QueryOf<K> {
  return req.query as unknown as QueryOf<K>;
}

/** The validated JSON body of operation `K` (`{}` when the body was empty). */
export function bodyOf<K extends keyof operations>(req: Request, _op: K): JsonBodyOf<K> {
  return (req.body ?? {}) as JsonBodyOf<K>;
}
