/**
 * The conformance target: a Sprites server chosen from the environment, or spritzer started in-process.
 * `SPRITES_BASE_URL` + `SPRITES_TOKEN` (or `SPRITES_TEST_TOKEN`) select a server; a non-loopback URL also
 * needs `SPRITZER_ALLOW_REMOTE=1` because it may cost money. With none set, spritzer starts on port 0 with
 * the shell engine and a fixed token. It owns target selection and lifetime, not what tests do with it.
 * @see DESIGN.md "Tests"
 */
import { beforeAll, afterAll } from 'vitest';
import { createEngine } from '../../../src/server/engines/index.ts';
import { SystemClock } from '../../../src/server/model/clock.ts';
import { defaultDeps, startServer, type RunningServer } from '../../../src/server/server.ts';

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

/** The target of this run, resolved once per test file from `process.env`. */
export const TARGET_CONFIG: TargetConfig = resolveTarget(process.env);

/** True when the suite runs against a server named by `SPRITES_BASE_URL`. */
export const IS_REMOTE = TARGET_CONFIG.kind === 'remote';

/** Starts spritzer in-process as a user would run it (`spritzer --exec shell --token …`), on port 0. */
export async function startEmulator(): Promise<RunningServer> {
  const clock = new SystemClock();
  return startServer(defaultDeps({ clock, engine: createEngine('shell', { clock }), token: EMULATOR_TOKEN }));
}

/**
 * Registers beforeAll/afterAll hooks that provide the target to the calling test file and returns a getter.
 * The in-process emulator lives for one test file.
 */
export function useTarget(): () => Target {
  let target: Target | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    if (TARGET_CONFIG.kind === 'remote') {
      target = { kind: 'remote', baseUrl: TARGET_CONFIG.baseUrl!, token: TARGET_CONFIG.token, remote: true };
      return;
    }
    server = await startEmulator();
    target = { kind: 'emulator', baseUrl: server.url, token: TARGET_CONFIG.token, remote: false };
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!target) throw new Error('the conformance target is not started yet (use it inside tests or hooks)');
    return target;
  };
}
