/**
 * What every sprite's `/.sprite` holds, on every engine: the paths and the contents of `/.sprite/version.txt`,
 * `/.sprite/llm.txt` (the platform's notes for agents working inside the sprite) and the `sprite-env` shim. It
 * owns the text only; the agent writes these files inside sandbox and container sprites (api-socket.ts), the
 * in-memory engines seed them into the VFS (src/server/machines/memory/linux-skeleton.ts). No dependencies: the agent
 * bundle and the server both import it.
 * @see docs/wire-reference.md §12 "Other in-sprite paths" (llm.txt, bin shims, version.txt, logs/services)
 */

/** Where processes inside find the in-sprite API (docs/wire-reference.md §12). */
export const API_SOCKET_PATH = '/.sprite/api.sock';
/** The `sprite-env` command, on the sprite user's `PATH` (`/usr/local/bin` is in every exec's PATH). */
export const SPRITE_ENV_PATH = '/usr/local/bin/sprite-env';

/**
 * The `Sprite-Version` spritzer reports on every answer, and what `/.sprite/version.txt` says inside: an rc ≥ 30, so
 * the Go SDK uses path-form attach (docs/wire-reference.md §2.2).
 */
export const SPRITE_VERSION = 'v0.0.1-rc46';
/** What `/.sprite/version.txt` says: the Sprite-Version spritzer reports. */
export const VERSION_TEXT = SPRITE_VERSION;

/** The version file real sprites carry. */
export const VERSION_PATH = '/.sprite/version.txt';
/** The notes for agents real sprites carry. */
export const LLM_TXT_PATH = '/.sprite/llm.txt';
/** Where real sprites keep their command shims; `sprite-env` is one (also at `/usr/local/bin/sprite-env`). */
export const SPRITE_BIN_DIR = '/.sprite/bin';
/** The service logs directory (docs/wire-reference.md §9.3 `log_files`). */
export const LOGS_DIR = '/.sprite/logs/services';
/**
 * Where the agent reads how many tasks (processes and threads) its sprite may have and has: the sprite's pids cgroup
 * files, bound read-only there by the sandbox engine. A thread the agent cannot create is fatal to it (node-pty's
 * exit watcher), so it refuses a terminal exec first when the sprite is at its limit (src/agent/pids-room.ts).
 */
export const AGENT_PIDS_FILES = { max: '/.sprite/agent/pids.max', current: '/.sprite/agent/pids.current' } as const;

/**
 * `/.sprite/llm.txt`: spritzer's own notes (not production's text) on what a sprite is, `sprite-env` (services,
 * checkpoints, tasks), the sprite URL and its auth, idle pause, network policy, and what differs under spritzer.
 * The first line names the file's subject, for an agent that reads only `head -1`.
 */
export const LLM_TXT = `# This machine is a Sprite: a persistent Linux computer for running code (emulated by spritzer)

## What a sprite is
- A stateful Linux machine. Its disk persists between commands, restarts and idle pauses; checkpoints capture it.
- You run as the user \`sprite\` (uid 1000, home /home/sprite) with passwordless \`sudo\`; commands start in /home/sprite.
- Memory and processes do not survive a pause to cold; files do. Keep long-running programs as services.

## sprite-env: this sprite's own API
\`sprite-env\` (in /.sprite/bin and /usr/local/bin) talks to the API on /.sprite/api.sock (HTTP, host \`sprite\`):
  sprite-env services list                       services and their state
  sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080
                                                 a service: restarted when it crashes and when the sprite wakes
  sprite-env services start|stop|restart|delete <name>
  sprite-env services logs <name> [--lines N]    also in /.sprite/logs/services/<name>.log
  sprite-env checkpoints list
  sprite-env checkpoints create [--comment TEXT] a checkpoint of the whole disk; restore rewinds to it
  sprite-env curl -X POST /v1/tasks -d '{"name":"job","expire":"1h"}'
                                                 a task keeps the sprite running while it lives (at most 1 h,
                                                 refresh with PUT /v1/tasks/<name>); DELETE it when done

## The sprite URL
- The sprite's \`url\` (GET /v1/sprites/<name> on the public API) reaches the port of the service that has
  \`--http-port\`, else port 8080, for HTTP and WebSocket. Listen on that port to be reachable.
- url_settings.auth \`sprite\` (the default): callers need the API token as \`Authorization: Bearer <token>\`.
  \`public\`: anyone with the URL gets in.
- A request to the URL wakes the sprite and starts a stopped service that has --http-port.

## Idle pause
- A sprite with no running command, no open connection, no active task and no service handling traffic pauses:
  \`warm\` after about 30 s (memory kept), later \`cold\` (memory dropped, processes gone). The next exec, URL request
  or API call wakes it. Services come back on wake; plain background processes do not.

## Network policy
- Outbound network access follows the sprite's network policy (POST /v1/sprites/<name>/policy/network), a list of
  allowed and denied domains. The policy in force is readable at /.sprite/policy/network.json.

## What differs under spritzer (a local emulator of the Sprites API)
- The \`url\` is http://<spritzer address>/s/<name> unless spritzer runs with --public-url.
- Engines: \`shell\` and \`interpreter\` emulate Linux in memory (no real processes, nothing listens on a port);
  \`sandbox\` and \`container\` run real processes. /etc/os-release says VARIANT_ID=spritzer on the in-memory engines.
- Outbound network: none by default; with \`--sandbox-egress gate\`, only through an HTTP proxy that applies the
  network policy (http_proxy/https_proxy are set).
- \`sudo\` exists on \`sandbox\` and \`container\` only: spritzer's agent starts the command as root of the sprite's
  own user namespace (root inside the sprite, never on the host). \`sudo -n\` never prompts.
- Idle pause is reported as a status; memory is not dropped on cold.
- The full list: docs/fidelity.md in the spritzer repository.
`;

/**
 * The `sprite-env` shim on the engines with the agent: runs the agent bundle's `sprite-env` mode with `node`, the
 * agent's own node inside the sprite (`/.sprite/bin/node` in a sandbox, the image's node in a container).
 */
export function spriteEnvScript(node: string): string {
  return `#!/bin/sh\nexec ${node} /.sprite/agent/agent.mjs --sprite-env "$@"\n`;
}

/**
 * Where the `sudo` shim goes (engines with the agent, as root): `/usr/local/bin/sudo`, first on every PATH a sprite
 * uses, always; `/usr/bin/sudo` (production's path, found with a PATH that lacks /usr/local/bin) unless the image
 * has a sudo of its own there.
 */
export const SUDO_SHIM_PATHS = ['/usr/local/bin/sudo', '/usr/bin/sudo'] as const;

/** The `sudo` shim: runs the agent bundle's `--sudo` mode (src/agent/sudo.ts) with the agent's own node. */
export function sudoScript(node: string): string {
  return `#!/bin/sh\nexec ${node} /.sprite/agent/agent.mjs --sudo "$@"\n`;
}
