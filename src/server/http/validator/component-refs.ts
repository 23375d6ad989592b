/**
 * A cheaper start for express-openapi-validator: before it builds its request and response validators (5.6.2,
 * `middlewares/parsers/schema.preprocessor.js`), its `SchemaPreprocessor` resolves every `$ref` to a component
 * schema through `ajv.getSchema(ref).schema`, which compiles that component with ajv only to hand back the object it
 * was given: ≈ 200 ms, 15 % of a built server's start (docs/performance.md "Start"), for validators thrown away.
 * This module hands the preprocessor those objects without the compile. It owns that shortcut only: the same
 * objects are found, and what is validated, and how, stays the validator's.
 * @see https://github.com/cdimascio/express-openapi-validator (middlewares/parsers/schema.preprocessor.ts, resolveSchema)
 */
import { validatorModule } from './internals.ts';

interface Preprocessor {
  apiDoc: { components?: { schemas?: Record<string, unknown> } };
  resolvedSchemaCache: Map<string, unknown>;
  preProcess(): unknown;
}
type PreprocessorClass = { prototype: Preprocessor & { [DIRECT]?: () => number } };

/** Marks the replaced `preProcess`, so installing twice wraps once; holds the counter. */
const DIRECT = Symbol.for('spritzer.SchemaPreprocessor.directComponentRefs');

/**
 * Wraps `SchemaPreprocessor.prototype.preProcess` so that, before it runs, the preprocessor's `resolvedSchemaCache`
 * (which `resolveSchema` reads before asking ajv) holds, for each component schema, `#/components/schemas/<id>` →
 * the schema object itself: the key and the object the validator's ajv instance was given for it
 * (`framework/ajv/index.js` `createAjv`), which is what `getSchema(ref).schema` returns. Other `$ref`s resolve as
 * before. Idempotent. Returns a function giving how many preprocessors were given the objects (for tests). Throws
 * when the validator no longer has the class, its `preProcess` or its cache.
 */
export function resolveComponentRefsDirectly(): () => number {
  const mod = validatorModule<{ SchemaPreprocessor?: PreprocessorClass }>('./middlewares/parsers/schema.preprocessor.js');
  const proto = mod.SchemaPreprocessor?.prototype;
  if (!proto || typeof proto.preProcess !== 'function') throw new Error('express-openapi-validator without SchemaPreprocessor.preProcess: the validator changed');
  const installed = proto[DIRECT];
  if (installed) return installed;
  const original = proto.preProcess;
  let given = 0;
  proto.preProcess = function (this: Preprocessor) {
    if (!(this.resolvedSchemaCache instanceof Map)) throw new Error('express-openapi-validator without resolvedSchemaCache: the validator changed');
    for (const [id, schema] of Object.entries(this.apiDoc.components?.schemas ?? {})) {
      this.resolvedSchemaCache.set(`#/components/schemas/${id}`, schema);
    }
    given++;
    return original.call(this);
  };
  const count = () => given;
  proto[DIRECT] = count;
  return count;
}
