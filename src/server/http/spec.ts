/**
 * The OpenAPI document as an object, read once per process: from the JSON that `npm run build` prepares
 * (`dist/openapi.json`, written by scripts/build-spec.mjs) when it is at least as new as spec/openapi.yaml,
 * else parsed from the YAML (tests and `npm run dev` run from source). Parsing the YAML took ≈ 17 % of a built
 * server's start, and it was parsed twice (HEAD routing and the validator). It owns reading the document; it does
 * not validate it (scripts/check-contracts.ts does) nor change it.
 * @see docs/performance.md "Start"
 */
import { readFileSync, statSync } from 'node:fs';
import { projectPath } from '../runtime/project-root.ts';
import { lazyRequire } from '../runtime/lazy-require.ts';

/** The YAML parser, loaded only when the prepared JSON is missing or stale (72 modules a built server need not load). */
const loadYaml = lazyRequire<typeof import('yaml')>('yaml', (mod) => mod);

/** Where `npm run build` writes the prepared document (absolute). */
export const PREPARED_SPEC_PATH = projectPath('dist/openapi.json');

const cache = new Map<string, Record<string, unknown>>();

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The document at `yamlPath` (spec/openapi.yaml), frozen: callers that change what they are given (the validator
 * does) must take a `structuredClone`. `prepared` is the JSON copy to prefer when it is not older than the YAML.
 * Throws when neither can be read or parsed.
 */
export function loadOpenApiDocument(yamlPath: string, prepared = PREPARED_SPEC_PATH): Readonly<Record<string, unknown>> {
  const hit = cache.get(yamlPath);
  if (hit) return hit;
  const preparedTime = mtimeMs(prepared);
  const doc =
    preparedTime >= 0 && preparedTime >= mtimeMs(yamlPath)
      ? (JSON.parse(readFileSync(prepared, 'utf8')) as Record<string, unknown>)
      : (loadYaml().parse(readFileSync(yamlPath, 'utf8')) as Record<string, unknown>);
  deepFreeze(doc);
  cache.set(yamlPath, doc);
  return doc;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
