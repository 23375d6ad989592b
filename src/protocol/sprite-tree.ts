/**
 * What every sprite's `/.sprite` holds, on every engine: the paths and the contents of `/.sprite/version.txt`,
 * `/.sprite/llm.txt` (the platform's notes for agents working inside the sprite) and the `sprite-env` shim. It
 * owns the text only; the agent writes these files inside sandbox and container sprites (api-socket.ts), the
 * in-memory engines seed them into the VFS (src/server/machines/memory/linux-skeleton.ts). No dependencies: the agent
 * bundle and the server both import it.
 * @see docs/wire-reference.md §12 "Other in-sprite paths" (llm.txt, bin shims, version.txt, logs/services)
 */

/**
 * The `sprite` user every exec, service and fs API call of a sprite runs as, on every engine: uid and gid 1001, as
 * production's image makes it (`useradd -ms /bin/bash -u 1001 sprite` then `usermod -aG sudo,users sprite`, so `id`
 * prints `uid=1001(sprite) gid=1001(sprite) groups=1001(sprite),27(sudo),100(users)`), home `/home/sprite`.
 * @see docs/wire-reference.md §13, docs/fidelity.md "`id`"
 */
export const SPRITE_USER = 'sprite';
/** uid of the `sprite` user (see {@link SPRITE_USER}). */
export const SPRITE_UID = 1001;
/** gid of the `sprite` user's own group, `sprite` (its primary group). */
export const SPRITE_GID = 1001;
/** Home of the `sprite` user (the default working directory of every exec). */
export const SPRITE_HOME = '/home/sprite';
/**
 * The sprite user's supplementary groups, in `/etc/group` order (Debian's base-passwd ids): every process of the
 * sprite user holds them (setgroups), and `/etc/group` lists `sprite` as a member of each.
 */
export const SPRITE_SUPPLEMENTARY_GROUPS: ReadonlyArray<{ readonly name: string; readonly gid: number }> = [
  { name: 'sudo', gid: 27 },
  { name: 'users', gid: 100 },
];
/** The gids of {@link SPRITE_SUPPLEMENTARY_GROUPS}. */
export const SPRITE_SUPPLEMENTARY_GIDS: readonly number[] = SPRITE_SUPPLEMENTARY_GROUPS.map((g) => g.gid);
/**
 * The supplementary group list of every process of the sprite user: the groups that list it as a member, as
 * production's image starts its processes as `sprite` (`exec gosu "$TARGET_USER"` in superfly/sprites-go
 * base-env/images/ubuntu-devtools/entrypoint.sh: gosu sets runc's libcontainer/user groups, those naming the user;
 * its own group is its gid only). getgroups(2) (python's `os.getgroups()`) answers `[27, 100]`; `id` prints
 * `groups=1001(sprite),27(sudo),100(users)`.
 */
export const SPRITE_PROCESS_GROUPS: readonly number[] = SPRITE_SUPPLEMENTARY_GIDS;

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
 * Where the run-as helper is inside a sprite (native/runas.c, read-only beside the agent's bundle): the agent starts
 * every process through it, as the sprite user with the capabilities its SPAWN names (`SpawnMessage.caps`).
 */
export const RUNAS_PATH = '/.sprite/agent/spritzer-runas';

/**
 * `/.sprite/llm.txt`: spritzer's own notes (not production's text) on what a sprite is, `sprite-env` (services,
 * checkpoints, tasks), the sprite URL and its auth, idle pause, network policy, and what differs under spritzer.
 * The first line names the file's subject, for an agent that reads only `head -1`.
 */
export const LLM_TXT = `# This machine is a Sprite: a persistent Linux computer for running code (emulated by spritzer)

## What a sprite is
- A stateful Linux machine. Its disk persists between commands, restarts and idle pauses; checkpoints capture it.
- You run as the user \`sprite\` (uid ${SPRITE_UID}, also in the groups sudo and users; home ${SPRITE_HOME}) with
  passwordless \`sudo\`; commands start in ${SPRITE_HOME}.
- Memory and processes do not survive a pause to cold; files do. Keep long-running programs as services.

## sprite-env: this sprite's own API
\`sprite-env\` (in /.sprite/bin and /usr/local/bin) talks to the API on /.sprite/api.sock (HTTP, host \`sprite\`):
  sprite-env info                                this sprite: name, id, organization, URL, version (JSON)
  sprite-env services list                       services and their state
  sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080
                                                 a service: restarted when it crashes and when the sprite wakes
  sprite-env services start|stop|restart|delete <name>
  sprite-env services signal <name> <SIG>        TERM, HUP, USR1, KILL… to the running service
  sprite-env services logs <name> [--lines N]    also in /.sprite/logs/services/<name>.log
  sprite-env checkpoints list
  sprite-env checkpoints create [--comment TEXT] a checkpoint of the whole disk
  sprite-env checkpoints restore <id>            rewinds the disk to it; every running command ends
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
- The \`url\` is by default http://<host>:<port>, a port of the sprite's own on spritzer's address
  (http://<spritzer address>/s/<name> with --sprite-url path; https://<name>-<org>.<domain> with --public-url).
- Engines: \`shell\` and \`interpreter\` emulate Linux in memory (no real processes, nothing listens on a port);
  \`sandbox\` and \`container\` run real processes. /etc/os-release says VARIANT_ID=spritzer on the in-memory engines.
- Outbound network: none by default; with \`--sandbox-egress gate\`, only through an HTTP proxy that applies the
  network policy (http_proxy/https_proxy are set).
- \`sudo\` never prompts (\`sudo -n\`). On \`sandbox\` and \`container\` spritzer's agent starts the command as root
  of the sprite's own user namespace (root inside the sprite, never on the host); on \`shell\` it runs as root.
- Idle pause is reported as a status; memory is not dropped on cold.
- No /.sprite/checkpoints, /.sprite/languages or version managers; \`sprite-browser\` opens nothing.

## Directory layout
  /.sprite/
    llm.txt           this file
    docs/             the documentation listed below
    bin/              sprite-env, curl-sprite-api, sprite-browser (also in /usr/local/bin)
    version.txt       the Sprite-Version of this sprite
    logs/services/    one log per service: <name>.log (the sprite user's)
    policy/           network.json: the network policy in force, once one was set (read-only)
    api.sock          this sprite's API (sandbox and container; the in-memory engines answer without a file)

## Full documentation
- /.sprite/docs/agent-context.md   the machine, user and sudo, the URL, lifecycle, services, checkpoints, files,
                                   the internal API, network policy, what differs under spritzer
- /.sprite/docs/services.md        services: options, commands, restarts, logs
- /.sprite/docs/checkpoints.md     checkpoints: commands, what a restore does
- /.sprite/docs/networking.md      the sprite URL, its auth, and the network policy
- /.sprite/docs/languages.md       the language tools this sprite really has
CLI help: \`sprite-env --help\` (and \`sprite-env <command> --help\`).
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

/** Where `curl-sprite-api` goes (every engine): production's older wrapper of curl for the in-sprite API. */
export const CURL_SPRITE_API_PATHS = ['/.sprite/bin/curl-sprite-api', '/usr/local/bin/curl-sprite-api'] as const;
/** Where `sprite-browser` goes (every engine): the command a real sprite's `BROWSER` names. */
/**
 * A login shell's addition to `PATH` (`/etc/profile.d/`, read by Debian's and Ubuntu's `/etc/profile`, which resets
 * `PATH` for every user but root): a Sprite's own profile puts `/.sprite/bin` on it (docs.sprites.dev base images:
 * "Command shims (in PATH)"), so `bash -l` finds the platform's commands as a plain exec does.
 */
export const SPRITE_PROFILE_PATH = '/etc/profile.d/sprite-bin.sh';

/**
 * The script at {@link SPRITE_PROFILE_PATH}: appends `/.sprite/bin` once, after the system directories, as the exec
 * `PATH` has it (there the agent's own `node` must not shadow the image's).
 * @deviation production's profile puts `/.sprite/bin` first (docs/fidelity.md "PATH").
 */
export const SPRITE_PROFILE_SCRIPT = `# The platform's commands (sprite-env, curl-sprite-api, sprite-browser) on a login shell's PATH.
case ":\${PATH}:" in
  *:/.sprite/bin:*) ;;
  *) PATH="\${PATH}:/.sprite/bin"; export PATH ;;
esac
`;

export const SPRITE_BROWSER_PATHS = ['/.sprite/bin/sprite-browser', '/usr/local/bin/sprite-browser'] as const;

/**
 * The curl options whose next argument is their value (so never the path `curl-sprite-api` rewrites), `--url`
 * apart: its value is the URL. Shared by the script below and the agent's fallback (src/agent/curl-sprite-api.ts).
 */
export const CURL_VALUED_OPTIONS: readonly string[] = [
  '-X', '-H', '-d', '-o', '-w', '-u', '-A', '-e', '-b', '-c', '-m', '-T', '-F', '-x', '-r', '-D', '-K', '-E', '-C', '-Y', '-y', '-z',
  '--request', '--header', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--data-ascii', '--json', '--output', '--write-out',
  '--user', '--user-agent', '--referer', '--cookie', '--cookie-jar', '--max-time', '--connect-timeout', '--retry', '--retry-delay',
  '--retry-max-time', '--upload-file', '--form', '--form-string', '--proxy', '--range', '--dump-header', '--config', '--unix-socket',
  '--abstract-unix-socket', '--output-dir', '--stderr', '--trace', '--trace-ascii', '--expect100-timeout', '--limit-rate', '--max-filesize',
  '--max-redirs', '--resolve', '--connect-to', '--url-query', '--variable', '--oauth2-bearer',
];

/**
 * The `curl-sprite-api` script on the engines with the agent: with real curl on `PATH`, `curl --unix-socket
 * /.sprite/api.sock -H 'Content-Type: application/json' ARGS…` where the first argument that is a `/path` (not an
 * option's value) becomes `http://sprite/path` (none: `http://sprite` is added); without curl, and for `--help`,
 * `-h` or no argument, the agent bundle's `--curl-sprite-api` mode run by `node` (src/agent/curl-sprite-api.ts).
 * @deviation Production's wrapper takes any argument starting with `/` for the path, an option's value too
 *   (`-o /tmp/x`); this one skips the values of `CURL_VALUED_OPTIONS`.
 */
export function curlSpriteApiScript(node: string): string {
  const fallback = `${node} /.sprite/agent/agent.mjs --curl-sprite-api`;
  return `#!/bin/sh
# curl-sprite-api [curl options] /path: curl on this sprite's API (/.sprite/api.sock); /path is sent as http://sprite/path.
for a in "$@"; do case "$a" in -h|--help) exec ${fallback} --help ;; esac; done
if [ $# -eq 0 ] || ! command -v curl >/dev/null 2>&1; then exec ${fallback} "$@"; fi
found= value=
for a do
  shift
  if [ -n "$value" ]; then
    [ "$value" = url ] && case "$a" in /*) a="http://sprite$a" ;; esac
    value=
  elif [ -z "$found" ]; then
    case "$a" in
      --url) value=url; found=1 ;;
      ${CURL_VALUED_OPTIONS.join('|')}) value=1 ;;
      /*) a="http://sprite$a"; found=1 ;;
      http://*|https://*) found=1 ;;
    esac
  fi
  set -- "$@" "$a"
done
[ -n "$found" ] || set -- "$@" http://sprite
exec curl --unix-socket ${API_SOCKET_PATH} -H 'Content-Type: application/json' "$@"
`;
}

/**
 * The `sprite-browser` script, the same on every engine: a real sprite's asks the browser of the client attached to
 * the sprite's terminal to open the URL (an escape sequence on the terminal); no browser is ever attached to a sprite
 * under spritzer, so it says so on stderr, naming the URL, and exits 0 as a real one does once the request is sent.
 * `--help`/`-h` print its usage.
 * @deviation Nothing is opened anywhere; the URL is only printed.
 */
export const SPRITE_BROWSER_SCRIPT = `#!/bin/sh
# sprite-browser [URL]: a real sprite asks the browser of the attached terminal client to open URL;
# under spritzer no browser is attached, so the URL is only printed.
case "$1" in
  -h|--help)
    echo 'usage: sprite-browser [URL]'
    echo 'Opens URL in the browser of the client attached to this sprite. Under spritzer no browser is attached:'
    echo 'the URL is printed on stderr and nothing is opened.'
    exit 0 ;;
esac
url=
for a in "$@"; do case "$a" in http://*|https://*|file://*|www.*) url=$a; break ;; esac; done
[ -n "$url" ] || url=\${1:-about:blank}
printf 'sprite-browser: not opened: %s (spritzer attaches no browser to a sprite)\\n' "$url" >&2
exit 0
`;
