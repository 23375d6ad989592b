/**
 * Port notifications (docs/wire-reference.md §4.6) on the sandbox engine: a TTY exec session gets the
 * `port_opened` text message when a port opens in the sprite while it runs, and `port_closed` when it closes; a
 * port already listening before the session is not reported; a non-TTY session gets no text message but `exit`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, TOKEN, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox TTY port messages');
let srv: RunningServer;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  expect((await api(srv.url)('POST', '/v1/sprites', { name: 'ttyports' })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

/** Runs `script` over a WebSocket exec; resolves with every text message (parsed) once the socket closes. */
function textMessages(script: string, tty: boolean): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const url = `${srv.url.replace(/^http/, 'ws')}/v1/sprites/ttyports/exec?${execQuery(['bash', '-c', script], { tty })}`;
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const texts: Array<Record<string, unknown>> = [];
    ws.on('message', (data, isBinary) => {
      if (!isBinary) texts.push(JSON.parse(data.toString()) as Record<string, unknown>);
    });
    ws.on('close', () => resolve(texts));
    ws.on('error', reject);
  });
}

const SERVE = (port: number) =>
  `python3 -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',${port})); s.listen(); time.sleep(1.5)"`;

describe.skipIf(skip)('port_opened / port_closed in TTY exec sessions', () => {
  it('a TTY session hears of a port that opens and closes while it runs, not of one that was already open', async () => {
    const old = textMessages(`${SERVE(8124).replace('1.5', '8')}`, false); // listening before the TTY session starts
    await new Promise((r) => setTimeout(r, 1000));
    const texts = await textMessages(`sleep 1; ${SERVE(8123)}; sleep 1; echo done`, true);
    const ports = texts.filter((t) => t.type === 'port_opened' || t.type === 'port_closed');
    expect(ports.map((t) => [t.type, t.port, t.address])).toEqual([
      ['port_opened', 8123, '127.0.0.1'],
      ['port_closed', 8123, '127.0.0.1'],
    ]);
    expect(ports[0]!.pid).toEqual(expect.any(Number));
    expect(ports[0]!.pid).toBeGreaterThan(0);
    expect(texts[0]!.type).toBe('session_info');
    expect(texts.at(-1)).toEqual({ type: 'exit', exit_code: 0 });
    expect((await old).map((t) => t.type)).toEqual(['session_info']);
  }, 30_000);
});
