/**
 * The server a conformance file talks to (DESIGN.md "Tests"): `SPRITES_BASE_URL` unset → spritzer in-process on
 * port 0 with the `shell` engine; set → that server with `SPRITES_TOKEN` (or `SPRITES_TEST_TOKEN`). A non-loopback
 * URL also needs `SPRITZER_ALLOW_REMOTE=1`, because real Sprites cost money. It owns nothing else: no fixtures, no
 * clock control (a `verified` test may only use what a real server offers).
 */
import { randomBytes } from 'node:crypto';
import { startTestServer } from '../../support/server.ts';

/** Where the tests point their client. */
export interface ConformanceTarget {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:4290` or `https://api.sprites.dev`. */
  baseURL: string;
  /** Bearer token the server accepts. */
  token: string;
  /** `spritzer` when started in-process here, `remote` otherwise. */
  kind: 'spritzer' | 'remote';
  /** Stops the in-process server; a no-op for a remote target. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Resolves the target from the environment (see the module comment).
 * Throws when `SPRITES_BASE_URL` is set without a token, or is remote without `SPRITZER_ALLOW_REMOTE=1`.
 */
export async function openTarget(env: NodeJS.ProcessEnv = process.env): Promise<ConformanceTarget> {
  const remote = env.SPRITES_BASE_URL?.trim();
  if (remote) {
    const token = env.SPRITES_TOKEN ?? env.SPRITES_TEST_TOKEN;
    if (!token) throw new Error('SPRITES_BASE_URL is set but neither SPRITES_TOKEN nor SPRITES_TEST_TOKEN is');
    if (!LOOPBACK.has(new URL(remote).hostname) && env.SPRITZER_ALLOW_REMOTE !== '1') {
      throw new Error(`refusing to run against ${remote} without SPRITZER_ALLOW_REMOTE=1 (it may cost money)`);
    }
    return { baseURL: remote.replace(/\/+$/, ''), token, kind: 'remote', close: async () => {} };
  }
  const token = `conformance-${randomBytes(6).toString('hex')}`;
  const srv = await startTestServer('shell', { token });
  return { baseURL: srv.url, token, kind: 'spritzer', close: () => srv.close() };
}

/** A sprite name unique to this run: `<prefix>-<8 hex>` (lowercase, digits and dashes). */
export function uniqueSpriteName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}
