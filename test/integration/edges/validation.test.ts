import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { api, startTestServer, wsExec, execQuery } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  // A fake clock: the sprite's status (boot, decay) must not move while the test compares state snapshots.
  srv = await startTestServer('shell', { clock: new FakeClock() });
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

describe('hostile input', () => {
  it('a deeply nested JSON body is a 400 and creates nothing', async () => {
    let config = '{}';
    for (let i = 0; i < 5000; i++) config = `{"a":${config}}`;
    const r = await call('POST', '/v1/sprites', `{"name":"deepcfg","config":${config}}`, { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_request');
    expect((await call('GET', '/v1/sprites/deepcfg')).status).toBe(404);
    expect((await call('GET', '/v1/sprites')).status).toBe(200);
  });

  it('a JSON null body is a 400 in the envelope', async () => {
    const r = await call('POST', '/v1/sprites', 'null', { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_request');
  });

  it('out-of-range ids, URL-shaped policy domains and fault rules for unknown operations are 400s', async () => {
    await call('PUT', '/v1/sprites/keep/fs/write?path=/tmp/f', 'x');
    expect((await call('POST', '/v1/sprites/keep/fs/chown', { path: '/tmp/f', uid: 99999999999999999999 })).status).toBe(400);
    expect((await call('POST', '/v1/sprites/keep/policy/network', { rules: [{ domain: 'http://a.com/path', action: 'allow' }] })).status).toBe(400);
    expect((await call('POST', '/v1/sprites/keep/policy/network', { rules: [{ domain: `${'a'.repeat(64)}.com`, action: 'allow' }] })).status).toBe(400);
    expect((await call('POST', '/_spritzer/faults', { operationId: 'nope', status: 500 })).status).toBe(400);
  });

  it('exec in a missing working directory is refused before it starts, over HTTP and WebSocket', async () => {
    const http = await call('POST', '/v1/sprites/keep/exec?cmd=pwd&dir=/does/not/exist');
    expect(http.status).toBe(400);
    expect(http.json.message).toContain('/does/not/exist');
    await expect(
      wsExec(srv.url, `/v1/sprites/keep/exec?${execQuery(['pwd'], { dir: '/does/not/exist' })}`),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('an upgrade to anything but WebSocket is ignored: the request is answered as plain HTTP', async () => {
    const res = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = http.request(`${srv.url}/v1/sprites/keep/exec?cmd=true`, {
        headers: { Connection: 'Upgrade', Upgrade: 'h2c', Authorization: 'Bearer t' },
      });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode!, type: String(r.headers['content-type']), body }));
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect(res.type).toContain('application/json');
    expect(JSON.parse(res.body)).toEqual({ sessions: [], count: 0 });
  });
});
