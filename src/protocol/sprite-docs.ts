/**
 * `/.sprite/docs/`: spritzer's own documentation for an agent working inside a sprite (not production's text), the
 * same on every engine but `languages.md`, which says what language tools the engine really has. Real sprites ship
 * such a directory (`agent-context.md`, `languages.md`, `services.md`…; docs/fidelity.md "/.sprite/docs"); these
 * files say what holds under spritzer. It owns the paths and the texts; the agent writes them inside sandbox and
 * container sprites (src/agent/api-socket.ts), the in-memory engines seed them into the VFS
 * (src/server/machines/memory/linux-skeleton.ts). No dependencies: the agent bundle and the server both import it.
 * @see docs/wire-reference.md §12 "Other in-sprite paths"
 */

/** The directory of the documentation files (root's, 0755; the files root's, 0644). */
export const SPRITE_DOCS_DIR = '/.sprite/docs';

/** `agent-context.md`: what this machine is and how to work in it, section by section. */
export const AGENT_CONTEXT_MD = `# Working inside this sprite (spritzer)

This machine is a Sprite: a persistent Linux computer run for you behind the Sprites API. It is emulated by
spritzer, a local emulator of that API; the last section says what that changes. The other files here go deeper:
services.md, checkpoints.md, networking.md, languages.md.

## The machine
- Linux with a disk of its own that persists: files outlive every command, idle pauses and restarts of the sprite.
- No init system runs (no systemd, no rc scripts, no journalctl): a program that must keep running is a Sprite
  service (below), not a daemon of the OS.

## User and sudo
- Commands run as the user \`sprite\` (uid 1001, also in the groups sudo and users; home /home/sprite), starting in
  /home/sprite unless the caller gave a directory.
- \`sudo\` asks no password (\`sudo -n\` never prompts). On the sandbox and container engines it makes you root of
  the sprite (never of the machine spritzer runs on); on the shell engine it runs a command as root (\`-u root\` only).

## HTTP access
- The sprite's URL (\`url\` of GET /v1/sprites/<name> outside; \`sprite-env info\` inside, field \`sprite_url\`)
  reaches the port of the service that was created with --http-port, else port 8080, for HTTP and WebSocket.
  Listen on that port, on 0.0.0.0 or 127.0.0.1, to be reachable.
- Who may call it is the sprite's url_settings.auth: \`sprite\` (the default) wants the organization's API token
  as \`Authorization: Bearer <token>\`; \`public\` lets anyone with the URL in. It is changed from outside the sprite
  (PUT /v1/sprites/<name> with {"url_settings":{"auth":"public"}}); nothing inside the sprite can change it.
- A request to the URL wakes a paused sprite and starts a stopped service that has --http-port. More: networking.md.

## Lifecycle
- \`running\` while something happens: a command runs, a client is connected, a task is live, the URL is in use.
- About 30 s after the last activity the sprite is \`warm\` (paused, memory kept), later \`cold\`. The next exec,
  URL request or API call wakes it. Files always survive; plain background processes do not survive a cold pause,
  services come back by themselves.
- To stay awake while working without a client (a long build, a job), hold a task:
  \`sprite-env curl -X POST /v1/tasks -d '{"name":"build","expire":"30m"}'\` (at most 1 h; renew it with
  PUT /v1/tasks/<name>, end it with DELETE /v1/tasks/<name>).

## Services
- A service is a command the sprite keeps running: restarted when it exits (1 s, 2 s, 4 s… up to 30 s apart), started
  again when the sprite wakes or is restored, started in the order of its --needs.
- \`sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080\`; then
  \`sprite-env services list|get|start|stop|restart|signal|delete|logs\`. Output goes to
  /.sprite/logs/services/<name>.log. More: services.md.

## Checkpoints
- A checkpoint is a copy of the whole disk at one moment; restoring one rewinds the disk to it, ends every running
  command and restarts the services. \`sprite-env checkpoints create --comment "before the upgrade"\`,
  \`sprite-env checkpoints list\`, \`sprite-env checkpoints restore v2\`. More: checkpoints.md.

## File system
- / is the sprite's own: the base system below (the host's OS on the sandbox engine, the image on the container
  engine, a small emulated Linux tree on the in-memory engines), the sprite's own writes on top. Checkpoints hold
  those writes.
- /home/sprite is the sprite user's. /.sprite is the platform's (root's): llm.txt, docs/, bin/ (sprite-env,
  curl-sprite-api, sprite-browser), version.txt, logs/services/ (the sprite user's), policy/network.json once a
  network policy was set, api.sock on the sandbox and container engines.

## The internal API
- This sprite's own API is HTTP on the unix socket /.sprite/api.sock (virtual host \`sprite\`). Being inside is the
  credential: no token is sent, and nothing but this sprite is reachable through it.
- Paths: /v1/services… (list, get, create with PUT, start, stop, restart, logs, signal, delete), /v1/checkpoints…
  (list, get, restore), POST /v1/checkpoint (create), /v1/tasks…, GET /v1/sprite (this sprite, as the public API
  shows it), GET /policy/network (the network policy in force, read-only).
- \`sprite-env --help\` lists the commands; \`sprite-env curl <path>\` and \`curl-sprite-api <path>\` send any request.

## Network policy
- Outbound access follows the sprite's network policy: a list of rules \`{"domain":"example.com","action":"allow"}\`
  (a name, \`*.suffix\` or \`*\`; \`deny\` rules too) and \`{"include":"defaults"}\`. No rules means no filtering.
- Inside it can only be read: \`cat /.sprite/policy/network.json\` (present once a policy was set, mode 0444) or
  \`sprite-env curl /policy/network\`. It is set from outside: POST /v1/sprites/<name>/policy/network. More:
  networking.md.

## What differs under spritzer
- Engines: \`shell\` and \`interpreter\` emulate Linux in memory (no real processes; nothing listens on a port);
  \`sandbox\` runs real processes in a bubblewrap sandbox over the host's OS; \`container\` in a container of an image.
- The URL is by default http://<host>:<port>, a port of the sprite's own on spritzer's address; https://<name>-<org>.<domain>
  only when spritzer runs with --public-url.
- No outbound network by default; on the sandbox engine with --sandbox-egress gate, only through an HTTP proxy
  (http_proxy/https_proxy are set) that applies the network policy.
- Pauses are reported as statuses; memory is not dropped when the sprite goes cold.
- Checkpoints are not mounted at /.sprite/checkpoints; read an old file by restoring.
- No /.sprite/languages, no version managers, no sprite-console; sprite-browser opens nothing (no browser is attached).
- The full list: docs/fidelity.md in the spritzer repository.
`;

/** `services.md`: services as `sprite-env` and the API manage them under spritzer. */
export const SERVICES_MD = `# Services

A service is a command this sprite keeps running for you. Prefer one to \`nohup cmd &\`: a service comes back after
a crash, an idle pause, a restore or a restart of the sprite; a background process does not.

## Create one
    sprite-env services create web --cmd python3 --args -m,http.server,8080 --http-port 8080

| Option | Meaning |
|---|---|
| --cmd PATH | the program (required): a file name or path, run directly, not through a shell; for shell syntax use --cmd bash --args -c,'cd app && exec ./server' |
| --args a,b,c | its arguments, split at commas (so no argument can hold a comma: put such a command in a script); repeat the option to add more |
| --env K=v,K2=v2 | extra environment; a comma starts a new pair only before NAME= |
| --dir PATH | its working directory (default /home/sprite) |
| --needs s1,s2 | services that must be running before this one starts |
| --http-port N | the port the sprite's URL reaches (one service at most; another is refused with 409) |
| --duration 5s | how long the command streams the service's events before it returns (default 5s) |
| --no-stream | return as soon as the service is defined and started |

The answer is NDJSON, one event per line: \`started\`, the service's \`stdout\`/\`stderr\`, \`exit\` when it ends
(with \`exit_code\`), and \`complete\` (with \`log_files\`) when the window is over. Creating a service that exists
replaces its definition (and restarts it if it runs).

## Manage them
| Command | What it does |
|---|---|
| sprite-env services list | every service with its state (stopped, starting, running, stopping, failed) |
| sprite-env services get NAME | one service |
| sprite-env services start NAME [--duration D] | starts it (and what it needs) |
| sprite-env services stop NAME [--timeout 10s] | TERM, then KILL after the timeout; stays stopped until started |
| sprite-env services restart NAME [--duration D] | stop, then start |
| sprite-env services signal NAME SIG | sends a signal (TERM, HUP, USR1, KILL…) to the running service |
| sprite-env services logs NAME [--lines N] [--duration D] | the log's last lines, then live output for D |
| sprite-env services delete NAME | removes the definition (refused while it runs or another needs it); the log stays |

## Restarts and logs
- A service whose command exits is started again after 1 s, then 2 s, 4 s… at most 30 s apart; 30 s of running
  resets the delay. A stopped service stays stopped until started.
- Output goes to /.sprite/logs/services/NAME.log, stderr lines marked; the file is on the sprite's disk, so a
  restore rewinds it too.
- A service does not keep the sprite awake by itself: a request to the URL or a task does.

## Under spritzer
- On the shell engine a service is a script of the emulated shell: it runs, logs and restarts, but nothing it
  starts can listen on a port (no real processes). Use the sandbox or container engine for servers.
- The API behind these commands: PUT/GET/DELETE /v1/services/NAME, POST /v1/services/NAME/{start,stop,restart},
  GET /v1/services/NAME/logs, POST /v1/services/signal {"name","signal"} on /.sprite/api.sock.
`;

/** `checkpoints.md`: checkpoints as `sprite-env` and the API manage them under spritzer. */
export const CHECKPOINTS_MD = `# Checkpoints

A checkpoint is a copy of this sprite's whole disk at one moment. Restoring it brings the disk back to that moment.
Take one before anything you may want to undo: an upgrade, a migration, a bulk edit, running unknown code.

## Commands
| Command | What it does |
|---|---|
| sprite-env checkpoints create --comment "before the upgrade" | takes one now; the answer streams its progress (NDJSON) and names its id |
| sprite-env checkpoints list | \`Current\` (the live disk) first, then the checkpoints, newest first |
| sprite-env checkpoints list --history v3 | the ids of the checkpoints that descend from v3, one a line |
| sprite-env checkpoints get v3 | one checkpoint: id, create_time, comment, history (its ancestors) |
| sprite-env checkpoints restore v3 | rewinds the disk to v3 |

Ids are v1, v2, v3… in order of creation. Write the reason in the comment; it is what tells them apart later.

## What a restore does
- First an automatic checkpoint of the state being replaced is taken, so the restore itself can be undone
  (unless spritzer runs with --auto-checkpoints 0).
- Then every running command ends (including the one that asked for the restore: its connection drops), the
  services stop, the disk becomes the checkpoint's, and the services start again from their definitions.
- What lives outside the disk is not rewound: the network policy, the URL settings, the service definitions,
  tasks.

## Under spritzer
- Checkpoints are not mounted at /.sprite/checkpoints: to read an old file, restore (and restore back after).
- Automatic checkpoints (taken before a restore) are kept a few at a time and listed only when asked:
  \`sprite-env curl '/v1/checkpoints?includeAuto=true'\`.
- The engines copy the disk differently (the in-memory tree, a btrfs snapshot or a copy of the sandbox's layer, a
  commit of the container); what a checkpoint holds is the same.
- The API behind these commands: POST /v1/checkpoint {"comment"}, GET /v1/checkpoints[?history=ID],
  GET /v1/checkpoints/ID, POST /v1/checkpoints/ID/restore on /.sprite/api.sock.
`;

/** `networking.md`: the sprite URL (forms, auth, ports, waking) and the network policy under spritzer. */
export const NETWORKING_MD = `# Networking

## The sprite's URL
- Every sprite has one URL. Inside: \`sprite-env info\` prints it as \`sprite_url\`; outside: \`url\` of
  GET /v1/sprites/<name>.
- It reaches one port inside the sprite: the --http-port of the service that has one, else 8080. HTTP and
  WebSocket both pass. Serve on 0.0.0.0 or 127.0.0.1 at that port.
- A request to the URL wakes a paused sprite and starts a stopped service that has --http-port; while it is being
  answered the sprite counts as active.
- Forms under spritzer: http://<host>:<port> (the default: a port of the sprite's own on spritzer's address),
  http://<spritzer address>/s/<name> (spritzer run with --sprite-url path), https://<name>-<org>.<domain> (with
  --public-url, behind a real domain).

## Who may call the URL
- url_settings.auth \`sprite\` (the default): the caller sends an API token of the organization,
  \`Authorization: Bearer <token>\`. Without it the answer is 401 and your program never sees the request.
- \`public\`: anyone who has the URL. Publish only what is meant to be public.
- It is set from outside the sprite: PUT /v1/sprites/<name> {"url_settings":{"auth":"public"}} (or "sprite").
  The in-sprite API cannot change it.

## Network policy (outbound)
- The sprite's network policy says which names outbound connections may reach: rules
  \`{"domain":"api.example.com","action":"allow"}\` or \`"action":"deny"\` (an exact name, \`*.example.com\`, \`*\`) and
  \`{"include":"defaults"}\` (code hosting, package registries, container registries, major AI APIs). The most
  specific matching rule decides (an exact name, then the longest \`*.suffix\`, then \`*\`), \`deny\` when two are
  equally specific; a name no rule matches is refused. No rules at all means no filtering.
- Read it inside: /.sprite/policy/network.json (written once a policy was set, read-only) or
  \`sprite-env curl /policy/network\`. Set it from outside: POST /v1/sprites/<name>/policy/network {"rules":[…]}.

## Under spritzer
- shell and interpreter engines: no network at all; \`curl\` to the loopback reports a refused connection, any
  other host is refused naming the sandbox engine.
- sandbox engine: the sprite's own loopback only, by default (--sandbox-egress none). With --sandbox-egress gate,
  outbound traffic goes through an HTTP proxy at 127.0.0.1:3128 (http_proxy and https_proxy are set) that applies
  the network policy; programs that ignore the proxy variables get no connection.
- container engine: the container's own loopback only.
`;

/** The language tools whose presence the agent reports in `languages.md` on the engines with real programs. */
export const LANGUAGE_TOOLS: readonly string[] = [
  'python3', 'pip3', 'node', 'npm', 'npx', 'perl', 'ruby', 'gem', 'go', 'rustc', 'cargo', 'java', 'javac', 'php', 'bun', 'deno', 'erl', 'elixir',
  'gcc', 'cc', 'make', 'sqlite3', 'git', 'curl', 'jq',
];

/** The directories the agent looks for `LANGUAGE_TOOLS` in: the sprite user's PATH, but for ~/.local/bin and /.sprite/bin (the agent's own node). */
export const LANGUAGE_TOOL_DIRS: readonly string[] = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** `languages.md` on the in-memory engines: the emulated programs, what each is, and where each stops. */
export const MEMORY_LANGUAGES_MD = `# Languages and tools on this sprite (in-memory engines)

This sprite runs on one of spritzer's in-memory engines: no real program runs in it. What a real sprite's image
provides (Node.js, Python, Go, Ruby, Rust, Java, Bun, Deno and their version managers) is not here. What the
\`shell\` engine does have, emulated over the sprite's files:

| Command | What it is | Where it stops |
|---|---|---|
| bash, sh, coreutils, grep, sed, awk, find, jq, tar… | spritzer's bash emulation and its commands | a command it lacks, or an option, is refused on stderr naming the sandbox engine |
| python3 | CPython compiled to WebAssembly | no subprocess, listening socket, thread, pip or venv; C modules it lacks (ssl, sqlite3…) |
| node | node -e, node -p, node FILE in QuickJS, with node's fs over the sprite's files | no other node arguments, no npm, no network |
| perl | Perl 5 compiled to WebAssembly, with its pure-Perl core modules | no system, backticks, fork or sockets; no POSIX module |
| sqlite3 | SQLite compiled to WebAssembly | the dot-commands .tables, .schema, .headers, .mode, .separator, .nullvalue only |
| git | isomorphic-git over the sprite's files | no network remotes |
| curl | answers for the loopback only (nothing listens there) | every other host |

Nothing can be installed (no apt, no pip, no npm install). Every refusal is loud: a message on stderr and a non-zero
status, never a silent wrong answer. The \`interpreter\` engine runs only a fixed table of file commands.

For real runtimes, run spritzer with --exec sandbox (the host's programs) or --exec container (an image's).
`;

/**
 * `languages.md` on the engines with real programs (sandbox, container): spritzer installs no runtime; `found` is
 * what the agent saw at boot in `LANGUAGE_TOOL_DIRS` (each `{name, path}`, in `LANGUAGE_TOOLS` order).
 */
export function agentLanguagesMd(found: ReadonlyArray<{ name: string; path: string }>): string {
  const rows = found.map((t) => `| ${t.name} | ${t.path} |`).join('\n');
  const table = found.length > 0 ? `| Command | Found at |\n|---|---|\n${rows}\n` : 'None of them was found.\n';
  const missing = LANGUAGE_TOOLS.filter((name) => !found.some((t) => t.name === name));
  return `# Languages and tools on this sprite (sandbox and container engines)

spritzer installs no language runtime and no version manager in a sprite. The programs here are those of the base
system: the host's OS (read through the sprite's own overlay) on the sandbox engine, the image's on the container
engine. A real sprite's image ships Node.js, Python, Go, Ruby, Rust, Elixir/Erlang, Java, Bun and Deno with version
managers under /.sprite/languages; this one has only what is listed below.

When spritzer's agent started, it found these in ${LANGUAGE_TOOL_DIRS.join(', ')}:

${table}
${missing.length > 0 ? `Not found: ${missing.join(', ')}.\n\n` : ''}Check again at any time with \`command -v NAME\`; what you install later (\`sudo apt-get install …\`, needing
network access) is not listed here until the sprite restarts.
`;
}

/**
 * The documentation files of `/.sprite/docs`, as `[path, text]`, with `languages` for `languages.md`.
 * @deviation A real sprite's directory also holds `docker.md` (installing Docker in the sprite), and its llm.txt
 *   points to `/.sprite/languages/<lang>/llm.txt`; spritzer has neither (no network to install Docker from, no
 *   version managers).
 */
export function spriteDocs(languages: string): Array<[string, string]> {
  return [
    [`${SPRITE_DOCS_DIR}/agent-context.md`, AGENT_CONTEXT_MD],
    [`${SPRITE_DOCS_DIR}/services.md`, SERVICES_MD],
    [`${SPRITE_DOCS_DIR}/checkpoints.md`, CHECKPOINTS_MD],
    [`${SPRITE_DOCS_DIR}/networking.md`, NETWORKING_MD],
    [`${SPRITE_DOCS_DIR}/languages.md`, languages],
  ];
}
