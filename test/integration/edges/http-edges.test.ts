/**
 * HTTP edges through the API, as curl and the SDKs send them, on every in-process engine: fs/write and HTTP exec
 * bodies are raw bytes whatever the Content-Type, a 200 KB command line fits in the query, a request head past the
 * limit is a 414/431 JSON answer naming it, and `path=` names the program exec runs.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ENGINES, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';

/** A body no parser would leave alone: form syntax, broken JSON, a CR LF and non-UTF-8 bytes. */
const BODY = Buffer.concat([Buffer.from('a=1&b=%41+c {"x": [\r\n'), Buffer.from([0xff, 0x00, 0x80, 0x41])]);
/** The same kinds of text as stdin; UTF-8 only (raw bytes through the shell engine's `cat`: exec/shell-bytes.test.ts). */
const STDIN = Buffer.from('a=1&b=%41+c {"x": [\r\nnaïve ✓\n');
/** The Content-Type headers curl and the SDKs send (undefined = no header at all). */
const CONTENT_TYPES = [undefined, 'text/plain', 'application/json', 'application/x-www-form-urlencoded', 'text/plain; charset=utf-8'];

/** One raw request (node:http, so no header is added that the test did not ask for). */
function request(url: string, method: string, path: string, body?: Buffer, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers: { Authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (body !== undefined) req.setHeader('Content-Length', body.length);
    req.end(body);
  });
}

/** stdout and exit code of an HTTP exec answer: `[1]…` / `[2]…` frames, `[3][code]` last (frames ≤ 64 KiB). */
function framed(body: Buffer): { stdout: Buffer; exit: number } {
  expect(body[body.length - 2]).toBe(3);
  const out = body.subarray(0, body.length - 2);
  if (out.length > 0) expect(out[0]).toBe(1);
  return { stdout: out.subarray(1), exit: body[body.length - 1]! };
}

function execPath(sprite: string, argv: string[], extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const a of argv) q.append('cmd', a);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `/v1/sprites/${sprite}/exec?${q}`;
}

describe.each(ENGINES)('HTTP edges on the %s engine', (engine) => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer(engine, { maxHeaderBytes: 256 * 1024 });
    await api(srv.url)('POST', '/v1/sprites', { name: 'edges' });
  });
  afterAll(() => srv.close());

  it.each(CONTENT_TYPES)('fs/write stores the body byte for byte with Content-Type %s', async (type) => {
    const file = `/home/sprite/ct-${String(type).replace(/\W/g, '_')}.bin`;
    const w = await request(srv.url, 'PUT', `/v1/sprites/edges/fs/write?path=${file}`, BODY, type ? { 'Content-Type': type } : {});
    expect(w.status).toBe(200);
    expect(JSON.parse(w.body.toString())).toMatchObject({ path: file, size: BODY.length });
    const r = await request(srv.url, 'GET', `/v1/sprites/edges/fs/read?path=${file}`);
    expect(r.body.equals(BODY)).toBe(true);
  });

  it('fs/write with no body at all (no Content-Length, no Content-Type: `curl -X PUT`) writes an empty file', async () => {
    const w = await request(srv.url, 'PUT', '/v1/sprites/edges/fs/write?path=/home/sprite/nobody');
    expect(w.status).toBe(200);
    expect(JSON.parse(w.body.toString())).toMatchObject({ path: '/home/sprite/nobody', size: 0 });
    const r = await request(srv.url, 'GET', '/v1/sprites/edges/fs/read?path=/home/sprite/nobody');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
  });

  it('fs list takes a glob pattern unencoded, refuses one over 4,096 characters, and reads a hostile one at once', async () => {
    for (const name of ['one.txt', 'two.md', '.dot.txt']) await request(srv.url, 'PUT', `/v1/sprites/edges/fs/write?path=/home/sprite/glob/${name}&mkdirParents=true`, Buffer.from(name));
    const list = (pattern: string) => request(srv.url, 'GET', `/v1/sprites/edges/fs/list?path=/home/sprite/glob&pattern=${pattern}`);
    const ok = await list('*.txt'); // `*` unencoded, as the JS SDK's URLSearchParams leaves it
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body.toString()).entries.map((e: { name: string }) => e.name)).toEqual(['one.txt']);
    const long = await list('a'.repeat(4097));
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body.toString())).toMatchObject({ error: 'invalid_request' });
    // Unclosed brackets and classes up to the cap: read once, so the answer comes and the server stays responsive.
    for (const hostile of ['[a'.repeat(2048), encodeURIComponent('[[:a:]'.repeat(682)), `${'*a'.repeat(2047)}b`]) {
      const r = await list(hostile);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body.toString()).entries).toEqual([]);
    }
    expect((await request(srv.url, 'GET', '/_spritzer/health')).status).toBe(200);
  });

  it('fs/write with an empty body and no Content-Type writes an empty file', async () => {
    const w = await request(srv.url, 'PUT', '/v1/sprites/edges/fs/write?path=/home/sprite/empty', Buffer.alloc(0));
    expect(w.status).toBe(200);
    expect(JSON.parse(w.body.toString())).toMatchObject({ size: 0 });
  });

  // The interpreter engine ignores stdin by design (machines/memory/interpreter.ts); the shell engine runs `cat`.
  it.skipIf(engine === 'interpreter').each(CONTENT_TYPES)('HTTP exec stdin=true feeds the body to the command with Content-Type %s', async (type) => {
    const res = await request(srv.url, 'POST', execPath('edges', ['cat'], { stdin: 'true' }), STDIN, type ? { 'Content-Type': type } : {});
    expect(res.status).toBe(200);
    const { stdout, exit } = framed(res.body);
    expect(exit).toBe(0);
    expect(stdout.toString()).toBe(STDIN.toString());
  });

  it('a 200 KB argument reaches the command whole through the query', async () => {
    const big = 'x'.repeat(200_000);
    const res = await request(srv.url, 'POST', execPath('edges', ['echo', big]));
    expect(res.status).toBe(200);
    // Output frames are at most 64 KiB, so the body holds several `[1]` headers; the x's are all there, in one run each.
    expect(res.body.filter((b) => b === 0x78).length).toBe(200_000);
    expect(Array.from(res.body.subarray(res.body.length - 2))).toEqual([3, 0]);
  });

  it('many repeated cmd parameters stay one argv, in order', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const res = await request(srv.url, 'POST', execPath('edges', ['echo', ...words]));
    expect(res.status).toBe(200);
    expect(framed(res.body).stdout.toString()).toBe(`${words.join(' ')}\n`);
  });

  it('a request line past --max-header-size answers 414 JSON naming the limit', async () => {
    const res = await request(srv.url, 'POST', execPath('edges', ['echo', 'y'.repeat(300 * 1024)]));
    expect(res.status).toBe(414);
    expect(res.headers['content-type']).toContain('application/json');
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'uri_too_long', message: expect.stringContaining('--max-header-size') });
  });

  it('header fields past --max-header-size answer 431 JSON naming the limit', async () => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 64; i++) headers[`x-filler-${i}`] = 'h'.repeat(5000);
    const res = await request(srv.url, 'GET', '/v1/sprites/edges', undefined, headers);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'request_header_fields_too_large', message: expect.stringContaining('262144') });
  });

  it('one 2 MB header after a short request line answers 431 naming the headers, not 414; the server goes on', async () => {
    const res = await request(srv.url, 'GET', '/v1/sprites/edges', undefined, { 'x-big': 'h'.repeat(2_000_000) });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: 'request_header_fields_too_large', message: expect.stringContaining('header fields') });
    expect((await request(srv.url, 'GET', '/v1/sprites/edges')).status).toBe(200);
  });

  it('path= names the program; cmd[0] is only its name', async () => {
    const res = await request(srv.url, 'POST', execPath('edges', ['not-a-program', 'hi'], { path: 'echo' }));
    expect(res.status).toBe(200);
    const { stdout, exit } = framed(res.body);
    expect(stdout.toString()).toBe('hi\n');
    expect(exit).toBe(0);
  });
});

/**
 * Sends `head` (a request line and header fields, no body) over a raw TCP socket and collects everything the server
 * sends until it closes the connection; rejects if it is still open after the server's answer and `waitMs`.
 */
function rawHead(url: string, head: string): Promise<{ status: number; headers: string; body: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write(head));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, split), body: text.slice(split + 4), closed: true });
    });
  });
}

describe('edges a first-time user hits: early 413s, a 415 that says what to send, broken percent-encoding in the query', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN, maxJsonBodyBytes: 1024 });
    call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'kept' })).status).toBe(201);
    expect((await call('PUT', '/v1/sprites/kept/fs/write?path=%2Fhome%2Fsprite%2Fk.txt', 'kept\n')).status).toBe(200);
  });
  afterAll(() => srv.close());

  async function expectStateIntact() {
    expect((await fetch(`${srv.url}/_spritzer/health`)).status).toBe(200);
    const file = await call('GET', '/v1/sprites/kept/fs/read?path=%2Fhome%2Fsprite%2Fk.txt');
    expect([file.status, file.text]).toEqual([200, 'kept\n']);
  }

  it('a Content-Length over --max-json-body answers 413 in the envelope from the headers alone, and closes', async () => {
    const { port } = new URL(srv.url);
    const r = await rawHead(
      srv.url,
      `POST /v1/sprites HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n`,
    );
    expect(r.status).toBe(413);
    expect(r.headers.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(r.body)).toMatchObject({ error: 'invalid_request', message: 'request entity too large' });
    expect(JSON.parse(r.body).errors[0]).toContain('--max-json-body');
    expect(r.closed).toBe(true);
    expect((await call('GET', '/v1/sprites/big')).status).toBe(404);
    await expectStateIntact();
  });

  it('HTTP exec with a Content-Length over --max-stdin-bytes answers its 413 from the headers alone', async () => {
    const { port } = new URL(srv.url);
    const r = await rawHead(
      srv.url,
      `POST /v1/sprites/kept/exec?cmd=wc&cmd=-c&stdin=true HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/octet-stream\r\nContent-Length: ${64 * 1024 * 1024 + 1}\r\n\r\n`,
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: 'payload_too_large' });
    await expectStateIntact();
  });

  it('a POST with no Content-Type to a JSON operation answers 415 saying what to send, never "undefined"', async () => {
    const r = await request(srv.url, 'POST', '/v1/sprites', Buffer.from('{"name":"typeless"}'));
    expect(r.status).toBe(415);
    const body = JSON.parse(r.body.toString());
    expect(body).toMatchObject({ error: 'invalid_request' });
    expect(body.message).toBe('unsupported media type: a JSON body needs Content-Type: application/json (the request has no Content-Type)');
    expect(r.body.toString()).not.toContain('undefined');
    const typed = JSON.parse((await request(srv.url, 'POST', '/v1/sprites', Buffer.from('{}'), { 'Content-Type': 'text/plain' })).body.toString());
    expect(typed.message).toContain('"text/plain"');
    expect((await call('GET', '/v1/sprites/typeless')).status).toBe(404);
    await expectStateIntact();
  });

  it.each([
    ['GET', '/v1/sprites/kept/fs/read?path=%ZZ', 'path', '%ZZ'],
    ['GET', '/v1/sprites/kept/fs/list?path=%2Fhome&workingDir=%E2%82', 'workingDir', '%E2%82'],
    ['DELETE', '/v1/sprites/kept/fs/delete?path=%2Fhome%2Fsprite%2Fk.txt%', 'path', '%2Fhome%2Fsprite%2Fk.txt%'],
    ['PUT', '/v1/sprites/kept/fs/write?path=%ZZ', 'path', '%ZZ'],
  ])('%s %s (broken percent-encoding in a query value) answers 400 in the envelope, as in the path', async (method, path, name, value) => {
    const r = await request(srv.url, method, path, method === 'PUT' ? Buffer.from('x') : undefined);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body.toString())).toEqual({
      error: 'invalid_request',
      message: 'malformed percent-encoding in the query',
      errors: [`query parameter "${name}": "${value}" is not valid percent-encoded UTF-8`],
    });
    expect((await call('GET', '/v1/sprites/kept/fs/read?path=%25ZZ')).status).toBe(404); // no file named %ZZ appeared
    await expectStateIntact();
  });

  it('a WebSocket exec with broken percent-encoding in a query value answers the same 400', async () => {
    const { port } = new URL(srv.url);
    const r = await rawHead(
      srv.url,
      `GET /v1/sprites/kept/exec?cmd=echo&cmd=%ZZ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: 'invalid_request', message: 'malformed percent-encoding in the query' });
    await expectStateIntact();
  });

  it('a body within the limit is still taken', async () => {
    expect((await call('POST', '/v1/sprites', { name: 'small' })).status).toBe(201);
  });
});
