// Policies (docs/wire-reference.md §10): the network policy (GET `{rules}`, POST → 204 exactly, strict validation →
// 400, visible inside the sprite), and the privileges/resources policies whose shapes are unconfirmed.
import { beforeAll, describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly, runExec } from './support/index.ts';

const { target, call, sprites } = useConformance();
let box: string;
beforeAll(async () => {
  box = (await sprites.create()).name;
});

const network = () => `/v1/sprites/${box}/policy/network`;

describe('getNetworkPolicy', () => {
  verified.it('answers {rules: [...]}', async () => {
    const res = await call('GET', network());
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json.rules)).toBe(true);
  });
});

describe('setNetworkPolicy', () => {
  verified.it('answers 204 with no body and the policy reads back', async () => {
    const rules = [{ include: 'defaults' }, { domain: 'example.com', action: 'allow' }, { domain: '*', action: 'deny' }];
    const res = await call('POST', network(), { body: { rules } });
    expect(res.status).toBe(204);
    expect(res.bytes.length).toBe(0);
    expect((await call('GET', network())).json.rules).toEqual(rules);
  });

  verified.it('answers 400 for an invalid policy and keeps the previous one', async () => {
    const good = [{ domain: 'kept.example', action: 'allow' }];
    expect((await call('POST', network(), { body: { rules: good } })).status).toBe(204);
    for (const body of [{ rules: [{ domain: 'x.example', action: 'maybe' }] }, { rules: [{ include: 'everything' }] }, { rulez: [] }, {}]) {
      const res = await call('POST', network(), { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('GET', network())).json.rules).toEqual(good);
  });

  verified.it('is readable inside the sprite at /.sprite/policy/network.json', async () => {
    const rules = [{ domain: 'inside.example', action: 'allow' }];
    await call('POST', network(), { body: { rules } });
    const rec = await runExec(target(), box, ['cat', '/.sprite/policy/network.json']);
    expect(rec.exitCode).toBe(0);
    expect(JSON.parse(rec.stdout).rules).toEqual(rules);
  });
});

// The privileges/resources policy shapes are UNCONFIRMED (§10.3): spritzer stores and echoes them.
type OpaqueKind = 'privileges' | 'resources';
const opaque = (kind: OpaqueKind) => `/v1/sprites/${box}/policy/${kind}`;
const getOpaque = (kind: OpaqueKind) => async () => {
  const res = await call('GET', opaque(kind));
  expect(res.status).toBe(200);
};
const setOpaque = (kind: OpaqueKind, body: Record<string, unknown>) => async () => {
  expect((await call('POST', opaque(kind), { body })).status).toBe(200);
  expect((await call('GET', opaque(kind))).json).toEqual(body);
};
const deleteOpaque = (kind: OpaqueKind) => async () => {
  await call('POST', opaque(kind), { body: { marker: true } });
  expect((await call('DELETE', opaque(kind))).status).toBe(204);
  expect((await call('GET', opaque(kind))).json).toEqual({});
};

describe('getPrivilegesPolicy', () => {
  emulatorOnly.it('answers 200 JSON', getOpaque('privileges'));
});
describe('setPrivilegesPolicy', () => {
  emulatorOnly.it('stores the policy as given and reads it back', setOpaque('privileges', { allow_sudo: false }));
});
describe('deletePrivilegesPolicy', () => {
  emulatorOnly.it('answers 204 and the policy is empty again', deleteOpaque('privileges'));
});
describe('getResourcesPolicy', () => {
  emulatorOnly.it('answers 200 JSON', getOpaque('resources'));
});
describe('setResourcesPolicy', () => {
  emulatorOnly.it('stores the policy as given and reads it back', setOpaque('resources', { memory_mb: 512 }));
});
describe('deleteResourcesPolicy', () => {
  emulatorOnly.it('answers 204 and the policy is empty again', deleteOpaque('resources'));
});
