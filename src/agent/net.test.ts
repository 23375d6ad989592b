/**
 * TCP relays and listening ports through the real agent on the host (the agent's network namespace is the host's
 * here, so a server started by the test is "inside"): bytes both ways, half-close, refused dials, backpressure on a
 * large transfer, and ports with their owning pid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { startTestAgent, type TestAgent } from '../../test/support/agent.ts';

const LINUX = process.platform === 'linux';
if (!LINUX) console.warn('agent network tests skipped: the agent needs Linux (/proc/net/tcp)');

function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

function readAll(stream: Duplex): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (d: Buffer) => chunks.push(d));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

describe.skipIf(!LINUX)('agent TCP relay and ports', { timeout: 30000 }, () => {
  let agent: TestAgent;
  const servers: Server[] = [];
  beforeAll(async () => {
    agent = await startTestAgent();
  }, 30000);
  afterAll(async () => {
    for (const s of servers) s.close();
    await agent?.stop();
  });

  it('relays bytes both ways, binary-exact, with half-close in each direction', async () => {
    // The server answers with what it got, reversed, once the client half-closes.
    const server = createServer({ allowHalfOpen: true }, (sock) => {
      const got: Buffer[] = [];
      sock.on('data', (d) => got.push(d));
      sock.on('end', () => sock.end(Buffer.concat(got).reverse()));
    });
    servers.push(server);
    const port = await listen(server);
    const conn = await agent.client.connect('127.0.0.1', port);
    const reply = readAll(conn);
    conn.end(Buffer.from([0x00, 0xff, 0x80, 0x41]));
    expect((await reply).toString('hex')).toBe('4180ff00');
  });

  it('rejects with ECONNREFUSED when nothing listens', async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((r) => server.close(r));
    await expect(agent.client.connect('127.0.0.1', port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('moves 16 MiB through an echo server intact (backpressure both ways)', async () => {
    const server = createServer((sock) => sock.pipe(sock));
    servers.push(server);
    const port = await listen(server);
    const conn = await agent.client.connect('127.0.0.1', port);
    const data = randomBytes(16 * 1024 * 1024);
    const back = createHash('sha256');
    let received = 0;
    const done = new Promise<void>((resolve, reject) => {
      conn.on('data', (d: Buffer) => {
        back.update(d);
        received += d.byteLength;
        if (received === data.byteLength) resolve();
      });
      conn.on('error', reject);
    });
    for (let i = 0; i < data.byteLength; i += 1 << 20) conn.write(data.subarray(i, i + (1 << 20)));
    await done;
    expect(back.digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    conn.destroy();
  });

  it('lists a listening port with its address and the pid that holds it', async () => {
    const server = createServer();
    servers.push(server);
    const port = await listen(server);
    const ports = await agent.client.listeningPorts();
    expect(ports).toContainEqual({ port, address: '127.0.0.1', pid: process.pid });
    await new Promise((r) => server.close(r));
    expect((await agent.client.listeningPorts()).some((p) => p.port === port)).toBe(false);
  });

  it('a relay torn down by the server ends the Duplex', async () => {
    const server = createServer((sock) => sock.destroy());
    servers.push(server);
    const port = await listen(server);
    const conn = await agent.client.connect('127.0.0.1', port);
    await new Promise<void>((resolve) => {
      conn.on('end', resolve);
      conn.on('error', () => resolve());
      conn.resume();
    });
  });
});
