import { describe, expect, it } from 'vitest';
import { badGateway, spriteUrlTarget } from './sprite-url.ts';
import { ModelError } from '../core/errors.ts';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { IN_SPRITE_HOST, pinToSprite, publicPathOf } from './in-sprite-api.ts';
import { inSpriteScopeOf } from '../http/auth.ts';

const req = (url: string, host = '127.0.0.1:4290') => ({ url, headers: { host } });

describe('spriteUrlTarget', () => {
  it('path-routed: /s/<name>/<path> keeps the rest of the path and the query', () => {
    expect(spriteUrlTarget(req('/s/box/a/b.txt?x=1'))).toEqual({ name: 'box', path: '/a/b.txt?x=1', pathRouted: true });
    expect(spriteUrlTarget(req('/s/box'))).toEqual({ name: 'box', path: '/', pathRouted: true });
    expect(spriteUrlTarget(req('/s/box?q=2'))).toEqual({ name: 'box', path: '/?q=2', pathRouted: true });
  });

  it('host-routed: <name>.<domain>[:port], case-insensitive; the API host and other domains are not', () => {
    expect(spriteUrlTarget(req('/hello.txt', 'box.localhost:4290'))).toEqual({ name: 'box', path: '/hello.txt', pathRouted: false });
    expect(spriteUrlTarget(req('/', 'Box.LocalHost'))).toEqual({ name: 'box', path: '/', pathRouted: false });
    expect(spriteUrlTarget(req('/', 'box.sprites.test:80'), 'sprites.test')?.name).toBe('box');
    expect(spriteUrlTarget(req('/v1/sprites', 'localhost:4290'))).toBeNull();
    expect(spriteUrlTarget(req('/v1/sprites', 'box.example.com'))).toBeNull();
    expect(spriteUrlTarget(req('/', 'a.b.localhost'))).toBeNull();
  });

  it('the API paths are never a sprite URL', () => {
    for (const p of ['/v1/sprites/s/x', '/s', '/sx/box', '/_spritzer/health']) expect(spriteUrlTarget(req(p))).toBeNull();
  });
});

describe('publicPathOf (the in-sprite API)', () => {
  it('maps /v1/services, /v1/tasks, /v1/checkpoints and /v1/checkpoint onto the sprite', () => {
    expect(publicPathOf('box', '/v1/services')).toBe('/v1/sprites/box/services');
    expect(publicPathOf('box', '/v1/services/web/logs?lines=3')).toBe('/v1/sprites/box/services/web/logs?lines=3');
    expect(publicPathOf('box', '/v1/tasks/t1')).toBe('/v1/sprites/box/tasks/t1');
    expect(publicPathOf('box', '/v1/checkpoints')).toBe('/v1/sprites/box/checkpoints');
    expect(publicPathOf('box', '/v1/checkpoint')).toBe('/v1/sprites/box/checkpoint');
  });

  it('maps GET and HEAD of /v1/sprite onto the sprite itself and of /policy/network onto its policy, and nothing else of them', () => {
    expect(publicPathOf('box', '/v1/sprite')).toBe('/v1/sprites/box');
    expect(publicPathOf('box', '/v1/sprite', 'HEAD')).toBe('/v1/sprites/box');
    expect(publicPathOf('a b', '/v1/sprite?x=1', 'GET')).toBe('/v1/sprites/a%20b?x=1');
    expect(publicPathOf('box', '/policy/network')).toBe('/v1/sprites/box/policy/network');
    for (const m of ['PUT', 'POST', 'DELETE', 'PATCH']) {
      expect(publicPathOf('box', '/v1/sprite', m), m).toBeNull();
      expect(publicPathOf('box', '/policy/network', m), m).toBeNull();
    }
    for (const p of ['/v1/sprite/', '/v1/sprite/../other', '/v1/sprites/box', '/policy/network/x', '/policy/privileges', '/policy', '/v1/sprite#x']) {
      expect(publicPathOf('box', p), p).toBeNull();
    }
  });

  it('refuses everything else, other sprites included', () => {
    for (const p of ['/v1/sprites', '/v1/sprites/other/services', '/v1/servicesx', '/_spritzer/state', '/']) expect(publicPathOf('box', p)).toBeNull();
  });

  it('refuses a path that decoding or normalising would take out of the sprite, and keeps the query as it is', () => {
    for (const p of [
      '/v1/services/../../other/services',
      '/v1/services/./x',
      '/v1/services/..',
      '/v1/services/%2e%2e/%2E%2E/other',
      '/v1/services/..%2fother',
      '/v1/services/x%5C..',
      '/v1/services/..\\other',
      '/v1//services',
      '/v1/checkpoints//x',
    ]) expect(publicPathOf('box', p), p).toBeNull();
    expect(publicPathOf('box', '/v1/services/web/logs?path=../../x')).toBe('/v1/sprites/box/services/web/logs?path=../../x');
    expect(publicPathOf('a b', '/v1/tasks')).toBe('/v1/sprites/a%20b/tasks');
  });
});

describe('pinToSprite', () => {
  const request = (url: string, raw: string[]) => {
    const req = new IncomingMessage(new Socket());
    req.url = url;
    req.rawHeaders = raw;
    for (let i = 0; i < raw.length; i += 2) req.headers[raw[i].toLowerCase()] = raw[i + 1];
    return req;
  };

  it('keeps only the body and representation headers, sets Host: sprite, and marks the sprite instead of a credential', () => {
    const req = request('/v1/services', [
      'Host', 'victim.localhost', 'Authorization', 'Bearer x', 'X-Forwarded-Host', 'victim.localhost', 'Forwarded', 'host=v',
      'Origin', 'http://evil', 'Cookie', 'a=b', 'Content-Type', 'application/json', 'Content-Length', '2', 'Accept', '*/*',
    ]);
    expect(pinToSprite(req, 'box')).toBe(true);
    expect(req.url).toBe('/v1/sprites/box/services');
    expect(req.headers).toEqual({ host: IN_SPRITE_HOST, 'content-type': 'application/json', 'content-length': '2', accept: '*/*' });
    expect(req.rawHeaders).toEqual(['Host', IN_SPRITE_HOST, 'Content-Type', 'application/json', 'Content-Length', '2', 'Accept', '*/*']);
    expect(inSpriteScopeOf(req)).toBe('box');
  });

  it('maps /v1/sprite for a GET only: a DELETE of it is left unmapped (404 in the in-sprite API)', () => {
    const get = request('/v1/sprite', ['Host', 'sprite']);
    get.method = 'GET';
    expect([pinToSprite(get, 'box'), get.url]).toEqual([true, '/v1/sprites/box']);
    const del = request('/v1/sprite', ['Host', 'sprite']);
    del.method = 'DELETE';
    expect([pinToSprite(del, 'box'), del.url, inSpriteScopeOf(del)]).toEqual([false, '/v1/sprite', undefined]);
  });

  it('changes nothing for a path it does not map', () => {
    const req = request('/v1/sprites/other/services', ['Host', 'x']);
    expect(pinToSprite(req, 'box')).toBe(false);
    expect([req.url, req.headers.host, inSpriteScopeOf(req)]).toEqual(['/v1/sprites/other/services', 'x', undefined]);
  });
});


describe('badGateway', () => {
  it('a sprite that cannot be reached is 503 with the machine\'s words, as exec answers', () => {
    const why = new ModelError('sprite_unavailable', 'sprite box is unreachable: agent connection lost; spritzer tries again every 5 s');
    expect(badGateway({ name: 'box' }, 8080, why)).toEqual({ status: 503, body: { error: 'sprite_unavailable', message: why.message } });
  });

  it('a port nothing listens on is 502 naming it (with the error code when it is not a refusal)', () => {
    const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    expect(badGateway({ name: 'box' }, 8080, refused)).toEqual({ status: 502, body: { error: 'bad_gateway', message: 'nothing is listening on port 8080 in sprite box' } });
    const reset = Object.assign(new Error('x'), { code: 'ENETUNREACH' });
    expect(badGateway({ name: 'box' }, 3000, reset).body.message).toBe('nothing is listening on port 3000 in sprite box (ENETUNREACH)');
    expect(badGateway({ name: 'box' }, 3000, new ModelError('sprite_not_found', 'x')).status).toBe(502);
  });
});
