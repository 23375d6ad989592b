// Sprite lifecycle on the outer API (docs/wire-reference.md §3): create, list (a pagination walk), get, update,
// delete (404 after), re-create (a new id), upgrade, check, organization, tokens, and authentication.
import { describe, expect } from 'vitest';
import { useConformance, verified, emulatorOnly } from './support/index.ts';

const { call, sprites, target } = useConformance();

describe('createSprite', () => {
  verified.it('answers 201 with the new sprite, named as asked and cold', async () => {
    const name = sprites.name();
    const body = await sprites.create(name);
    expect(body.name).toBe(name);
    expect(typeof body.id).toBe('string');
    expect(body.status).toBe('cold');
    expect(body.url_settings.auth).toBe('sprite');
  });

  verified.it('refuses a name that is taken with an error status', async () => {
    const name = await sprites.create().then((s) => s.name);
    const again = await call('POST', '/v1/sprites', { body: { name } });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
  });

  emulatorOnly.it('answers 409 for a taken name (the managed-agents guide; docs say 400)', async () => {
    const name = await sprites.create().then((s) => s.name);
    const again = await call('POST', '/v1/sprites', { body: { name } });
    expect(again.status).toBe(409);
    expect(again.json.error).toBeTruthy();
  });

  verified.it('rejects a body without a name with 400', async () => {
    const res = await call('POST', '/v1/sprites', { body: {} });
    expect(res.status).toBe(400);
  });
});

describe('listSprites', () => {
  verified.it('walks every page with continuation tokens, in name order', async () => {
    const tag = sprites.name('page');
    const names = [`${tag}-a`, `${tag}-b`, `${tag}-c`];
    for (const n of names) await sprites.create(n);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await call('GET', '/v1/sprites', { query: { prefix: tag, max_results: 1, continuation_token: token } });
      expect(res.status).toBe(200);
      pages += 1;
      seen.push(...res.json.sprites.map((s: { name: string }) => s.name));
      token = res.json.has_more ? res.json.next_continuation_token : undefined;
      if (res.json.has_more) expect(token).toBeTruthy();
    } while (token && pages < 10);
    expect(seen).toEqual(names);
    expect(pages).toBe(3);
  });

  verified.it('filters by prefix', async () => {
    const name = await sprites.create().then((s) => s.name);
    const res = await call('GET', '/v1/sprites', { query: { prefix: name } });
    expect(res.json.sprites.map((s: { name: string }) => s.name)).toEqual([name]);
    expect(res.json.has_more).toBe(false);
  });
});

describe('getSprite', () => {
  verified.it('returns the sprite that was created', async () => {
    const created = await sprites.create();
    const res = await call('GET', `/v1/sprites/${created.name}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: created.id, name: created.name });
  });

  verified.it('answers 404 for a sprite that never existed', async () => {
    const res = await call('GET', `/v1/sprites/${sprites.name('never')}`);
    expect(res.status).toBe(404);
  });
});

describe('updateSprite', () => {
  verified.it('changes url_settings and answers 200 with the sprite', async () => {
    const { name } = await sprites.create();
    const res = await call('PUT', `/v1/sprites/${name}`, { body: { url_settings: { auth: 'public' } } });
    expect(res.status).toBe(200);
    expect(res.json.url_settings.auth).toBe('public');
    const again = await call('GET', `/v1/sprites/${name}`);
    expect(again.json.url_settings.auth).toBe('public');
  });
});

describe('deleteSprite', () => {
  verified.it('answers 204, then 404 on get; a re-created sprite of that name has a new id', async () => {
    const first = await sprites.create();
    const del = await call('DELETE', `/v1/sprites/${first.name}`);
    expect(del.status).toBe(204);
    expect(del.bytes.length).toBe(0);
    expect((await call('GET', `/v1/sprites/${first.name}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/sprites/${first.name}`)).status).toBe(404);
    const second = await sprites.create(first.name);
    expect(second.id).not.toBe(first.id);
  });

  verified.it('takes the filesystem with it: a re-created sprite starts empty', async () => {
    const { name } = await sprites.create();
    const w = await call('PUT', `/v1/sprites/${name}/fs/write`, { query: { path: '/home/sprite/left.txt', mkdirParents: true }, body: 'x' });
    expect(w.status).toBe(200);
    expect((await call('DELETE', `/v1/sprites/${name}`)).status).toBe(204);
    await sprites.create(name);
    const r = await call('GET', `/v1/sprites/${name}/fs/read`, { query: { path: '/home/sprite/left.txt' } });
    expect(r.status).toBe(404);
  });
});

describe('upgradeSprite', () => {
  verified.it('answers 200 or 204 for an existing sprite and 404 for a missing one', async () => {
    const { name } = await sprites.create();
    expect([200, 204]).toContain((await call('POST', `/v1/sprites/${name}/upgrade`)).status);
    expect((await call('POST', `/v1/sprites/${sprites.name('missing')}/upgrade`)).status).toBe(404);
  });
});

describe('checkSprite', () => {
  verified.it('answers 200 for an existing sprite', async () => {
    const { name } = await sprites.create();
    expect((await call('GET', `/v1/sprites/${name}/check`)).status).toBe(200);
  });
});

describe('getOrganization', () => {
  verified.it('answers 200 with the token owner’s organization', async () => {
    const res = await call('GET', '/v1/organization');
    expect(res.status).toBe(200);
  });
});

describe('createToken', () => {
  emulatorOnly.it('mints a token with FlyV1 auth and refuses a Bearer token', async () => {
    const ok = await call('POST', '/v1/organizations/personal/tokens', {
      // spritzer run with --token accepts that token as the FlyV1 credential
      authorization: `FlyV1 ${target().token}`,
      body: { description: 'Sprite SDK Token' },
    });
    expect([200, 201]).toContain(ok.status);
    expect(typeof ok.json.token).toBe('string');
    const bearer = await call('POST', '/v1/organizations/personal/tokens', { body: { description: 'x' } });
    expect(bearer.status).toBe(401);
  });
});

describe('authentication', () => {
  verified.it('answers 401 without a token and with a wrong one', async () => {
    expect((await call('GET', '/v1/sprites', { authorization: null })).status).toBe(401);
    expect((await call('GET', '/v1/sprites', { authorization: 'Bearer not-the-token' })).status).toBe(401);
  });
});

describe('restartSprite', () => {
  verified.it('answers 200 and keeps the filesystem', async () => {
    const { name } = await sprites.create();
    await call('PUT', `/v1/sprites/${name}/fs/write`, { query: { path: '/home/sprite/kept.txt', mkdirParents: true }, body: 'kept' });
    const res = await call('POST', `/v1/sprites/${name}/restart`);
    expect(res.status).toBe(200);
    expect((await call('GET', `/v1/sprites/${name}/fs/read`, { query: { path: '/home/sprite/kept.txt' } })).text).toBe('kept');
  });

  verified.it('answers 404 for a missing sprite', async () => {
    expect((await call('POST', `/v1/sprites/${sprites.name('missing')}/restart`)).status).toBe(404);
  });
});
