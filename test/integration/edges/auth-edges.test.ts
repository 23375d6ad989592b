/**
 * Token scope at the edges: routing and the mint check agree on case (both case-sensitive), and a minted token reaches
 * only the public API of the organization it was minted for: not `/_spritzer` (reset, state, faults), not
 * another organization. The server runs with `--token`; every attack is followed by the check that the server
 * answers and that the sprite and file created first are intact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, wsExec, TOKEN } from '../../support/server.ts';
import { expectIntact, seedState, KEPT } from '../../support/attack.ts';
import type { RunningServer } from '../../../src/server/server.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell', { token: TOKEN });
  call = api(srv.url);
  await seedState(srv.url);
});
afterAll(() => srv.close());

/** Mints a token for `org` with the FlyV1 credential the server accepts. */
async function mint(org: string): Promise<string> {
  const res = await fetch(`${srv.url}/v1/organizations/${org}/tokens`, {
    method: 'POST',
    headers: { Authorization: `FlyV1 ${TOKEN}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

describe('routes and the mint check are case-sensitive alike', () => {
  it.each(['/V1/organizations/personal/tokens', '/v1/Organizations/personal/tokens', '/v1/organizations/personal/TOKENS'])(
    'POST %s with an accepted Bearer token mints nothing: 404, like every path in another case',
    async (path) => {
      const r = await call('POST', path, {});
      expect(r.status).toBe(404);
      expect(r.json).toMatchObject({ error: 'not found' });
      expect(r.json.token).toBeUndefined();
      await expectIntact(srv.url);
    },
  );

  it('routes match case-sensitively everywhere: /V1/sprites and /_SPRITZER/state are 404', async () => {
    expect((await call('GET', '/V1/sprites')).status).toBe(404);
    expect((await call('GET', `/v1/sprites/${KEPT.sprite}`)).status).toBe(200);
    expect((await call('GET', '/_SPRITZER/state')).status).toBe(404);
  });
});

describe('a minted token is scoped to the public API of its organization', () => {
  it('reaches sprites, fs and exec of its own organization', async () => {
    const token = await mint('personal');
    const asMinted = api(srv.url, token);
    expect((await asMinted('GET', `/v1/sprites/${KEPT.sprite}`)).status).toBe(200);
    expect((await asMinted('GET', `/v1/sprites/${KEPT.sprite}/fs/read?path=${KEPT.path}`)).text).toBe(KEPT.content);
    const rec = await wsExec(srv.url, `/v1/sprites/${KEPT.sprite}/exec?${execQuery(['echo', 'minted'])}`, undefined, token);
    expect(rec.stdout).toBe('minted\n');
  });

  it('cannot reset the server, read its state or add faults: 401, and nothing changes', async () => {
    const token = await mint('personal');
    const asMinted = api(srv.url, token);
    const state = (await call('GET', '/_spritzer/state')).json;
    for (const [method, path, body] of [
      ['POST', '/_spritzer/reset', undefined],
      ['GET', '/_spritzer/state', undefined],
      ['GET', '/_spritzer/faults', undefined],
      ['POST', '/_spritzer/faults', { operationId: 'getSprite', status: 500 }],
      ['DELETE', '/_spritzer/faults', undefined],
    ] as const) {
      const r = await asMinted(method, path, body);
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 401 });
      expect(r.json).toMatchObject({ error: 'unauthorized' });
    }
    expect((await call('GET', '/_spritzer/faults')).json).toEqual(expect.objectContaining({ rules: [] }));
    expect((await call('GET', '/_spritzer/state')).json).toEqual(state);
    expect((await fetch(`${srv.url}/_spritzer/health`)).status).toBe(200); // health stays open to anyone
    await expectIntact(srv.url);
  });

  it('minting for an organization other than --org is 404 in the org envelope and mints nothing', async () => {
    const before = (await call('GET', '/_spritzer/state')).json;
    const res = await fetch(`${srv.url}/v1/organizations/acme/tokens`, {
      method: 'POST',
      headers: { Authorization: `FlyV1 ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ error: 'organization not found', message: expect.stringContaining('personal (--org)') });
    expect(body.token).toBeUndefined();
    expect((await call('GET', '/_spritzer/state')).json).toEqual(before);
    await expectIntact(srv.url);
  });

  it('a minted token cannot mint (FlyV1 takes only the configured credential), nor pass as FlyV1 anywhere', async () => {
    const token = await mint('personal');
    const res = await fetch(`${srv.url}/v1/organizations/personal/tokens`, {
      method: 'POST',
      headers: { Authorization: `FlyV1 ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });
});
