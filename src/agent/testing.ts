/**
 * Test support for the agent: builds the real bundle once per test process and runs it on the host with `--root`
 * pointing at a fresh temp dir laid out like a sprite (`/home/sprite` owned by 1000, `/tmp` 1777), connected through
 * a real `AgentClient`. It owns test set-up only; never used by the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAgent } from './bundle.ts';
import { AgentClient } from '../server/machines/sandbox/agent-client.ts';

let built: Promise<string> | undefined;

/** Builds `dist/agent/agent.mjs` (once per test process). */
export function agentBundle(): Promise<string> {
  built ??= buildAgent();
  return built;
}

/** True when this process runs as root (the agent then drops spawned processes to uid 1000). */
export const IS_ROOT = process.getuid?.() === 0;

/** A running agent on the host. */
export interface TestAgent {
  client: AgentClient;
  /** Host directory that is the sprite's `/`. */
  root: string;
  /** Directory holding the socket. */
  runDir: string;
  socket: string;
  proc: ChildProcess;
  /** What the agent printed on stderr so far. */
  stderr(): string;
  /** Kills the agent and removes its directories. */
  stop(): Promise<void>;
}

/** Starts the bundled agent with a fresh sprite-like root and connects a client (`apiSocket`: serve the in-sprite API there). */
export async function startTestAgent(opts: { exitDrainMs?: number; apiSocket?: string } = {}): Promise<TestAgent> {
  const bundle = await agentBundle();
  const base = await mkdtemp(join(tmpdir(), 'spritzer-agent-'));
  await chmod(base, 0o755);
  const root = join(base, 'root');
  const runDir = join(base, 'run');
  await mkdir(join(root, 'home', 'sprite'), { recursive: true });
  await mkdir(join(root, 'tmp'), { recursive: true });
  await mkdir(runDir);
  await chmod(join(root, 'tmp'), 0o1777);
  if (IS_ROOT) await chown(join(root, 'home', 'sprite'), 1000, 1000);
  const socket = join(runDir, 'agent.sock');
  const args = [bundle, '--socket', socket, '--root', root];
  if (opts.exitDrainMs !== undefined) args.push('--exit-drain-ms', String(opts.exitDrainMs));
  if (opts.apiSocket !== undefined) args.push('--api-socket', opts.apiSocket);
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const client = await AgentClient.connect(socket, { timeoutMs: 10000 });
  return {
    client,
    root,
    runDir,
    socket,
    proc,
    stderr: () => err,
    async stop() {
      client.close();
      if (proc.exitCode === null && proc.signalCode === null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await gone;
      }
      await rm(base, { recursive: true, force: true });
    },
  };
}
