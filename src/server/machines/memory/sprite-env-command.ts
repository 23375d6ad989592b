/**
 * `sprite-env` on the in-memory engines (`shell`, `interpreter`): the same command as inside a sandbox or container
 * sprite (src/agent/sprite-env.ts: `services …`, `checkpoints …`, `curl …` for tasks and the rest), speaking HTTP to
 * the sprite's in-sprite API through `SpriteContext.openApi` instead of `/.sprite/api.sock`, so it answers from the
 * same model as the public API. It owns only that wiring; parsing and printing are the agent's.
 * @see docs/wire-reference.md §12
 */
import { basename } from 'node:path';
import { defineCommand, type CustomCommand } from 'just-bash';
import { spriteEnvMain } from '../../../agent/sprite-env.ts';
import type { SpriteContext } from './engine.ts';

/** What one `sprite-env` run printed and its exit code (0 for a 2xx answer, 1 otherwise, 2 for bad usage). */
export interface SpriteEnvResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Runs `sprite-env args` as sprite `sprite`. Resolves once the answer has ended (a streamed answer, such as
 * `services create` or `checkpoints create`, is collected whole). Never rejects: no API (a machine outside a server)
 * is exit 1 with `sprite-env: cannot reach /.sprite/api.sock: …` on stderr.
 */
export async function runSpriteEnv(sprite: SpriteContext, args: string[]): Promise<SpriteEnvResult> {
  const decoder = new TextDecoder();
  let stdout = '';
  let stderr = '';
  const exitCode = await spriteEnvMain(
    args,
    () => {
      const conn = sprite.openApi?.();
      if (!conn) throw new Error('connect: no such file or directory');
      return conn;
    },
    {
      stdout: { write: (c: string | Uint8Array) => (stdout += typeof c === 'string' ? c : decoder.decode(c, { stream: true })) },
      stderr: { write: (c: string) => (stderr += c) },
    },
  );
  return { stdout, stderr, exitCode };
}

/** Whether `program` is `sprite-env` (bare, or the `/.sprite/bin` and `/usr/local/bin` paths of the shim). */
export function isSpriteEnv(program: string): boolean {
  return basename(program) === 'sprite-env';
}

/** The shell engine's `sprite-env` command for `sprite`. */
export function spriteEnvCommand(sprite: SpriteContext): CustomCommand {
  return defineCommand('sprite-env', async (args) => runSpriteEnv(sprite, args));
}
