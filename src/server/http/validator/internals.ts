/**
 * `validatorModule(path)`: a module as express-openapi-validator resolves it — one of its own `dist/` files by a path
 * relative to the package's entry (`'./middlewares/util.js'`), or a dependency by name (`'ajv/dist/2020'`, the copy
 * the validator uses) — and the same instance the validator loads, so a change to its exports is seen by the
 * validator. For the modules that adjust the validator's costs (route-cache.ts, validator-compile-cache.ts,
 * lazy-spec-check.ts, component-refs.ts, local-refs.ts) and json-stream.ts (the validator's ajv); each checks the
 * export it needs and throws when the validator changed.
 * @see docs/performance.md "Start"
 */
import { createRequire } from 'node:module';

let fromValidator: NodeJS.Require | undefined;

/** The module's exports (CommonJS, shared with the validator's own `require`). Throws when it cannot be found. */
export function validatorModule<T>(path: string): T {
  fromValidator ??= createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  return fromValidator(path) as T;
}
