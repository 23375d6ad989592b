/**
 * Validates what a Sprites server puts on the wire against the contracts: HTTP responses (status, content
 * type and body; every NDJSON line) against spec/openapi.yaml, WebSocket frames and text messages against the
 * message payloads of spec/asyncapi.yaml. Schemas are compiled with ajv (JSON Schema 2020-12) from the specs
 * as they are: each document is added whole under an `$id` and referenced by JSON pointer, so `$ref`s resolve.
 * It judges shapes only; what a response should *mean* is the tests' business.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import af from 'ajv-formats';
import { frameAsSchemaString } from '../../../src/protocol/frames.ts';

const addFormats = af as unknown as typeof af.default;

type Json = Record<string, unknown>;

/** Absolute paths of the two contracts. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
export const ASYNCAPI_FILE = fileURLToPath(new URL('../../../spec/asyncapi.yaml', import.meta.url));

const OPENAPI_ID = 'https://spritzer.local/spec/openapi.json';
const ASYNCAPI_ID = 'https://spritzer.local/spec/asyncapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Thrown when something on the wire does not match the spec; the message says where and why. */
export class SpecViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecViolation';
  }
}

/** One OpenAPI operation, found by operationId or by method + concrete path. */
export interface SpecOperation {
  operationId: string;
  method: string;
  /** Path template, e.g. `/v1/sprites/{name}`. */
  path: string;
  /** JSON pointer (without `#`) of the operation object in the document. */
  pointer: string;
}

/** One AsyncAPI message of an operation, with what it takes to check a frame against it. */
export interface SpecMessage {
  /** The key of the message in its channel (`stdout`, `sessionInfo`, …). */
  key: string;
  /** `application/octet-stream` (binary frame), `text/plain` (prefixed text) or `application/json`. */
  contentType: string;
  /** `x-text-prefix` (e.g. `control:`), stripped before JSON parsing. */
  textPrefix?: string;
  validate: ValidateFunction;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function load(file: string): Json {
  return parseYaml(readFileSync(file, 'utf8')) as Json;
}

function get(doc: Json, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Json | undefined)?.[key];
  }
  return node;
}

/** Follows `$ref: '#/…'` chains inside one document; returns the final object and its pointer. */
function deref(doc: Json, node: unknown, pointer: string): { node: Json; pointer: string } {
  let cur = node as Json;
  let at = pointer;
  for (let hops = 0; cur && typeof cur.$ref === 'string' && hops < 20; hops++) {
    at = (cur.$ref as string).replace(/^#/, '');
    cur = get(doc, at) as Json;
  }
  return { node: cur, pointer: at };
}

function errorText(fn: ValidateFunction): string {
  return (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}

/** Media type without parameters, lower-cased (`text/plain; charset=utf-8` → `text/plain`). */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Validators for both specs. Construct once per test file (compiling is cached per schema pointer).
 * @see docs/architecture.md "Tests": every body, NDJSON line and frame is validated on both targets.
 */
export class SpecValidator {
  readonly openapi: Json;
  readonly asyncapi: Json;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly messageCache = new Map<string, SpecMessage[]>();
  private readonly operations: Array<SpecOperation & { regex: RegExp; literalSegments: number }> = [];

  constructor(openapi: Json = load(OPENAPI_FILE), asyncapi: Json = load(ASYNCAPI_FILE)) {
    this.openapi = openapi;
    this.asyncapi = asyncapi;
    // strict off: the documents carry OpenAPI/AsyncAPI keywords (`x-…`, `discriminator`) that are not JSON Schema.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...openapi, $id: OPENAPI_ID });
    this.ajv.addSchema({ ...asyncapi, $id: ASYNCAPI_ID });
    for (const [path, item] of Object.entries((openapi.paths ?? {}) as Record<string, Json>)) {
      for (const method of HTTP_METHODS) {
        const op = item[method] as Json | undefined;
        if (!op || typeof op.operationId !== 'string') continue;
        const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
        this.operations.push({
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          pointer: `/paths/${escapePointer(path)}/${method}`,
          regex: new RegExp(`^${pattern}/?$`),
          literalSegments: path.split('/').filter((s) => s && !s.startsWith('{')).length,
        });
      }
    }
  }

  /** Every operationId of the OpenAPI document, in document order. */
  httpOperationIds(): string[] {
    return this.operations.map((o) => o.operationId);
  }

  /** Every operationId of the AsyncAPI document. */
  wsOperationIds(): string[] {
    return Object.keys((this.asyncapi.operations ?? {}) as Json);
  }

  /**
   * The operation serving `method` on a concrete `path` (query ignored). Literal segments win over
   * parameters, so `/services/signal` is `signalService`, not `getService`. Undefined when none matches.
   */
  findOperation(method: string, path: string): SpecOperation | undefined {
    const bare = path.split('?')[0];
    const candidates = this.operations.filter((o) => o.method === method.toUpperCase() && o.regex.test(bare));
    candidates.sort((a, b) => b.literalSegments - a.literalSegments);
    const hit = candidates[0];
    return hit && { operationId: hit.operationId, method: hit.method, path: hit.path, pointer: hit.pointer };
  }

  private compile(id: string, pointer: string): ValidateFunction {
    const key = `${id}#${pointer}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.compile({ $ref: key });
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** A validator for any schema of either document by JSON pointer, e.g. `('asyncapi', '/components/schemas/HandshakeError')`. */
  schema(doc: 'openapi' | 'asyncapi', pointer: string): ValidateFunction {
    return this.compile(doc === 'openapi' ? OPENAPI_ID : ASYNCAPI_ID, pointer);
  }

  /**
   * Checks the JSON body of a failed WebSocket handshake against the AsyncAPI `HandshakeError` schema
   * (`x-handshake-errors`) and returns it parsed.
   */
  checkHandshakeError(status: number, contentType: string | null, text: string): unknown {
    const documented = ((this.asyncapi['x-handshake-errors'] ?? []) as Array<{ status: number }>).map((e) => e.status);
    if (!documented.includes(status)) {
      throw new SpecViolation(`handshake status ${status} is not in x-handshake-errors (${documented.join(', ')})`);
    }
    if (mediaType(contentType) !== 'application/json') throw new SpecViolation(`handshake ${status}: content type ${contentType} is not JSON`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SpecViolation(`handshake ${status}: body is not JSON: ${text.slice(0, 200)}`);
    }
    const fn = this.schema('asyncapi', '/components/schemas/HandshakeError');
    if (!fn(json)) throw new SpecViolation(`handshake ${status}: ${errorText(fn)}`);
    return json;
  }

  /**
   * The schema validator for `op`'s response `status` with media type `type`, or `null` when the spec
   * documents that status without a body. Throws {@link SpecViolation} when the status or the content type
   * is not documented for the operation.
   */
  responseSchema(op: SpecOperation, status: number, type: string): ValidateFunction | null {
    const responses = (get(this.openapi, op.pointer) as Json).responses as Json;
    const code = String(status);
    const key = code in responses ? code : `${code[0]}XX` in responses ? `${code[0]}XX` : 'default' in responses ? 'default' : null;
    if (key === null) throw new SpecViolation(`${op.operationId}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`);
    const { node: response, pointer } = deref(this.openapi, responses[key], `${op.pointer}/responses/${key}`);
    const content = response.content as Json | undefined;
    if (!content) return null;
    if (!(type in content)) {
      throw new SpecViolation(`${op.operationId} ${status}: content type '${type || '(none)'}' is not documented (documented: ${Object.keys(content).join(', ')})`);
    }
    return this.compile(OPENAPI_ID, `${pointer}/content/${escapePointer(type)}/schema`);
  }

  /**
   * Checks one HTTP response: documented status and content type; a JSON body against its schema; each
   * NDJSON line (every line must be JSON) against the line schema; a text body against its string schema.
   * Binary bodies are only checked for their content type. Returns the parsed JSON (or NDJSON lines).
   */
  checkResponse(op: SpecOperation, status: number, contentType: string | null, body: Uint8Array): { json?: unknown; lines?: unknown[] } {
    const type = mediaType(contentType);
    const fn = this.responseSchema(op, status, type);
    if (fn === null) {
      if (body.length > 0) throw new SpecViolation(`${op.operationId} ${status}: the spec documents no body, got ${body.length} bytes`);
      return {};
    }
    const text = Buffer.from(body).toString('utf8');
    const where = `${op.operationId} ${status} ${type}`;
    if (type === 'application/json') {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new SpecViolation(`${where}: body is not JSON: ${text.slice(0, 200)}`);
      }
      if (!fn(json)) throw new SpecViolation(`${where}: ${errorText(fn)}\nbody: ${text.slice(0, 500)}`);
      return { json };
    }
    if (type === 'application/x-ndjson') {
      const lines: unknown[] = [];
      text.split('\n').forEach((line, i) => {
        if (line.trim() === '') return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw new SpecViolation(`${where}: line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
        }
        if (!fn(value)) throw new SpecViolation(`${where}: line ${i + 1}: ${errorText(fn)}\nline: ${line}`);
        lines.push(value);
      });
      return { lines };
    }
    if (type.startsWith('text/')) {
      if (!fn(String(text))) throw new SpecViolation(`${where}: ${errorText(fn)}\nbody: ${text.slice(0, 200)}`);
    }
    return {};
  }

  /**
   * The messages an AsyncAPI operation (e.g. `execCommandOutput`) lists, resolved to their payload
   * validators. Throws for an unknown operation.
   */
  messages(operationId: string): SpecMessage[] {
    const op = ((this.asyncapi.operations ?? {}) as Json)[operationId] as Json | undefined;
    if (!op) throw new SpecViolation(`AsyncAPI operation ${operationId} does not exist`);
    const cached = this.messageCache.get(operationId);
    if (cached) return cached;
    const out = (op.messages as Json[]).map((ref) => {
      const channelPointer = (ref.$ref as string).replace(/^#/, '');
      const key = channelPointer.split('/').pop() as string;
      const { node: message, pointer } = deref(this.asyncapi, get(this.asyncapi, channelPointer), channelPointer);
      return {
        key,
        contentType: (message.contentType as string | undefined) ?? ((this.asyncapi.defaultContentType as string) || 'application/json'),
        textPrefix: message['x-text-prefix'] as string | undefined,
        validate: this.compile(ASYNCAPI_ID, `${pointer}/payload`),
      };
    });
    this.messageCache.set(operationId, out);
    return out;
  }

  /**
   * Checks one WebSocket frame from `operationId`'s messages and returns the key of the message it is.
   * A binary frame must match one of the octet-stream messages (restricted to `only` when given, e.g.
   * `['stdout','stderr','exitFrame']` in non-TTY mode); a text frame must parse as JSON (after the message's
   * `x-text-prefix`, if it starts with it) and match one of the JSON messages.
   */
  checkFrame(operationId: string, data: Uint8Array | string, isBinary: boolean, only?: string[]): string {
    const candidates = this.messages(operationId).filter((m) => !only || only.includes(m.key));
    if (isBinary) {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      const asString = frameAsSchemaString(bytes);
      const hit = candidates.find((m) => m.contentType === 'application/octet-stream' && m.validate(asString));
      if (!hit) {
        throw new SpecViolation(`${operationId}: binary frame [${Array.from(bytes.subarray(0, 8)).join(',')}${bytes.length > 8 ? ',…' : ''}] (${bytes.length} bytes) matches none of ${candidates.filter((m) => m.contentType === 'application/octet-stream').map((m) => m.key).join(', ') || '(no binary message)'}`);
      }
      return hit.key;
    }
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    const reasons: string[] = [];
    for (const m of candidates) {
      if (m.contentType === 'application/octet-stream') continue;
      let body = text;
      if (m.textPrefix) {
        if (!text.startsWith(m.textPrefix)) continue;
        body = text.slice(m.textPrefix.length);
      } else if (text.startsWith('control:')) continue;
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        reasons.push(`${m.key}: not JSON`);
        continue;
      }
      if (m.validate(value)) return m.key;
      reasons.push(`${m.key}: ${errorText(m.validate)}`);
    }
    throw new SpecViolation(`${operationId}: text frame ${JSON.stringify(text.slice(0, 300))} matches no message (${reasons.join(' | ')})`);
  }
}

let shared: SpecValidator | undefined;

/** The validator of this test file (built on first use). */
export function specValidator(): SpecValidator {
  shared ??= new SpecValidator();
  return shared;
}
