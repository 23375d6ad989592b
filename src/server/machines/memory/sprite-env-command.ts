/**
 * `sprite-env` and `curl-sprite-api` on the in-memory engines (`shell`, `interpreter`): the same commands as inside
 * a sandbox or container sprite (src/agent/sprite-env.ts: `info`, `version`, `services …`, `checkpoints …`, `curl …`;
 * src/agent/curl-sprite-api.ts: its curl-less form), speaking HTTP to the sprite's in-sprite API through
 * `SpriteContext.openApi` instead of `/.sprite/api.sock`, so they answer from the same model as the public API. It
 * owns only that wiring; parsing and printing are the agent's.
 * @see docs/wire-reference.md §12
 */
import { basename } from 'node:path';
import { defineCommand, type CustomCommand } from 'just-bash';
import { spriteEnvMain, type ApiTarget, type SpriteEnvOutput } from '../../../agent/sprite-env.ts';
import { curlSpriteApiMain } from '../../../agent/curl-sprite-api.ts';
import { SANDBOX_HINT } from './shell/world.ts';
import type { SpriteContext } from './engine.ts';

/** What one `sprite-env` run printed and its exit code (0 for a 2xx answer, 1 otherwise, 2 for bad usage). */
export interface SpriteEnvResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The in-sprite API of `sprite`, one connection per call (none: the connection fails as a missing socket does). */
function apiOf(sprite: SpriteContext): ApiTarget {
  return () => {
    const conn = sprite.openApi?.();
    if (!conn) throw new Error('connect: no such file or directory');
    return conn;
  };
}

/** Runs `main` with output collected as text; resolves with it and the exit code. */
async function collected(main: (target: ApiTarget, out: SpriteEnvOutput) => Promise<number>, sprite: SpriteContext): Promise<SpriteEnvResult> {
  const decoder = new TextDecoder();
  let stdout = '';
  let stderr = '';
  const exitCode = await main(apiOf(sprite), {
    stdout: { write: (c: string | Uint8Array) => (stdout += typeof c === 'string' ? c : decoder.decode(c, { stream: true })) },
    stderr: { write: (c: string) => (stderr += c) },
  });
  return { stdout, stderr, exitCode };
}

/**
 * Runs `sprite-env args` as sprite `sprite`. Resolves once the answer has ended (a streamed answer, such as
 * `services create` or `checkpoints create`, is collected whole). Never rejects: no API (a machine outside a server)
 * is exit 1 with `sprite-env: cannot reach /.sprite/api.sock: …` on stderr.
 */
export function runSpriteEnv(sprite: SpriteContext, args: string[]): Promise<SpriteEnvResult> {
  return collected((target, out) => spriteEnvMain(args, target, out), sprite);
}

/**
 * Runs `curl-sprite-api args` as sprite `sprite` (the curl-less form: `-X`, `-d`, `-H`, `-s`, `-S`, `-f`, `-i`,
 * `--url`; any other option is refused naming the sandbox engine). Resolves once the answer has ended.
 */
export function runCurlSpriteApi(sprite: SpriteContext, args: string[]): Promise<SpriteEnvResult> {
  return collected((target, out) => curlSpriteApiMain(args, target, out, SANDBOX_HINT), sprite);
}

/** Whether `program` is `sprite-env` (bare, or the `/.sprite/bin` and `/usr/local/bin` paths of the shim). */
export function isSpriteEnv(program: string): boolean {
  return basename(program) === 'sprite-env';
}

/** The shell engine's `sprite-env` command for `sprite`. */
export function spriteEnvCommand(sprite: SpriteContext): CustomCommand {
  return defineCommand('sprite-env', async (args) => runSpriteEnv(sprite, args));
}

/** The shell engine's `curl-sprite-api` command for `sprite`. */
export function curlSpriteApiCommand(sprite: SpriteContext): CustomCommand {
  return defineCommand('curl-sprite-api', async (args) => runCurlSpriteApi(sprite, args));
}
