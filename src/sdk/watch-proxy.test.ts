import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import net from 'node:net';
import { memoryMachines, startTestServer, TOKEN } from '../../test/support/server.ts';
import type { RunningServer } from '../server/server.ts';
import { createEngine } from '../server/machines/memory/engines.ts';
import type { ExecEngine } from '../server/machines/memory/engine.ts';
import { SystemClock } from '../server/core/clock.ts';
import { createSpritesClient, SocketProtocolError, SpritesApiError, type FsWatchMessage } from './index.ts';
import { sdkAgainstSpritzer, type SdkClient } from '../../test/support/sdk.ts';

/** Reads from `it` until `n` bytes arrived; returns them as text. */
async function readBytes(it: AsyncIterator<Uint8Array>, n: number): Promise<string> {
  const parts: Uint8Array[] = [];
  let total = 0;
  while (total < n) {
    const next = await it.next();
    if (next.done) throw new Error(`stream ended after ${total} bytes`);
    parts.push(next.value);
    total += next.value.length;
  }
  return Buffer.concat(parts).toString();
}

/** Next message whose `type` is `type` (others are skipped). */
async function nextOfType<T extends { type: string }>(it: AsyncIterator<T>, type: string): Promise<T> {
  for (;;) {
    const next = await it.next();
    if (next.done) throw new Error(`stream ended before a ${type} message`);
    if (next.value.type === type) return next.value;
  }
}

describe('proxy (loopback connect hook)', () => {
  let server: RunningServer;
  let client: ReturnType<typeof createSpritesClient>;
  let echo: net.Server;
  let echoPort: number;

  function loopbackEngine(): ExecEngine {
    const clock = new SystemClock();
    return {
      ...createEngine('shell', { clock }),
      connect: (_sprite, _host, port) =>
        new Promise((res, rej) => {
          const c = net.connect(port, '127.0.0.1');
          c.once('connect', () => res(c));
          c.once('error', rej);
        }),
    };
  }

  beforeAll(async () => {
    // Echoes every chunk; `bye` makes it end the connection from its side.
    echo = net.createServer((socket) => {
      socket.on('data', (chunk) => (chunk.toString() === 'bye' ? socket.end() : socket.write(chunk)));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoPort = (echo.address() as net.AddressInfo).port;
    server = await startTestServer('shell', { machines: memoryMachines(loopbackEngine(), new SystemClock()) });
    client = createSpritesClient({ baseUrl: server.url, token: TOKEN });
    await client.createSprite({ name: 'box' });
  });
  afterAll(async () => {
    await server.close();
    await new Promise((r) => echo.close(r));
  });

  it('connects, reports the target, echoes bytes both ways and closes with 1000', async () => {
    const tunnel = await client.proxy('box', { port: echoPort });
    expect(tunnel.target).toBe(`localhost:${echoPort}`);
    const it = tunnel[Symbol.asyncIterator]();
    tunnel.write(new Uint8Array(Buffer.from('ping')));
    expect(await readBytes(it, 4)).toBe('ping');
    tunnel.write('héllo');
    expect(await readBytes(it, Buffer.byteLength('héllo'))).toBe('héllo');
    tunnel.end();
    expect(await it.next()).toEqual({ done: true, value: undefined });
    expect((await tunnel.closed).code).toBe(1000);
    expect(() => tunnel.write('late')).toThrow(SocketProtocolError);
  });

  it('ends the iteration with close 1001 "upstream closed" when the target ends the connection', async () => {
    const tunnel = await client.proxy('box', { host: '127.0.0.1', port: echoPort });
    expect(tunnel.target).toBe(`127.0.0.1:${echoPort}`);
    tunnel.write('bye');
    const chunks: Uint8Array[] = [];
    for await (const chunk of tunnel) chunks.push(chunk);
    expect(chunks).toEqual([]);
    expect(await tunnel.closed).toEqual({ code: 1001, reason: 'upstream closed' });
  });

  it('rejects a bad port with the server close 1003', async () => {
    const err = await client.proxy('box', { port: 70000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SocketProtocolError);
    expect(err).toMatchObject({ code: 'closed_before_ready', closeCode: 1003, closeReason: 'Invalid port number' });
  });
});

describe('proxy, watchPorts, watchFilesystem (shell engine)', () => {
  let server: RunningServer;
  let client: SdkClient;
  beforeAll(async () => void ({ server, client } = await sdkAgainstSpritzer()));
  afterAll(() => server.close());

  it('proxy: a failed dial rejects with close 1011 "Failed to connect to target: …"', async () => {
    const err = await client.proxy('box', { port: 5432 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SocketProtocolError);
    const e = err as SocketProtocolError;
    expect(e).toMatchObject({ code: 'closed_before_ready', closeCode: 1011 });
    expect(e.closeReason).toMatch(/^Failed to connect to target: /);
    expect(e.message).toContain('1011');
  });

  it('watchPorts yields the empty port_list snapshot first, and close() ends the iteration', async () => {
    const watch = await client.watchPorts('box');
    const seen: unknown[] = [];
    for await (const msg of watch) {
      seen.push(msg);
      watch.close();
    }
    expect(seen).toEqual([{ type: 'port_list', ports: [] }]);
    expect((await watch.closed).code).toBe(1000);
  });

  it('watchFilesystem yields subscribed, then a create event after writeFile', async () => {
    const watch = await client.watchFilesystem('box', ['/home/sprite'], { recursive: true });
    const it = watch[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ done: false, value: { type: 'subscribed', paths: ['/home/sprite'] } });
    await client.writeFile('box', '/home/sprite/new.txt', 'hello');
    const event = await nextOfType<FsWatchMessage>(it, 'event');
    expect(event).toMatchObject({ type: 'event', event: 'create', path: '/home/sprite/new.txt', isDir: false, size: 5 });
    expect(typeof event.timestamp).toBe('string');
    watch.close();
    expect((await it.next()).done).toBe(true);
  });

  it('watchFilesystem resolves relative paths against workingDir; leaving for-await closes the socket', async () => {
    const watch = await client.watchFilesystem('box', 'sprite', { workingDir: '/home' });
    for await (const msg of watch) {
      expect(msg).toEqual({ type: 'subscribed', paths: ['/home/sprite'] });
      break;
    }
    expect((await watch.closed).code).toBe(1000);
  });

  it('watchFilesystem: a subscribe the server refuses ends the iteration with close 1008', async () => {
    const watch = await client.watchFilesystem('box', []);
    const err = await (async () => {
      for await (const _ of watch) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SocketProtocolError);
    expect(err).toMatchObject({ code: 'closed', closeCode: 1008 });
  });

  it.each([
    ['proxy', () => client.proxy('nope', { port: 80 })],
    ['watchPorts', () => client.watchPorts('nope')],
    ['watchFilesystem', () => client.watchFilesystem('nope', ['/'])],
  ])('%s on an unknown sprite rejects with SpritesApiError 404', async (_name, open) => {
    const err = await (open as () => Promise<unknown>)().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpritesApiError);
    expect(err).toMatchObject({ status: 404, error: 'sprite not found' });
  });

  it('sends the bearer token on the upgrade (401 without it)', async () => {
    const anonymous = createSpritesClient({ baseUrl: server.url, token: '' });
    await expect(anonymous.watchPorts('box')).rejects.toMatchObject({ name: 'SpritesApiError', status: 401 });
  });
});
