import { describe, it, expect } from 'vitest';
import { deferSpecCheckCompile } from './lazy-spec-check.ts';
import { validatorModule } from './internals.ts';

type Check = new (opts: Record<string, unknown>) => { validate(doc: unknown): { errors: unknown[] } };
const specCheck = () => (validatorModule('./framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: Check }).OpenAPISchemaValidator;

const GOOD = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} };
const BAD = { openapi: '3.1.0', info: { title: 't' }, paths: {} }; // info.version is required

describe('deferSpecCheckCompile', () => {
  it('builds nothing for validateApiSpec: false until validate is called, then checks the document as before', () => {
    const built = deferSpecCheckCompile();
    const before = built();
    const check = new (specCheck())({ version: '3.1.0', validateApiSpec: false });
    expect(built()).toBe(before);
    expect(check.validate(GOOD).errors).toEqual([]);
    expect(built()).toBe(before + 1);
    expect(check.validate(BAD).errors.length).toBeGreaterThan(0);
    expect(built()).toBe(before + 1);
  });

  it('builds at once for validateApiSpec: true', () => {
    const built = deferSpecCheckCompile();
    const before = built();
    const check = new (specCheck())({ version: '3.1.0', validateApiSpec: true });
    expect(built()).toBe(before + 1);
    expect(check.validate(BAD).errors.length).toBeGreaterThan(0);
  });

  it('installs once: a second call keeps the same class and counter', () => {
    const first = deferSpecCheckCompile();
    const cls = specCheck();
    const second = deferSpecCheckCompile();
    expect(specCheck()).toBe(cls);
    expect(second).toBe(first);
  });
});
