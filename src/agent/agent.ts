/**
 * The agent's connection handling: listens on the unix socket, decodes frames, dispatches CALLs to the fs, ports,
 * usage and relay modules, SPAWN and process frames to the supervisor, and sends replies, output and watch events
 * back. One host connection is served at a time: a new one replaces the old (spritzer restarted); processes outlive
 * connections. It owns the socket, socket-level backpressure and per-connection state; not the operations.
 * @see docs/agent-protocol.md
 */
import { createServer, type Server, type Socket } from 'node:net';
import * as fsp from 'node:fs/promises';
import { AgentFs, AgentFsError, normalizeSpritePath } from './fs-ops.ts';
import { listeningPorts } from './ports.ts';
import {
  decodeEnvelope,
  decodeResize,
  encodeEnvelope,
  encodeEventBatches,
  encodeFrame,
  FIRST_ACCEPT_ID,
  FrameDecoder,
  FrameType,
  PROTOCOL_VERSION,
  type CallJson,
  type ReplyJson,
  type SpawnMessage,
  type WireError,
} from '../protocol/agent.ts';
import { Relays } from './relay.ts';
import { Supervisor } from './supervisor.ts';
import { diskUsage, readOnlyMounts } from './usage.ts';
import { TreeWatcher } from './watch.ts';
import { listenApiSocket } from './api-socket.ts';
import { EgressListeners, type EgressListener } from './egress.ts';
import type { Duplex } from 'node:stream';

/** How the agent runs (from the command line; tests construct it directly). */
export interface AgentOptions {
  /** Unix socket path to listen on (replaced if a stale one exists). */
  socket: string;
  /** Host directory that sprite paths map under (`''`: the agent's `/` is the sprite's, as in the sandbox). */
  root: string;
  /** Owner of nodes the fs API creates, or null to leave the agent's own (not root). */
  owner: { uid: number; gid: number } | null;
  /** Apply the uid/gid of spawn requests (only as root). */
  dropPrivileges: boolean;
  /**
   * The run-as helper (native/runas.c) every process is started through when `dropPrivileges`: it applies the
   * request's uid/gid and its capabilities (`SpawnMessage.caps`). Unset: node applies uid/gid, and no process
   * holds a capability.
   */
  runAs?: string;
  /** `killAll` also kills every other process of the PID namespace (only as the sandbox's PID 1 or 2). */
  sweepNamespace: boolean;
  /** ms without output, after a process exited, before its pipes are given up (a background child holds them). */
  exitDrainMs: number;
  /** Unix socket of the in-sprite API (`/.sprite/api.sock` in a sandbox); unset: none. Connections go to the host (ACCEPT). */
  apiSocket?: string;
}

/** One host connection. */
class Session {
  private readonly decoder = new FrameDecoder();
  readonly relays: Relays;
  private readonly watchers = new Map<number, TreeWatcher>();
  private congested = false;
  closed = false;

  constructor(
    private readonly agent: Agent,
    private readonly socket: Socket,
  ) {
    this.relays = new Relays((type, ch, payload) => this.send(type, ch, payload));
    socket.on('data', (chunk: Buffer) => {
      let frames;
      try {
        frames = this.decoder.push(chunk);
      } catch (err) {
        process.stderr.write(`spritzer-agent: ${(err as Error).message}; dropping the connection\n`);
        socket.destroy();
        return;
      }
      for (const f of frames) this.onFrame(f.type, f.channel, f.payload);
    });
    socket.on('drain', () => this.setCongested(false));
    socket.on('error', () => undefined);
    socket.on('close', () => this.dispose());
  }

  /** Writes one frame; marks the connection congested (pausing every source) when the socket buffer is full. */
  send(type: FrameType, channel: number, payload?: Uint8Array): boolean {
    if (this.closed) return false;
    const ok = this.socket.write(encodeFrame(type, channel, payload));
    if (!ok) this.setCongested(true);
    return ok;
  }

  private setCongested(congested: boolean): void {
    if (this.congested === congested) return;
    this.congested = congested;
    this.agent.supervisor.setPaused(congested);
    this.relays.setCongested(congested);
  }

  /** Hands a connection to the in-sprite API socket to the host as a new relay (ACCEPT frame). */
  accept(id: number, socket: Socket | Duplex, listener: 'api' | EgressListener = 'api'): void {
    this.relays.adopt(id, socket);
    this.send(FrameType.Accept, id, Buffer.from(JSON.stringify({ listener })));
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.relays.closeAll();
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.congested) this.agent.supervisor.setPaused(false);
    this.socket.destroy();
    this.agent.sessionEnded(this);
  }

  private onFrame(type: FrameType, ch: number, payload: Buffer): void {
    const sup = this.agent.supervisor;
    switch (type) {
      case FrameType.Call:
        void this.call(ch, payload);
        break;
      case FrameType.Spawn: {
        let msg: SpawnMessage;
        try {
          msg = JSON.parse(payload.toString('utf8')) as SpawnMessage;
          if (!Array.isArray(msg.argv) || msg.argv.length === 0 || typeof msg.env !== 'object') throw new Error('bad spawn');
        } catch {
          this.send(FrameType.Stderr, ch, Buffer.from('spawn: malformed request\n'));
          this.send(FrameType.Exit, ch, Buffer.from(JSON.stringify({ code: 1 })));
          break;
        }
        sup.spawn(ch, msg);
        break;
      }
      case FrameType.Stdin:
        sup.writeStdin(ch, payload);
        break;
      case FrameType.StdinEof:
        sup.endStdin(ch);
        break;
      case FrameType.Signal:
        sup.signal(ch, payload.toString('utf8'));
        break;
      case FrameType.Resize:
        try {
          const { cols, rows } = decodeResize(payload);
          sup.resize(ch, cols, rows);
        } catch {
          // a malformed resize changes nothing
        }
        break;
      case FrameType.Tap:
        sup.tap(ch, payload[0] === 1);
        break;
      case FrameType.Data:
      case FrameType.End:
      case FrameType.Reset:
      case FrameType.Pause:
      case FrameType.Resume:
        this.relays.onFrame(type, ch, payload);
        break;
      default:
        break; // agent → host types arriving here are ignored
    }
  }

  private reply(id: number, json: ReplyJson, tail?: Uint8Array): void {
    this.send(FrameType.Reply, id, encodeEnvelope(json, tail));
  }

  private async call(id: number, payload: Buffer): Promise<void> {
    let req: CallJson;
    let tail: Buffer;
    try {
      const env = decodeEnvelope(payload);
      req = env.json as CallJson;
      tail = env.tail;
      if (!req || typeof req !== 'object' || typeof req.op !== 'string') throw new Error('call without op');
    } catch (err) {
      this.reply(id, { ok: false, error: { code: 'EINVAL', message: (err as Error).message } });
      return;
    }
    try {
      const { value, tail: out } = await this.run(req, tail);
      this.reply(id, value === undefined ? { ok: true } : { ok: true, value }, out);
    } catch (err) {
      this.reply(id, { ok: false, error: toWireError(err) });
    }
  }

  private async run(req: CallJson, tail: Buffer): Promise<{ value?: unknown; tail?: Uint8Array }> {
    const fs = this.agent.fs;
    switch (req.op) {
      case 'hello':
        return { value: { version: PROTOCOL_VERSION, pid: process.pid, uid: process.getuid?.() ?? -1 } };
      case 'readFile':
        return { tail: await fs.readFile(req.path, req.offset === undefined || req.length === undefined ? undefined : { offset: req.offset, length: req.length }) };
      case 'writeFile':
        return { value: await fs.writeFile(req.path, tail, { mode: req.mode, mkdirParents: req.mkdirParents, append: req.append, noFollow: req.noFollow }) };
      case 'stat':
        return { value: await fs.stat(req.path) };
      case 'lstat':
        return { value: await fs.lstat(req.path) };
      case 'readdir':
        return { value: await fs.readdir(req.path, { recursive: req.recursive }) };
      case 'mkdir':
        await fs.mkdir(req.path, { recursive: req.recursive, mode: req.mode });
        return {};
      case 'rm':
        return { value: await fs.rm(req.path, { recursive: req.recursive, force: req.force }) };
      case 'rename':
        await fs.rename(req.source, req.dest);
        return {};
      case 'copy':
        return { value: await fs.copy(req.source, req.dest, { recursive: req.recursive }) };
      case 'chmod':
        return { value: await fs.chmod(req.path, req.mode, { recursive: req.recursive }) };
      case 'chown':
        return { value: await fs.chown(req.path, req.uid, req.gid, { recursive: req.recursive }) };
      case 'connect':
        await this.relays.open(req.relay, req.host, req.port);
        return {};
      case 'ports':
        return { value: this.agent.withoutOwnListeners(await listeningPorts()) };
      case 'watch': {
        if (this.watchers.has(req.watch)) throw { code: 'EINVAL', message: `watch ${req.watch} is in use` } satisfies WireError;
        // A large batch (a tree removed) goes in several frames: the host refuses an EVENT over 1 MiB.
        const w = new TreeWatcher(normalizeSpritePath(req.path), !!req.recursive, (p) => fs.hostPath(p), (changes) => {
          for (const payload of encodeEventBatches(changes)) this.send(FrameType.Event, req.watch, payload);
        });
        this.watchers.set(req.watch, w);
        await w.start();
        return {};
      }
      case 'unwatch':
        this.watchers.get(req.watch)?.close();
        this.watchers.delete(req.watch);
        return {};
      case 'killAll':
        await this.agent.supervisor.killAll();
        return {};
      case 'usage':
        return { value: await this.agent.usage() };
      case 'egress':
        await this.agent.startEgress(req.proxyPort, req.dnsPort);
        return {};
      default:
        throw { code: 'EINVAL', message: `unknown op ${JSON.stringify((req as { op: unknown }).op)}` } satisfies WireError;
    }
  }
}

function toWireError(err: unknown): WireError {
  if (err instanceof AgentFsError) return err.toWire();
  if (err && typeof err === 'object' && typeof (err as WireError).code === 'string' && typeof (err as WireError).message === 'string') {
    const { code, message } = err as WireError;
    return { code, message };
  }
  return { code: 'EIO', message: err instanceof Error ? err.message : String(err) };
}

/** The agent: the listening socket, the process supervisor and the filesystem, shared by its connections. */
export class Agent {
  readonly supervisor: Supervisor;
  readonly fs: AgentFs;
  private server: Server | undefined;
  private apiServer: Server | undefined;
  private current: Session | undefined;
  private nextAcceptId = FIRST_ACCEPT_ID;
  private egress: Promise<EgressListeners> | undefined;

  constructor(private readonly opts: AgentOptions) {
    this.fs = new AgentFs(opts.root, opts.owner);
    this.supervisor = new Supervisor(
      {
        stdout: (id, d) => this.current?.send(FrameType.Stdout, id, d),
        stderr: (id, d) => this.current?.send(FrameType.Stderr, id, d),
        exit: (id, code) => this.current?.send(FrameType.Exit, id, Buffer.from(JSON.stringify({ code }))),
        started: (id, pid) => this.current?.send(FrameType.Started, id, Buffer.from(JSON.stringify({ pid }))),
      },
      { root: opts.root, dropPrivileges: opts.dropPrivileges, runAs: opts.runAs, exitDrainMs: opts.exitDrainMs, sweepNamespace: opts.sweepNamespace, logOwner: opts.owner },
    );
  }

  /** Starts listening (a stale socket file is removed first; the socket is made 0600). */
  async listen(): Promise<void> {
    if (this.opts.apiSocket) {
      // Ready before the host can connect. No host connection: nobody can answer, so the connection closes at once.
      // A sprite whose disk is full (quota) cannot create the socket file: the agent still serves the host, and the
      // in-sprite API is missing until the next boot (the reason goes to stderr, the sprite's boot log).
      this.apiServer = await listenApiSocket(this.opts.apiSocket, (socket) => this.acceptFrom('api', socket)).catch((err: Error) => {
        process.stderr.write(`spritzer-agent: no in-sprite API at ${this.opts.apiSocket}: ${err.message}\n`);
        return undefined;
      });
    }
    await fsp.rm(this.opts.socket, { force: true });
    const server = createServer({ allowHalfOpen: false }, (socket) => {
      this.current?.dispose();
      this.current = new Session(this, socket);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.socket, () => resolve());
    });
    await fsp.chmod(this.opts.socket, 0o600);
  }

  /** Hands a connection from one of the agent's listeners to the host as a new relay (reset when no host is connected). */
  private acceptFrom(listener: 'api' | EgressListener, conn: Socket | Duplex): void {
    if (!this.current || this.current.closed) return void conn.destroy();
    const id = this.nextAcceptId;
    this.nextAcceptId = this.nextAcceptId >= 0xfffffff0 ? FIRST_ACCEPT_ID : this.nextAcceptId + 1;
    this.current.accept(id, conn, listener);
  }

  /**
   * Starts the egress gate's listeners on loopback (TCP `proxyPort`, UDP `dnsPort`); a second call with the same
   * ports is a no-op. Rejects with the bind error. @see src/agent/egress.ts
   */
  async startEgress(proxyPort: number, dnsPort: number): Promise<void> {
    const running = this.egress ? await this.egress.catch(() => undefined) : undefined;
    if (running && running.options.proxyPort === proxyPort && running.options.dnsPort === dnsPort) return;
    running?.close();
    this.egress = EgressListeners.start({ proxyPort, dnsPort }, (listener, conn) => this.acceptFrom(listener, conn));
    await this.egress;
    this.egressProxyPort = proxyPort;
  }

  /** The sprite's listening ports minus the agent's own egress proxy (not a port of the user's; ports/watch). */
  withoutOwnListeners<T extends { port: number; pid?: number }>(ports: T[]): T[] {
    const proxyPort = this.egressProxyPort;
    return proxyPort === undefined ? ports : ports.filter((p) => !(p.port === proxyPort && (p.pid === undefined || p.pid === process.pid)));
  }

  private egressProxyPort: number | undefined;

  /** A connection ended. */
  sessionEnded(session: Session): void {
    if (this.current === session) this.current = undefined;
  }

  /** Disk usage of the writable tree (read-only mounts skipped). */
  async usage(): Promise<{ bytes: number; files: number }> {
    const mountinfo = await fsp.readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
    return diskUsage(this.opts.root || '/', readOnlyMounts(mountinfo));
  }

  /** Kills every process, closes the connection and the socket. */
  async close(): Promise<void> {
    await this.supervisor.killAll();
    this.current?.dispose();
    this.apiServer?.close();
    (await this.egress?.catch(() => undefined))?.close();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
