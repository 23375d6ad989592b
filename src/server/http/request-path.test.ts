import { describe, expect, it, vi } from 'vitest';
import { validatorModule } from './validator/internals.ts';
import { pino } from 'pino';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { parseQuery } from './query.ts';
import { memoiseValidatorRoutes } from './validator/route-cache.ts';
import { bodyStage } from './body-stage.ts';
import { isRawBodyRoute, rawBodyRoutes } from './raw-body.ts';
import { requestLog } from './request-log.ts';
import { WARM_UP_HEADER } from './warm-up.ts';
import { loadOpenApiDocument } from './spec.ts';

describe('parseQuery', () => {
  it('keeps every repeated parameter as one array, past qs\'s 20 and 1,000 caps', () => {
    const q = parseQuery(Array.from({ length: 2500 }, (_, i) => `cmd=a${i}`).join('&'));
    expect(Array.isArray(q.cmd)).toBe(true);
    expect((q.cmd as string[]).length).toBe(2500);
    expect((q.cmd as string[])[2499]).toBe('a2499');
  });
  it('parses like Express\'s extended parser otherwise', () => {
    expect(parseQuery('a=1&b[c]=2&path=%2Fhome')).toEqual({ a: '1', b: { c: '2' }, path: '/home' });
  });
});

describe('memoiseValidatorRoutes', () => {
  it('makes the validator\'s pathToRegexp return one compiled matcher per template and options', () => {
    const size = memoiseValidatorRoutes();
    const { pathToRegexp } = validatorModule('path-to-regexp') as { pathToRegexp: (p: string, o?: object) => { regexp: RegExp } };
    const a = pathToRegexp('/v1/x/:name', { sensitive: true, strict: false });
    expect(pathToRegexp('/v1/x/:name', { sensitive: true, strict: false })).toBe(a);
    expect(pathToRegexp('/v1/x/:name', { sensitive: false, strict: false })).not.toBe(a);
    expect(a.regexp.exec('/v1/x/box')).not.toBeNull();
    expect(size()).toBeGreaterThan(0);
    expect(memoiseValidatorRoutes()()).toBe(size()); // idempotent: one cache
  });
});

type Fake = Request & EventEmitter;
function fakeReq(method: string, path: string, headers: Record<string, string> = {}): Fake {
  return Object.assign(new EventEmitter(), { method, path, originalUrl: path, headers }) as unknown as Fake;
}

describe('bodyStage', () => {
  it('skips every parser when no body is announced, runs them in order otherwise, and stops at an error', () => {
    const seen: string[] = [];
    const p = (n: string, err?: Error) => (_q: Request, _r: Response, next: NextFunction) => {
      seen.push(n);
      next(err);
    };
    const next = vi.fn();
    bodyStage([p('a'), p('b')])(fakeReq('GET', '/'), {} as Response, next);
    expect(seen).toEqual([]);
    expect(next).toHaveBeenCalledWith();
    bodyStage([p('a'), p('b')])(fakeReq('PUT', '/', { 'content-length': '3' }), {} as Response, next);
    expect(seen).toEqual(['a', 'b']);
    const boom = new Error('boom');
    bodyStage([p('c', boom), p('d')])(fakeReq('PUT', '/', { 'transfer-encoding': 'chunked' }), {} as Response, next);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(next).toHaveBeenLastCalledWith(boom);
  });
});

describe('rawBodyRoutes', () => {
  it('relabels fs/write and exec bodies of any type as octet-stream, and nothing else', () => {
    expect(isRawBodyRoute('PUT', '/v1/sprites/a/fs/write')).toBe(true);
    expect(isRawBodyRoute('POST', '/v1/sprites/a/exec')).toBe(true);
    expect(isRawBodyRoute('POST', '/v1/sprites/a/fs/write')).toBe(false);
    expect(isRawBodyRoute('POST', '/v1/sprites/a/exec/s1/kill')).toBe(false);
    const mw = rawBodyRoutes();
    const form = fakeReq('PUT', '/v1/sprites/a/fs/write', { 'content-length': '3', 'content-type': 'application/x-www-form-urlencoded' });
    mw(form, {} as Response, () => {});
    expect(form.headers['content-type']).toBe('application/octet-stream');
    const none = fakeReq('POST', '/v1/sprites/a/exec', { 'content-length': '3' });
    mw(none, {} as Response, () => {});
    expect(none.headers['content-type']).toBe('application/octet-stream');
    const json = fakeReq('POST', '/v1/sprites', { 'content-length': '2', 'content-type': 'application/json' });
    mw(json, {} as Response, () => {});
    expect(json.headers['content-type']).toBe('application/json');
  });

  it('gives a raw-body request that announces no body an empty one (Content-Length 0), and no other request', () => {
    const mw = rawBodyRoutes();
    const bare = fakeReq('PUT', '/v1/sprites/a/fs/write');
    mw(bare, {} as Response, () => {});
    expect(bare.headers).toMatchObject({ 'content-length': '0', 'content-type': 'application/octet-stream' });
    const chunked = fakeReq('POST', '/v1/sprites/a/exec', { 'transfer-encoding': 'chunked' });
    mw(chunked, {} as Response, () => {});
    expect(chunked.headers['content-length']).toBeUndefined();
    const get = fakeReq('GET', '/v1/sprites/a');
    mw(get, {} as Response, () => {});
    expect(get.headers['content-length']).toBeUndefined();
  });
});

describe('requestLog', () => {
  function run(level: string, status: number, headers: Record<string, string> = { authorization: 'Bearer secret' }) {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level }, { write: (s: string) => lines.push(JSON.parse(s)) });
    let t = 100;
    const res = Object.assign(new EventEmitter(), { statusCode: status, writableFinished: true }) as unknown as Response & EventEmitter;
    requestLog(logger, () => t)(fakeReq('GET', '/v1/sprites/a?x=1', headers), res, () => {});
    t = 112.4;
    res.emit('finish');
    res.emit('close');
    return lines;
  }
  it('writes one line per request with method, url, status and ms, never headers', () => {
    const lines = run('info', 200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/v1/sprites/a?x=1' }, res: { statusCode: 200 }, responseTime: 12 });
    expect(JSON.stringify(lines[0])).not.toContain('secret');
  });
  it('logs 5xx at error, and nothing else when the level is above info', () => {
    expect(run('warn', 200)).toHaveLength(0);
    expect(run('warn', 503)[0]).toMatchObject({ level: 50, msg: 'request errored' });
    expect(run('silent', 503)).toHaveLength(0);
  });
  it("does not log the start's own warm-up request (http/warm-up.ts), even when it fails", () => {
    expect(run('info', 200, { [WARM_UP_HEADER]: '1' })).toHaveLength(0);
    expect(run('info', 503, { [WARM_UP_HEADER]: '1' })).toHaveLength(0);
    expect(run('info', 200, { [WARM_UP_HEADER]: 'yes' })).toHaveLength(1);
  });
});

describe('loadOpenApiDocument', () => {
  it('prefers the prepared JSON when it is not older than the YAML, and reads the YAML otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-'));
    try {
      const yaml = join(dir, 'a.yaml');
      const json = join(dir, 'a.json');
      writeFileSync(yaml, 'openapi: 3.1.0\nfrom: yaml\n');
      writeFileSync(json, JSON.stringify({ openapi: '3.1.0', from: 'json' }));
      utimesSync(yaml, 1000, 1000);
      expect(loadOpenApiDocument(yaml, json)).toMatchObject({ from: 'json' });
      const yaml2 = join(dir, 'b.yaml');
      writeFileSync(yaml2, 'openapi: 3.1.0\nfrom: yaml\n');
      utimesSync(json, 1000, 1000);
      const doc = loadOpenApiDocument(yaml2, json);
      expect(doc).toMatchObject({ from: 'yaml' });
      expect(loadOpenApiDocument(yaml2, json)).toBe(doc); // read once
      expect(Object.isFrozen(doc)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
