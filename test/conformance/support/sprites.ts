/**
 * Sprite fixtures: uniquely named sprites `spritzer-conf-<run>-<n>` that are always deleted after the test
 * file (even when a test fails), so a run against a real account leaves nothing behind; `scripts/sweep-remote.ts`
 * removes what a killed run could not. It owns naming and cleanup, not what tests do with the sprites.
 */
import { afterAll, expect } from 'vitest';
import type { Call } from './http.ts';
import { CONFORMANCE_PREFIX, RUN_ID } from './naming.ts';

export { CONFORMANCE_PREFIX, RUN_ID } from './naming.ts';

/** Hands out names and remembers every sprite to delete. */
export class SpriteFixture {
  private n = 0;
  private readonly created = new Set<string>();

  constructor(private readonly call: Call) {}

  /** A fresh unique name, `spritzer-conf-<run>-<n>[-<tag>]` (not created). */
  name(tag?: string): string {
    this.n += 1;
    return `${CONFORMANCE_PREFIX}${RUN_ID}-${this.n}${tag ? `-${tag}` : ''}`;
  }

  /** Marks `name` for deletion at the end of the file (for sprites created by hand in a test). */
  track(name: string): void {
    this.created.add(name);
  }

  /** Creates a sprite (asserting 201) and returns its body. */
  async create(name = this.name(), body: Record<string, unknown> = {}): Promise<any> {
    this.track(name);
    const res = await this.call('POST', '/v1/sprites', { body: { name, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.json;
  }

  /** Deletes every tracked sprite that still exists (404 is fine). */
  async cleanup(): Promise<void> {
    const names = [...this.created];
    this.created.clear();
    const failures: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        const res = await this.call('DELETE', `/v1/sprites/${name}`).catch((err: Error) => ({ status: 0, text: err.message }));
        if (res.status !== 204 && res.status !== 200 && res.status !== 404) failures.push(`${name}: ${res.status} ${res.text}`);
      }),
    );
    if (failures.length) throw new Error(`could not delete conformance sprites:\n${failures.join('\n')}`);
  }
}

/** A fixture whose sprites are deleted in afterAll of the calling file. Call after `useTarget()`. */
export function useSprites(call: Call): SpriteFixture {
  const fixture = new SpriteFixture(call);
  afterAll(() => fixture.cleanup());
  return fixture;
}
