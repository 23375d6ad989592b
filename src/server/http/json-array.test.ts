import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { sendJsonArray } from './json-array.ts';

/** A response that records writes; `write` reports a full buffer every `fullEvery` writes, then drains. */
function fakeResponse(fullEvery = 0) {
  const res = Object.assign(new EventEmitter(), {
    writes: [] as string[],
    ended: undefined as string | undefined,
    jsonBody: undefined as unknown,
    statusCode: 0,
    contentType: '',
    destroyed: false,
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    type(t: string) {
      res.contentType = t;
      return res;
    },
    json(body: unknown) {
      res.jsonBody = body;
      return res;
    },
    write(chunk: string) {
      res.writes.push(chunk);
      const full = fullEvery > 0 && res.writes.length % fullEvery === 0;
      if (full) setImmediate(() => res.emit('drain'));
      return !full;
    },
    end(chunk: string) {
      res.ended = chunk;
      return res;
    },
  });
  return res;
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `v${i}`, comment: 'c'.repeat(i % 50), n: i }));

describe('sendJsonArray', () => {
  it('sends a short array through res.json (so response validation sees it)', async () => {
    const res = fakeResponse();
    await sendJsonArray(res as unknown as Response, items(3));
    expect(res.jsonBody).toEqual(items(3));
    expect(res.writes).toEqual([]);
  });

  it('streams a long array in bounded chunks, byte-for-byte what JSON.stringify gives, waiting for drain', async () => {
    const res = fakeResponse(3);
    const all = items(20_000);
    await sendJsonArray(res as unknown as Response, all, { chunkBytes: 4096 });
    expect(res.statusCode).toBe(200);
    expect(res.contentType).toContain('application/json');
    expect(res.writes.length).toBeGreaterThan(100);
    const largestItem = Math.max(...all.map((x) => JSON.stringify(x).length));
    for (const w of res.writes) expect(w.length).toBeLessThan(4096 + largestItem + 1);
    expect(res.writes.join('') + res.ended).toBe(JSON.stringify(all));
  });

  it('stops writing when the client is gone', async () => {
    const res = fakeResponse();
    res.destroyed = true;
    await sendJsonArray(res as unknown as Response, items(2000), { chunkBytes: 1024 });
    expect(res.writes).toEqual([]);
    expect(res.ended).toBeUndefined();
  });
});
