/**
 * The network policy over HTTP (docs/wire-reference.md §10): the default, a strict POST answered 204, the copy in the
 * sprite at `/.sprite/policy/network.json` (fs API and exec), and 400 for every invalid shape with the stored
 * policy unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, wsExec, execQuery } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell');
  call = api(srv.url);
  await call('POST', '/v1/sprites', { name: 'box' });
});
afterAll(() => srv.close());

const POLICY = {
  rules: [{ include: 'defaults' }, { domain: 'example.com', action: 'allow' }, { domain: '*.internal.example', action: 'deny' }, { domain: '*', action: 'deny' }],
};

describe('getNetworkPolicy', () => {
  it('answers {"rules":[]} before any policy is set', async () => {
    await call('POST', '/v1/sprites', { name: 'fresh' });
    const r = await call('GET', '/v1/sprites/fresh/policy/network');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ rules: [] });
  });

  it('answers 404 for a missing sprite', async () => {
    expect((await call('GET', '/v1/sprites/nope/policy/network')).status).toBe(404);
  });
});

describe('setNetworkPolicy', () => {
  it('answers 204 with no body; GET returns the policy; the sprite reads it at /.sprite/policy/network.json', async () => {
    const r = await call('POST', '/v1/sprites/box/policy/network', POLICY);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await call('GET', '/v1/sprites/box/policy/network')).json).toEqual(POLICY);

    const file = await call('GET', '/v1/sprites/box/fs/read?path=/.sprite/policy/network.json');
    expect(file.status).toBe(200);
    expect(JSON.parse(file.text)).toEqual(POLICY);
    const inSprite = await wsExec(srv.url, `/v1/sprites/box/exec?${execQuery(['cat', '/.sprite/policy/network.json'])}`);
    expect(inSprite.exitCode).toBe(0);
    expect(JSON.parse(inSprite.stdout)).toEqual(POLICY);
  });

  it('accepts include with an action, and an empty rule list that turns enforcement off', async () => {
    const withAction = { rules: [{ include: 'defaults', action: 'allow' }] };
    expect((await call('POST', '/v1/sprites/box/policy/network', withAction)).status).toBe(204);
    expect((await call('GET', '/v1/sprites/box/policy/network')).json).toEqual(withAction);
    expect((await call('POST', '/v1/sprites/box/policy/network', { rules: [] })).status).toBe(204);
    expect((await call('GET', '/v1/sprites/box/policy/network')).json).toEqual({ rules: [] });
    expect(JSON.parse((await call('GET', '/v1/sprites/box/fs/read?path=/.sprite/policy/network.json')).text)).toEqual({ rules: [] });
    expect((await call('POST', '/v1/sprites/box/policy/network', POLICY)).status).toBe(204);
  });

  it.each([
    ['an unknown top-level field', { rules: [], extra: true }],
    ['an unknown rule field', { rules: [{ domain: 'a.com', action: 'allow', port: 443 }] }],
    ['both domain and include', { rules: [{ domain: 'a.com', include: 'defaults', action: 'allow' }] }],
    ['neither domain nor include', { rules: [{ action: 'allow' }] }],
    ['include other than defaults', { rules: [{ include: 'everything' }] }],
    ['a bad action', { rules: [{ domain: 'a.com', action: 'block' }] }],
    ['a domain rule without action', { rules: [{ domain: 'a.com' }] }],
    ['include with a bad action', { rules: [{ include: 'defaults', action: 'maybe' }] }],
    ['missing rules', {}],
    ['rules not an array', { rules: { domain: 'a.com' } }],
  ])('answers 400 for %s and keeps the policy', async (_what, body) => {
    const r = await call('POST', '/v1/sprites/box/policy/network', body);
    expect(r.status).toBe(400);
    expect((await call('GET', '/v1/sprites/box/policy/network')).json).toEqual(POLICY);
    expect(JSON.parse((await call('GET', '/v1/sprites/box/fs/read?path=/.sprite/policy/network.json')).text)).toEqual(POLICY);
  });

  it('answers 404 for a missing sprite', async () => {
    expect((await call('POST', '/v1/sprites/nope/policy/network', { rules: [] })).status).toBe(404);
  });

  it('is not rolled back by a checkpoint restore: the sprite still reads the policy in force', async () => {
    await call('POST', '/v1/sprites', { name: 'rewind' });
    expect((await call('POST', '/v1/sprites/rewind/checkpoint', {})).status).toBe(200);
    expect((await call('POST', '/v1/sprites/rewind/policy/network', POLICY)).status).toBe(204);
    expect((await call('POST', '/v1/sprites/rewind/checkpoints/v1/restore')).status).toBe(200);
    expect((await call('GET', '/v1/sprites/rewind/policy/network')).json).toEqual(POLICY);
    const file = await call('GET', '/v1/sprites/rewind/fs/read?path=/.sprite/policy/network.json');
    expect(file.status).toBe(200);
    expect(JSON.parse(file.text)).toEqual(POLICY);
  });
});
