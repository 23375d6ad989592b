/**
 * The `spritzer` command: flags (with `SPRITZER_*` env equivalents) → deps → listen. Prints the base URL and
 * an `export SPRITES_BASE_URL=…` line when ready; on SIGINT/SIGTERM closes sockets, ends running commands and
 * exits 0. Logging is one line per request (pino).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { defaultDeps, startServer } from './server.ts';
import { openMachineFactory, MACHINE_ENGINES } from './machines/index.ts';
import { SystemClock } from './model/clock.ts';
import { DEFAULT_LIMITS, parseSize } from './limits.ts';
import { installLastResort } from './containment.ts';
import { DEFAULT_MAX_JSON_BODY_BYTES } from './http/json-depth.ts';
import { DEFAULT_EXEC_STREAM_LIMITS } from './exec-limits.ts';
import { ensureInspector } from './inspector/bundle.ts';

const program = new Command('spritzer')
  .description('A local, stateful emulator of the Fly.io Sprites API')
  .addOption(new Option('--addr <host:port>', 'listen address').env('SPRITZER_ADDR').default('127.0.0.1:4290'))
  .addOption(new Option('--exec <engine>', 'exec engine').env('SPRITZER_EXEC').choices([...MACHINE_ENGINES]).default('shell'))
  .addOption(new Option('--token <token>', 'require this bearer token (any token is accepted when unset)').env('SPRITZER_TOKEN'))
  .addOption(new Option('--public-url <url>', 'base URL sprite URLs are built from').env('SPRITZER_PUBLIC_URL').default('https://sprites.app'))
  .addOption(new Option('--org <slug>', 'organization slug').env('SPRITZER_ORG').default('personal'))
  .addOption(new Option('--log-level <level>', 'log level').env('SPRITZER_LOG_LEVEL').default('info'))
  .addOption(
    new Option('--stdin-grace <ms>', 'shell engine: start a command that asked for stdin after this long without any (no EOF)')
      .env('SPRITZER_STDIN_GRACE_MS')
      .default(50)
      .argParser((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number of milliseconds');
        return n;
      }),
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
      .argParser((v) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of bytes, at least 1');
        return n;
      }),
  )
  .addOption(new Option('--data-dir <dir>', 'sandbox engine: where sprites\' disks and snapshots live (default: a temp dir removed at exit)').env('SPRITZER_DATA_DIR'))
  .addOption(new Option('--sandbox-root <dir>', 'sandbox engine: a prepared root filesystem (npm run rootfs) instead of the host\'s OS').env('SPRITZER_SANDBOX_ROOT'))
  .addOption(
    new Option('--max-stdin-bytes <bytes>', 'most stdin one exec may send (WebSocket frames or HTTP exec body); see docs/limits.md')
      .env('SPRITZER_MAX_STDIN_BYTES')
      .default(DEFAULT_EXEC_STREAM_LIMITS.maxStdinBytes)
      .argParser((v) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number of bytes');
        return n;
      }),
  )
  .option('--no-validate-responses', 'do not validate responses against the spec (also off when NODE_ENV=production)');

program.parse();
const opts = program.opts<{
  addr: string;
  exec: (typeof MACHINE_ENGINES)[number];
  token?: string;
  publicUrl: string;
  org: string;
  logLevel: string;
  stdinGrace: number;
  diskQuota: number;
  maxJsonBody: number;
  dataDir?: string;
  sandboxRoot?: string;
  maxStdinBytes: number;
  validateResponses: boolean;
}>();

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
let machines;
try {
  machines = await openMachineFactory(opts.exec, {
    clock,
    logger,
    stdinGraceMs: opts.stdinGrace,
    maxStdinBytes: opts.maxStdinBytes,
    dataDir: opts.dataDir,
    sandboxRoot: opts.sandboxRoot,
  });
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
  token: opts.token,
  organization: opts.org,
  publicUrl: opts.publicUrl,
  validateResponses: opts.validateResponses && process.env.NODE_ENV !== 'production',
  limits: { ...DEFAULT_LIMITS, diskQuotaBytes: opts.diskQuota },
  maxJsonBodyBytes: opts.maxJsonBody,
});

const running = await startServer(deps, host, port);
// The inspector's files are built now when missing or stale (esbuild, ~1 s), so the printed link works at once.
await ensureInspector().catch((err: unknown) => logger.warn({ err }, 'inspector not built; /_spritzer/ui will retry'));
process.stdout.write(`spritzer listening on ${running.url} (exec engine: ${opts.exec}, checkpoints: ${machines.snapshotMode})\ninspector: ${running.url}/_spritzer/ui/\nexport SPRITES_BASE_URL=${running.url}\n`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  await running.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
