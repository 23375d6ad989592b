/**
 * `spritzer-emulator/testing` as a user's test suite sees it: `startSpritzer()` in a vitest hook, the official
 * `@fly/sprites` SDK pointed at it, `reset()` between tests and `stop()` at the end.
 * @see docs/testing.md
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpritesClient } from '@fly/sprites';
import { startSpritzer, type RunningSpritzer } from '../../../src/testing/index.ts';

describe('startSpritzer', () => {
  let spritzer: RunningSpritzer;
  let client: SpritesClient;
  beforeAll(async () => {
    spritzer = await startSpritzer();
    client = new SpritesClient(spritzer.token, { baseURL: spritzer.baseUrl });
  });
  afterAll(() => spritzer.stop());

  it('serves the official SDK on a free loopback port with the token it returns', async () => {
    expect(spritzer.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(spritzer.env).toEqual({ SPRITES_BASE_URL: spritzer.baseUrl, SPRITES_TOKEN: spritzer.token });
    const sprite = await client.createSprite('helper-demo');
    const { stdout } = await sprite.exec('echo hello from the helper');
    expect(stdout).toBe('hello from the helper\n');
  });

  it('enforces its token: another token gets 401', async () => {
    const res = await fetch(`${spritzer.baseUrl}/v1/sprites`, { headers: { Authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
    const ok = await fetch(`${spritzer.baseUrl}/v1/sprites`, { headers: { Authorization: `Bearer ${spritzer.token}` } });
    expect(ok.status).toBe(200);
  });

  it('reset() forgets every sprite, and the name can be taken again', async () => {
    await client.createSprite('helper-reset');
    await spritzer.reset();
    const list = await client.listSprites();
    expect(list.sprites.map((s) => s.name)).toEqual([]);
    const again = await client.createSprite('helper-reset');
    expect(again.name).toBe('helper-reset');
  });

  it('a second instance is independent, and stop() closes it (twice is fine)', async () => {
    const other = await startSpritzer({ token: 'fixed-token', org: 'acme' });
    expect(other.token).toBe('fixed-token');
    expect(other.baseUrl).not.toBe(spritzer.baseUrl);
    const otherClient = new SpritesClient('fixed-token', { baseURL: other.baseUrl });
    await otherClient.createSprite('only-here');
    expect((await client.listSprites()).sprites.map((s) => s.name)).not.toContain('only-here');
    await other.stop();
    await other.stop();
    await expect(fetch(`${other.baseUrl}/_spritzer/health`)).rejects.toThrow();
  });

  it('rejects with the engine’s message when the engine cannot start', async () => {
    // `sandbox` needs Linux, root and bubblewrap: give it a data dir it cannot use, so it fails everywhere.
    await expect(startSpritzer({ engine: 'sandbox', dataDir: '/proc/version/not-a-dir' })).rejects.toThrow(/./);
  });
});
