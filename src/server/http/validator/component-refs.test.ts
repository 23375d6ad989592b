import { describe, expect, it } from 'vitest';
import { validatorModule } from './internals.ts';
import { resolveComponentRefsDirectly } from './component-refs.ts';

type Doc = Record<string, any>;
type Preprocessor = new (doc: Doc, ajvOpts: object, resOpts: object | false) => { preProcess(): { apiDoc: Doc } };
const { SchemaPreprocessor } = validatorModule<{ SchemaPreprocessor: Preprocessor }>('./middlewares/parsers/schema.preprocessor.js');
const ajvModule = validatorModule<{ createRequestAjv: (doc: Doc, opts: object) => { getSchema(key: string): unknown } }>('./framework/ajv/index.js');

/** A spec whose operation reaches three component schemas through `$ref`s, one of them a `$ref` itself. */
function spec(): Doc {
  const name = { type: 'string', pattern: '^[a-z]+$' };
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/x': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Create' } } } },
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Alias' } } } } },
        },
      },
    },
    components: { schemas: { Name: name, Create: { type: 'object', properties: { name: { $ref: '#/components/schemas/Name' } } }, Alias: { $ref: '#/components/schemas/Name' } } },
  };
}

/** Runs a preprocessor over `doc`, counting the `getSchema` calls its ajv gets for component schemas. */
function preprocess(doc: Doc): { apiDoc: Doc; componentLookups: number } {
  const original = ajvModule.createRequestAjv;
  let componentLookups = 0;
  ajvModule.createRequestAjv = (d, opts) => {
    const ajv = original(d, opts);
    const getSchema = ajv.getSchema.bind(ajv);
    ajv.getSchema = (key: string) => {
      if (key.startsWith('#/components/schemas/')) componentLookups++;
      return getSchema(key);
    };
    return ajv;
  };
  try {
    const { apiDoc } = new SchemaPreprocessor(doc, { formats: {}, strict: false }, false).preProcess();
    return { apiDoc, componentLookups };
  } finally {
    ajvModule.createRequestAjv = original;
  }
}

describe('resolveComponentRefsDirectly', () => {
  it('gives the preprocessor each component schema without an ajv lookup (which compiles it), resolving aliases as ajv did', () => {
    const given = resolveComponentRefsDirectly();
    const before = given();
    const doc = spec();
    const name = doc.components.schemas.Name;
    const { apiDoc, componentLookups } = preprocess(doc);
    expect(given()).toBe(before + 1);
    expect(componentLookups).toBe(0);
    // The alias component is replaced by the schema it refers to, the same object, as getSchema(ref).schema gave.
    expect(apiDoc.components.schemas.Alias).toBe(name);
    expect(apiDoc.components.schemas.Name).toBe(name);
    expect(apiDoc.components.schemas.Create.properties.name).toEqual({ $ref: '#/components/schemas/Name' });
  });

  it('installs once: a second call returns the same counter and does not wrap again', () => {
    const first = resolveComponentRefsDirectly();
    const second = resolveComponentRefsDirectly();
    expect(second).toBe(first);
    const before = first();
    preprocess(spec());
    expect(first() - before).toBe(1);
  });
});
