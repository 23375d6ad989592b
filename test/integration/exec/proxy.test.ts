/**
 * The proxy socket (docs/wire-reference.md §6.1): on the in-memory engines nothing listens, so the init is answered
 * with close 1011 "Failed to connect…"; a bad init closes 1003. The relay itself runs against a real TCP echo
 * server on 127.0.0.1, through the shell engine with a `connect` hook that dials loopback (the hook a real
 * engine provides).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, memoryMachines, startTestServer, ENGINES, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import type { ExecEngine } from '../../../src/server/machines/memory/engine.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';

interface ProxyRun {
  ws: WebSocket;
  texts: any[];
  binary: Buffer[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens `/proxy` on sprite `name`, sends `init` once open (a string as text, a Buffer as binary). */
function openProxy(base: string, name: string, init: string | Buffer, token = TOKEN): Promise<ProxyRun> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sprites/${name}/proxy`, { headers: { Authorization: `Bearer ${token}` } });
    const run: ProxyRun = {
      ws,
      texts: [],
      binary: [],
      closed: new Promise((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() }))),
    };
    ws.on('message', (data, isBinary) => (isBinary ? run.binary.push(Buffer.from(data as Buffer)) : run.texts.push(JSON.parse(data.toString()))));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`handshake ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(init, { binary: Buffer.isBuffer(init) });
      resolve(run);
    });
  });
}

/** Resolves once `probe()` holds, checking after each message on `ws` (or its close). */
function when(ws: WebSocket, probe: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (probe()) {
        ws.off('message', check);
        resolve();
      } else if (ws.readyState === WebSocket.CLOSED) reject(new Error('socket closed'));
    };
    ws.on('message', check);
    ws.on('close', check);
    check();
  });
}

describe.each(ENGINES)('proxyConnect (%s engine, nothing listening)', (engine) => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN });
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('answers a valid init with close 1011 "Failed to connect…" and no connected message', async () => {
    const run = await openProxy(srv.url, 'box', JSON.stringify({ host: 'localhost', port: 5432 }));
    const { code, reason } = await run.closed;
    expect(code).toBe(1011);
    expect(reason).toMatch(/^Failed to connect to target: /);
    expect(run.texts).toEqual([]);
  });

  it.each([
    ['non-JSON text', 'hello', 'Expected JSON initialization message'],
    ['a binary init', Buffer.from('{"port":80}'), 'Expected JSON initialization message'],
    ['port 0', JSON.stringify({ host: 'localhost', port: 0 }), 'Invalid port number'],
    ['port 70000', JSON.stringify({ port: 70000 }), 'Invalid port number'],
    ['a missing port', JSON.stringify({ host: 'localhost' }), 'Invalid port number'],
  ])('closes 1003 for %s', async (_what, init, reason) => {
    const run = await openProxy(srv.url, 'box', init);
    expect(await run.closed).toEqual({ code: 1003, reason });
  });

  it('rejects the handshake with 404 for a missing sprite and 401 without a token', async () => {
    await expect(openProxy(srv.url, 'nope', '{"port":80}')).rejects.toMatchObject({ status: 404 });
    await expect(openProxy(srv.url, 'box', '{"port":80}', 'wrong')).rejects.toMatchObject({ status: 401 });
  });
});

describe('proxyConnect relay (loopback connect hook)', () => {
  let srv: RunningServer;
  let echo: net.Server;
  let echoPort: number;
  const upstreamClosed: Array<Promise<void>> = [];
  /** Dials to host `slow` wait for this gate (a dial that takes its time, as an agent's may). */
  let gate: Promise<void> = Promise.resolve();

  /** The shell engine whose `connect` dials 127.0.0.1:<port>, resolving on 'connect'. */
  function loopbackEngine(): ExecEngine {
    const clock = new SystemClock();
    return {
      ...createEngine('shell', { clock }),
      connect: async (_sprite, host, port) => {
        if (host === 'slow') await gate;
        return new Promise((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        });
      },
    };
  }

  /** Waits until `value()` has not changed for 300 ms (what was going to move has moved), and returns it. */
  async function settled(value: () => number): Promise<number> {
    let last = value();
    for (;;) {
      await new Promise((r) => setTimeout(r, 300));
      const now = value();
      if (now === last) return now;
      last = now;
    }
  }

  /** A target that reads nothing until `drain()`, then counts every byte. */
  async function sinkServer() {
    let received = 0;
    let reading = false;
    const sockets: net.Socket[] = [];
    const server = net.createServer((socket) => {
      if (!reading) socket.pause();
      sockets.push(socket);
      socket.on('data', (c) => void (received += c.length));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      port: (server.address() as net.AddressInfo).port,
      received: () => received,
      drain: () => {
        reading = true;
        sockets.forEach((s) => s.resume());
      },
      close: () => new Promise((r) => server.close(r)),
    };
  }

  const MiB = 1024 * 1024;
  const CHUNK = Buffer.alloc(MiB, 7);

  beforeAll(async () => {
    // Echoes every chunk; `bye` makes it end the connection from its side.
    echo = net.createServer((socket) => {
      upstreamClosed.push(new Promise((r) => socket.on('close', () => r())));
      socket.on('data', (chunk) => (chunk.toString() === 'bye' ? socket.end() : socket.write(chunk)));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoPort = (echo.address() as net.AddressInfo).port;
    srv = await startTestServer('shell', { token: TOKEN, machines: memoryMachines(loopbackEngine(), new SystemClock()) });
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(async () => {
    await srv.close();
    await new Promise((r) => echo.close(r));
  });

  it('answers {status:"connected", target} first, then relays bytes both ways; the client closing ends the upstream', async () => {
    const run = await openProxy(srv.url, 'box', JSON.stringify({ host: 'localhost', port: echoPort }));
    await when(run.ws, () => run.texts.length > 0);
    expect(run.texts).toEqual([{ status: 'connected', target: `localhost:${echoPort}` }]);
    run.ws.send(Buffer.from('ping'), { binary: true });
    await when(run.ws, () => Buffer.concat(run.binary).toString() === 'ping');
    run.ws.send(Buffer.from([0, 1, 2, 255]), { binary: true });
    await when(run.ws, () => Buffer.concat(run.binary).length === 8);
    expect(Array.from(Buffer.concat(run.binary).subarray(4))).toEqual([0, 1, 2, 255]);
    expect(run.texts).toHaveLength(1);
    run.ws.close(1000);
    expect((await run.closed).code).toBe(1000);
    await upstreamClosed.at(-1);
  });

  it.each([
    ['::1', '[::1]'],
    ['fe80::1%eth0', '[fe80::1%eth0]'],
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', 'localhost'],
  ])('names the target %s as Go\'s net.JoinHostPort does (%s:port)', async (host, written) => {
    const run = await openProxy(srv.url, 'box', JSON.stringify({ host, port: echoPort }));
    await when(run.ws, () => run.texts.length > 0);
    expect(run.texts).toEqual([{ status: 'connected', target: `${written}:${echoPort}` }]);
    run.ws.close(1000);
    await run.closed;
  });

  it('closes 1001 "upstream closed" when the target ends the connection', async () => {
    const run = await openProxy(srv.url, 'box', JSON.stringify({ port: echoPort }));
    await when(run.ws, () => run.texts.length > 0);
    expect(run.texts[0]).toEqual({ status: 'connected', target: `localhost:${echoPort}` });
    run.ws.send(Buffer.from('bye'), { binary: true });
    expect(await run.closed).toEqual({ code: 1001, reason: 'upstream closed' });
  });

  it('a target that does not read: spritzer stops reading the client, and every byte arrives once the target reads', async () => {
    const sink = await sinkServer();
    const run = await openProxy(srv.url, 'box', JSON.stringify({ port: sink.port }));
    await when(run.ws, () => run.texts.length > 0);
    for (let i = 0; i < 64; i++) run.ws.send(CHUNK, { binary: true });
    // The kernel's buffers take a few MiB; the rest stays with the client, not in spritzer.
    expect(await settled(() => run.ws.bufferedAmount)).toBeGreaterThan(32 * MiB);
    sink.drain();
    await expect.poll(() => sink.received(), { timeout: 20_000 }).toBe(64 * MiB);
    run.ws.close(1000);
    await run.closed;
    await sink.close();
  });

  it('a client that does not read: spritzer stops reading the target', async () => {
    let pending = 0;
    const flood = net.createServer((socket) => {
      socket.on('error', () => {});
      for (let i = 0; i < 64; i++) socket.write(CHUNK);
      pending = socket.writableLength;
      const tick = setInterval(() => (pending = socket.writableLength), 20);
      socket.on('close', () => clearInterval(tick));
    });
    await new Promise<void>((r) => flood.listen(0, '127.0.0.1', r));
    const run = await openProxy(srv.url, 'box', JSON.stringify({ port: (flood.address() as net.AddressInfo).port }));
    (run.ws as unknown as { _socket: net.Socket })._socket.pause(); // the client reads nothing
    expect(await settled(() => pending)).toBeGreaterThan(32 * MiB);
    run.ws.terminate();
    await new Promise((r) => flood.close(r));
  });

  it('bytes sent while the dial is under way wait with the client, then all arrive', async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const sink = await sinkServer();
    sink.drain();
    const run = await openProxy(srv.url, 'box', JSON.stringify({ host: 'slow', port: sink.port }));
    for (let i = 0; i < 64; i++) run.ws.send(CHUNK, { binary: true });
    expect(await settled(() => run.ws.bufferedAmount)).toBeGreaterThan(32 * MiB);
    open();
    await when(run.ws, () => run.texts.length > 0);
    expect(run.texts[0]).toEqual({ status: 'connected', target: `slow:${sink.port}` });
    await expect.poll(() => sink.received(), { timeout: 20_000 }).toBe(64 * MiB);
    run.ws.close(1000);
    await run.closed;
    await sink.close();
    gate = Promise.resolve();
  });

  it('closes 1011 "Failed to connect…" when nothing listens on the port', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const freePort = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const run = await openProxy(srv.url, 'box', JSON.stringify({ port: freePort }));
    const { code, reason } = await run.closed;
    expect(code).toBe(1011);
    expect(reason).toMatch(/^Failed to connect to target: .*ECONNREFUSED/);
  });
});
