// The emulator-only surface under /_spritzer (spec tag `spritzer`): health with the implemented operations,
// state, reset, and fault rules that make a chosen operation fail (e.g. a 429 with rate-limit headers).
// Nothing here exists on real Sprites, so every test is emulatorOnly.
import { describe, expect } from 'vitest';
import { useConformance, emulatorOnly, connectWs, execQuery } from './support/index.ts';
import { EMULATOR_ENGINE } from './support/target.ts';

const { target, call, sprites } = useConformance();

describe('getSpritzerHealth', () => {
  emulatorOnly.it('reports ok, the engine and the implemented operationIds', async () => {
    const res = await call('GET', '/_spritzer/health', { authorization: null });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('ok');
    expect(res.json.engine).toBe(EMULATOR_ENGINE);
    expect(res.json.operations).toEqual(expect.arrayContaining(['createSprite', 'getSpritzerHealth', 'execCommand', 'controlSession', 'watchFilesystem']));
  });
});

describe('getSpritzerState', () => {
  emulatorOnly.it('summarises every sprite', async () => {
    const { name } = await sprites.create();
    await call('PUT', `/v1/sprites/${name}/fs/write`, { query: { path: '/home/sprite/f.txt' }, body: 'abc' });
    const res = await call('GET', '/_spritzer/state');
    expect(res.status).toBe(200);
    const mine = res.json.sprites.find((s: { name: string }) => s.name === name);
    expect(mine.bytes).toBeGreaterThanOrEqual(3);
  });
});

describe('addFault', () => {
  emulatorOnly.it('makes the next createSprite answer 429 with Retry-After and X-RateLimit headers, once', async () => {
    const rule = await call('POST', '/_spritzer/faults', {
      body: { operationId: 'createSprite', status: 429, error: 'sprite_creation_rate_limited', retryAfterSeconds: 30, times: 1 },
    });
    expect(rule.status).toBe(201);
    const name = sprites.name();
    sprites.track(name);
    const limited = await call('POST', '/v1/sprites', { body: { name } });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ error: 'sprite_creation_rate_limited', retry_after_seconds: 30 });
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await call('POST', '/v1/sprites', { body: { name } })).status).toBe(201);
  });

  emulatorOnly.it('fails a WebSocket handshake with the rule’s status', async () => {
    const { name } = await sprites.create();
    await call('POST', '/_spritzer/faults', { body: { operationId: 'execCommand', sprite: name, status: 429, retryAfterSeconds: 5, times: 1 } });
    const exec = () => connectWs(target(), `/v1/sprites/${name}/exec`, { output: 'execCommandOutput', query: execQuery(['true']) });
    await expect(exec()).rejects.toMatchObject({ status: 429 });
    const conn = await exec();
    await conn.closed;
    expect(conn.violation).toBeUndefined();
  });
});

describe('addFault refusals', () => {
  emulatorOnly.it("refuses a rule for the emulator's own operations, which faults never reach, and adds nothing", async () => {
    for (const operationId of ['getSpritzerHealth', 'addFault', 'listSpritzerRequests']) {
      const res = await call('POST', '/_spritzer/faults', { body: { operationId, status: 500 } });
      expect(res.status).toBe(400);
      expect(res.json.message).toContain(`not to the emulator's own operation ${operationId}`);
    }
    expect((await call('GET', '/_spritzer/faults')).json.rules).toEqual([]);
    expect((await call('GET', '/_spritzer/health')).status).toBe(200);
  });
});

describe('listFaults', () => {
  emulatorOnly.it('lists the rules with what is left of them', async () => {
    await call('POST', '/_spritzer/faults', { body: { operationId: 'getOrganization', status: 500, times: 2 } });
    const res = await call('GET', '/_spritzer/faults');
    expect(res.json.rules.find((r: { operationId?: string }) => r.operationId === 'getOrganization')).toMatchObject({ status: 500, remaining: 2 });
    await call('DELETE', '/_spritzer/faults');
  });
});

describe('clearFaults', () => {
  emulatorOnly.it('removes every rule', async () => {
    await call('POST', '/_spritzer/faults', { body: { operationId: 'getOrganization', status: 500 } });
    expect((await call('DELETE', '/_spritzer/faults')).status).toBe(204);
    expect((await call('GET', '/_spritzer/faults')).json.rules).toEqual([]);
    expect((await call('GET', '/v1/organization')).status).toBe(200);
  });
});

describe('resetSpritzer', () => {
  emulatorOnly.it('forgets every sprite', async () => {
    const { name } = await sprites.create();
    expect((await call('POST', '/_spritzer/reset')).status).toBe(204);
    expect((await call('GET', `/v1/sprites/${name}`)).status).toBe(404);
  });
});
