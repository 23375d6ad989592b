/**
 * A cheaper start for express-openapi-validator: at every start (5.6.2, `framework/index.js` `initialize`) it builds
 * an `OpenAPISchemaValidator`, which compiles the whole OpenAPI 3.1 meta-schema with ajv (≈ 130 ms, a tenth of the
 * cold start: docs/performance.md "Start"), even with `validateApiSpec: false`, when that validator is never called.
 * spritzer passes `validateApiSpec: false` (the spec is checked by scripts/check-contracts.ts in `npm test`). This
 * module makes the compile happen on the first `validate` call instead. It owns only that deferral; when the spec
 * is validated, it is validated the same way.
 * @see https://github.com/cdimascio/express-openapi-validator (framework/openapi.schema.validator.ts)
 */
import { validatorModule } from './internals.ts';

type SpecCheckOptions = { version: string; validateApiSpec: boolean } & Record<string, unknown>;
interface SpecCheck {
  validate(apiDoc: unknown): { errors: unknown[] };
}
type SpecCheckClass = (new (opts: SpecCheckOptions) => SpecCheck) & { [LAZY]?: true };

/** Marks the lazy version, so installing twice wraps once. */
const LAZY = Symbol.for('spritzer.OpenAPISchemaValidator.lazy');
/** Where the count of built originals is kept on the module (so a second install returns the same counter). */
const BUILT = Symbol.for('spritzer.OpenAPISchemaValidator.built');

/**
 * Replaces `OpenAPISchemaValidator` in the validator's `framework/openapi.schema.validator.js` (which
 * `framework/index.js` reads through the module's exports at each start) with a class that builds the original,
 * with the same options, when `validate` is first called, or at once when `validateApiSpec` is true. Idempotent.
 * Returns a function giving how many originals were built so far (for tests). Throws when the module no longer
 * exports the class.
 */
export function deferSpecCheckCompile(): () => number {
  const mod = validatorModule('./framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: SpecCheckClass; [BUILT]?: () => number };
  if (typeof mod.OpenAPISchemaValidator !== 'function') throw new Error('express-openapi-validator without OpenAPISchemaValidator: the validator changed');
  const installed = mod[BUILT];
  if (mod.OpenAPISchemaValidator[LAZY] && installed) return installed;
  const Original = mod.OpenAPISchemaValidator;
  let built = 0;
  const build = (opts: SpecCheckOptions): SpecCheck => {
    built++;
    return new Original(opts);
  };
  class LazySpecCheck implements SpecCheck {
    static readonly [LAZY] = true as const;
    private inner: SpecCheck | undefined;
    constructor(private readonly opts: SpecCheckOptions) {
      if (opts.validateApiSpec) this.inner = build(opts);
    }
    validate(apiDoc: unknown): { errors: unknown[] } {
      this.inner ??= build(this.opts);
      return this.inner.validate(apiDoc);
    }
  }
  const count = () => built;
  mod.OpenAPISchemaValidator = LazySpecCheck;
  mod[BUILT] = count;
  return count;
}
