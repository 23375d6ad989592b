import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerOversizeHeads, headOverflowAnswer, headOverflowKind, overflowFromLineEnd } from './oversize.ts';

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

describe('overflowFromLineEnd', () => {
  it('the request line had not ended where the parser stopped: the target; it had: the header fields', () => {
    expect(overflowFromLineEnd({ start: 0, lf: undefined }, 5000)).toBe('request-line');
    expect(overflowFromLineEnd({ start: 0, lf: 6000 }, 5000)).toBe('request-line');
    expect(overflowFromLineEnd({ start: 0, lf: 20 }, 5000)).toBe('header-fields');
    expect(overflowFromLineEnd({ start: 100, lf: 120 }, 5000)).toBe('header-fields');
  });
  it('no measure for this request (none, or a stop before its start) is undefined: the chunk heuristic decides', () => {
    expect(overflowFromLineEnd(undefined, 5000)).toBeUndefined();
    expect(overflowFromLineEnd({ start: 6000, lf: undefined }, 5000)).toBeUndefined();
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

  async function listen(limit: number): Promise<number> {
    server = http.createServer({ maxHeaderSize: limit }, (_q, r) => r.end('ok'));
    answerOversizeHeads(server, limit);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return (server.address() as net.AddressInfo).port;
  }

  async function raw(bytes: string | string[], limit = 4096): Promise<string> {
    const port = await listen(limit);
    const parts = Array.isArray(bytes) ? bytes : [bytes];
    return new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', async () => {
        // Each part is written once the server answered the one before (a kept-alive connection).
        for (const [i, part] of parts.entries()) {
          if (i > 0) {
            await new Promise<void>((r) => {
              const check = () => (out.includes('ok') ? r() : s.once('data', check));
              check();
            });
          }
          if (i === parts.length - 1) s.end(part);
          else s.write(part);
        }
      });
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

  const MB2 = 2_000_000;
  it.each([
    ['one 2 MB header value after a short request line', 431, `GET /v1/sprites HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(MB2)}\r\n\r\n`],
    ['one 2 MB header name', 431, `GET / HTTP/1.1\r\n${'n'.repeat(MB2)}: 1\r\n\r\n`],
    ['300 headers of 5 KB', 431, `GET / HTTP/1.1\r\n${Array.from({ length: 300 }, (_, i) => `x-f-${i}: ${'h'.repeat(5000)}\r\n`).join('')}\r\n`],
    ['a 2 MB target', 414, `GET /${'a'.repeat(MB2)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a 2 MB query', 414, `POST /v1/sprites/s/exec?${'cmd=yy&'.repeat(MB2 / 7)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('with a 1 MiB limit, %s answers %i (the request line is measured, not guessed from the last chunk)', async (_name, status, text) => {
    const out = await raw(text, 1024 * 1024);
    expect(out.slice(0, 12)).toBe(`HTTP/1.1 ${status}`);
    expect(JSON.parse(out.split('\r\n\r\n')[1]!)).toMatchObject({ error: status === 414 ? 'uri_too_long' : 'request_header_fields_too_large' });
  });

  it('on a kept-alive connection, the second request is measured from its own start', async () => {
    const out = await raw(
      ['GET /one HTTP/1.1\r\nHost: x\r\n\r\n', `GET /two HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(MB2)}\r\n\r\n`],
      1024 * 1024,
    );
    expect(out).toMatch(/^HTTP\/1\.1 200 /);
    expect(out).toContain('HTTP/1.1 431 Request Header Fields Too Large');
  });

  it('keeps Node\'s 400 for a request that does not parse', async () => {
    expect(await raw('NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });
});
