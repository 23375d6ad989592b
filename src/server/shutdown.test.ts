import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { logUpgrades, trackRequests } from './shutdown.ts';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function listen(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('trackRequests', () => {
  it('counts a request until its response has finished', async () => {
    let finish!: () => void;
    const at = await listen((_req, res) => {
      res.write('started');
      finish = () => res.end();
    });
    const tracker = trackRequests(server!);
    expect(tracker.active()).toBe(0);
    const res = await fetch(`http://${at}/slow`);
    expect(tracker.active()).toBe(1);
    finish();
    await res.text();
    await new Promise((r) => setImmediate(r));
    expect(tracker.active()).toBe(0);
  });
});

describe('logUpgrades', () => {
  it('logs each WebSocket upgrade and its close at debug level, without headers', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const at = await listen((_req, res) => res.end());
    const wss = new WebSocketServer({ noServer: true });
    logUpgrades(server!, pino({ level: 'debug' }, sink));
    server!.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => ws.close(1000)));
    const ws = new WebSocket(`ws://${at}/v1/sprites/x/exec?cmd=ls`, { headers: { Authorization: 'Bearer secret' } });
    await new Promise((r) => ws.once('close', r));
    await new Promise((r) => setTimeout(r, 20));
    expect(lines.map((l) => [l.level, l.msg, (l.req as { url: string }).url])).toEqual([
      [20, 'websocket upgrade', '/v1/sprites/x/exec?cmd=ls'],
      [20, 'websocket closed', '/v1/sprites/x/exec?cmd=ls'],
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret');
    wss.close();
  });
});
