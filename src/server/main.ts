/**
 * The `spritzer` command: flags (with `SPRITZER_*` env equivalents) → deps → listen. Prints the base URL and
 * an `export SPRITES_BASE_URL=…` line when ready; on SIGINT/SIGTERM closes sockets, ends running commands and
 * exits 0. Logging is one line per request (pino).
 */
import './runtime/hold-young-generation.ts'; // first: the young generation stays small while the server starts (young-generation.ts)
import { HTTP_EXEC_FRAME_GAP_MS, type FrameGapClients } from './exec/frames.ts';
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { defaultDeps, startServer } from './server.ts';
import { openMachineFactory, MACHINE_ENGINES } from './machines/index.ts';
import { SANDBOX_EGRESS_MODES } from './config/machines.ts';
import { SystemClock } from './core/clock.ts';
import { DEFAULT_LIMITS, parseSize } from './core/limits.ts';
import { installLastResort } from './http/containment.ts';
import { wholeNumber } from './config/cli-numbers.ts';
import { DEFAULT_MAX_JSON_BODY_BYTES } from './http/json-depth.ts';
import { DEFAULT_EXEC_STREAM_LIMITS } from './config/exec-limits.ts';
import { DEFAULT_MAX_HEADER_BYTES } from './http/oversize.ts';
import { DEFAULT_SHELL_LIMITS } from './config/shell-limits.ts';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, gracefulShutdown, logUpgrades, trackRequests } from './shutdown.ts';
import { listenErrorMessage, openDataDir, StartupError, type OpenedDataDir } from './store/open-data-dir.ts';
import { containerOptions, type ContainerCliOptions } from './machines/container/cli.ts';
import { limitOptions, limitsFromOptions, type LimitCliOptions } from './config/limit-options.ts';
import { agentTimeoutOption } from './config/agent-timeout.ts';
import { spriteResourceOptions, spriteResourcesFromOptions, type SpriteResourceCliOptions } from './config/sprite-resources.ts';
import { ensureInspector } from './inspector/bundle.ts';
import { slowStep } from '../cli/slow-step.ts';
import { releaseYoungGeneration } from './runtime/young-generation.ts';
import { parseSpritePortRange, type SpritePortRange } from './config/sprite-ports.ts';
import { normalOrigin } from './http/origin-check.ts';

/** `--allow-origin`: a comma-separated list of origins, or `*`; each normalised (`scheme://host[:port]`). */
function parseAllowedOrigins(v: string): string[] {
  return v
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
    .map((o) => {
      if (o === '*') return o;
      try {
        return normalOrigin(o);
      } catch {
        throw new InvalidArgumentError(`not an origin (http://host:port): ${JSON.stringify(o)}`);
      }
    });
}

const program = new Command('spritzer')
  .description('A local, stateful emulator of the Fly.io Sprites API')
  .addOption(new Option('--addr <host:port>', 'listen address').env('SPRITZER_ADDR').default('127.0.0.1:4290'))
  .addOption(new Option('--exec <engine>', 'exec engine').env('SPRITZER_EXEC').choices([...MACHINE_ENGINES]).default('shell'))
  .addOption(new Option('--token <token>', 'require this bearer token (any token is accepted when unset)').env('SPRITZER_TOKEN'))
  .addOption(new Option('--public-url <url>', 'base URL sprite URLs are built from, https://<name>-<org-id>.<host> (a deployment behind a real domain); default: per --sprite-url, a port of its own per sprite (http://<host>:<port>) or http://<addr>/s/<name>').env('SPRITZER_PUBLIC_URL'))
  .addOption(new Option('--url-domain <domain>', 'Host <name>.<domain>[:port] reaches sprite <name> (the sprite URL)').env('SPRITZER_URL_DOMAIN').default('localhost'))
  .addOption(
    new Option('--sprite-url <form>', "the form of a sprite's url without --public-url: port (a port of its own on spritzer's address, an origin apart from the API's) or path (http://<addr>/s/<name>, sandboxed on spritzer's origin)")
      .env('SPRITZER_SPRITE_URL')
      .choices(['port', 'path'])
      .default('port'),
  )
  .addOption(
    new Option('--sprite-ports <range>', 'where --sprite-url port takes its ports: auto (free ports the kernel picks) or <from>-<to> (the first free one; busy ones, e.g. another spritzer\'s, are skipped)')
      .env('SPRITZER_SPRITE_PORTS')
      .default('auto' as SpritePortRange, 'auto')
      .argParser((v) => {
        try {
          return parseSpritePortRange(v);
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
      }),
  )
  .addOption(
    new Option('--allow-origin <origins>', "comma-separated browser origins (http://host:port) that may open the API's WebSockets and change state besides spritzer's own; * allows any")
      .env('SPRITZER_ALLOW_ORIGIN')
      .argParser(parseAllowedOrigins),
  )
  .addOption(new Option('--org <slug>', 'organization slug').env('SPRITZER_ORG').default('personal'))
  .addOption(new Option('--log-level <level>', 'log level').env('SPRITZER_LOG_LEVEL').default('info'))
  .addOption(
    new Option('--stdin-grace <ms>', 'shell engine: start a command that asked for stdin after this long without any (no EOF)')
      .env('SPRITZER_STDIN_GRACE_MS')
      .default(50)
      .argParser(wholeNumber({ min: 0, unit: 'milliseconds' })),
  )
  .addOption(
    new Option('--http-exec-frame-gap <ms>', 'HTTP exec: pause between output frames, so readers that take each read as one frame (the JS SDK execFileHTTP) see them apart; 0 = none')
      .env('SPRITZER_HTTP_EXEC_FRAME_GAP_MS')
      .default(HTTP_EXEC_FRAME_GAP_MS)
      .argParser(wholeNumber({ min: 0, unit: 'milliseconds' })),
  )
  .addOption(
    new Option('--http-exec-frame-gap-clients <who>', 'HTTP exec: who gets that pause: fetch (requests whose User-Agent is a JavaScript client reading through fetch: node, undici, Deno/, Bun/, sprites-js/) or all')
      .env('SPRITZER_HTTP_EXEC_FRAME_GAP_CLIENTS')
      .choices(['fetch', 'all'])
      .default('fetch'),
  )
  .addOption(
    new Option('--stdin-wait <ms>', 'shell engine: how long a command that may read stdin waits for its first stdin byte or EOF')
      .env('SPRITZER_STDIN_WAIT_MS')
      .default(2000)
      .argParser(wholeNumber({ min: 0, unit: 'milliseconds' })),
  )
  .addOption(
    new Option('--disk-quota <size>', 'bytes of file content each sprite may store (e.g. 1gb, 512mb); beyond it writes fail with ENOSPC')
      .env('SPRITZER_DISK_QUOTA')
      .default(DEFAULT_LIMITS.diskQuotaBytes, '1gb')
      .argParser((v) => {
        try {
          return parseSize(v);
        } catch (e) {
          throw new InvalidArgumentError((e as Error).message);
        }
      }),
  )
  .addOption(
    new Option('--max-json-body <bytes>', 'largest JSON request body in bytes; larger bodies answer 413')
      .env('SPRITZER_MAX_JSON_BODY')
      .default(DEFAULT_MAX_JSON_BODY_BYTES)
      .argParser(wholeNumber({ min: 1, unit: 'bytes' })),
  )
  .addOption(
    new Option('--data-dir <dir>', 'keep state here across restarts (sprites, files, checkpoints, services, tokens; sandbox: its disks too); default: memory only')
      .env('SPRITZER_DATA_DIR')
      // An empty value (`SPRITZER_DATA_DIR=`) would put the database in the current directory: refused.
      .argParser((v) => {
        if (v.trim() === '') throw new InvalidArgumentError('must name a directory');
        return v;
      }),
  )
  .addOption(new Option('--sandbox-root <dir>', 'sandbox engine: a prepared root filesystem (npm run rootfs) instead of the host\'s OS').env('SPRITZER_SANDBOX_ROOT'))
  .addOption(
    new Option('--sandbox-spares <n>', 'sandbox engine: sprites kept booted ahead so a create takes a few ms (each ~45 MiB idle); 0 boots every sprite on create')
      .env('SPRITZER_SANDBOX_SPARES')
      .default(1)
      .argParser(wholeNumber({ min: 0, max: 64 })),
  )
  .addOption(
    new Option('--sandbox-egress <mode>', 'sandbox engine: none (no outbound network at all) or gate (an HTTP/CONNECT proxy and a DNS resolver inside each sprite that apply its network policy); see docs/sandbox.md')
      .env('SPRITZER_SANDBOX_EGRESS')
      .choices([...SANDBOX_EGRESS_MODES])
      .default('none'),
  )
  .addOption(
    new Option('--max-stdin-bytes <bytes>', 'most stdin one exec may send (WebSocket frames or HTTP exec body); see docs/limits.md')
      .env('SPRITZER_MAX_STDIN_BYTES')
      .default(DEFAULT_EXEC_STREAM_LIMITS.maxStdinBytes)
      .argParser(wholeNumber({ min: 1, unit: 'bytes' })),
  )
  .addOption(
    new Option('--max-header-size <bytes>', 'most bytes of a request line plus header fields (long exec command lines); past it 414 or 431')
      .env('SPRITZER_MAX_HEADER_SIZE')
      .default(DEFAULT_MAX_HEADER_BYTES)
      .argParser(wholeNumber({ min: 1024, unit: 'bytes' })),
  )
  .addOption(
    new Option('--shell-max-commands <n>', 'shell engine: most commands (and loop iterations) one exec may run; see docs/limits.md')
      .env('SPRITZER_SHELL_MAX_COMMANDS')
      .default(DEFAULT_SHELL_LIMITS.maxCommands)
      .argParser(wholeNumber({ min: 1 })),
  )
  .addOption(
    new Option('--shell-timeout <ms>', 'shell engine: most milliseconds one exec may run, 0 for no limit; see docs/limits.md')
      .env('SPRITZER_SHELL_TIMEOUT_MS')
      .default(DEFAULT_SHELL_LIMITS.timeoutMs)
      .argParser(wholeNumber({ min: 0, unit: 'milliseconds', note: '0: no limit' })),
  )
  .addOption(
    new Option('--shutdown-timeout <ms>', 'on SIGTERM/SIGINT, how long in-flight requests, streams and commands get to finish')
      .env('SPRITZER_SHUTDOWN_TIMEOUT_MS')
      .default(DEFAULT_SHUTDOWN_TIMEOUT_MS)
      .argParser(wholeNumber({ min: 0, unit: 'milliseconds' })),
  )
  .option('--no-validate-responses', 'do not validate responses against the spec (also off when NODE_ENV=production)');

for (const option of containerOptions()) program.addOption(option);
for (const option of limitOptions()) program.addOption(option);
program.addOption(agentTimeoutOption());
for (const option of spriteResourceOptions()) program.addOption(option);
program.parse();
const opts = program.opts<{
  addr: string;
  exec: (typeof MACHINE_ENGINES)[number];
  token?: string;
  publicUrl?: string;
  urlDomain: string;
  spriteUrl: 'port' | 'path';
  spritePorts: SpritePortRange;
  allowOrigin?: string[];
  org: string;
  logLevel: string;
  stdinGrace: number;
  httpExecFrameGap: number;
  httpExecFrameGapClients: FrameGapClients;
  stdinWait: number;
  diskQuota: number;
  maxJsonBody: number;
  dataDir?: string;
  sandboxRoot?: string;
  sandboxSpares: number;
  sandboxEgress: 'none' | 'gate';
  maxStdinBytes: number;
  maxHeaderSize: number;
  shellMaxCommands: number;
  shellTimeout: number;
  shutdownTimeout: number;
  agentTimeout: number;
  validateResponses: boolean;
} & ContainerCliOptions & LimitCliOptions & SpriteResourceCliOptions>();

const match = /^(.*):(\d+)$/.exec(opts.addr);
if (!match) {
  console.error(`spritzer: invalid --addr ${JSON.stringify(opts.addr)} (expected host:port)`);
  process.exit(2);
}
const host = match[1].replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
const port = Number(match[2]);

const clock = new SystemClock();
const logger = pino({ level: opts.logLevel });
// Last resort: whatever escapes the contained layers (containment.ts) is logged, and the server keeps serving.
installLastResort(process, logger);
// A signal during the start (the engine may be making its temp data dir, loop mount and cgroups) is held until the
// server can shut down, which removes them; a second one ends the process at once.
let startSignal: NodeJS.Signals | undefined;
function holdStartSignal(signal: NodeJS.Signals): void {
  if (startSignal) process.exit(1);
  startSignal = signal;
}
process.on('SIGINT', holdStartSignal);
process.on('SIGTERM', holdStartSignal);
// --data-dir: state survives restarts (src/server/store); the sandbox engine keeps its sprites' disks there too. The
// dir is claimed before the engine opens (the claim clears what a dead earlier run left, which must not be this run's).
// The container engine keeps its sprites as containers (docs/container.md), not here.
let dataDir: OpenedDataDir | undefined;
if (opts.dataDir !== undefined && opts.exec !== 'container') {
  try {
    dataDir = await openDataDir(opts.dataDir, { clock, logger });
  } catch (err) {
    console.error(`spritzer: ${(err as Error).message}`);
    process.exit(err instanceof StartupError ? 1 : 2);
  }
}
let machines;
try {
  // A slow start (sandbox spares booting, a container image checked or built) shows progress on stderr,
  // so the user can tell a slow start from a hung one.
  machines = await slowStep(`starting the ${opts.exec} engine`, openMachineFactory(opts.exec, {
    clock,
    logger,
    stdinGraceMs: opts.stdinGrace,
    stdinWaitMs: opts.stdinWait,
    maxStdinBytes: opts.maxStdinBytes,
    shellLimits: { maxCommands: opts.shellMaxCommands, timeoutMs: opts.shellTimeout },
    dataDir: opts.dataDir,
    persist: dataDir !== undefined,
    sandboxRoot: opts.sandboxRoot,
    sandboxSpares: opts.sandboxSpares,
    sandboxEgress: opts.sandboxEgress,
    spriteResources: spriteResourcesFromOptions(opts),
    sandboxUidBase: opts.sandboxUidBase,
    agentTimeoutMs: opts.agentTimeout,
    container: { runtime: opts.containerRuntime, image: opts.spriteImage, namespace: opts.namespace, createTimeoutMs: opts.createTimeout, agentImage: opts.agentImage },
  }), { doneText: 'ready' });
} catch (err) {
  console.error(`spritzer: cannot start the ${opts.exec} engine: ${(err as Error).message}`);
  process.exit(2);
}
logger.info({ engine: machines.engine, snapshots: machines.snapshotMode }, 'exec engine ready');
const deps = defaultDeps({
  clock,
  logger,
  machines,
  execLimits: { maxStdinBytes: opts.maxStdinBytes },
  httpExecFrameGapMs: opts.httpExecFrameGap,
  httpExecFrameGapClients: opts.httpExecFrameGapClients,
  token: opts.token,
  organization: opts.org,
  publicUrl: opts.publicUrl,
  urlDomain: opts.urlDomain,
  spriteUrlForm: opts.spriteUrl,
  spritePorts: opts.spritePorts,
  allowOrigins: opts.allowOrigin,
  validateResponses: opts.validateResponses && process.env.NODE_ENV !== 'production',
  limits: { ...DEFAULT_LIMITS, diskQuotaBytes: opts.diskQuota, ...limitsFromOptions(opts) },
  maxJsonBodyBytes: opts.maxJsonBody,
  maxHeaderBytes: opts.maxHeaderSize,
  store: dataDir?.store,
});

let running: Awaited<ReturnType<typeof startServer>>;
try {
  running = await startServer(deps, host, port);
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  if (!e.syscall?.startsWith('listen') && e.code !== 'EADDRINUSE') throw err;
  console.error(`spritzer: ${listenErrorMessage(e, host, port)}`);
  process.exit(1);
}
const inFlight = trackRequests(running.server);
logUpgrades(running.server, logger);
// Before the listening line: a supervisor (or a test) may signal the moment it reads it, and until Node has a
// listener its default action ends the process without a shutdown.
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // Whatever hangs past the timeout (and a grace for saving), the process still ends.
  setTimeout(() => {
    console.error('spritzer: shutdown took too long; exiting');
    process.exit(1);
  }, opts.shutdownTimeout + 5_000).unref();
  // Container sprites outlive spritzer: the next start adopts them (docs/container.md "Restarts"); with --ephemeral
  // they are deleted with the server (a test server's namespace of its own would otherwise fill the daemon).
  if (!opts.ephemeral) deps.machines.detach();
  await gracefulShutdown(running, inFlight, { timeoutMs: opts.shutdownTimeout, logger });
  await dataDir?.claim.release();
  process.exit(0);
}
process.off('SIGINT', holdStartSignal);
process.off('SIGTERM', holdStartSignal);
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
if (startSignal) void shutdown(startSignal);
// The inspector's files are built now when missing or stale (esbuild, ~1 s), so the printed link works at once.
await slowStep('building the inspector', ensureInspector(), { doneText: 'built' }).catch((err: unknown) => logger.warn({ err }, 'inspector not built; /_spritzer/ui will retry'));
process.stdout.write(`spritzer listening on ${running.url} (exec engine: ${opts.exec}, checkpoints: ${machines.snapshotMode})\ninspector: ${running.url}/_spritzer/ui/\nexport SPRITES_BASE_URL=${running.url}\n`);
// The exec engine's modules load now, in the background, rather than on the first sprite (machines/memory/load.ts).
// Then the young generation may grow with the load (young-generation.ts); at the latest 2 s after listening, so an
// engine that warms for long (sandbox spares) does not serve its first requests with a small young generation.
setTimeout(releaseYoungGeneration, 2_000).unref();
setImmediate(() =>
  void deps.machines.warm()
    .catch((err: unknown) => logger.error({ err }, 'exec engine failed to load'))
    .finally(releaseYoungGeneration),
);


