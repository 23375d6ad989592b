// The suite's own machinery: target selection refuses what it must, and the spec validator rejects what does
// not match the contracts (so a green run means something). These checks touch no server.
import { describe, expect } from 'vitest';
import { verified } from './support/index.ts';
import { resolveTarget, EMULATOR_TOKEN } from './support/target.ts';
import { SpecValidator, SpecViolation } from './support/spec-validator.ts';

const spec = new SpecValidator();
const enc = (s: string) => new TextEncoder().encode(s);

describe('conformance target', () => {
  verified.it('starts the emulator when SPRITES_BASE_URL is unset', () => {
    expect(resolveTarget({})).toEqual({ kind: 'emulator', token: EMULATOR_TOKEN });
  });

  verified.it('needs a token with a URL, and accepts SPRITES_TEST_TOKEN', () => {
    expect(() => resolveTarget({ SPRITES_BASE_URL: 'http://127.0.0.1:4290' })).toThrow(/SPRITES_TOKEN/);
    expect(resolveTarget({ SPRITES_BASE_URL: 'http://127.0.0.1:4290/', SPRITES_TEST_TOKEN: 't' })).toEqual({ kind: 'remote', baseUrl: 'http://127.0.0.1:4290', token: 't' });
  });

  verified.it('refuses a non-loopback URL unless SPRITZER_ALLOW_REMOTE=1', () => {
    const env = { SPRITES_BASE_URL: 'https://api.sprites.dev', SPRITES_TOKEN: 't' };
    expect(() => resolveTarget(env)).toThrow(/SPRITZER_ALLOW_REMOTE=1/);
    expect(() => resolveTarget({ ...env, SPRITZER_ALLOW_REMOTE: 'yes' })).toThrow(/SPRITZER_ALLOW_REMOTE=1/);
    expect(resolveTarget({ ...env, SPRITZER_ALLOW_REMOTE: '1' }).kind).toBe('remote');
    expect(resolveTarget({ SPRITES_BASE_URL: 'http://localhost:9', SPRITES_TOKEN: 't' }).kind).toBe('remote');
    expect(resolveTarget({ SPRITES_BASE_URL: 'http://[::1]:9', SPRITES_TOKEN: 't' }).kind).toBe('remote');
  });
});

describe('spec validator', () => {
  const getSprite = spec.findOperation('GET', '/v1/sprites/box')!;

  verified.it('finds operations by method and path, literal segments first', () => {
    expect(getSprite.operationId).toBe('getSprite');
    expect(spec.findOperation('POST', '/v1/sprites/box/services/signal')?.operationId).toBe('signalService');
    expect(spec.findOperation('GET', '/v1/sprites/box/services/signal')?.operationId).toBe('getService');
    expect(spec.findOperation('PATCH', '/v1/sprites/box')).toBeUndefined();
  });

  verified.it('rejects a body missing a required field, an undocumented status and an undocumented content type', () => {
    expect(() => spec.checkResponse(getSprite, 200, 'application/json', enc('{"id":"x"}'))).toThrow(SpecViolation);
    expect(() => spec.checkResponse(getSprite, 418, 'application/json', enc('{}'))).toThrow(/418 is not documented/);
    expect(() => spec.checkResponse(getSprite, 404, 'text/html', enc('<p>'))).toThrow(/content type/);
    expect(spec.checkResponse(getSprite, 404, 'application/json', enc('{"error":"sprite not found"}')).json).toEqual({ error: 'sprite not found' });
  });

  verified.it('checks every NDJSON line, and a body on a status documented without one', () => {
    const create = spec.findOperation('POST', '/v1/sprites/box/checkpoint')!;
    const good = '{"type":"info","data":"Creating checkpoint...","time":"2026-01-13T10:30:00Z"}\n{"type":"complete","data":"Checkpoint v1 created successfully","time":"2026-01-13T10:30:00Z"}\n';
    expect(spec.checkResponse(create, 200, 'application/x-ndjson', enc(good)).lines).toHaveLength(2);
    expect(() => spec.checkResponse(create, 200, 'application/x-ndjson', enc(good + 'not json\n'))).toThrow(/line 3 is not JSON/);
    const del = spec.findOperation('DELETE', '/v1/sprites/box')!;
    expect(() => spec.checkResponse(del, 204, 'application/json', enc('{}'))).toThrow(/documents no body/);
  });

  verified.it('checks WebSocket frames against the AsyncAPI messages', () => {
    expect(spec.checkFrame('execCommandOutput', new Uint8Array([3, 42]), true, ['stdout', 'stderr', 'exitFrame'])).toBe('exitFrame');
    expect(spec.checkFrame('execCommandOutput', new Uint8Array([1, 104, 105]), true, ['stdout', 'stderr', 'exitFrame'])).toBe('stdout');
    expect(() => spec.checkFrame('execCommandOutput', new Uint8Array([3, 1, 2]), true, ['stdout', 'stderr', 'exitFrame'])).toThrow(SpecViolation);
    expect(() => spec.checkFrame('execCommandOutput', new Uint8Array([9]), true, ['stdout', 'stderr', 'exitFrame'])).toThrow(SpecViolation);
    const info = '{"type":"session_info","session_id":"7","command":"sh","created":1,"cols":0,"rows":0,"is_owner":true,"tty":false}';
    expect(spec.checkFrame('execCommandOutput', info, false)).toBe('sessionInfo');
    expect(() => spec.checkFrame('execCommandOutput', info.replace('"7"', '7'), false)).toThrow(/session_id|matches no message/);
    expect(spec.checkFrame('controlSessionOutput', 'control:{"type":"op.complete","args":{"exitCode":0}}', false)).toBe('opComplete');
  });
});
