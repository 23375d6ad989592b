import { describe, expect, it } from 'vitest';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { composeValidator } from './chain.ts';

type R = Request & { openapi?: { schema?: object; pathParams?: Record<string, string> } };

/** Stand-ins named like the validator's own middlewares; `calls` counts the real lookups. */
function validatorLike() {
  const calls = { pathParams: 0, lookups: 0, validated: 0 };
  const pathParamsMiddleware: RequestHandler = (_q, _r, next) => {
    calls.pathParams++;
    next();
  };
  const metadataMiddleware: RequestHandler = (req: R, _r, next) => {
    calls.lookups++;
    const m = /^\/v1\/sprites\/([^/]+)$/.exec(req.originalUrl.split('?')[0]!);
    if (m) req.openapi = { schema: { operationId: 'getSprite' }, pathParams: { name: m[1]! } };
    next();
  };
  const requestMiddleware: RequestHandler = (req: R, _r, next) => {
    calls.validated++;
    req.openapi!.pathParams!.name += '!'; // a later stage writing to its copy
    next();
  };
  return { calls, list: [pathParamsMiddleware, metadataMiddleware, requestMiddleware] };
}

function run(mw: RequestHandler, method: string, url: string): Promise<R> {
  const req = { method, originalUrl: url } as R;
  return new Promise((resolve, reject) => mw(req, {} as Response, ((err?: unknown) => (err ? reject(err) : resolve(req))) as NextFunction));
}

describe('composeValidator', () => {
  it('looks a (method, path) up once, then reuses it with fresh copies; validation runs every time', async () => {
    const v = validatorLike();
    const mw = composeValidator(v.list);
    const a = await run(mw, 'GET', '/v1/sprites/box?x=1');
    const b = await run(mw, 'GET', '/v1/sprites/box');
    expect(v.calls).toEqual({ pathParams: 1, lookups: 1, validated: 2 });
    expect(a.openapi!.pathParams).toEqual({ name: 'box!' });
    expect(b.openapi!.pathParams).toEqual({ name: 'box!' });
    expect(b.params).toBe(b.openapi!.pathParams);
    await run(mw, 'DELETE', '/v1/sprites/box');
    expect(v.calls.lookups).toBe(2); // another method is another lookup
    expect(mw.cache.size).toBe(2);
  });

  it('never caches a lookup that matched nothing, and stays within its bound', async () => {
    const v = validatorLike();
    const mw = composeValidator(v.list.slice(0, 2), 2);
    await run(mw, 'GET', '/nowhere');
    await run(mw, 'GET', '/nowhere');
    expect(v.calls.lookups).toBe(2);
    for (const n of ['a', 'b', 'c']) await run(mw, 'GET', `/v1/sprites/${n}`);
    expect(mw.cache.size).toBeLessThanOrEqual(2);
  });

  it('passes a stage\'s error on and stops', async () => {
    const boom = new Error('bad request');
    const mw = composeValidator([(_q, _r, next) => next(boom), () => expect.unreachable()]);
    await expect(run(mw, 'GET', '/')).rejects.toBe(boom);
  });
});
