import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { startTestServer, TOKEN } from '../../test/support/server.ts';
import type { RunningServer } from '../server/server.ts';
import { createSpritesClient, SDK_METHODS, SDK_WS_METHODS, SpritesApiError, FilesystemError, fileModeString } from './index.ts';
import { sdkAgainstSpritzer, type SdkClient } from '../../test/support/sdk.ts';

/** A fetch that records the request and answers with `response`. */
function recordingFetch(response: () => Response) {
  const requests: Request[] = [];
  const fetch = async (req: Request) => {
    requests.push(req);
    return response();
  };
  return { fetch, requests };
}

describe('SDK_METHODS', () => {
  it('names exactly the operationIds of spec/openapi.yaml', () => {
    const spec = parse(readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8'));
    const ids: string[] = [];
    for (const item of Object.values<Record<string, { operationId?: string }>>(spec.paths)) {
      for (const op of Object.values(item)) if (op && typeof op === 'object' && op.operationId) ids.push(op.operationId);
    }
    expect([...SDK_METHODS].sort()).toEqual(ids.sort());
  });

  it('every listed method exists on a client, and so do the WebSocket ones', () => {
    const client = createSpritesClient({ baseUrl: 'http://x', token: 't' }) as unknown as Record<string, unknown>;
    for (const m of SDK_METHODS) expect(typeof client[m], m).toBe('function');
    for (const m of Object.values(SDK_WS_METHODS).flat()) expect(typeof client[m], m).toBe('function');
  });

  it('SDK_WS_METHODS names only operationIds of spec/asyncapi.yaml', () => {
    const spec = parse(readFileSync(new URL('../../spec/asyncapi.yaml', import.meta.url), 'utf8'));
    for (const id of Object.keys(SDK_WS_METHODS)) expect(Object.keys(spec.operations)).toContain(id);
  });
});

describe('createSpritesClient', () => {
  it('reads SPRITES_BASE_URL and SPRITES_TOKEN when no options are given', async () => {
    const { fetch, requests } = recordingFetch(() => Response.json({ rules: [] }));
    const saved = { url: process.env.SPRITES_BASE_URL, token: process.env.SPRITES_TOKEN };
    process.env.SPRITES_BASE_URL = 'http://env.example/';
    process.env.SPRITES_TOKEN = 'env-token';
    try {
      const client = createSpritesClient({ fetch });
      await client.getNetworkPolicy('box');
      expect(requests[0]!.url).toBe('http://env.example/v1/sprites/box/policy/network');
      expect(requests[0]!.headers.get('authorization')).toBe('Bearer env-token');
    } finally {
      process.env.SPRITES_BASE_URL = saved.url ?? '';
      process.env.SPRITES_TOKEN = saved.token ?? '';
      if (saved.url === undefined) delete process.env.SPRITES_BASE_URL;
      if (saved.token === undefined) delete process.env.SPRITES_TOKEN;
    }
  });

  it('writeFile sends raw bytes with the octal mode and mkdirParents, as the official SDKs do', async () => {
    const { fetch, requests } = recordingFetch(() => Response.json({ path: '/a.txt', size: 2, mode: '0600' }));
    const client = createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
    const result = await client.writeFile('box', 'a.txt', new Uint8Array([0, 255]), { mode: 0o600, workingDir: '/home/sprite' });
    expect(result.mode).toBe('0600');
    const url = new URL(requests[0]!.url);
    expect(requests[0]!.method).toBe('PUT');
    expect(Object.fromEntries(url.searchParams)).toEqual({ path: 'a.txt', workingDir: '/home/sprite', mkdirParents: 'true', mode: '0600' });
    expect(requests[0]!.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await requests[0]!.arrayBuffer())).toEqual(new Uint8Array([0, 255]));
  });

  it('createToken authenticates with FlyV1, not the bearer token', async () => {
    const { fetch, requests } = recordingFetch(() => Response.json({ token: 'org/1/abc' }, { status: 201 }));
    const client = createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
    expect(await client.createToken('my-org', 'mac')).toEqual({ token: 'org/1/abc' });
    expect(requests[0]!.headers.get('authorization')).toBe('FlyV1 mac');
  });

  it('fileModeString pads to four octal digits', () => {
    expect(fileModeString(0o644)).toBe('0644');
    expect(fileModeString(0o4755)).toBe('4755');
    expect(fileModeString('0700')).toBe('0700');
  });
});

describe('SpritesApiError', () => {
  it('carries the rate-limit body fields and headers of a 429', async () => {
    const body = {
      error: 'sprite_creation_rate_limited',
      message: 'Sprite creation rate limit exceeded',
      limit: 10,
      window_seconds: 60,
      retry_after_seconds: 30,
      current_count: 10,
      upgrade_available: false,
    };
    const headers = { 'Retry-After': '30', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1767609060' };
    const { fetch } = recordingFetch(() => Response.json(body, { status: 429, headers }));
    const client = createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
    const err = await client.createSprite({ name: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpritesApiError);
    expect(err).not.toBeInstanceOf(FilesystemError);
    expect(err).toMatchObject({
      status: 429,
      error: 'sprite_creation_rate_limited',
      message: 'Sprite creation rate limit exceeded',
      limit: 10,
      window_seconds: 60,
      retry_after_seconds: 30,
      current_count: 10,
      upgrade_available: false,
      retryAfter: 30,
      rateLimit: { limit: 10, remaining: 0, reset: 1767609060 },
    });
  });

  it('keeps the validation list `errors`', async () => {
    const body = { error: 'invalid_request', message: 'bad', errors: ['request/body must have required property name'] };
    const { fetch } = recordingFetch(() => Response.json(body, { status: 400 }));
    const client = createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
    const err = (await client.createSprite({ name: '' }).catch((e: unknown) => e)) as SpritesApiError;
    expect(err.errors).toEqual(['request/body must have required property name']);
  });

  it('turns a text/plain in-VM error into the message', async () => {
    const { fetch } = recordingFetch(
      () => new Response('service not found: web\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
    );
    const client = createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
    const err = (await client.getService('box', 'web').catch((e: unknown) => e)) as SpritesApiError;
    expect(err).toBeInstanceOf(SpritesApiError);
    expect(err.status).toBe(404);
    expect(err.message).toBe('service not found: web');
    expect(err.error).toBeUndefined();
  });

  it('is thrown for a 204 operation that fails with no body', async () => {
    const { fetch } = recordingFetch(() => new Response(null, { status: 500 }));
    const client = createSpritesClient({ baseUrl: 'http://h', token: 't', fetch });
    await expect(client.deleteSprite('box')).rejects.toMatchObject({ status: 500 });
  });
});

describe('against spritzer', () => {
  let server: RunningServer;
  let client: SdkClient;
  beforeAll(async () => void ({ server, client } = await sdkAgainstSpritzer()));
  afterAll(() => server.close());

  it('getSprite of a missing sprite throws SpritesApiError 404', async () => {
    await expect(client.getSprite('nope')).rejects.toMatchObject({ name: 'SpritesApiError', status: 404, error: 'sprite not found' });
  });

  it('fs errors are FilesystemError with code and path', async () => {
    const err = (await client.readFile('box', '/home/sprite/missing.txt').catch((e: unknown) => e)) as FilesystemError;
    expect(err).toBeInstanceOf(FilesystemError);
    expect(err).toMatchObject({ status: 404, code: 'ENOENT', path: '/home/sprite/missing.txt' });
    await client.writeFile('box', '/home/sprite/d/f.txt', 'x');
    await expect(client.deleteFile('box', '/home/sprite/d')).rejects.toMatchObject({ code: 'ENOTEMPTY' });
  });

  it('writes, lists, reads, renames and deletes files', async () => {
    await client.writeFile('box', 'notes.txt', 'hello', { workingDir: '/home/sprite', mode: 0o600 });
    const list = await client.listFiles('box', '/home/sprite/notes.txt');
    expect(list.entries[0]).toMatchObject({ name: 'notes.txt', type: 'file', size: 5, mode: '0600' });
    expect(new TextDecoder().decode(await client.readFile('box', '/home/sprite/notes.txt'))).toBe('hello');
    await client.renameFile('box', { source: '/home/sprite/notes.txt', dest: '/home/sprite/n2.txt' });
    expect((await client.deleteFile('box', '/home/sprite/n2.txt')).deleted).toEqual(['/home/sprite/n2.txt']);
  });

  it('createCheckpointAndWait returns the new id; restoreCheckpointAndWait rewinds the filesystem', async () => {
    await client.writeFile('box', '/home/sprite/state.txt', 'before');
    const { id, events } = await client.createCheckpointAndWait('box', { comment: 'base' });
    expect(id).toMatch(/^v\d+$/);
    expect(events.at(-1)).toMatchObject({ type: 'complete', data: `Checkpoint ${id} created successfully` });
    expect((await client.getCheckpoint('box', id)).comment).toBe('base');
    await client.writeFile('box', '/home/sprite/state.txt', 'after');
    const restored = await client.restoreCheckpointAndWait('box', id);
    expect(restored.at(-1)!.type).toBe('complete');
    expect(new TextDecoder().decode(await client.readFile('box', '/home/sprite/state.txt'))).toBe('before');
    const ids = (await client.listCheckpoints('box')).map((c) => c.id);
    expect(ids[0]).toBe('Current');
    expect(ids).toContain(id);
    expect(ids.some((c) => c.startsWith('auto-'))).toBe(false);
  });

  it('listCheckpoints({includeAuto: true}) shows the automatic checkpoint a restore took, which gives the replaced files back', async () => {
    await client.writeFile('box', '/home/sprite/draft.txt', 'kept');
    const { id } = await client.createCheckpointAndWait('box', {});
    await client.writeFile('box', '/home/sprite/draft.txt', 'overwritten by the restore');
    await client.restoreCheckpointAndWait('box', id);
    const auto = (await client.listCheckpoints('box', { includeAuto: true })).find((c) => c.is_auto);
    expect(auto).toMatchObject({ id: expect.stringMatching(/^auto-\d+$/), comment: `pre-restore of ${id}` });
    expect((await client.restoreCheckpointAndWait('box', auto!.id)).at(-1)!.type).toBe('complete');
    expect(new TextDecoder().decode(await client.readFile('box', '/home/sprite/draft.txt'))).toBe('overwritten by the restore');
  });

  it('execHttp returns the parsed frames', async () => {
    expect(await client.execHttp('box', ['sh', '-c', 'echo http; exit 3'])).toEqual({ stdout: 'http\n', stderr: '', exitCode: 3 });
    expect(await client.execHttp('box', ['cat'], { stdin: 'fed' })).toMatchObject({ stdout: 'fed', exitCode: 0 });
  });

  it('setNetworkPolicy rejects an invalid policy with 400', async () => {
    await client.setNetworkPolicy('box', { rules: [{ domain: 'example.com', action: 'allow' }] });
    expect((await client.getNetworkPolicy('box')).rules).toEqual([{ domain: 'example.com', action: 'allow' }]);
    await expect(client.setNetworkPolicy('box', { rules: [{ domain: 'x.com' }] } as never)).rejects.toMatchObject({ status: 400 });
  });
});
