/**
 * The in-sprite side of the sprite's own API (docs/wire-reference.md §12): the unix socket `/.sprite/api.sock` that
 * processes inside connect to (HTTP, virtual host `sprite`), and the files that come with it: `/.sprite/version.txt`,
 * the service logs directory and the `sprite-env` command on `PATH`. It owns the listening socket and those files;
 * it does not speak HTTP: every connection is handed to the host as a relay (ACCEPT frame), where spritzer answers.
 * @see docs/agent-protocol.md "In-sprite API"
 */
import { createServer, type Server, type Socket } from 'node:net';
import * as fsp from 'node:fs/promises';
import { dirname } from 'node:path';
import { mkdirBeneath } from './beneath.ts';
import { AgentFs } from './fs-ops.ts';

/** Where processes inside find the API (docs/wire-reference.md §12). */
export const API_SOCKET_PATH = '/.sprite/api.sock';
/** The `sprite-env` command, on the sprite user's `PATH` (`/usr/local/bin` is in every exec's PATH). */
export const SPRITE_ENV_PATH = '/usr/local/bin/sprite-env';
/** The version file real sprites carry (docs/wire-reference.md §12 "Other in-sprite paths"). */
export const VERSION_PATH = '/.sprite/version.txt';
/** The service logs directory (docs/wire-reference.md §9.3 `log_files`). */
export const LOGS_DIR = '/.sprite/logs/services';

/** The shell script installed as `sprite-env`: runs the agent bundle's `sprite-env` mode with the sprite's node. */
export const SPRITE_ENV_SCRIPT = '#!/bin/sh\nexec /.sprite/bin/node /.sprite/agent/agent.mjs --sprite-env "$@"\n';

/**
 * Listens on `path` (a stale socket is replaced; mode 0666 so the sprite user can connect) and calls `onConnection`
 * for every connection. Resolves with the server once listening; rejects with the listen error.
 */
export async function listenApiSocket(path: string, onConnection: (socket: Socket) => void): Promise<Server> {
  await fsp.mkdir(dirname(path), { recursive: true });
  await fsp.rm(path, { force: true });
  const server = createServer({ allowHalfOpen: true }, onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await fsp.chmod(path, 0o666);
  return server;
}

/**
 * Writes the files that come with the API inside a sandbox sprite: `version` into `/.sprite/version.txt`, the logs
 * directory (owned by `owner`), and the `sprite-env` script (0755). No write follows a link the sprite's code may
 * have planted (a symlink at any of these paths is replaced: beneath.ts), and the logs directory is made a real
 * directory before it is chowned (`lchown`). Each failure is reported on stderr and skipped: the agent must start
 * even on a disk the sprite filled or made read-only.
 * @see docs/security.md "Host-side writes"
 */
export async function installSpriteFiles(version: string, owner: { uid: number; gid: number } | null): Promise<void> {
  const fs = new AgentFs('', null);
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['version', () => fs.writeFile(VERSION_PATH, Buffer.from(`${version}\n`), { mode: 0o644, mkdirParents: true, noFollow: true })],
    ['logs', () => mkdirBeneath('', LOGS_DIR, owner)],
    ['sprite-env', () => fs.writeFile(SPRITE_ENV_PATH, Buffer.from(SPRITE_ENV_SCRIPT), { mode: 0o755, mkdirParents: true, noFollow: true })],
  ];
  for (const [what, step] of steps) {
    await step().catch((err: Error) => process.stderr.write(`spritzer-agent: cannot install ${what}: ${err.message}\n`));
  }
}
