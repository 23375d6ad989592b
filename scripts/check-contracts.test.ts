import { describe, it, expect, onTestFinished } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkOperations, checkSchemas, lintOpenApi, loadOpenApi, OPENAPI_PATH } from './check-contracts.ts';

const sv = { 'Sprite-Version': { schema: { type: 'string' } } };
const resp = (extra: Record<string, unknown> = {}) => ({ description: 'x', headers: sv, ...extra });
const errorResponses = { '400': resp(), '401': resp(), '429': resp(), '500': resp(), '501': resp() };

/** A minimal document with one operation on `route`, whose responses are `responses`. */
function docWith(route: string, op: Record<string, unknown>): Record<string, unknown> {
  return { openapi: '3.1.0', paths: { [route]: { get: { operationId: 'getThing', ...op } } } };
}

/** Every operationId the server dispatches on (the brief's list); the spec must define each exactly once. */
const OPERATION_IDS = [
  'createSprite', 'listSprites', 'getSprite', 'updateSprite', 'deleteSprite', 'upgradeSprite', 'checkSprite', 'restartSprite',
  'getOrganization', 'createToken',
  'listExecSessions', 'probeExec', 'execHttp', 'getExecSession', 'killExecSession',
  'createCheckpoint', 'listCheckpoints', 'getCheckpoint', 'restoreCheckpoint', 'deleteCheckpoint',
  'readFile', 'writeFile', 'listFiles', 'deleteFile', 'renameFile', 'copyFile', 'chmodFile', 'chownFile',
  'listServices', 'getService', 'putService', 'deleteService', 'startService', 'stopService', 'restartService',
  'getServiceLogs', 'signalService',
  'getNetworkPolicy', 'setNetworkPolicy', 'getPrivilegesPolicy', 'setPrivilegesPolicy', 'deletePrivilegesPolicy',
  'getResourcesPolicy', 'setResourcesPolicy', 'deleteResourcesPolicy',
  'listTasks', 'createTask', 'upsertTask', 'getTask', 'refreshTask', 'deleteTask',
  'getSpritzerHealth', 'resetSpritzer', 'getSpritzerState', 'listFaults', 'addFault', 'clearFaults', 'listSpritzerRequests',
];

describe('checkOperations', () => {
  it('accepts an operation with a 2xx, the error responses and Sprite-Version everywhere', () => {
    const doc = docWith('/v1/things', { responses: { '200': resp(), ...errorResponses } });
    expect(checkOperations(doc).errors).toEqual([]);
  });

  it('reports a missing operationId, 2xx, 401 and Sprite-Version header', () => {
    const doc = { paths: { '/v1/things': { get: { responses: { '400': { description: 'x' }, '500': resp(), '501': resp() } } } } };
    const errors = checkOperations(doc).errors;
    expect(errors).toContain('GET /v1/things: no operationId');
    expect(errors).toContain('GET /v1/things: no 2xx response');
    expect(errors).toContain('GET /v1/things: no 401 response');
    expect(errors).toContain('GET /v1/things: response 400 has no Sprite-Version header');
  });

  it('requires 404 on sprite-scoped paths only', () => {
    const ok = { responses: { '200': resp(), ...errorResponses } };
    expect(checkOperations(docWith('/v1/sprites/{name}/things', ok)).errors).toEqual([
      'getThing (GET /v1/sprites/{name}/things): no 404 response',
    ]);
    expect(checkOperations(docWith('/v1/sprites', ok)).errors).toEqual([]);
  });

  it('lets operations without auth (security: []) omit 401 and 429', () => {
    const doc = docWith('/_spritzer/x', { security: [], responses: { '200': resp(), '400': resp(), '500': resp(), '501': resp() } });
    expect(checkOperations(doc).errors).toEqual([]);
  });

  it('reports a duplicated operationId', () => {
    const op = { operationId: 'same', responses: { '200': resp(), ...errorResponses } };
    const doc = { paths: { '/a': { get: op }, '/b': { get: op } } };
    expect(checkOperations(doc).errors).toEqual(['GET /b: operationId same is also used by GET /a']);
  });

  it('requires NDJSON line schemas to be a oneOf with disjoint type values', () => {
    const ndjson = (schema: unknown) => ({
      responses: { '200': resp({ content: { 'application/x-ndjson': { schema } } }), ...errorResponses },
    });
    const branch = (type: unknown) => ({ type: 'object', required: ['type'], properties: { type } });
    expect(checkOperations(docWith('/s', ndjson({ type: 'object' }))).errors[0]).toMatch(/is not a oneOf/);
    expect(
      checkOperations(docWith('/s', ndjson({ oneOf: [branch({ enum: ['a', 'b'] }), branch({ const: 'b' })] }))).errors[0],
    ).toMatch(/type "b" appears in branches 0 and 1/);
    expect(checkOperations(docWith('/s', ndjson({ oneOf: [branch({ enum: ['a'] }), branch({ const: 'b' })] }))).errors).toEqual([]);
  });
});

describe('checkSchemas', () => {
  const withSchemas = (schemas: Record<string, unknown>) => ({ openapi: '3.1.0', paths: {}, components: { schemas } });

  it('validates component examples, following refs between components', () => {
    const doc = withSchemas({
      Name: { type: 'string', minLength: 2, examples: ['ok'] },
      Thing: { type: 'object', required: ['name'], properties: { name: { $ref: '#/components/schemas/Name' } }, examples: [{ name: 'x' }] },
    });
    expect(checkSchemas(doc).errors).toEqual([
      'components.schemas.Thing.examples[0]: example is invalid: /name must NOT have fewer than 2 characters',
    ]);
  });

  it('reports a component schema without examples', () => {
    expect(checkSchemas(withSchemas({ Bare: { type: 'string' } })).errors).toEqual(['components.schemas.Bare: no examples']);
  });

  it('reports a schema that does not compile', () => {
    const errors = checkSchemas(withSchemas({ Bad: { type: 'strng', examples: ['x'] } })).errors;
    expect(errors.some((e) => e.includes('Bad'))).toBe(true);
  });

  it('validates parameter and media type examples in operations', () => {
    const doc = {
      openapi: '3.1.0',
      paths: {
        '/x': {
          get: {
            parameters: [{ name: 'n', in: 'query', schema: { type: 'integer' }, example: 'seven' }],
            responses: { '200': { description: 'x', content: { 'application/json': { schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, example: {} } } } },
          },
        },
      },
    };
    expect(checkSchemas(doc).errors).toEqual([
      'paths./x.get.parameters[0].example: example is invalid: / must be integer',
      "paths./x.get.responses.200.content[application/json].example: example is invalid: / must have required property 'a'",
    ]);
  });
});

describe('spec/openapi.yaml', () => {
  it('defines exactly the operationIds the server dispatches on', async () => {
    const doc = await loadOpenApi();
    const ids: string[] = [];
    for (const item of Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const [key, op] of Object.entries(item)) if (key !== 'parameters' && op.operationId) ids.push(op.operationId);
    }
    expect([...ids].sort()).toEqual([...OPERATION_IDS].sort());
  });

  it('passes the operation and schema checks', async () => {
    const doc = await loadOpenApi();
    expect(checkOperations(doc).errors).toEqual([]);
    expect(checkSchemas(doc).errors).toEqual([]);
  });

  it('rejects the wrong types the SDK-facing schemas must refuse', async () => {
    const doc = await loadOpenApi();
    const broken = structuredClone(doc) as { components: { schemas: Record<string, { examples: unknown[] }> } };
    broken.components.schemas.NetworkPolicy.examples = [{ rules: [{ domain: 'a.com', include: 'defaults', action: 'allow' }] }];
    broken.components.schemas.ServiceStreamEvent.examples = [{ type: 'exit', timestamp: '1767609000000', exit_code: 1 }];
    broken.components.schemas.FsChmodRequest.examples = [{ path: 'x', mode: '999' }];
    const errors = checkSchemas(broken).errors;
    expect(errors.filter((e) => e.startsWith('components.schemas.NetworkPolicy.examples[0]'))).toHaveLength(1);
    expect(errors.filter((e) => e.startsWith('components.schemas.ServiceStreamEvent.examples[0]'))).toHaveLength(1);
    expect(errors.filter((e) => e.startsWith('components.schemas.FsChmodRequest.examples[0]'))).toHaveLength(1);
  });

  it('lints clean with Redocly, and the linter does flag a broken copy', async () => {
    expect((await lintOpenApi()).errors).toEqual([]);
    const dir = await mkdtemp(path.join(tmpdir(), 'spritzer-lint-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const copy = path.join(dir, 'openapi.yaml');
    const text = await readFile(OPENAPI_PATH, 'utf8');
    await writeFile(copy, text.replace('      summary: Create a sprite\n', ''));
    const errors = (await lintOpenApi(copy)).errors;
    expect(errors.some((e) => e.includes('operation-summary') && e.includes('~1v1~1sprites/post'))).toBe(true);
  }, 30000);
});
