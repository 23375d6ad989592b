/**
 * AsyncAPI contract check: parses spec/asyncapi.yaml with @asyncapi/parser, reports error diagnostics, and
 * checks that every message payload has examples that validate against it (ajv), as do the examples of the
 * ws binding query/header schemas. Also exports the loader the protocol tests use to validate values.
 * It does not lint style (warnings and hints are ignored). Run on its own: `npx tsx scripts/check-asyncapi.ts`.
 * @see docs/architecture.md "Layout"
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { Parser, fromFile, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import { Ajv, type ValidateFunction } from 'ajv';
import af from 'ajv-formats';

const addFormats = af as unknown as typeof af.default;

/** Absolute path of spec/asyncapi.yaml. */
export const ASYNCAPI_PATH = fileURLToPath(new URL('../spec/asyncapi.yaml', import.meta.url));

/** A parsed spec plus validators for its message payloads, keyed by message `name`. */
export interface LoadedAsyncApi {
  document: AsyncAPIDocumentInterface;
  /** Validator of the payload schema of the message named `name` (spec `components/messages/*.name`). */
  payloadValidator(name: string): ValidateFunction;
  /** Names of every message in the spec. */
  messageNames(): string[];
  /** Validator of a channel's `bindings.ws.query` or `bindings.ws.headers` schema (channel id, e.g. `exec`). */
  bindingValidator(channelId: string, part: 'query' | 'headers'): ValidateFunction;
}

/** Parser diagnostics of error severity (0), as `path: message` strings. */
async function parse(file: string): Promise<{ document?: AsyncAPIDocumentInterface; errors: string[] }> {
  const { document, diagnostics } = await fromFile(new Parser(), file).parse();
  const errors = diagnostics
    .filter((d) => d.severity === 0)
    .map((d) => `asyncapi: ${d.path.length ? d.path.join('.') + ': ' : ''}${d.message} (${String(d.code)})`);
  return { document, errors };
}

function newAjv(): Ajv {
  // strict off: parsed schemas carry `x-parser-*` annotations and AsyncAPI keywords ajv does not know.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Strips the parser's annotations so that a schema compiles in isolation. */
function plainSchema(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key.startsWith('x-parser-') ? undefined : value)));
}

/**
 * Loads spec/asyncapi.yaml (or `file`) and returns payload validators by message name.
 * Throws when the spec has error diagnostics.
 */
export async function loadAsyncApi(file: string = ASYNCAPI_PATH): Promise<LoadedAsyncApi> {
  const { document, errors } = await parse(file);
  if (!document || errors.length) throw new Error(`cannot load ${file}:\n${errors.join('\n')}`);
  const ajv = newAjv();
  const byName = new Map<string, ValidateFunction>();
  for (const message of document.components().messages().all()) {
    const name = message.name() ?? message.id();
    const payload = message.payload();
    if (payload && !byName.has(name)) byName.set(name, ajv.compile(plainSchema(payload.json())));
  }
  return {
    document,
    payloadValidator(name) {
      const v = byName.get(name);
      if (!v) throw new Error(`no message named ${name} in ${file}`);
      return v;
    },
    messageNames: () => [...byName.keys()],
    bindingValidator(channelId, part) {
      const schema = (document.channels().get(channelId)?.bindings().get('ws')?.value() as Record<string, unknown> | undefined)?.[part];
      if (!schema) throw new Error(`no ws ${part} binding on channel ${channelId} in ${file}`);
      return ajv.compile(plainSchema(schema));
    },
  };
}

function describeErrors(v: ValidateFunction): string {
  return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
}

/**
 * Checks the AsyncAPI spec. Returns one string per problem (empty when clean): parser errors (severity 0);
 * a message without a payload or without examples; an example that fails its payload schema; a ws binding
 * query/headers schema whose examples fail it; an operation without a channel or messages.
 */
export async function checkAsyncApi(file: string = ASYNCAPI_PATH): Promise<string[]> {
  const { document, errors } = await parse(file);
  if (!document) return errors.length ? errors : ['asyncapi: the parser returned no document'];
  const problems = [...errors];
  const ajv = newAjv();

  for (const message of document.components().messages().all()) {
    const where = `asyncapi: components.messages.${message.id()}`;
    const payload = message.payload();
    if (!payload) {
      problems.push(`${where}: no payload`);
      continue;
    }
    const validate = ajv.compile(plainSchema(payload.json()));
    const examples = message.examples().all();
    if (examples.length === 0) problems.push(`${where}: no examples`);
    examples.forEach((example, i) => {
      if (!validate(example.payload())) problems.push(`${where}.examples[${i}]: ${describeErrors(validate)}`);
    });
  }

  for (const channel of document.channels().all()) {
    const ws = channel.bindings().get('ws');
    if (!ws) {
      problems.push(`asyncapi: channels.${channel.id()}: no ws binding`);
      continue;
    }
    const value = ws.value() as { query?: unknown; headers?: unknown };
    for (const part of ['query', 'headers'] as const) {
      const json = value[part] as { examples?: unknown[] } | undefined;
      if (!json) {
        problems.push(`asyncapi: channels.${channel.id()}.bindings.ws: no ${part} schema`);
        continue;
      }
      const validate = ajv.compile(plainSchema(json));
      (json.examples ?? []).forEach((example, i) => {
        if (!validate(example)) {
          problems.push(`asyncapi: channels.${channel.id()}.bindings.ws.${part}.examples[${i}]: ${describeErrors(validate)}`);
        }
      });
    }
  }

  for (const operation of document.operations().all()) {
    if (operation.channels().length === 0) problems.push(`asyncapi: operations.${operation.id()}: no channel`);
    if (operation.messages().length === 0) problems.push(`asyncapi: operations.${operation.id()}: no messages`);
  }
  return problems;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const problems = await checkAsyncApi(process.argv[2] ?? ASYNCAPI_PATH);
  for (const p of problems) console.error(p);
  console.log(problems.length ? `asyncapi: ${problems.length} problem(s)` : 'asyncapi: ok');
  process.exitCode = problems.length ? 1 : 0;
}
