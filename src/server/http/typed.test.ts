/**
 * The typed request view and the handler map: the type-level checks here are run by `tsc` (a `@ts-expect-error`
 * that stops erroring fails the typecheck), the runtime ones by vitest (how the view is built from a request).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Request } from 'express';
import type { HandlerMap } from '../context.ts';
import type { components } from '../../../generated/openapi.d.ts';
import { requestView, type BodyOf, type PathOf, type QueryOf, type RawBodyOperation } from './typed.ts';

/** A request as the validator leaves it: only the parts the view reads. */
function validated(parts: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown }): Request {
  return { params: {}, query: {}, ...parts } as unknown as Request;
}

describe('handler map', () => {
  it('refuses a misspelt operationId and a parameter the operation does not have', () => {
    const handlers: HandlerMap = {
      // @ts-expect-error `getSprit` is no operationId of the spec
      getSprit() {},
      getSprite({ path, body }) {
        expectTypeOf(path.name).toEqualTypeOf<string>();
        expectTypeOf(body).toEqualTypeOf<undefined>();
        // @ts-expect-error getSprite has no `session_id` path parameter
        void path.session_id;
      },
    };
    expect(Object.keys(handlers)).toEqual(['getSprit', 'getSprite']);
  });
});

describe('request view types', () => {
  it('follow the generated operations', () => {
    expectTypeOf<PathOf<'getExecSession'>>().toEqualTypeOf<{ name: string; session_id: string }>();
    expectTypeOf<PathOf<'listSprites'>>().toEqualTypeOf<Record<never, never>>();
    expectTypeOf<QueryOf<'getServiceLogs'>>().toEqualTypeOf<{ lines?: number; duration?: string }>();
    expectTypeOf<QueryOf<'getSprite'>>().toEqualTypeOf<Record<never, never>>();
    expectTypeOf<BodyOf<'createSprite'>>().toEqualTypeOf<components['schemas']['CreateSpriteRequest']>();
    expectTypeOf<BodyOf<'createCheckpoint'>>().toEqualTypeOf<components['schemas']['CreateCheckpointRequest'] | undefined>();
    expectTypeOf<BodyOf<'writeFile'>>().toEqualTypeOf<Buffer>();
    expectTypeOf<BodyOf<'execHttp'>>().toEqualTypeOf<Buffer>();
    expectTypeOf<RawBodyOperation>().toEqualTypeOf<'writeFile' | 'execHttp'>();
  });
});

describe('requestView', () => {
  it('hands over the validated path parameters, query and JSON body as they are', () => {
    const body = { comment: 'before upgrade' };
    const req = validated({ params: { name: 'box' }, query: { extra: '1' }, body });
    const view = requestView('createCheckpoint', req);
    expect(view.path).toEqual({ name: 'box' });
    expect(view.query).toEqual({ extra: '1' });
    expect(view.body).toBe(body);
    expect(view.req).toBe(req);
  });

  it('leaves an optional JSON body that did not come undefined', () => {
    expect(requestView('createCheckpoint', validated({ params: { name: 'box' } })).body).toBeUndefined();
  });

  it('gives a raw-body operation its bytes, or an empty Buffer when none were read', () => {
    const bytes = Buffer.from('hello');
    expect(requestView('writeFile', validated({ body: bytes })).body).toBe(bytes);
    expect(requestView('execHttp', validated({})).body).toEqual(Buffer.alloc(0));
  });
});
