/**
 * REST fuzzing: requests generated from spec/openapi.yaml, valid-looking and mutated (wrong
 * types, huge strings, deep nesting, odd unicode, NUL bytes, bad percent-encoding, wrong content types), sent to
 * spritzer in-process (shell engine, response validation on). Each must get an answer that is not a 5xx and that
 * validates against the spec; a 4xx must leave the state as it was (a snapshot before and after); no unhandled
 * rejection may happen. Fixed seeds; failing seeds found once are kept in REGRESSIONS and replayed.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { SpecValidator } from '../conformance/support/spec-validator.ts';
import { badPercent, deepJson, fromSchema, hugeString, mutateAt, oddString, resolveRef, send, wrongType, type FuzzReply } from './support.ts';

type Json = Record<string, unknown>;

const validator = new SpecValidator();
const doc = validator.openapi;

/** Operations never fuzzed: the reset forgets the fixture, and fault rules answer 5xx on purpose. */
const SKIP = new Set(['resetSpritzer', 'addFault']);

/** Values a path parameter takes: the fixture's names mostly, sometimes unknown ones. */
const PATH_VALUES: Record<string, string[]> = {
  name: ['fz', 'fz', 'fz', 'nope'],
  service_name: ['web', 'web', 'nope'],
  checkpoint_id: ['v1', 'Current', 'v999'],
  session_id: ['1', '999999'],
  org: ['personal', 'other'],
  task_name: ['t1', 'nope'],
};

/** Query parameters pinned so no valid request streams or waits for long (`duration=1h` would hold the test). */
const PINNED: Record<string, string> = { duration: '0', timeout: '1s' };

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: unknown;
}
interface Op {
  operationId: string;
  method: string;
  path: string;
  params: Param[];
  body?: { type: string; schema: unknown };
}

function operations(): Op[] {
  const out: Op[] = [];
  for (const [path, raw] of Object.entries(doc.paths as Json)) {
    const item = raw as Json;
    for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']) {
      const op = item[method] as Json | undefined;
      if (!op || SKIP.has(op.operationId as string)) continue;
      const params = [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])].map((p) => {
        const r = resolveRef(doc, p);
        return { name: r.name as string, in: r.in as Param['in'], required: Boolean(r.required), schema: r.schema };
      });
      const content = (resolveRef(doc, op.requestBody).content ?? {}) as Record<string, Json>;
      const type = Object.keys(content)[0];
      out.push({
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        params,
        body: type ? { type, schema: content[type]!.schema } : undefined,
      });
    }
  }
  return out;
}

/** Percent-encodes every byte of the UTF-8 form except unreserved characters (lone surrogates become U+FFFD). */
function enc(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function queryValues(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x)));
  if (v !== null && typeof v === 'object') return [JSON.stringify(v)];
  return [String(v)];
}

/** A request as it will be sent; `mutation` names what was done to it (for the failure report). */
interface FuzzRequest {
  operationId: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  mutation: string;
}

const MUTATIONS = ['none', 'wrongType', 'huge', 'deep', 'odd', 'percent', 'nul', 'contentType', 'garbage', 'oddPath', 'noAuth'] as const;

function requestArb(op: Op): fc.Arbitrary<FuzzRequest> {
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.params.filter((p) => p.in === 'path')) pathArbs[p.name] = fc.constantFrom(...(PATH_VALUES[p.name] ?? ['x']));
  const queryArbs: Record<string, fc.Arbitrary<unknown>> = {};
  const query = op.params.filter((p) => p.in === 'query');
  for (const p of query) queryArbs[p.name] = p.name in PINNED ? fc.constant(PINNED[p.name]) : fromSchema(doc, p.schema);
  const bodyArb: fc.Arbitrary<unknown> = op.body?.type === 'application/json' ? fromSchema(doc, op.body.schema) : fc.uint8Array({ maxLength: 64 });
  return fc
    .record({
      pathValues: fc.record(pathArbs),
      queryValues: fc.record(queryArbs, { requiredKeys: query.filter((p) => p.required).map((p) => p.name) }),
      body: bodyArb,
      mutation: fc.constantFrom(...MUTATIONS),
      pick: fc.array(fc.nat(), { maxLength: 3 }),
      wrong: wrongType(),
      odd: oddString,
      huge: hugeString,
      deep: deepJson,
      percent: badPercent,
      garbage: fc.uint8Array({ maxLength: 200 }),
    })
    .map((g) => {
      const pathValues: Record<string, string> = { ...g.pathValues };
      let rawPath = false;
      let queryVals: Record<string, unknown> = { ...g.queryValues };
      let body: unknown = g.body;
      let bodyText: string | Buffer | undefined;
      let contentType = op.body?.type;
      const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
      const qKeys = Object.keys(queryVals).filter((k) => !(k in PINNED));
      switch (g.mutation) {
        case 'wrongType':
          if (op.body?.type === 'application/json') body = mutateAt(body, g.wrong, g.pick);
          else if (qKeys.length) queryVals[qKeys[g.pick[0]! % qKeys.length || 0]!] = JSON.stringify(g.wrong);
          break;
        case 'huge':
          if (op.body?.type === 'application/json') body = mutateAt(body, g.huge, g.pick);
          else if (op.body) bodyText = Buffer.from(g.huge);
          else queryVals = { ...queryVals, [qKeys[0] ?? 'x']: g.huge.slice(0, 200_000) };
          break;
        case 'deep':
          bodyText = g.deep;
          contentType = 'application/json';
          break;
        case 'odd':
          if (op.body?.type === 'application/json') body = mutateAt(body, g.odd, g.pick);
          else queryVals = { ...queryVals, [qKeys[0] ?? 'path']: g.odd };
          break;
        case 'nul':
          if (op.body?.type === 'application/json') body = mutateAt(body, 'a\u0000b', g.pick);
          queryVals = { ...queryVals, [qKeys[0] ?? 'path']: '/home/sprite/\u0000x' };
          break;
        case 'percent': {
          const names = Object.keys(pathValues);
          if (names.length) pathValues[names[0]!] = `fz${g.percent}`;
          rawPath = true;
          break;
        }
        case 'oddPath': {
          const names = Object.keys(pathValues);
          if (names.length) pathValues[names[g.pick[0]! % names.length || 0]!] = g.odd;
          break;
        }
        case 'contentType':
          contentType = op.body?.type === 'application/json' ? 'text/plain' : 'application/json';
          break;
        case 'garbage':
          bodyText = Buffer.from(g.garbage);
          contentType = 'application/json';
          break;
        case 'noAuth':
          delete headers.authorization;
          break;
      }
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (rawPath ? pathValues[name]! : enc(pathValues[name] ?? 'x')));
      const qs: string[] = [];
      for (const [k, v] of Object.entries(queryVals)) {
        if (v === undefined) continue;
        for (const s of queryValues(v)) qs.push(`${enc(k)}=${enc(s)}`);
      }
      if (g.mutation === 'percent' && !Object.keys(pathValues).length) qs.push(`path=${g.percent}`);
      let buf: Buffer | undefined;
      if (bodyText !== undefined) buf = Buffer.isBuffer(bodyText) ? bodyText : Buffer.from(bodyText);
      else if (op.body) buf = op.body.type === 'application/json' ? Buffer.from(JSON.stringify(body) ?? 'null') : Buffer.from(body as Uint8Array);
      if (buf && contentType) headers['content-type'] = contentType;
      return {
        operationId: op.operationId,
        method: op.method,
        target: path + (qs.length ? `?${qs.join('&')}` : ''),
        headers,
        body: buf,
        mutation: g.mutation,
      };
    });
}

let srv: RunningServer;
let agent: http.Agent;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

/**
 * A GET for the snapshot, without the fields that move by themselves: `last_active_at` (every call to a sprite,
 * the snapshot's own reads included, counts as activity) and the `Current` checkpoint's `create_time` (always now).
 */
const get = async (target: string): Promise<unknown> => {
  const r = await send(srv.url, 'GET', target, { authorization: `Bearer ${TOKEN}` }, undefined, agent);
  const body = r.body
    .toString()
    .replace(/"last_active_at":"[^"]*"/g, '"last_active_at":"…"')
    .replace(/\{"id":"Current","create_time":"[^"]*"/g, '{"id":"Current","create_time":"…"');
  return { status: r.status, body };
};

/** What a 4xx must not change: every sprite with its counters, the fixture's services, checkpoints, policy, files. */
async function snapshot(): Promise<unknown> {
  return {
    state: await get('/_spritzer/state'),
    sprites: await get('/v1/sprites?max_results=1000'),
    services: await get('/v1/sprites/fz/services'),
    checkpoints: await get('/v1/sprites/fz/checkpoints'),
    policy: await get('/v1/sprites/fz/policy/network'),
    files: await get('/v1/sprites/fz/fs/list?path=/home/sprite&recursive=true'),
    tasks: await get('/v1/sprites/fz/tasks'),
  };
}

/** The fixture every run starts from: sprite `fz` with a file, checkpoint v1 and a stopped service `web`. */
async function ensureFixture(): Promise<void> {
  const auth = { authorization: `Bearer ${TOKEN}` };
  const json = { ...auth, 'content-type': 'application/json' };
  if ((await send(srv.url, 'GET', '/v1/sprites/fz', auth, undefined, agent)).status === 200) return;
  expect((await send(srv.url, 'POST', '/v1/sprites', json, Buffer.from('{"name":"fz"}'), agent)).status).toBe(201);
  await send(srv.url, 'PUT', '/v1/sprites/fz/fs/write?path=/home/sprite/a.txt', { ...auth, 'content-type': 'application/octet-stream' }, Buffer.from('hello\n'), agent);
  await send(srv.url, 'POST', '/v1/sprites/fz/checkpoint', json, Buffer.from('{}'), agent);
  await send(srv.url, 'PUT', '/v1/sprites/fz/services/web?duration=0', json, Buffer.from('{"cmd":"sleep","args":["3600"]}'), agent);
  await send(srv.url, 'POST', '/v1/sprites/fz/services/web/stop', auth, undefined, agent);
}

/**
 * Statuses the server answers before an operation's handler (413 body too large, 414/431 request head too large,
 * 415 unsupported media type) that spec/openapi.yaml does not list on every operation: checked against the `ApiError` envelope instead.
 * A known gap of the spec (found by this fuzzing), not a pass for any other status.
 */
const UNDOCUMENTED_TRANSPORT_STATUSES = new Set([413, 414, 415, 431]);

/** Sends one generated request and checks every rule; throws with the request on the first broken one. */
async function check(req: FuzzRequest): Promise<void> {
  await ensureFixture();
  const before = await snapshot();
  let reply: FuzzReply;
  try {
    reply = await send(srv.url, req.method, req.target, req.headers, req.body, agent);
  } catch (err) {
    if ((err as { unsendable?: boolean }).unsendable) return;
    throw err;
  }
  const what = `${req.operationId} [${req.mutation}] ${req.method} ${req.target.slice(0, 300)} → ${reply.status} ${reply.body.toString().slice(0, 300)}`;
  expect(reply.status, what).toBeLessThan(500);
  const op = validator.findOperation(req.method, req.target.split('?')[0]!);
  if (op && UNDOCUMENTED_TRANSPORT_STATUSES.has(reply.status)) {
    // Known gap: the spec does not list these per operation; the body must still be the documented envelope.
    const envelope = validator.schema('openapi', '/components/schemas/ApiError');
    expect(reply.contentType, what).toMatch(/^application\/json/);
    expect(envelope(JSON.parse(reply.body.toString())), `${what}: not an ApiError envelope`).toBe(true);
  } else if (op) {
    try {
      validator.checkResponse(op, reply.status, reply.contentType, reply.body);
    } catch (err) {
      throw new Error(`${what}\n${(err as Error).message}`);
    }
  }
  if (reply.status >= 400) expect(await snapshot(), `state changed on ${what}`).toEqual(before);
  expect((await send(srv.url, 'GET', '/_spritzer/health', {}, undefined, agent)).status).toBe(200);
}

/** Seeds (and paths) that once failed; each is replayed before the random runs. */
const REGRESSIONS: Array<{ seed: number; path?: string; note: string }> = [];

describe('REST fuzzing from spec/openapi.yaml: no 5xx, answers match the spec, a refusal changes nothing', () => {
  const ops = operations();
  const arb = fc.constantFrom(...ops).chain(requestArb);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    srv = await startTestServer('shell');
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    agent?.destroy();
    await srv?.close();
  });

  it('every operation of the spec is generated (none is left out by accident)', () => {
    expect(ops.map((o) => o.operationId).sort()).toEqual(validator.httpOperationIds().filter((id) => !SKIP.has(id)).sort());
  });

  for (const r of REGRESSIONS) {
    it(`regression: seed ${r.seed} (${r.note})`, async () => {
      await fc.assert(fc.asyncProperty(arb, check), { seed: r.seed, path: r.path, numRuns: 1, endOnFailure: true });
    });
  }

  it('valid and mutated requests: never a 5xx, answers match the spec, a 4xx changes nothing', async () => {
    await fc.assert(fc.asyncProperty(arb, check), { seed: 13_005, numRuns: Number(process.env.SPRITZER_FUZZ_RUNS ?? 200), endOnFailure: true });
    expect(rejections).toEqual([]);
  }, 120_000);
});
