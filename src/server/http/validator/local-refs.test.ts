import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { validatorModule } from './internals.ts';
import { hasOnlyLocalRefs, skipBundleOfLocalRefs } from './local-refs.ts';
import { loadOpenApiDocument } from '../spec.ts';

type Framework = new (args: object) => { loadSpec(spec: unknown): Promise<unknown> };
const { OpenAPIFramework } = validatorModule<{ OpenAPIFramework: Framework }>('./framework/index.js');
const RefParser = validatorModule<{ bundle(doc: unknown): Promise<unknown> }>('@apidevtools/json-schema-ref-parser');
const OPENAPI_PATH = fileURLToPath(new URL('../../../../spec/openapi.yaml', import.meta.url));

describe('hasOnlyLocalRefs', () => {
  it('accepts local pointers at any depth, refuses any other $ref', () => {
    expect(hasOnlyLocalRefs({ a: [{ $ref: '#/components/schemas/X' }], b: { c: { $ref: '#/x' } } })).toBe(true);
    expect(hasOnlyLocalRefs({ a: [{ b: { $ref: 'other.yaml#/X' } }] })).toBe(false);
    expect(hasOnlyLocalRefs({ a: { $ref: 'https://example.com/s.json' } })).toBe(false);
    expect(hasOnlyLocalRefs({ $ref: { not: 'a string' } })).toBe(false);
    expect(hasOnlyLocalRefs([1, 'two', null, { $ref: '#' }])).toBe(true);
  });
});

describe('skipBundleOfLocalRefs', () => {
  it('hands back a document of local refs as it is, and still bundles one with an external ref', async () => {
    const skipped = skipBundleOfLocalRefs();
    expect(skipBundleOfLocalRefs()).toBe(skipped);
    const framework = new OpenAPIFramework({});
    const local = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { A: { type: 'string' }, B: { $ref: '#/components/schemas/A' } } } };
    const before = skipped();
    await expect(framework.loadSpec(local)).resolves.toBe(local);
    expect(skipped()).toBe(before + 1);
    // An external ref goes to $RefParser: here a file that does not exist, so the bundle fails as it always did.
    const external = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { A: { $ref: 'no-such-file.yaml#/A' } } } };
    await expect(framework.loadSpec(external)).rejects.toThrow(/no-such-file/);
    expect(skipped()).toBe(before + 1);
  });

  it('skips only what bundling would not change: $RefParser leaves spec/openapi.yaml as it is', async () => {
    const doc = structuredClone(loadOpenApiDocument(OPENAPI_PATH));
    expect(hasOnlyLocalRefs(doc)).toBe(true);
    const bundled = await RefParser.bundle(structuredClone(doc));
    expect(bundled).toEqual(doc);
  });
});
