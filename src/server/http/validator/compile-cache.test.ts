import { validatorModule } from './internals.ts';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { shareValidatorCompiles } from './compile-cache.ts';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
const util = validatorModule('./middlewares/util.js') as { useAjvCache(ajv: Ajv, schema: object, key: string): Validate };

// The shape express-openapi-validator compiles for a response: the part to check, plus the spec's paths and components.
const components = { schemas: { Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } } } };
const paths = { '/x': { get: { responses: { 200: { description: 'ok' } } } } };
const responseSchema = (response: object, ps: object = paths) => ({ type: 'object', properties: { response }, components, paths: ps });

describe('shareValidatorCompiles', () => {
  it('installs once: the validator modules call the shared compile, and installing again keeps its count', () => {
    const count = shareValidatorCompiles();
    expect(shareValidatorCompiles()).toBe(count);
    expect(typeof util.useAjvCache).toBe('function');
  });

  it('compiles schemas of the same content once per ajv instance, and the shared validator still refuses bad data', () => {
    const count = shareValidatorCompiles();
    const ajv = new Ajv({ strict: false });
    const before = count();
    const a = util.useAjvCache(ajv, responseSchema({ $ref: '#/components/schemas/Error' }), 'GET-/a-404-application/json');
    const b = util.useAjvCache(ajv, responseSchema({ $ref: '#/components/schemas/Error' }), 'GET-/b-500-application/json');
    expect(b).toBe(a);
    expect(count() - before).toBe(1);
    expect(a({ response: { error: 'x' } })).toBe(true);
    expect(a({ response: { message: 'no error field' } })).toBe(false);
    // Another content, or another ajv instance (other options), compiles its own.
    const c = util.useAjvCache(ajv, responseSchema({ type: 'string' }), 'GET-/a-200-application/json');
    expect(c).not.toBe(a);
    expect(util.useAjvCache(new Ajv({ strict: false }), responseSchema({ $ref: '#/components/schemas/Error' }), 'k')).not.toBe(a);
    expect(count() - before).toBe(3);
    // A key compiled before answers from ajv itself.
    expect(util.useAjvCache(ajv, responseSchema({ type: 'number' }), 'GET-/a-404-application/json')).toBe(a);
  });

  it('still compiles a schema whose $ref points into paths (the validator\'s own way)', () => {
    shareValidatorCompiles();
    const ajv = new Ajv({ strict: false });
    const withOp = { '/y': { get: { 'x-shape': { type: 'integer' } } } };
    const v = util.useAjvCache(ajv, responseSchema({ $ref: '#/paths/~1y/get/x-shape' }, withOp), 'GET-/y-200-application/json');
    expect(v({ response: 3 })).toBe(true);
    expect(v({ response: 'three' })).toBe(false);
  });
});
