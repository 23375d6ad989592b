/**
 * An oversized body gets its 413 and the client can read it: spritzer answers from the headers, then reads and
 * discards the declared body up to a bound (as Go's net/http does after a handler), so a client that writes its
 * whole body before it reads (Python's http.client, Go's, curl without Expect) sees the status instead of EPIPE or
 * a reset. A body declared over the bound is answered and the connection closed without reading it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

let srv: RunningServer;
beforeAll(async () => {
  srv = await startTestServer('shell', { token: TOKEN });
});
afterAll(() => srv.close());

/**
 * Sends `head` and then `bodyBytes` bytes of JSON-ish body on a raw socket, writing all of it before reading, as a
 * simple client does; resolves with the status line read afterwards and any socket error seen while writing.
 */
function writeAllThenRead(head: string, bodyBytes: number): Promise<{ status: number; writeError?: string; text: string }> {
  const { hostname, port } = new URL(srv.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let writeError: string | undefined;
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => (writeError ??= err.code ?? err.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      resolve({ status: Number(text.slice(9, 12)), writeError, text });
    });
    socket.on('connect', async () => {
      socket.write(head);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent < bodyBytes && !socket.destroyed; sent += chunk.length) {
        const part = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
        if (!socket.write(part)) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
      // Everything written: now the client reads the answer (the server closes after it: Connection: close).
      if (!socket.destroyed) socket.end();
    });
  });
}

describe('413 before the connection closes', () => {
  it('a 5 MB JSON body is answered 413 in the envelope, readable after the client wrote it all', async () => {
    const size = 5 * 1024 * 1024;
    const { port } = new URL(srv.url);
    const r = await writeAllThenRead(
      `POST /v1/sprites HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${size}\r\nConnection: close\r\n\r\n`,
      size,
    );
    expect(r.writeError).toBeUndefined();
    expect(r.status).toBe(413);
    expect(r.text).toContain('"error":"invalid_request"');
    expect((await api(srv.url)('GET', '/v1/sprites')).status).toBe(200);
  });

  it('the connection stays usable after a discarded body (keep-alive)', async () => {
    const { port } = new URL(srv.url);
    const size = 2 * 1024 * 1024;
    const second = `GET /v1/sprites HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`;
    const r = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('connect', () => {
        socket.write(`POST /v1/sprites HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
        socket.write(Buffer.alloc(size, 0x20));
        socket.write(second);
      });
    });
    expect(r.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
  });

});
