import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer();
  call = api(srv.url);
  await call('POST', '/v1/sprites', { name: 'keep' });
});
afterAll(() => srv.close());

async function snapshot() {
  return (await call('GET', '/_spritzer/state')).json;
}

describe('request validation', () => {
  it('bad JSON, wrong types and unknown query values answer the 400 envelope and change nothing', async () => {
    const before = await snapshot();
    const bad: Array<[string, string, unknown, Record<string, string>?]> = [
      ['POST', '/v1/sprites', '{"name":', { 'Content-Type': 'application/json' }],
      ['POST', '/v1/sprites', { name: 42 }],
      ['POST', '/v1/sprites', {}],
      ['GET', '/v1/sprites?max_results=lots', undefined],
      ['PUT', '/v1/sprites/keep', { url_settings: { auth: 'everyone' } }],
      ['PUT', '/v1/sprites/keep/fs/write?path=/a&mkdirParents=perhaps', 'x'],
      ['POST', '/v1/sprites/keep/policy/network', { rules: [{ domain: 'x.com', action: 'maybe' }] }],
    ];
    for (const [method, path, body, headers] of bad) {
      const r = await call(method, path, typeof body === 'string' && headers ? body : body, headers);
      expect({ path, status: r.status }).toEqual({ path, status: 400 });
      expect(r.json).toMatchObject({ error: expect.any(String) });
      expect(r.text).not.toMatch(/<html|at .*\.ts:\d+/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('unknown paths answer 404 JSON', async () => {
    const r = await call('GET', '/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ error: expect.any(String) });
  });
});
