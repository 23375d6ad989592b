/**
 * Target selection from environment variables, with no test-runner dependency so scripts can use it too
 * (`scripts/sweep-remote.ts`, the `test:conformance:remote` guard). It decides *which* server and refuses
 * unsafe choices; starting the emulator lives in `target.ts`.
 * @see docs/architecture.md "Tests"
 */

/** The token the in-process spritzer requires. */
export const EMULATOR_TOKEN = 'spritzer-conformance-token';

/** Where the suite runs. `remote` is true for any server named by `SPRITES_BASE_URL` (even a local one). */
export interface TargetConfig {
  kind: 'emulator' | 'remote';
  /** Base URL without a trailing slash (unset for `emulator` until it starts). */
  baseUrl?: string;
  token: string;
}

/** A started target. */
export interface Target {
  kind: 'emulator' | 'remote';
  baseUrl: string;
  token: string;
  /** True when tests marked `emulatorOnly` must be skipped. */
  remote: boolean;
}

/** Whether a URL's host is on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Chooses the target from environment variables. Throws an Error with a clear message when a URL is set
 * without a token, is not http(s), or is not loopback and `SPRITZER_ALLOW_REMOTE` is not `1`.
 */
export function resolveTarget(env: Record<string, string | undefined>): TargetConfig {
  const raw = env.SPRITES_BASE_URL?.trim();
  if (!raw) return { kind: 'emulator', token: EMULATOR_TOKEN };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SPRITES_BASE_URL is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`SPRITES_BASE_URL must be http(s): ${raw}`);
  const token = env.SPRITES_TOKEN?.trim() || env.SPRITES_TEST_TOKEN?.trim();
  if (!token) throw new Error('SPRITES_BASE_URL is set but neither SPRITES_TOKEN nor SPRITES_TEST_TOKEN is');
  if (!isLoopback(url) && env.SPRITZER_ALLOW_REMOTE !== '1') {
    throw new Error(
      `refusing to run the conformance suite against ${url.origin}: it is not on this machine and may cost money; ` +
        'set SPRITZER_ALLOW_REMOTE=1 to allow it',
    );
  }
  return { kind: 'remote', baseUrl: raw.replace(/\/+$/, ''), token };
}
