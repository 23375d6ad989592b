import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { checkString, sendJsonWithLongArray, specItemCheck, type LongArrayOptions } from './json-stream.ts';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** Serves `body` once through sendJsonWithLongArray; resolves with the status, headers, the body and its chunk count. */
async function fetchOnce(body: Record<string, unknown>, key: string, opts: LongArrayOptions) {
  const app = express();
  app.get('/', async (_req, res, next) => {
    try {
      await sendJsonWithLongArray(res, body, key, opts);
    } catch (err) {
      next(err);
    }
  });
  app.use(((err, _req, res, _next) => res.status((err as { status?: number }).status ?? 500).json({ error: String((err as Error).message) })) as express.ErrorRequestHandler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server!.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; chunks: number }>((resolve, reject) => {
    http.get(`http://127.0.0.1:${port}/`, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(parts).toString(), chunks: parts.length }));
    }).on('error', reject);
  });
}

const entry = (i: number) => ({ name: `f${i}`, path: `/t/${'a/'.repeat(40)}f${i}`, type: 'file', size: i, mode: '0644', modTime: '2026-01-13T10:30:00Z', isDir: false });

describe('sendJsonWithLongArray', () => {
  it('sends a short body whole, with its length, as res.json does', async () => {
    const body = { path: '/t', entries: [entry(1), entry(2)], count: 2 };
    const got = await fetchOnce(body, 'entries', { check: specItemCheck('FsEntry') });
    expect(got.status).toBe(200);
    expect(got.text).toBe(JSON.stringify(body));
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.text)));
  });

  it('streams a long body in several chunks, byte for byte what JSON.stringify gives, members in order', async () => {
    const entries = Array.from({ length: 3000 }, (_, i) => entry(i));
    const body = { path: '/t', skipped: undefined, entries, count: entries.length, tail: 'é"\n' };
    const got = await fetchOnce(body, 'entries', { check: specItemCheck('FsEntry'), chunkChars: 16 * 1024 });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(got.text).toBe(JSON.stringify(body));
    expect(got.chunks).toBeGreaterThan(5);
  });

  it('answers 500 before sending anything when one item does not match its schema', async () => {
    const entries = Array.from({ length: 600 }, (_, i) => entry(i));
    (entries[555] as Record<string, unknown>).size = -1;
    const got = await fetchOnce({ path: '/t', entries, count: 600 }, 'entries', { check: specItemCheck('FsEntry'), checkPerTurn: 100 });
    expect(got.status).toBe(500);
    expect(JSON.parse(got.text).error).toContain('.response/entries/555');
    const strings = await fetchOnce({ deleted: [...Array(600).fill('/x'), 7], count: 601 }, 'deleted', { check: checkString });
    expect(strings.status).toBe(500);
  });
});
