import { describe, expect, it } from 'vitest';
import { OriginCheck, normalOrigin } from './origin-check.ts';
import { parseSpritePortRange } from '../config/sprite-ports.ts';

const check = (allow?: string[], publicUrl?: string) => new OriginCheck({ localBase: () => 'http://127.0.0.1:4290', allow, publicUrl });
const req = (headers: Record<string, string>) => ({ headers: { host: '127.0.0.1:4290', ...headers } });

describe('OriginCheck', () => {
  it("allows no Origin, spritzer's own loopback origins, the public URL's and the allowed ones", () => {
    const c = check(['http://app.test:3000'], 'https://sprites.example/base');
    for (const origin of [undefined, 'http://127.0.0.1:4290', 'http://localhost:4290', 'http://[::1]:4290', 'https://sprites.example', 'http://app.test:3000']) {
      expect(c.refusal(req(origin ? { origin } : {})), origin).toBeUndefined();
    }
  });

  it("refuses a sprite's port, another port, a host-routed sprite, null, other sites, and a cross-site fetch without Origin", () => {
    const c = check();
    for (const origin of ['http://127.0.0.1:40000', 'http://localhost:4291', 'http://box.localhost:4290', 'null', 'http://evil.example', 'not a url']) {
      expect(c.refusal(req({ origin }))?.error, origin).toBe('forbidden');
    }
    expect(c.refusal(req({ 'sec-fetch-site': 'cross-site' }))?.error).toBe('forbidden');
    expect(c.refusal(req({ 'sec-fetch-site': 'same-site' }))?.error).toBe('forbidden');
    expect(c.refusal(req({ 'sec-fetch-site': 'same-origin' }))).toBeUndefined();
  });

  it('takes an Origin equal to the request Host only when that Host is an IP address or localhost (never a rebindable name)', () => {
    const c = check();
    expect(c.refusal({ headers: { host: '192.168.1.5:8080', origin: 'http://192.168.1.5:8080' } })).toBeUndefined();
    expect(c.refusal({ headers: { host: 'localhost:8080', origin: 'http://localhost:8080' } })).toBeUndefined();
    expect(c.refusal({ headers: { host: '[::1]:8080', origin: 'http://[::1]:8080' } })).toBeUndefined();
    expect(c.refusal({ headers: { host: 'rebind.example:4290', origin: 'http://rebind.example:4290' } })?.error).toBe('forbidden');
  });

  it('* allows every origin', () => {
    expect(check(['*']).refusal(req({ origin: 'null' }))).toBeUndefined();
  });

  it('normalOrigin keeps scheme, host and port; refuses what is not an http(s) origin', () => {
    expect(normalOrigin('HTTP://App.Test:3000/x')).toBe('http://app.test:3000');
    expect(() => normalOrigin('foo')).toThrow();
    expect(() => normalOrigin('file:///x')).toThrow();
  });
});

describe('parseSpritePortRange', () => {
  it('reads auto and <from>-<to>; refuses the rest', () => {
    expect(parseSpritePortRange('auto')).toBe('auto');
    expect(parseSpritePortRange('42900-42919')).toEqual({ from: 42900, to: 42919 });
    for (const bad of ['', '5-3', '0-10', '1-70000', 'x-y', '42900']) expect(() => parseSpritePortRange(bad), bad).toThrow();
  });
});
