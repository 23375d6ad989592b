import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { spareConnectionsWithWaitingRequests } from './keep-alive.ts';

/** Keeps the event loop busy for `ms`: what a large synchronous job in the server's process does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * A keep-alive connection reused after the server's event loop was busy longer than the keep-alive timeout: the
 * client's second request is already in the socket when the idle timer runs. The client is a plain socket in the
 * same process, so the busy loop delays the server exactly as a long synchronous job in spritzer would.
 */
async function reuseAfterBusyLoop(server: http.Server): Promise<{ second: boolean; closedBeforeAnswer: boolean }> {
  server.keepAliveTimeout = 20;
  (server as http.Server & { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('error', () => {});
  socket.on('close', () => (closed = true));
  const answered = new Promise<boolean>((resolve) => {
    socket.on('data', (d: string) => {
      received += d;
      if (received.split('\r\n\r\nok').length === 2 && !received.includes('sent-second')) {
        received += 'sent-second';
        socket.write('GET /second HTTP/1.1\r\nHost: x\r\n\r\n');
        // past the idle timer on both runtimes (Node 20 adds a fixed second to keepAliveTimeout)
        busy(1_200);
      }
      if (received.split('\r\n\r\nok').length === 3) resolve(true);
    });
    socket.on('close', () => resolve(false));
  });
  socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
  const second = await answered;
  socket.destroy();
  return { second, closedBeforeAnswer: closed && !second };
}

describe('spareConnectionsWithWaitingRequests', () => {
  const servers: http.Server[] = [];
  const serve = () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      expect(server.listening).toBe(false);
    }
  });

  it('answers a request that was waiting when the idle timer ran (plain Node cuts the connection)', async () => {
    expect(await reuseAfterBusyLoop(serve())).toEqual({ second: false, closedBeforeAnswer: true });
    const spared = serve();
    spareConnectionsWithWaitingRequests(spared);
    expect(await reuseAfterBusyLoop(spared)).toEqual({ second: true, closedBeforeAnswer: false });
  });

  it('still closes a connection that stays idle past the keep-alive timeout', async () => {
    const server = serve();
    spareConnectionsWithWaitingRequests(server);
    server.keepAliveTimeout = 20;
    (server as http.Server & { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => {});
    socket.resume();
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    expect(socket.destroyed).toBe(true);
  });
});
