/**
 * Client-signal headers (`Fly-Client-*`, and the SDKs' own User-Agent) that the newer official SDKs send on every
 * REST call and WebSocket handshake (docs/wire-reference.md §2.1 "Other request headers"): spritzer ignores them, so
 * the OpenAPI validator passes every request that carries them and every WebSocket channel upgrades.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, TOKEN, wsExec } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

/** What `@fly/client-signals` makes for the Fly prefix, the name/version pair, and the JS SDK's User-Agent. */
const SIGNALS: Record<string, string> = {
  'Fly-Client-Interactive': 'false',
  'Fly-Client-Parent': 'node',
  'Fly-Client-Agent': 'claude-code',
  'Fly-Client-Agent-Source': 'env:CLAUDECODE',
  'Fly-Client-CI': 'true',
  'Fly-Client-Name': 'sprites-js',
  'Fly-Client-Version': '0.2.0',
  'User-Agent': 'sprites-js/0.2.0 (interactive=false; parent=node; agent=claude-code)',
};

/** Upgrades `path` with the signal headers; resolves with the upgrade's status (101) or the refusal's. */
function upgrade(base: string, path: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { Authorization: `Bearer ${TOKEN}`, ...SIGNALS } });
    ws.once('upgrade', (res) => {
      ws.close();
      resolve(res.statusCode ?? 0);
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => undefined);
  });
}

describe('Fly-Client-* request headers', () => {
  let srv: RunningServer;
  const call = (method: string, path: string, body?: unknown) => api(srv.url)(method, path, body, SIGNALS);
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
  });
  afterAll(() => srv.close());

  it('pass every REST stage: create, get, update, files, HTTP exec, checkpoints, services, policy, sessions', async () => {
    expect((await call('POST', '/v1/sprites', { name: 'sig', labels: ['a'] })).status).toBe(201);
    expect((await call('GET', '/v1/sprites/sig')).status).toBe(200);
    expect((await call('GET', '/v1/sprites?max_results=10')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/sig', { labels: ['b'] })).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/sig/fs/write?path=/home/sprite/a.txt', 'hello')).status).toBe(200);
    expect((await call('GET', '/v1/sprites/sig/fs/read?path=/home/sprite/a.txt')).text).toBe('hello');
    expect((await call('POST', '/v1/sprites/sig/fs/rename', { source: '/home/sprite/a.txt', dest: '/home/sprite/b.txt' })).status).toBe(200);
    expect((await call('POST', '/v1/sprites/sig/exec?cmd=echo&cmd=hi')).status).toBe(200);
    expect((await call('POST', '/v1/sprites/sig/checkpoint', { comment: 'c' })).status).toBe(200);
    expect((await call('GET', '/v1/sprites/sig/checkpoints')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/sig/services/s?duration=0', { cmd: 'sh', args: ['-c', 'sleep 100'] })).status).toBe(200);
    expect((await call('POST', '/v1/sprites/sig/policy/network', { rules: [{ domain: '*', action: 'allow' }] })).status).toBe(204);
    expect((await call('GET', '/v1/sprites/sig/exec')).status).toBe(200);
    expect((await call('GET', '/v1/sprites/sig/services/s')).status).toBe(200);
  });

  it('pass every WebSocket handshake: exec, attach, control, proxy, port and file watches', async () => {
    expect((await call('POST', '/v1/sprites', { name: 'sigws' })).status).toBe(201);
    const running = wsExec(srv.url, `/v1/sprites/sigws/exec?${execQuery(['sleep', '100'], { tty: true })}`);
    let id: string | undefined;
    await expect.poll(async () => (id = (await call('GET', '/v1/sprites/sigws/exec')).json.sessions[0]?.id)).toBeDefined();
    for (const path of [
      `/v1/sprites/sigws/exec?${execQuery(['echo', 'hi'])}`,
      `/v1/sprites/sigws/exec/${id}?stdin=false`,
      `/v1/sprites/sigws/exec?id=${id}&stdin=false`,
      '/v1/sprites/sigws/control',
      '/v1/sprites/sigws/proxy',
      '/v1/sprites/sigws/ports/watch',
      '/v1/sprites/sigws/fs/watch',
    ]) expect(await upgrade(srv.url, path), path).toBe(101);
    expect((await call('POST', `/v1/sprites/sigws/exec/${id}/kill?signal=KILL`)).status).toBe(200);
    await running;
  });
});
