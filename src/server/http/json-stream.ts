/**
 * Sending a JSON object that holds one long array (the fs list and delete answers: thousands of entries, each
 * naming a path of up to 4 KB) without one multi-MB synchronous step: the items are checked against the spec a
 * slice at a time and written in chunks, with a turn of the event loop between them. The bytes are those `res.json`
 * would send. It owns the slicing and the item check; what the items are is the route's, and a short body still
 * goes through `res.json` and the validator's own response check.
 * @see docs/limits.md "Sizes that are bounded by structure"; http/json-array.ts (the same for a bare array)
 */
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { loadOpenApiDocument } from './spec.ts';
import { drained } from './json-array.ts';
import { validatorModule } from './validator/internals.ts';
import { nextTurn } from '../runtime/event-loop.ts';

/** spec/openapi.yaml (as app.ts's OPENAPI_PATH, which this module cannot import without a cycle). */
const OPENAPI_PATH = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));

/** Bodies whose array has more items than this are streamed. */
export const STREAM_OBJECT_AFTER_ITEMS = 500;
/** Approximate size of each streamed chunk, in UTF-16 units of JSON text. */
export const OBJECT_CHUNK_CHARS = 64 * 1024;
/** Items checked against their schema per turn of the event loop. */
export const CHECK_ITEMS_PER_TURN = 256;

/** Checks one item; returns null when it is valid, else the reason. */
export type ItemCheck = (item: unknown) => string | null;

/** Options of {@link sendJsonWithLongArray}. */
export interface LongArrayOptions {
  /** The schema every item must match (checked before the first byte is sent); none: not checked. */
  check?: ItemCheck;
  streamAfter?: number;
  chunkChars?: number;
  checkPerTurn?: number;
}

/**
 * Answers 200 with `body` as JSON. When `body[arrayKey]` has at most `streamAfter` items, that is `res.json(body)`.
 * Otherwise every item is first checked with `check` (`CHECK_ITEMS_PER_TURN` per turn of the event loop; an
 * invalid item throws `{status: 500, errors}` before anything is sent, which the error middleware logs as a response
 * that failed validation and answers 500), then the body is written as `JSON.stringify(body)` would spell it, in
 * chunks of about `chunkChars`, waiting for the socket to drain (or for a turn of the event loop) between chunks.
 * No Content-Length: the body goes out chunked. Resolves once the last byte is handed to the socket, or the client
 * went away.
 */
export async function sendJsonWithLongArray(res: Response, body: Record<string, unknown>, arrayKey: string, opts: LongArrayOptions = {}): Promise<void> {
  const items = body[arrayKey];
  const streamAfter = opts.streamAfter ?? STREAM_OBJECT_AFTER_ITEMS;
  if (!Array.isArray(items) || items.length <= streamAfter) {
    res.json(body);
    return;
  }
  if (opts.check) {
    const perTurn = opts.checkPerTurn ?? CHECK_ITEMS_PER_TURN;
    for (let i = 0; i < items.length; i++) {
      if (i > 0 && i % perTurn === 0) await nextTurn();
      const problem = opts.check(items[i]);
      if (problem !== null) {
        const path = `/response/${arrayKey}/${i}`;
        throw Object.assign(new Error(`.response/${arrayKey}/${i} ${problem}`), { status: 500, errors: [{ path, message: problem }] });
      }
    }
  }
  if (res.destroyed) return;
  res.status(200).type('application/json; charset=utf-8');
  const chunkChars = opts.chunkChars ?? OBJECT_CHUNK_CHARS;
  const members = Object.keys(body).filter((k) => k === arrayKey || JSON.stringify(body[k]) !== undefined);
  const member = (k: string) => `${JSON.stringify(k)}:${JSON.stringify(body[k])}`;
  const at = members.indexOf(arrayKey);
  let chunk = `{${members.slice(0, at).map((k) => `${member(k)},`).join('')}${JSON.stringify(arrayKey)}:[`;
  for (let i = 0; i < items.length; i++) {
    chunk += (i === 0 ? '' : ',') + (JSON.stringify(items[i]) ?? 'null');
    if (chunk.length < chunkChars) continue;
    if (res.destroyed) return;
    const ok = res.write(chunk);
    chunk = '';
    await (ok ? nextTurn() : drained(res));
  }
  res.end(`${chunk}]${members.slice(at + 1).map((k) => `,${member(k)}`).join('')}}`);
}

/** The check of an array of `{type: string}` items (the fs delete answer's `deleted`). */
export const checkString: ItemCheck = (item) => (typeof item === 'string' ? null : 'must be string');

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath?: string; message?: string }> | null };
const compiled = new Map<string, Validate>();

/**
 * A check of one item against `#/components/schemas/<name>` of spec/openapi.yaml (JSON Schema 2020-12, formats
 * checked), compiled on first use and kept. Uses the ajv that express-openapi-validator depends on, so it is there
 * wherever the server runs. Throws when the schema does not exist.
 */
export function specItemCheck(name: string): ItemCheck {
  return (item) => {
    let validate = compiled.get(name);
    if (!validate) {
      const { Ajv2020 } = validatorModule('ajv/dist/2020') as { Ajv2020: new (o: object) => { addSchema(s: object): void; compile(s: object): Validate } };
      const addFormats = validatorModule('ajv-formats') as (ajv: unknown) => void;
      const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false }); // the spec is checked by scripts/check-contracts.ts
      addFormats(ajv);
      const doc = loadOpenApiDocument(OPENAPI_PATH);
      ajv.addSchema({ $id: 'spritzer-openapi', components: structuredClone(doc.components) });
      validate = ajv.compile({ $ref: `spritzer-openapi#/components/schemas/${name}` });
      compiled.set(name, validate);
    }
    if (validate(item)) return null;
    const e = validate.errors?.[0];
    return `${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`.trim();
  };
}
