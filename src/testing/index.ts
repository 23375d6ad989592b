/**
 * `spritzer-emulator/testing`: one call that starts spritzer inside the test process, on a free loopback port, for
 * vitest, jest, mocha or any other runner. It owns the start-up defaults a test suite wants (a token that is
 * enforced, silent logs, response validation on); it does not own the server, which is `src/server/server.ts`.
 * @see docs/testing.md
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { defaultDeps, startServer } from '../server/server.ts';
import { openMachineFactory, type MachineEngine } from '../server/machines/index.ts';
import { SystemClock } from '../server/core/clock.ts';

/**
 * An exec engine, as `--exec` takes it. Spelled out (not imported) so that this module's published declarations
 * (dist/testing/index.d.ts, scripts/build-types.mjs) stand alone; the module checks at compile time that it equals
 * the server's own list.
 */
export type SpritzerEngine = 'shell' | 'interpreter' | 'sandbox' | 'container';
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const enginesAgree: Same<SpritzerEngine, MachineEngine> = true;
void enginesAgree;

/** Options of {@link startSpritzer}; every one is optional. */
export interface StartSpritzerOptions {
  /** Exec engine, as `--exec` (default `shell`; `sandbox` needs Linux and root, see docs/sandbox.md). */
  engine?: SpritzerEngine;
  /** The bearer token the server requires (default: a fresh random one, returned as `token`). */
  token?: string;
  /** Organization slug, as `--org` (default `personal`). */
  org?: string;
  /** Base sprite URLs are built from, as `--public-url` (default: the local URL `<baseUrl>/s/<name>`, which reaches the sprite). */
  publicUrl?: string;
  /** Host to listen on (default `127.0.0.1`); the port is always a free one. */
  host?: string;
  /** pino log level (default `silent`). */
  logLevel?: string;
  /** Validate every response against spec/openapi.yaml and fail loudly on a mismatch (default true). */
  validateResponses?: boolean;
  /** `sandbox` engine only: where disks and snapshots live (default: a temp dir removed on stop). */
  dataDir?: string;
}

/** A spritzer running in this process. */
export interface RunningSpritzer {
  /** Base URL to give an SDK, e.g. `http://127.0.0.1:40123` (what `SPRITES_BASE_URL` holds). */
  baseUrl: string;
  /** The bearer token the server accepts. */
  token: string;
  /** `SPRITES_BASE_URL` and `SPRITES_TOKEN`, ready to spread into `process.env` or a child's env. */
  env: { SPRITES_BASE_URL: string; SPRITES_TOKEN: string };
  /** Forgets every sprite, session, service and fault rule (`POST /_spritzer/reset`); ids keep counting. */
  reset(): Promise<void>;
  /** Ends every command, closes every socket and stops listening. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts spritzer in-process on a free port and resolves once it answers (the spec is loaded and compiled).
 * Rejects with the engine's own message when the engine cannot start (e.g. `sandbox` when not root).
 *
 * ```ts
 * const spritzer = await startSpritzer();
 * const client = new SpritesClient(spritzer.token, { baseURL: spritzer.baseUrl });
 * await spritzer.stop();
 * ```
 */
export async function startSpritzer(options: StartSpritzerOptions = {}): Promise<RunningSpritzer> {
  const clock = new SystemClock();
  const logger = pino({ level: options.logLevel ?? 'silent' });
  const token = options.token ?? `spritzer-test-${randomUUID()}`;
  const machines = await openMachineFactory(options.engine ?? 'shell', { clock, logger, dataDir: options.dataDir });
  const running = await startServer(
    defaultDeps({
      clock,
      logger,
      machines,
      token,
      organization: options.org ?? 'personal',
      publicUrl: options.publicUrl,
      validateResponses: options.validateResponses ?? true,
    }),
    options.host ?? '127.0.0.1',
    0,
  );
  let stopped: Promise<void> | undefined;
  return {
    baseUrl: running.url,
    token,
    env: { SPRITES_BASE_URL: running.url, SPRITES_TOKEN: token },
    async reset() {
      const res = await fetch(`${running.url}/_spritzer/reset`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      if (res.status !== 204) throw new Error(`spritzer reset failed: ${res.status} ${await res.text()}`);
    },
    stop() {
      stopped ??= running.close();
      return stopped;
    },
  };
}
