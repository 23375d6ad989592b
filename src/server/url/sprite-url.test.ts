import { describe, expect, it } from 'vitest';
import { spriteUrlTarget } from './sprite-url.ts';
import { publicPathOf } from './in-sprite-api.ts';

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

  it('refuses everything else, other sprites included', () => {
    for (const p of ['/v1/sprites', '/v1/sprites/other/services', '/v1/servicesx', '/_spritzer/state', '/']) expect(publicPathOf('box', p)).toBeNull();
  });
});
