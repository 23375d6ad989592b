/**
 * Reaching a container's agent by exec only: a host unix socket whose every connection runs `node -e BRIDGE` in the
 * box through the runtime (`docker exec`, or Kubernetes `pods/exec`; stdio attached) and pipes the bytes both ways to the agent's
 * socket inside. Nothing inside the sprite has to be routable, so a remote daemon (Docker Desktop) works the same.
 * It owns the host socket and the exec streams; it does not speak the agent protocol (AgentClient does, over it).
 * @see docs/agent-protocol.md, https://docs.docker.com/reference/api/engine/version/v1.41/#tag/Exec
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { BoxRuntime } from './boxes.ts';

/** The agent's socket inside every container sprite. */
export const AGENT_SOCKET_IN_SPRITE = '/.sprite/run/agent.sock';

/**
 * The program run by `node -e` inside: connects to the agent's socket (retrying for up to 30 s while the agent
 * starts), then copies stdin → socket and socket → stdout until either side ends.
 */
export const BRIDGE_SCRIPT = `const net=require('net');const t0=Date.now();(function go(){let up=false;const s=net.connect(${JSON.stringify(AGENT_SOCKET_IN_SPRITE)});s.on('connect',()=>{up=true;process.stdin.pipe(s);s.pipe(process.stdout);s.on('close',()=>process.exit(0))});s.on('error',(e)=>{if(up)return process.exit(1);if(Date.now()-t0>30000){process.stderr.write('bridge: '+e.message+'\\n');process.exit(1)}setTimeout(go,20)})})()`;

/** A running bridge: the host socket path AgentClient connects to. */
export interface AgentBridge {
  readonly socketPath: string;
  /** Stops listening and drops every piped connection. */
  close(): Promise<void>;
}

/**
 * Listens on `socketPath` (host) and, per connection, runs `node -e BRIDGE_SCRIPT` in box `box` through the
 * runtime's exec with stdin and stdout attached (BoxRuntime.openExec: Docker exec, or Kubernetes pods/exec). The
 * connection closes when the exec ends; the exec is ended when the connection closes (an exec that cannot be
 * opened closes it at once, and `onExecError` hears why). Rejects when the socket cannot be bound.
 */
export async function startBridge(
  boxes: Pick<BoxRuntime, 'openExec'>,
  box: string,
  socketPath: string,
  node = 'node',
  /** Told when a connection's exec cannot be opened (the runtime's error): the connection is dropped either way. */
  onExecError?: (err: Error) => void,
): Promise<AgentBridge> {
  const open = new Set<Socket>();
  const server: Server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (conn) => {
    open.add(conn);
    conn.on('close', () => open.delete(conn));
    conn.on('error', () => undefined);
    void pipeThroughExec(boxes, box, conn, node).catch((err: Error) => {
      conn.destroy();
      onExecError?.(err);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of open) c.destroy();
        server.close(() => resolve());
      }),
  };
}

async function pipeThroughExec(boxes: Pick<BoxRuntime, 'openExec'>, box: string, conn: Socket, node: string): Promise<void> {
  const pipe = await boxes.openExec(box, [node, '-e', BRIDGE_SCRIPT]);
  if (conn.destroyed) {
    pipe.kill();
    return;
  }
  pipe.stdout.pipe(conn);
  void pipe.closed.then(() => conn.destroy());
  pipe.stdin.on('error', () => conn.destroy());
  conn.on('data', (chunk: Buffer) => {
    if (!pipe.stdin.write(chunk)) {
      conn.pause();
      pipe.stdin.once('drain', () => conn.resume());
    }
  });
  conn.on('end', () => pipe.stdin.end());
  conn.on('close', () => pipe.kill());
  conn.resume();
}
