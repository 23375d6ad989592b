/**
 * The `shell` engine shares the event loop in time slices (src/server/machines/memory/shell/turns.ts): with ten sprites each
 * running `while true; do :; done`, `GET /_spritzer/health` and REST calls still answer, and the loops are still
 * running afterwards (no exit frame, sockets open). Closing the sockets ends them. No timing is asserted: without
 * the slices, nothing answers until just-bash's iteration limit ends the loops, and the test times out.
 * @see docs/performance.md "Busy loops, lazy imports, fair baselines"; docs/limits.md (the 5 ms slice)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

const LOOPS = 10;

describe('health beside busy shell loops', () => {
  let server: RunningServer;
  const sockets: WebSocket[] = [];
  const exits: unknown[] = [];

  beforeAll(async () => {
    server = await startTestServer('shell');
  }, 60_000);
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await server?.close();
  });

  it(`answers health and REST while ${LOOPS} sprites run while true; do :; done, and the loops keep running`, async () => {
    const call = api(server.url);
    for (let i = 0; i < LOOPS; i++) expect((await call('POST', '/v1/sprites', { name: `busy-${i}` })).status).toBe(201);
    const q = execQuery(['sh', '-c', 'while true; do :; done']);
    await Promise.all(
      Array.from({ length: LOOPS }, (_, i) => {
        const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v1/sprites/busy-${i}/exec?${q}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
        sockets.push(ws);
        ws.on('message', (data, isBinary) => {
          if (!isBinary && JSON.parse(data.toString()).type === 'exit') exits.push(i);
        });
        // session_info is sent before the command starts; once it is here, the loop has been started
        return new Promise<void>((resolve, reject) => {
          ws.once('message', () => resolve());
          ws.once('error', reject);
        });
      }),
    );
    for (let n = 0; n < 3; n++) {
      const health = await fetch(`${server.url}/_spritzer/health`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      const got = await call('GET', `/v1/sprites/busy-${n}`);
      expect(got.status).toBe(200);
      expect(got.json.name).toBe(`busy-${n}`);
    }
    // the loops were not ended to let those answers through
    expect(exits).toEqual([]);
    expect(sockets.every((ws) => ws.readyState === WebSocket.OPEN)).toBe(true);
    const sessions = await call('GET', '/v1/sprites/busy-0/exec');
    expect(sessions.status).toBe(200);
    expect(JSON.stringify(sessions.json)).toContain('while true');
  }, 60_000);
});
