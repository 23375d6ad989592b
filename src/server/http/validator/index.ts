/**
 * express-openapi-validator over the REST contract, as one Express layer, with the adjustments that make it cheap
 * to start and to run. Each patch is in its own file, with why it exists:
 * - route-cache.ts: compile each route template once, not per request (≈ 22 % of a REST request's CPU);
 * - compile-cache.ts: an operation's first request compiles less (one shared compile per schema);
 * - lazy-spec-check.ts: the OpenAPI meta-schema is not compiled at start when nothing validates the spec with it;
 * - component-refs.ts: nor is each component schema, only to be looked up by its `$ref`;
 * - local-refs.ts: a document of local `$ref`s is not walked by `$RefParser.bundle`;
 * - chain.ts: the validator's middlewares run as one layer with their route lookup cached.
 * It owns that setup only; what the spec says is spec/openapi.yaml's, and what a handler does is routes/'s.
 * @see docs/performance.md "Per REST request", "Start"
 */
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { loadOpenApiDocument } from '../spec.ts';
import { composeValidator } from './chain.ts';
import { shareValidatorCompiles } from './compile-cache.ts';
import { resolveComponentRefsDirectly } from './component-refs.ts';
import { deferSpecCheckCompile } from './lazy-spec-check.ts';
import { skipBundleOfLocalRefs } from './local-refs.ts';
import { memoiseValidatorRoutes } from './route-cache.ts';

/**
 * The validator of the spec at `specPath` (requests always; responses too with `validateResponses`, a test and
 * development aid), with every adjustment above applied. Unknown query parameters pass (clients send extras); types
 * are not coerced (the handlers get what the client sent, validated). Throws when the spec cannot be read.
 */
export function openApiValidator(specPath: string, opts: { validateResponses: boolean }): RequestHandler {
  memoiseValidatorRoutes();
  shareValidatorCompiles();
  deferSpecCheckCompile();
  resolveComponentRefsDirectly();
  skipBundleOfLocalRefs();
  return composeValidator(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(loadOpenApiDocument(specPath)) as never,
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
      validateResponses: opts.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      validateFormats: true,
      validateApiSpec: false, // checked by scripts/check-contracts.ts (npm test), not at every start
      fileUploader: false, // no multipart operation in the spec
    }) as unknown as RequestHandler[],
  );
}
