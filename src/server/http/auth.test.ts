import { describe, expect, it } from 'vitest';
import { Credentials, inSpriteAdmits, inSpriteScopeOf, IN_SPRITE_SCOPE, scopeOfPath } from './auth.ts';

describe('scopeOfPath', () => {
  it('maps /_spritzer to admin, /v1/organizations/{org} to that org, and the rest to the server org', () => {
    expect(scopeOfPath('/_spritzer/reset', 'personal')).toEqual({ kind: 'admin' });
    expect(scopeOfPath('/v1/organizations/acme/tokens', 'personal')).toEqual({ kind: 'org', org: 'acme' });
    expect(scopeOfPath('/v1/organizations/a%20b', 'personal')).toEqual({ kind: 'org', org: 'a b' });
    expect(scopeOfPath('/v1/sprites/x', 'personal')).toEqual({ kind: 'org', org: 'personal' });
    expect(scopeOfPath('/_SPRITZER/reset', 'personal')).toEqual({ kind: 'org', org: 'personal' }); // routing is case-sensitive too
  });
});

describe('Credentials', () => {
  it('with --token: the configured token passes everywhere, a minted one only in its own org', () => {
    const c = new Credentials('secret', 'personal');
    const mine = c.mint('tok-1');
    const theirs = c.mint('tok-2', 'acme');
    expect(c.accepts('Bearer secret', 'Bearer', { kind: 'admin' })).toBe(true);
    expect(c.accepts('FlyV1 secret', 'FlyV1')).toBe(true);
    expect(c.accepts(`Bearer ${mine}`)).toBe(true);
    expect(c.accepts(`Bearer ${mine}`, 'Bearer', { kind: 'admin' })).toBe(false);
    expect(c.accepts(`Bearer ${mine}`, 'Bearer', { kind: 'org', org: 'acme' })).toBe(false);
    expect(c.accepts(`FlyV1 ${mine}`, 'FlyV1')).toBe(false);
    expect(c.accepts(`Bearer ${theirs}`)).toBe(false);
    expect(c.accepts(`Bearer ${theirs}`, 'Bearer', { kind: 'org', org: 'acme' })).toBe(true);
  });

  it('compares credentials of any length without throwing (fixed-length digests), and refuses near misses', () => {
    const c = new Credentials('secret');
    for (const guess of ['s', 'secre', 'secret2', 'SECRET', 'x'.repeat(100_000), '€€€']) {
      expect(c.accepts(`Bearer ${guess}`)).toBe(false);
    }
  });

  it('without --token any non-empty credential passes; an empty or wrong-scheme one never does', () => {
    const c = new Credentials(undefined);
    expect(c.accepts('Bearer anything', 'Bearer', { kind: 'admin' })).toBe(true);
    expect([undefined, '', 'Bearer', 'Bearer   ', 'Basic abc'].map((h) => c.accepts(h))).toEqual([false, false, false, false, false]);
  });
});

describe('Credentials.carriesOwnToken', () => {
  it('knows the --token value and minted tokens in any scheme, and nothing else', () => {
    const c = new Credentials('secret', 'personal');
    c.mint('minted-1', 'other');
    expect(['Bearer secret', 'FlyV1 secret', 'bearer  minted-1 ', 'Bearer minted-1'].map((h) => c.carriesOwnToken(h))).toEqual([true, true, true, true]);
    expect(['Bearer nope', 'Basic c2VjcmV0', 'secret', '', undefined].map((h) => c.carriesOwnToken(h))).toEqual([false, false, false, false, false]);
  });

  it('without --token only minted tokens are its own (any other credential names nobody)', () => {
    const c = new Credentials(undefined);
    c.mint('minted-2');
    expect([c.carriesOwnToken('Bearer anything'), c.carriesOwnToken('Bearer minted-2')]).toEqual([false, true]);
  });
});

describe('Credentials persistence hooks (src/server/store)', () => {
  it('hands out minted tokens as digests only, and a new instance given them accepts the tokens again', () => {
    const before = new Credentials('admin', 'personal');
    before.mint('spritzer/minted-1');
    before.mint('spritzer/other-org', 'acme');
    const saved = before.mintedDigests();
    expect(saved).toHaveLength(2);
    expect(JSON.stringify(saved)).not.toContain('minted-1');
    const after = new Credentials('admin', 'personal');
    expect(after.accepts('Bearer spritzer/minted-1')).toBe(false);
    for (const [digest, org] of saved) after.restoreDigest(digest, org);
    expect(after.accepts('Bearer spritzer/minted-1')).toBe(true);
    expect(after.accepts('Bearer spritzer/other-org')).toBe(false);
    expect(after.accepts('Bearer spritzer/other-org', 'Bearer', { kind: 'org', org: 'acme' })).toBe(true);
  });
});

describe('the in-sprite scope', () => {
  it('admits only the sprite’s own public API, with no segment or escape that leads out of it', () => {
    expect(inSpriteAdmits('box', '/v1/sprites/box/services', 'GET')).toBe(true);
    expect(inSpriteAdmits('box', '/v1/sprites/box/services/web', 'DELETE')).toBe(true);
    expect(inSpriteAdmits('a b', '/v1/sprites/a%20b/tasks/t', 'PUT')).toBe(true);
    for (const p of [
      '/v1/sprites/other/services', '/v1/sprites/boxx/services', '/v1/sprites', '/_spritzer/state', '/v1/sprites/boxx', '/v1/sprites/other',
      '/v1/sprites/box/../other/services', '/v1/sprites/box/./services', '/v1/sprites/box/%2e%2e/other', '/v1/sprites/box/x%2Fy',
      '/v1/sprites/box/x%5cy', '/v1/sprites/box/x\\..', '/v1/organizations/personal/tokens',
    ]) expect(inSpriteAdmits('box', p, 'GET'), p).toBe(false);
  });

  it('admits the sprite itself to read only: GET and HEAD of /v1/sprites/<name>, never an update or a delete', () => {
    expect(inSpriteAdmits('box', '/v1/sprites/box', 'GET')).toBe(true);
    expect(inSpriteAdmits('box', '/v1/sprites/box', 'HEAD')).toBe(true);
    for (const m of ['PUT', 'POST', 'DELETE', 'PATCH']) expect(inSpriteAdmits('box', '/v1/sprites/box', m), m).toBe(false);
  });

  it('is read only from the symbol the in-sprite API sets, never from anything a request carries', () => {
    expect(inSpriteScopeOf({ headers: { 'in-sprite-scope': 'box' } })).toBeUndefined();
    expect(inSpriteScopeOf({ [IN_SPRITE_SCOPE]: 'box' })).toBe('box');
  });
});

