/**
 * Contract check (`npm run check:contracts`): lints spec/openapi.yaml with Redocly's recommended rules,
 * checks every operation's id, success and error responses, compiles every schema with ajv and validates
 * every example against its schema, then runs the AsyncAPI check from scripts/check-asyncapi.ts.
 * It only reads the specs; it never edits them and starts no server.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { lint, createConfig } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import af from 'ajv-formats';
import { checkAsyncApi } from './check-asyncapi.ts';

const addFormats = af as unknown as typeof af.default;

/** The OpenAPI document checked by default (absolute path). */
export const OPENAPI_PATH = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));

type Json = Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const SCHEMAS_ID = 'urn:spritzer:openapi';
const SPRITE_SCOPED = '/v1/sprites/{name}';

/** Result of one check: error messages (empty = pass) and warnings that do not fail the run. */
export interface CheckResult {
  errors: string[];
  warnings: string[];
  /** One line for the summary, e.g. "72 operations". */
  summary: string;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Follows a local `$ref` (`#/components/...`) in a non-schema position; returns the node itself otherwise. */
function deref(doc: Json, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 10; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return current;
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((acc, key) => (isObject(acc) ? acc[key] : undefined), doc);
  }
  return current;
}

/**
 * Lints the OpenAPI file with Redocly's `recommended` ruleset.
 * No rule is turned off today: the spec passes the whole set. Should a rule ever fight the real API,
 * turn it off in `rules` below with a comment saying why.
 * @returns Redocly errors as `errors`, its warnings as `warnings`.
 */
export async function lintOpenApi(file: string = OPENAPI_PATH): Promise<CheckResult> {
  const config = await createConfig({ extends: ['recommended'], rules: {} });
  const problems = await lint({ ref: file, config });
  const format = (p: (typeof problems)[number]) =>
    `openapi lint ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`;
  const errors = problems.filter((p) => p.severity === 'error').map(format);
  const warnings = problems.filter((p) => p.severity !== 'error').map(format);
  return { errors, warnings, summary: `redocly recommended: ${errors.length} errors, ${warnings.length} warnings` };
}

/**
 * Checks every operation of an OpenAPI document (already parsed):
 * - a unique `operationId`, a 2xx response, 400, 500 and 501;
 * - 401 and 429 unless the operation opts out of auth (`security: []`); only 401 when auth is optional
 *   (`security: [{bearerAuth: []}, {}]`, the `/_spritzer` surface: required only when the server has `--token`);
 * - 404 on sprite-scoped paths (`/v1/sprites/{name}/…`);
 * - a `Sprite-Version` header on every response;
 * - every `application/x-ndjson` schema is a `oneOf` whose branches have disjoint `type` const/enum values.
 * @see docs/wire-reference.md §2.3, §2.4, §15
 */
export function checkOperations(doc: Json): CheckResult {
  const errors: string[] = [];
  const seen = new Map<string, string>();
  let count = 0;
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [route, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      count++;
      const where = `${method.toUpperCase()} ${route}`;
      const id = op.operationId;
      if (typeof id !== 'string' || id === '') {
        errors.push(`${where}: no operationId`);
      } else if (seen.has(id)) {
        errors.push(`${where}: operationId ${id} is also used by ${seen.get(id)}`);
      } else {
        seen.set(id, where);
      }
      const label = typeof id === 'string' ? `${id} (${where})` : where;
      const responses = isObject(op.responses) ? op.responses : {};
      const codes = Object.keys(responses);
      if (!codes.some((c) => /^2\d\d$/.test(c))) errors.push(`${label}: no 2xx response`);
      const security = Array.isArray(op.security) ? op.security : undefined;
      const anonymous = security !== undefined && security.length === 0;
      // `[{bearerAuth: []}, {}]`: auth only when the server runs with --token (the /_spritzer surface).
      const optionalAuth = security !== undefined && security.some((r) => isObject(r) && Object.keys(r).length === 0);
      const required = ['400', '500', '501'];
      if (optionalAuth) required.push('401');
      else if (!anonymous) required.push('401', '429');
      if (route === SPRITE_SCOPED || route.startsWith(`${SPRITE_SCOPED}/`)) required.push('404');
      for (const code of required) {
        if (!codes.includes(code)) errors.push(`${label}: no ${code} response`);
      }
      for (const [code, rawResponse] of Object.entries(responses)) {
        const response = deref(doc, rawResponse);
        if (!isObject(response)) continue;
        if (!isObject(response.headers) || !('Sprite-Version' in response.headers)) {
          errors.push(`${label}: response ${code} has no Sprite-Version header`);
        }
        const ndjson = isObject(response.content) ? response.content['application/x-ndjson'] : undefined;
        if (isObject(ndjson)) {
          const problem = ndjsonLineProblem(doc, ndjson.schema);
          if (problem) errors.push(`${label}: response ${code} x-ndjson line schema ${problem}`);
        }
      }
    }
  }
  return { errors, warnings: [], summary: `${count} operations` };
}

/** Why an NDJSON per-line schema is not a `oneOf` discriminated by `type`, or null when it is. */
function ndjsonLineProblem(doc: Json, rawSchema: unknown): string | null {
  const schema = deref(doc, rawSchema);
  if (!isObject(schema) || !Array.isArray(schema.oneOf)) return 'is not a oneOf';
  const owner = new Map<string, number>();
  for (const [i, rawBranch] of schema.oneOf.entries()) {
    const branch = deref(doc, rawBranch);
    const typeSchema = isObject(branch) && isObject(branch.properties) ? branch.properties.type : undefined;
    const required = isObject(branch) && Array.isArray(branch.required) ? branch.required : [];
    if (!isObject(typeSchema) || !required.includes('type')) return `branch ${i} has no required "type"`;
    const values = 'const' in typeSchema ? [typeSchema.const] : Array.isArray(typeSchema.enum) ? typeSchema.enum : [];
    if (values.length === 0) return `branch ${i} "type" has no const or enum`;
    for (const v of values) {
      if (owner.has(String(v))) return `type "${String(v)}" appears in branches ${owner.get(String(v))} and ${i}`;
      owner.set(String(v), i);
    }
  }
  return null;
}

/** Deep copy of a schema with `#/components/schemas/X` refs made absolute (`urn:spritzer:openapi#/$defs/X`). */
function absolutize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absolutize);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? `${SCHEMAS_ID}#/$defs/${value.slice('#/components/schemas/'.length)}`
        : absolutize(value);
  }
  return out;
}

/** Keywords whose value is a subschema, a list of them, or a map of them (JSON Schema 2020-12). */
const SUBSCHEMA = ['items', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else', 'propertyNames'];
const SUBSCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/** Calls `visit` on a schema and every nested subschema, with a JSON-pointer-ish location. */
function walkSchema(schema: unknown, where: string, visit: (s: Json, where: string) => void): void {
  if (!isObject(schema)) return;
  visit(schema, where);
  for (const k of SUBSCHEMA) walkSchema(schema[k], `${where}.${k}`, visit);
  for (const k of SUBSCHEMA_LISTS) {
    const list = schema[k];
    if (Array.isArray(list)) list.forEach((s, i) => walkSchema(s, `${where}.${k}[${i}]`, visit));
  }
  for (const k of SUBSCHEMA_MAPS) {
    const map = schema[k];
    if (isObject(map)) for (const [name, s] of Object.entries(map)) walkSchema(s, `${where}.${k}.${name}`, visit);
  }
}

/** Every place of an OpenAPI doc that holds a schema, with the examples that sit beside it (not inside). */
interface SchemaSite {
  where: string;
  schema: unknown;
  /** Examples given outside the schema (parameter/media type/header `example`/`examples`). */
  examples: Array<{ where: string; value: unknown }>;
}

function outsideExamples(holder: Json, where: string, doc: Json): SchemaSite['examples'] {
  const found: SchemaSite['examples'] = [];
  if ('example' in holder) found.push({ where: `${where}.example`, value: holder.example });
  if (isObject(holder.examples)) {
    for (const [name, raw] of Object.entries(holder.examples)) {
      const ex = deref(doc, raw);
      if (isObject(ex) && 'value' in ex) found.push({ where: `${where}.examples.${name}`, value: ex.value });
    }
  }
  return found;
}

/** Collects the schema sites of components (schemas, parameters, headers, responses, bodies) and operations. */
function schemaSites(doc: Json): SchemaSite[] {
  const sites: SchemaSite[] = [];
  const components = isObject(doc.components) ? doc.components : {};
  const addParameter = (p: unknown, where: string) => {
    if (isObject(p) && !('$ref' in p) && 'schema' in p) sites.push({ where, schema: p.schema, examples: outsideExamples(p, where, doc) });
  };
  const addContent = (holder: unknown, where: string) => {
    if (!isObject(holder) || '$ref' in holder) return;
    if (isObject(holder.headers)) {
      for (const [name, h] of Object.entries(holder.headers)) addParameter(h, `${where}.headers.${name}`);
    }
    if (!isObject(holder.content)) return;
    for (const [type, media] of Object.entries(holder.content)) {
      if (isObject(media) && 'schema' in media) {
        sites.push({ where: `${where}.content[${type}]`, schema: media.schema, examples: outsideExamples(media, `${where}.content[${type}]`, doc) });
      }
    }
  };
  for (const [name, s] of Object.entries(isObject(components.schemas) ? components.schemas : {})) {
    sites.push({ where: `components.schemas.${name}`, schema: s, examples: [] });
  }
  for (const [name, p] of Object.entries(isObject(components.parameters) ? components.parameters : {})) addParameter(p, `components.parameters.${name}`);
  for (const [name, h] of Object.entries(isObject(components.headers) ? components.headers : {})) addParameter(h, `components.headers.${name}`);
  for (const [name, r] of Object.entries(isObject(components.responses) ? components.responses : {})) addContent(r, `components.responses.${name}`);
  for (const [name, b] of Object.entries(isObject(components.requestBodies) ? components.requestBodies : {})) addContent(b, `components.requestBodies.${name}`);
  for (const [route, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const pathParams = Array.isArray(item.parameters) ? item.parameters : [];
    pathParams.forEach((p, i) => addParameter(p, `paths.${route}.parameters[${i}]`));
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const where = `paths.${route}.${method}`;
      (Array.isArray(op.parameters) ? op.parameters : []).forEach((p, i) => addParameter(p, `${where}.parameters[${i}]`));
      addContent(op.requestBody, `${where}.requestBody`);
      for (const [code, r] of Object.entries(isObject(op.responses) ? op.responses : {})) addContent(r, `${where}.responses.${code}`);
    }
  }
  return sites;
}

function ajvErrorText(errors: ReadonlyArray<{ instancePath: string; message?: string }> | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`).join('; ');
}

/**
 * Compiles every schema of the document with ajv (JSON Schema 2020-12, strict) and validates every
 * example against the schema it belongs to: `examples` inside schemas (each component schema must
 * have a non-empty one), and `example`/`examples` of parameters, headers and media types.
 * `format: binary` is accepted as an annotation (it describes raw bodies, not JSON strings).
 */
export function checkSchemas(doc: Json): CheckResult {
  const errors: string[] = [];
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  try {
    ajv.addSchema({ $id: SCHEMAS_ID, $defs: absolutize(schemas) });
  } catch (err) {
    return { errors: [`components.schemas: ${(err as Error).message}`], warnings: [], summary: 'schemas not compiled' };
  }
  for (const [name, s] of Object.entries(schemas)) {
    if (!isObject(s) || !Array.isArray(s.examples) || s.examples.length === 0) {
      errors.push(`components.schemas.${name}: no examples`);
    }
  }
  let compiled = 0;
  let validated = 0;
  const validate = (schema: unknown, where: string, examples: Array<{ where: string; value: unknown }>) => {
    let fn;
    try {
      fn = ajv.compile(absolutize(schema) as Json);
    } catch (err) {
      errors.push(`${where}: does not compile: ${(err as Error).message}`);
      return;
    }
    for (const ex of examples) {
      validated++;
      if (!fn(ex.value)) errors.push(`${ex.where}: example is invalid: ${ajvErrorText(fn.errors)}`);
    }
  };
  for (const site of schemaSites(doc)) {
    compiled++;
    validate(site.schema, site.where, site.examples);
    walkSchema(site.schema, site.where, (node, where) => {
      if (!('examples' in node)) return;
      if (!Array.isArray(node.examples)) {
        errors.push(`${where}.examples: must be an array (JSON Schema 2020-12)`);
        return;
      }
      validate(
        node,
        where,
        node.examples.map((value, i) => ({ where: `${where}.examples[${i}]`, value })),
      );
    });
  }
  return { errors, warnings: [], summary: `${compiled} schemas compiled, ${validated} examples checked` };
}

/** Reads and parses the OpenAPI YAML file. @throws on unreadable or unparsable YAML. */
export async function loadOpenApi(file: string = OPENAPI_PATH): Promise<Json> {
  const doc: unknown = parseYaml(await readFile(file, 'utf8'));
  if (!isObject(doc)) throw new Error(`${file}: not a YAML mapping`);
  return doc;
}

/**
 * Runs every check and prints a summary.
 * @returns the process exit code: 0 when there is no error, 1 otherwise.
 */
export async function runContractChecks(file: string = OPENAPI_PATH): Promise<number> {
  const doc = await loadOpenApi(file);
  const asyncErrors = await checkAsyncApi();
  const results: Array<[string, CheckResult]> = [
    ['openapi lint', await lintOpenApi(file)],
    ['openapi operations', checkOperations(doc)],
    ['openapi schemas', checkSchemas(doc)],
    ['asyncapi', { errors: asyncErrors, warnings: [], summary: `${asyncErrors.length} errors` }],
  ];
  let failed = 0;
  for (const [name, result] of results) {
    for (const w of result.warnings) console.warn(`warn  ${w}`);
    for (const e of result.errors) console.error(`error ${e}`);
    const status = result.errors.length === 0 ? 'ok  ' : 'FAIL';
    console.log(`${status} ${name}: ${result.summary}`);
    failed += result.errors.length;
  }
  console.log(failed === 0 ? 'contracts: all checks passed' : `contracts: ${failed} error(s)`);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  runContractChecks().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.stack ?? err.message : err);
      process.exit(1);
    },
  );
}
