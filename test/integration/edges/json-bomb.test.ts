/**
 * Deep or huge JSON bodies (JSON bombs) are refused before they are parsed, so that one cannot exhaust the server's
 * memory or hold its event loop. A body over the JSON size cap is a 413 in the envelope (with or without
 * Content-Length); a body nested deeper than 64 levels is a 400 found by a byte scan before `JSON.parse` (shown by a
 * deep body that is not even valid JSON: a parser would have answered a syntax error). After each attack the server
 * answers and earlier state is intact. No timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import { expectIntact, seedState, withHealthProbe, KEPT } from '../../support/attack.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { DEFAULT_MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH } from '../../../src/server/http/json-depth.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell', { token: TOKEN });
  call = api(srv.url);
  await seedState(srv.url);
});
afterAll(() => srv.close());

const json = { 'Content-Type': 'application/json' };

describe('JSON bombs are refused before they are parsed', () => {
  it('a 10 MB body of nested [ is a 413 in the envelope, and no sprite appears', async () => {
    const before = (await call('GET', '/v1/sprites')).json.sprites.length;
    const bomb = '['.repeat(5 * 1024 * 1024) + ']'.repeat(5 * 1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const r = await withHealthProbe(srv.url, 'a 10 MB body of nested [', () => call('POST', '/v1/sprites', bomb, json));
    // Parsing it cost hundreds of MB (843 MB RSS when bodies were still parsed first); refused unread, this process
    // grows by far less.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(128 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('too large') });
    expect((await call('GET', '/v1/sprites')).json.sprites.length).toBe(before);
    await expectIntact(srv.url);
  });

  it('the same body streamed without Content-Length (chunked) is refused alike', async () => {
    const chunk = new TextEncoder().encode('['.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 10 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const [status, answer] = await withHealthProbe(srv.url, '10 MB of [ streamed without Content-Length', async () => {
      const res = await fetch(`${srv.url}/v1/sprites`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, ...json },
        body,
        duplex: 'half',
      } as RequestInit);
      return [res.status, await res.json()] as const;
    });
    expect(status).toBe(413);
    expect(answer).toMatchObject({ error: 'invalid_request' });
    await expectIntact(srv.url);
  });

  it(`a body under the size cap but nested deeper than ${MAX_JSON_DEPTH} levels is a 400 before parsing`, async () => {
    // Unterminated: JSON.parse would say "Unexpected end of JSON input"; the depth scan answers first.
    const r = await withHealthProbe(srv.url, '100,000 unclosed [', () => call('POST', '/v1/sprites', '['.repeat(100_000), json));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: 'invalid_request',
      message: `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`,
      errors: [`JSON body nested deeper than ${MAX_JSON_DEPTH} levels`],
    });
    await expectIntact(srv.url);
  });

  it('nesting is counted outside strings only, and a body just at the cap still works', async () => {
    const labels = ['['.repeat(100), '{'.repeat(100)]; // 200 brackets in strings, none nested
    const r = await call('POST', '/v1/sprites', { name: 'brackets', labels });
    expect(r.status).toBe(201);
    expect((await call('GET', '/v1/sprites/brackets')).json.labels).toEqual(labels);
    await call('DELETE', '/v1/sprites/brackets');
    await expectIntact(srv.url);
  });

  it('the cap is the documented default and applies to every JSON route (fs, policy)', async () => {
    expect(DEFAULT_MAX_JSON_BODY_BYTES).toBe(1024 * 1024);
    const big = JSON.stringify({ source: '/a', dest: 'x'.repeat(DEFAULT_MAX_JSON_BODY_BYTES) });
    expect((await call('POST', `/v1/sprites/${KEPT.sprite}/fs/rename`, big, json)).status).toBe(413);
    const deep = `{"rules":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`;
    expect((await call('POST', `/v1/sprites/${KEPT.sprite}/policy/network`, deep, json)).status).toBe(400);
    await expectIntact(srv.url);
  });
});

describe('--max-json-body', () => {
  it('a server started with a smaller cap answers 413 above it and 201 below it', async () => {
    const small = await startTestServer('shell', { maxJsonBodyBytes: 64 });
    try {
      const c = api(small.url);
      expect((await c('POST', '/v1/sprites', { name: 'tiny' })).status).toBe(201);
      expect((await c('POST', '/v1/sprites', { name: 'big', labels: ['x'.repeat(100)] })).status).toBe(413);
      expect((await c('GET', '/v1/sprites/big')).status).toBe(404);
    } finally {
      await small.close();
    }
  });
});
