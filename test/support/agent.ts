/**
 * Test support for the agent: builds the real bundle once per test process and runs it on the host with `--root`
 * pointing at a fresh temp dir laid out like a sprite (`/home/sprite` owned by the sprite user, 1001, `/tmp` 1777), connected through
 * a real `AgentClient`; and a hostile agent (any bytes the test writes) for the host side's bounds. It owns test
 * set-up only; never used by the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAgent } from '../../src/server/machines/agent/bundle.ts';
import { AgentClient } from '../../src/server/machines/agent/client.ts';
import type { AgentBounds } from '../../src/server/machines/agent/bounds.ts';
import type { AgentTiming } from '../../src/server/machines/agent/client.ts';
import { decodeEnvelope, encodeEnvelope, encodeFrame, FrameDecoder, FrameType, PROTOCOL_VERSION } from '../../src/protocol/agent.ts';
import { SPRITE_GID, SPRITE_UID } from '../../src/protocol/sprite-tree.ts';

let built: Promise<string> | undefined;

/** Builds `dist/agent/agent.mjs` (once per test process). */
export function agentBundle(): Promise<string> {
  built ??= buildAgent();
  return built;
}

/** True when this process runs as root (the agent then drops spawned processes to uid 1001). */
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
  if (IS_ROOT) await chown(join(root, 'home', 'sprite'), SPRITE_UID, SPRITE_GID);
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

/** An agent played by the test: it answers the hello, then the test writes what it likes on `socket`. */
export interface HostileAgent {
  client: AgentClient;
  /** The agent's end of the connection. */
  socket: Socket;
  /** Every frame the host sent after the hello, decoded (`read: false`: none is read at all); a CALL with its op, a SPAWN with its message. */
  received: Array<{ type: FrameType; channel: number; op?: string; spawn?: Record<string, unknown> }>;
  /** Closes both ends, the listening socket and its directory. */
  stop(): Promise<void>;
}

/**
 * Listens on a fresh unix socket, connects an `AgentClient` (with `bounds` and `timing`, if given) and answers its
 * hello as the real agent does. With `read: false` the agent reads nothing after the hello (a peer that never drains
 * the host's frames).
 */
export async function startHostileAgent(opts: { bounds?: AgentBounds; read?: boolean; timing?: Partial<AgentTiming> } = {}): Promise<HostileAgent> {
  const dir = await mkdtemp(join(tmpdir(), 'spritzer-hostile-'));
  const path = join(dir, 'agent.sock');
  const received: HostileAgent['received'] = [];
  let agentSide!: (s: Socket) => void;
  const accepted = new Promise<Socket>((r) => (agentSide = r));
  const server = createServer((socket) => {
    const decoder = new FrameDecoder();
    const onData = (chunk: Buffer) => {
      for (const f of decoder.push(chunk)) {
        if (f.type === FrameType.Call && received.length === 0 && !helloDone) {
          helloDone = true;
          socket.write(encodeFrame(FrameType.Reply, f.channel, encodeEnvelope({ ok: true, value: { version: PROTOCOL_VERSION, pid: 0, uid: 0 } })));
          if (opts.read === false) {
            socket.off('data', onData);
            socket.pause();
          }
          agentSide(socket);
        } else if (f.type === FrameType.Call) {
          received.push({ type: f.type, channel: f.channel, op: String((decodeEnvelope(f.payload).json as { op?: unknown }).op) });
        } else if (f.type === FrameType.Spawn) {
          received.push({ type: f.type, channel: f.channel, spawn: JSON.parse(f.payload.toString('utf8')) as Record<string, unknown> });
        } else received.push({ type: f.type, channel: f.channel });
      }
    };
    let helloDone = false;
    socket.on('data', onData);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(path, () => r()));
  const client = await AgentClient.connect(path, { bounds: opts.bounds, timing: opts.timing, timeoutMs: 5000 });
  const socket = await accepted;
  return {
    client,
    socket,
    received,
    async stop() {
      client.close();
      socket.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
