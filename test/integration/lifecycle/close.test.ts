/**
 * The embedding program's `close()` (src/server/server.ts) with WebSockets still open: each gets a close frame 1001
 * "server shutting down" before its connection ends, as on a graceful stop. A connection dropped without one is an
 * error to a WHATWG WebSocket (Node ≥ 22's global one), which the official JS SDK's control pool rethrows uncaught.
 */
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, TOKEN } from '../../support/server.ts';

/** Opens `path` as a WebSocket; resolves once open with a promise of its close code and reason. */
function open(base: string, path: string): Promise<{ closed: Promise<{ code: number; reason: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.on('open', () => resolve({ closed }));
    ws.on('error', reject);
  });
}

describe("the server's close() with sockets open", () => {
  it('closes a running exec and an idle control socket with 1001 "server shutting down"', async () => {
    const srv = await startTestServer('shell');
    expect((await api(srv.url)('POST', '/v1/sprites', { name: 'closing' })).status).toBe(201);
    const exec = await open(srv.url, `/v1/sprites/closing/exec?${execQuery(['sleep', '30'])}`);
    const control = await open(srv.url, '/v1/sprites/closing/control');
    await srv.close();
    expect(await exec.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await control.closed).toEqual({ code: 1001, reason: 'server shutting down' });
  });
});
