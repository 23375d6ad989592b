/**
 * Parses exec query strings (docs/wire-reference.md §4.2, §4.10) into an `ExecSessionInit`, for the WebSocket
 * upgrade (which the OpenAPI validator never sees) and HTTP exec alike, and builds the sprite's default
 * environment. Bad values are ModelError `invalid_request` (a 400 before any upgrade).
 */
import { ModelError } from '../core/errors.ts';
import { afterDisconnectOf, type AfterDisconnect, type ExecSessionInit } from '../model/sessions.ts';
import { parseDuration } from '../core/duration.ts';
import { isTtySize, TTY_SIZE_MAX, TTY_SIZE_MIN } from '../../protocol/messages.ts';

/**
 * `PATH` of a sprite (§13: user `sprite`, home `/home/sprite`), with `/.sprite/bin`, where the platform's commands
 * live (docs.sprites.dev base-images: "`/.sprite/bin/` # Command shims (in PATH)").
 * @deviation Production's image prepends `/.sprite/bin` (`ENV PATH="/.sprite/bin:${PATH}"` in the historical
 * sprites-go Dockerfile); spritzer appends it, because on `sandbox`/`container` that directory also holds the agent's
 * own `node`, which must not shadow the image's `node` (`sprite-env` and the other helpers are in `/usr/local/bin`
 * or `/usr/bin` too, so the order changes nothing for them).
 */
export const SPRITE_PATH = '/home/sprite/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/.sprite/bin';

/** The environment a command gets when the request sends no `env` (§4.2: `env` replaces it). */
export function defaultEnvironment(extra: Record<string, string> = {}, tty = false): Record<string, string> {
  const env: Record<string, string> = {
    HOME: '/home/sprite',
    USER: 'sprite',
    LOGNAME: 'sprite',
    SHELL: '/bin/bash',
    PATH: SPRITE_PATH,
    LANG: 'C.UTF-8',
    ...extra,
  };
  if (tty) env.TERM = 'xterm-256color';
  return env;
}

/** Parsed exec query. `id` is set for the legacy attach form `/exec?id=`. */
export interface ExecQuery {
  init: ExecSessionInit;
  id?: string;
  /** Whether `cmd` was given at all. */
  hasCommand: boolean;
  controlMode: boolean;
}

function bool(q: URLSearchParams, key: string): boolean | undefined {
  const v = q.get(key);
  if (v === null) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ModelError('invalid_request', `invalid ${key} parameter: must be true or false`);
}

function size(q: URLSearchParams, key: string, fallback: number): number {
  const v = q.get(key);
  if (v === null || v === '') return fallback;
  const n = Number(v);
  if (!isTtySize(n)) {
    // The same check as the `resize` message (protocol/messages.ts), so a 0×0 terminal is refused on both paths.
    throw new ModelError('invalid_request', `invalid ${key} parameter: must be an integer between ${TTY_SIZE_MIN} and ${TTY_SIZE_MAX}`);
  }
  return n;
}

/**
 * `max_run_after_disconnect` (§4.2): a Go duration (`0`, `10s`, `30m`, `720h`) or plain seconds; `0` is forever,
 * for every command (docs/fidelity.md "Dropped exec client"). Absent or empty: undefined (the mode's default).
 */
function afterDisconnectParam(value: string | null): AfterDisconnect | undefined {
  if (value === null || value === '') return undefined;
  try {
    return afterDisconnectOf(parseDuration(value));
  } catch {
    throw new ModelError('invalid_request', 'invalid max_run_after_disconnect parameter');
  }
}

/**
 * Parses the query of an exec request. `sprite` supplies the sprite's own environment additions.
 * Throws ModelError `invalid_request` for malformed booleans, sizes, `env` items without `=`, or a bad
 * `max_run_after_disconnect`.
 */
export function parseExecQuery(q: URLSearchParams, spriteEnv: Record<string, string> = {}): ExecQuery {
  const argv = [...q.getAll('cmd'), ...q.getAll('cmd[]')];
  const tty = bool(q, 'tty') ?? false;
  const envItems = q.getAll('env');
  let env: Record<string, string>;
  if (envItems.length > 0) {
    env = {};
    for (const item of envItems) {
      const eq = item.indexOf('=');
      if (eq <= 0) throw new ModelError('invalid_request', `invalid env parameter ${JSON.stringify(item)}: expected KEY=VALUE`);
      env[item.slice(0, eq)] = item.slice(eq + 1);
    }
  } else {
    env = defaultEnvironment(spriteEnv, tty);
  }
  const dir = q.get('dir') || '/home/sprite';
  if (!dir.startsWith('/')) throw new ModelError('invalid_request', 'invalid dir parameter: must be an absolute path');
  const afterDisconnect = afterDisconnectParam(q.get('max_run_after_disconnect'));
  const init: ExecSessionInit = {
    argv,
    path: q.get('path') || undefined,
    env,
    dir,
    tty,
    rows: size(q, 'rows', 24),
    cols: size(q, 'cols', 80),
    stdin: bool(q, 'stdin') ?? tty,
    detachable: bool(q, 'detachable') ?? false,
  };
  if (afterDisconnect !== undefined) init.afterDisconnect = afterDisconnect;
  return { init, id: q.get('id') ?? undefined, hasCommand: argv.length > 0, controlMode: bool(q, 'cc') ?? false };
}

/**
 * The bytes of a command line as `execve` counts them against `ARG_MAX`: each `cmd` item and each environment entry
 * (`KEY=VALUE`) in UTF-8, plus its terminating NUL. The bound is spritzer's request-head limit (see exec/start.ts).
 */
export function commandLineBytes(init: Pick<ExecSessionInit, 'argv' | 'env'>): number {
  let n = 0;
  for (const arg of init.argv) n += Buffer.byteLength(arg) + 1;
  for (const [key, value] of Object.entries(init.env)) n += Buffer.byteLength(key) + Buffer.byteLength(value) + 2;
  return n;
}
