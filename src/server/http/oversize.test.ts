import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerOversizeHeads, headOverflowAnswer, headOverflowKind } from './oversize.ts';

describe('headOverflowKind', () => {
  it('a span that ended at a space was the target; at a line end or colon a header', () => {
    expect(headOverflowKind(Buffer.from('xxxx HTTP/1.1\r\n'), 4)).toBe('request-line');
    expect(headOverflowKind(Buffer.from('hhhh\r\nx-a: 1'), 4)).toBe('header-fields');
    expect(headOverflowKind(Buffer.from('x-long: 1'), 6)).toBe('header-fields');
  });
  it('a span that ran to the chunk end: URL-like bytes are the target, anything with a space, colon or line end a header', () => {
    expect(headOverflowKind(Buffer.from('yyyyyyyy'), 8)).toBe('request-line');
    expect(headOverflowKind(Buffer.from('a b c'), 5)).toBe('header-fields');
    expect(headOverflowKind(undefined, undefined)).toBe('header-fields');
  });
});

describe('headOverflowAnswer', () => {
  it('414 for the request line, 431 for header fields, each naming the limit and its flag', () => {
    expect(headOverflowAnswer('request-line', 2048)).toEqual({ status: 414, body: { error: 'uri_too_long', message: expect.stringMatching(/2048 bytes.*--max-header-size/) } });
    expect(headOverflowAnswer('header-fields', 2048)).toMatchObject({ status: 431, body: { error: 'request_header_fields_too_large' } });
  });
});

describe('answerOversizeHeads', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function raw(bytes: string): Promise<string> {
    server = http.createServer({ maxHeaderSize: 4096 }, (_q, r) => r.end('ok'));
    answerOversizeHeads(server, 4096);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    return new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => s.end(bytes));
      let out = '';
      s.on('data', (d) => (out += d));
      s.on('close', () => resolve(out));
      s.on('error', () => resolve(out));
    });
  }

  it('answers a too-long target with 414 JSON and closes', async () => {
    const out = await raw(`GET /${'a'.repeat(8000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/);
    expect(out).toContain('Connection: close');
    expect(JSON.parse(out.split('\r\n\r\n')[1]!)).toMatchObject({ error: 'uri_too_long' });
  });

  it('keeps Node\'s 400 for a request that does not parse', async () => {
    expect(await raw('NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
