/**
 * A fake Kubernetes API server for the container engine's Kubernetes runtime (no cluster can run here): a
 * loopback HTTP + WebSocket server answering the calls `@kubernetes/client-node` makes for pods (create, read,
 * list by label selector, delete, log) and `pods/exec` over WebSocket with the channel protocol
 * (`v5.channel.k8s.io`, `v4.channel.k8s.io`: a first byte per frame naming the stream, 3 = the status JSON,
 * v5's 255 = close a stream). Each pod's "container" is the spritzer agent bundle run as a local child process with
 * `--root <pod dir>`; exec runs the command locally, with the agent socket path mapped into the pod dir. Every
 * request is recorded, so tests assert the client's real paths and bodies. Test support only.
 * @see https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

/** One request the client made. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  body?: unknown;
  /** The WebSocket subprotocol chosen (exec only). */
  protocol?: string;
}

interface FakePod {
  pod: Record<string, any>;
  dir: string;
  agent: ChildProcess;
  log: string;
}

/** A running fake API server. */
export interface FakeApiServer {
  url: string;
  requests: RecordedRequest[];
  /** Pod names present now. */
  pods(): string[];
  /** Kills the agent of pod `name` as a crashed container would die. */
  crash(name: string): void;
  /** Removes pod `name` as the pod garbage collector does when its node is deleted (its files go with it). */
  vanish(name: string): void;
  /** Permissions (`verb resource[/subresource]`) the SelfSubjectAccessReviews deny; empty: all allowed. */
  denied: Set<string>;
  close(): Promise<void>;
}

const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });

/**
 * Starts the fake. `agentBundle` is the host path of `agent.mjs`; the pod's command must name
 * `/.sprite/agent/agent.mjs` (what the init container copies), and it is run from `agentBundle` instead.
 */
export async function startFakeApiServer(agentBundle: string): Promise<FakeApiServer> {
  const requests: RecordedRequest[] = [];
  const denied = new Set<string>();
  const pods = new Map<string, FakePod>();
  const base = mkdtempSync(join(tmpdir(), 'spritzer-fake-k8s-'));
  const sockets = new Set<import('node:net').Socket>();

  const startAgent = (p: FakePod) => {
    const command = p.pod.spec.containers[0].command as string[];
    if (command[1] !== '/.sprite/agent/agent.mjs') throw new Error(`unexpected pod command ${command.join(' ')}`);
    const args = command.slice(2).map((a) => (a.startsWith('/.sprite/') ? join(p.dir, a) : a));
    p.agent = spawn(process.execPath, [agentBundle, ...args, '--root', p.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    p.agent.stdout!.on('data', (d) => (p.log += d));
    p.agent.stderr!.on('data', (d) => (p.log += d));
    // restartPolicy Always: the kubelet starts a container that died again.
    p.agent.on('exit', () => {
      if (pods.get(p.pod.metadata.name) === p && !p.pod.metadata.deletionTimestamp) setTimeout(() => pods.get(p.pod.metadata.name) === p && startAgent(p), 50);
    });
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      requests.push({ method: req.method!, url: req.url!, body });
      const u = new URL(req.url!, 'http://fake');
      const send = (code: number, obj: unknown, type = 'application/json') => {
        res.writeHead(code, { 'Content-Type': type });
        res.end(typeof obj === 'string' ? obj : JSON.stringify(obj));
      };
      if (u.pathname === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews' && req.method === 'POST') {
        const a = body?.spec?.resourceAttributes ?? {};
        const allowed = !denied.has(`${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''}`);
        return send(201, { ...body, status: { allowed } });
      }
      let m = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(u.pathname);
      if (m && req.method === 'POST') {
        const name = body?.metadata?.name as string;
        if (pods.has(name)) return send(409, status(409, 'AlreadyExists', `pods "${name}" already exists`));
        const pod = { ...body, metadata: { ...body.metadata, namespace: m[1], uid: `uid-${name}`, creationTimestamp: new Date().toISOString() } };
        // An image named `missing…` is one no node has and no registry serves: the pod stays Pending, its container
        // waiting in the kubelet's pull back-off.
        const missing = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c: { image: string }) => c.image.startsWith('missing'));
        if (missing) {
          pod.status = {
            phase: 'Pending',
            initContainerStatuses: [{ name: missing.name, ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${missing.image}"` } } }],
          };
          pods.set(name, { pod, dir: join(base, name), agent: { kill: () => true } as never, log: '' });
          return send(201, pod);
        }
        pod.status = { phase: 'Running', containerStatuses: [{ name: pod.spec.containers[0].name, ready: true, restartCount: 0, state: { running: { startedAt: new Date().toISOString() } } }] };
        const dir = join(base, name);
        // What the init container does: the agent's dirs in the emptyDir, the sprite's home.
        mkdirSync(join(dir, '.sprite/run'), { recursive: true });
        mkdirSync(join(dir, 'home/sprite'), { recursive: true });
        const p: FakePod = { pod, dir, agent: undefined as never, log: '' };
        pods.set(name, p);
        startAgent(p);
        return send(201, pod);
      }
      if (m && req.method === 'GET') {
        const want = (u.searchParams.get('labelSelector') ?? '').split(',').filter(Boolean).map((kv) => kv.split('='));
        const items = [...pods.values()].map((p) => p.pod).filter((pod) => want.every(([k, v]) => pod.metadata.labels?.[k] === v));
        return send(200, { kind: 'PodList', apiVersion: 'v1', metadata: {}, items });
      }
      m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)(\/log)?$/.exec(u.pathname);
      if (m) {
        const p = pods.get(m[2]);
        if (!p) return send(404, status(404, 'NotFound', `pods "${m[2]}" not found`));
        if (m[3]) return send(200, p.log, 'text/plain');
        if (req.method === 'GET') return send(200, p.pod);
        if (req.method === 'DELETE') {
          p.pod.metadata.deletionTimestamp = new Date().toISOString();
          pods.delete(m[2]);
          p.agent.kill('SIGKILL');
          rmSync(p.dir, { recursive: true, force: true });
          return send(200, p.pod);
        }
      }
      send(404, status(404, 'NotFound', `no fake route for ${req.method} ${u.pathname}`));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => (offered.has('v5.channel.k8s.io') ? 'v5.channel.k8s.io' : offered.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false),
  });
  server.on('upgrade', (req, socket, head) => {
    const u = new URL(req.url!, 'http://fake');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(u.pathname);
    const p = m && pods.get(m[2]);
    if (!p) {
      requests.push({ method: 'GET', url: req.url! });
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      requests.push({ method: 'GET', url: req.url!, protocol: ws.protocol });
      runExec(ws, p, u.searchParams.getAll('command'));
    });
  });

  /** Runs `argv` locally for a pods/exec session (the agent socket path mapped into the pod's dir). */
  function runExec(ws: WebSocket, p: FakePod, argv: string[]): void {
    const mapped = argv.map((a) => a.replaceAll('/.sprite/run/', `${p.dir}/.sprite/run/`));
    const child = spawn(mapped[0] === 'node' ? process.execPath : mapped[0], mapped.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = (channel: number) => (d: Buffer) => ws.readyState === ws.OPEN && ws.send(Buffer.concat([Buffer.from([channel]), d]));
    child.stdout.on('data', out(1));
    child.stderr.on('data', out(2));
    child.stdin.on('error', () => undefined);
    ws.on('message', (data: Buffer) => {
      if (data[0] === 0) child.stdin.write(data.subarray(1));
      else if (data[0] === 255 && data[1] === 0) child.stdin.end();
    });
    ws.on('close', () => child.kill('SIGKILL'));
    child.on('close', (code) => {
      const st = code === 0 ? { status: 'Success' } : { status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(code) }] } };
      if (ws.readyState === ws.OPEN) {
        ws.send(Buffer.concat([Buffer.from([3]), Buffer.from(JSON.stringify(st))]));
        ws.close(1000);
      }
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pods: () => [...pods.keys()],
    crash: (name) => pods.get(name)?.agent.kill('SIGKILL'),
    vanish(name) {
      const p = pods.get(name);
      if (!p) return;
      p.pod.metadata.deletionTimestamp = new Date().toISOString();
      pods.delete(name);
      p.agent.kill('SIGKILL');
      rmSync(p.dir, { recursive: true, force: true });
    },
    denied,
    async close() {
      for (const p of pods.values()) {
        p.pod.metadata.deletionTimestamp = 'now';
        p.agent.kill('SIGKILL');
      }
      pods.clear();
      for (const c of wss.clients) c.terminate();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(base, { recursive: true, force: true });
    },
  };
}
