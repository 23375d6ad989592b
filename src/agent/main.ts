/**
 * The in-sprite agent's entry point (bundled to `dist/agent/agent.mjs` by `npm run build:agent`). Inside a sandbox
 * the launcher starts it as `/.sprite/bin/node /.sprite/agent/agent.mjs --socket /.sprite/run/agent.sock`, as root,
 * under bubblewrap's PID 1 (which reaps orphans); for its own tests it runs on the host with `--root DIR`. It owns
 * argument parsing and process-level setup only; everything else is in `agent.ts` and the modules it uses.
 * @see docs/agent-protocol.md
 */
import { accessSync, constants as fsConstants } from 'node:fs';
import { parseArgs } from 'node:util';
import { Agent } from './agent.ts';
import { inSandbox as isSandboxAgent, sweepsNamespace } from './pid-namespace.ts';
import { installSpriteFiles } from './api-socket.ts';
import { API_SOCKET_PATH, SPRITE_GID, SPRITE_UID } from '../protocol/sprite-tree.ts';
import { spriteEnvMain } from './sprite-env.ts';
import { curlSpriteApiMain } from './curl-sprite-api.ts';
import { listenSudo, SUDO_SOCKET_PATH, sudoMain } from './sudo.ts';
import { VERSION_TEXT } from '../protocol/sprite-tree.ts';

// `agent.mjs --sprite-env …` is the `sprite-env` command inside the sprite (the installed script runs it).
if (process.argv[2] === '--sprite-env') process.exit(await spriteEnvMain(process.argv.slice(3)));
// `agent.mjs --curl-sprite-api …` is `curl-sprite-api`'s help, and the command where the sprite has no curl.
if (process.argv[2] === '--curl-sprite-api') process.exit(await curlSpriteApiMain(process.argv.slice(3)));
// `agent.mjs --sudo …` is the `sudo` command inside the sprite (the installed shim runs it; sudo.ts).
if (process.argv[2] === '--sudo') process.exit(await sudoMain(process.argv.slice(3)));


const { values } = parseArgs({
  options: {
    socket: { type: 'string' },
    root: { type: 'string' },
    'exit-drain-ms': { type: 'string' },
    'api-socket': { type: 'string' },
    'run-as': { type: 'string' },
  },
  strict: true,
});

if (!values.socket) {
  process.stderr.write('usage: agent.mjs --socket PATH [--root DIR] [--exit-drain-ms N] [--api-socket PATH] [--run-as HELPER] | --sprite-env ARGS… | --curl-sprite-api ARGS…\n');
  process.exit(2);
}

const isRoot = process.getuid?.() === 0;

/** `path` when it names an executable file; else undefined, said on stderr (processes then hold no capability). */
function usableHelper(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    accessSync(path, fsConstants.X_OK);
    return path;
  } catch (err) {
    process.stderr.write(`spritzer-agent: no run-as helper at ${path} (${(err as Error).message}): exec sessions run without their capabilities\n`);
    return undefined;
  }
}
const root = values.root ? values.root.replace(/\/+$/, '') : '';
if (isRoot) {
  // Supplementary groups of root must not reach the sprite user: node-pty's setuid does not drop them.
  process.setgroups?.([]);
}
if (process.pid === 1) {
  process.stderr.write('spritzer-agent: running as PID 1: orphaned processes will not be reaped (run under bwrap without --as-pid-1)\n');
}

// Inside a sandbox (no --root, PID 2) the agent serves the in-sprite API and installs `sprite-env`, as
// a real sprite's own agent does (docs/wire-reference.md §12).
const place = { root, pid: process.pid, apiSocket: values['api-socket'] };
const inSandbox = isSandboxAgent(place);
// Inside a sprite (never with --root, which is the host): a sandbox's PID 2, or a container's agent given --api-socket.
const inSprite = !root && (inSandbox || values['api-socket'] !== undefined);
if (inSprite) await installSpriteFiles(VERSION_TEXT, isRoot ? { uid: SPRITE_UID, gid: SPRITE_GID } : null);

// Processes start through the run-as helper, which gives an exec session's processes their capabilities and every
// process its supplementary groups (the sprite user's sudo and users).
const runAs = isRoot ? usableHelper(values['run-as']) : undefined;
const agent = new Agent({
  socket: values.socket,
  root,
  owner: isRoot ? { uid: SPRITE_UID, gid: SPRITE_GID } : null,
  dropPrivileges: isRoot,
  runAs,
  // Only inside a sandbox may killAll sweep every other process: never on the host (`--root`), nor in a container,
  // where the exec bridge spritzer talks through is a process beside the agent (pid-namespace.ts).
  sweepNamespace: sweepsNamespace(place),
  exitDrainMs: values['exit-drain-ms'] ? Number(values['exit-drain-ms']) : 100,
  apiSocket: values['api-socket'] ?? (inSandbox ? API_SOCKET_PATH : undefined),
});

// A bug in one request must not take the whole sprite down (a dead agent reboots it): log and carry on.
process.on('uncaughtException', (err) => process.stderr.write(`spritzer-agent: uncaught: ${err.stack ?? err}\n`));
process.on('unhandledRejection', (err) => process.stderr.write(`spritzer-agent: unhandled rejection: ${(err as Error)?.stack ?? err}\n`));

for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(sig, () => {
    void agent.close().finally(() => process.exit(0));
  });
}

await agent.listen();
// Root inside the sprite serves `sudo` (sudo.ts): a sprite without it answers `sudo: cannot reach the sprite's agent`.
if (inSprite && isRoot) {
  await listenSudo(SUDO_SOCKET_PATH, { dropPrivileges: true, exitDrainMs: 100, runAs }).catch((err: Error) =>
    process.stderr.write(`spritzer-agent: no sudo at ${SUDO_SOCKET_PATH}: ${err.message}\n`));
}
