/**
 * A cheaper start for express-openapi-validator: at every start (5.6.2, `framework/index.js` `loadSpec`) it passes
 * the document to `$RefParser.bundle`, which gathers external `$ref`s (other files, URLs) into the document. For a
 * document whose every `$ref` is already local (`#/…`) there is nothing to gather and the document comes back
 * unchanged (`local-refs.test.ts` checks that for spec/openapi.yaml), after ≈ 80 ms of walking it
 * (docs/performance.md "Start"). This module skips that walk for such documents. It owns only that skip: a document
 * with any other `$ref`, or given as a file path, is bundled as before.
 * @see https://github.com/cdimascio/express-openapi-validator (framework/index.ts, loadSpec)
 */
import { validatorModule } from './internals.ts';

type LoadSpec = ((this: unknown, spec: unknown, refParser?: unknown) => Promise<unknown>) & { [SKIPS]?: () => number };

/** Marks the replaced `loadSpec`; holds the counter of skipped bundles. */
const SKIPS = Symbol.for('spritzer.OpenAPIFramework.localRefs');

/** True when `value` holds no `$ref` other than a string starting with `#` (at any depth). */
export function hasOnlyLocalRefs(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!hasOnlyLocalRefs(item)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (key === '$ref' ? !(typeof item === 'string' && item.startsWith('#')) : !hasOnlyLocalRefs(item)) return false;
  }
  return true;
}

/**
 * Wraps `OpenAPIFramework.prototype.loadSpec` so that a document given as an object with only local `$ref`s is
 * returned as it is (a resolved promise), and anything else goes to the original. Idempotent. Returns a function
 * giving how many bundles were skipped (for tests). Throws when the validator no longer has the method.
 */
export function skipBundleOfLocalRefs(): () => number {
  const mod = validatorModule<{ OpenAPIFramework?: { prototype: { loadSpec?: LoadSpec } } }>('./framework/index.js');
  const proto = mod.OpenAPIFramework?.prototype;
  const original = proto?.loadSpec;
  if (!proto || typeof original !== 'function') throw new Error('express-openapi-validator without OpenAPIFramework.loadSpec: the validator changed');
  const installed = original[SKIPS];
  if (installed) return installed;
  let skipped = 0;
  const loadSpec: LoadSpec = function (spec, refParser) {
    if (spec !== null && typeof spec === 'object' && hasOnlyLocalRefs(spec)) {
      skipped++;
      return Promise.resolve(spec);
    }
    return original.call(this, spec, refParser);
  };
  const count = () => skipped;
  loadSpec[SKIPS] = count;
  proto.loadSpec = loadSpec;
  return count;
}
