/**
 * Which container runtime the `container` engine talks to (`--container-runtime docker|podman|kubernetes|auto`) and
 * how to reach it: a dockerode client on the Docker Engine API socket (Docker's, or Podman's compatible one).
 * It owns socket discovery and the first ping; it creates no containers (container-machine.ts does).
 * @see docs/container.md, https://docs.docker.com/reference/api/engine/, https://docs.podman.io/en/latest/markdown/podman-system-service.1.html
 */
import { existsSync } from 'node:fs';
import type Docker from 'dockerode';
import { lazyRequireOptional } from '../../runtime/lazy-require.ts';

/** The `--container-runtime` values. */
export const CONTAINER_RUNTIMES = ['auto', 'docker', 'podman', 'kubernetes'] as const;

/** One of {@link CONTAINER_RUNTIMES}. */
export type ContainerRuntimeName = (typeof CONTAINER_RUNTIMES)[number];

/** A reachable Docker Engine API: its client, which runtime answered, and where. */
export interface EngineApi {
  docker: Docker;
  runtime: 'docker' | 'podman';
  /** `unix:///…` or `tcp://host:port`, for logs and errors. */
  endpoint: string;
}

/** The environment and file checks discovery uses (injected by tests). */
export interface DiscoveryEnv {
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
}

const realEnv: DiscoveryEnv = { env: process.env, exists: existsSync };

/**
 * The endpoints to try for `runtime`, in order. Docker: `DOCKER_HOST`, then `/var/run/docker.sock`. Podman:
 * `CONTAINER_HOST`, then `$XDG_RUNTIME_DIR/podman/podman.sock`, then `/run/podman/podman.sock`. `auto`: Docker's,
 * then Podman's. Only existing unix sockets are listed (a `tcp://` URL always is).
 */
export function candidateEndpoints(runtime: 'docker' | 'podman' | 'auto', d: DiscoveryEnv = realEnv): Array<{ runtime: 'docker' | 'podman'; endpoint: string }> {
  const out: Array<{ runtime: 'docker' | 'podman'; endpoint: string }> = [];
  const add = (rt: 'docker' | 'podman', ep: string | undefined) => {
    if (!ep) return;
    const url = ep.includes('://') ? ep : `unix://${ep}`;
    if (url.startsWith('unix://') && !d.exists(url.slice('unix://'.length))) return;
    if (!out.some((o) => o.endpoint === url)) out.push({ runtime: rt, endpoint: url });
  };
  if (runtime !== 'podman') {
    add('docker', d.env.DOCKER_HOST);
    add('docker', '/var/run/docker.sock');
  }
  if (runtime !== 'docker') {
    add('podman', d.env.CONTAINER_HOST);
    if (d.env.XDG_RUNTIME_DIR) add('podman', `${d.env.XDG_RUNTIME_DIR}/podman/podman.sock`);
    add('podman', '/run/podman/podman.sock');
  }
  return out;
}

/** dockerode, loaded on the first client (src/server/runtime/lazy-require.ts): a start without `--exec container` never loads it. */
const loadDocker = lazyRequireOptional<typeof Docker>('dockerode', 'the container engine (--exec container, Docker or Podman)');

/** A dockerode client for `endpoint` (`unix:///path` or `tcp://host:port`). Throws a TypeError for another scheme. */
export function clientFor(endpoint: string): Docker {
  const Docker = loadDocker();
  if (endpoint.startsWith('unix://')) return new Docker({ socketPath: endpoint.slice('unix://'.length) });
  const m = /^(tcp|http):\/\/([^:/]+):(\d+)\/?$/.exec(endpoint);
  if (!m) throw new TypeError(`unsupported container endpoint ${endpoint}: use unix:///path or tcp://host:port`);
  return new Docker({ protocol: 'http', host: m[2], port: Number(m[3]) });
}

/**
 * Connects to the first endpoint of `runtime` that answers a ping. Rejects with a message naming every endpoint
 * tried and how to start one; `kubernetes` rejects (it speaks the Kubernetes API: kubernetes.ts).
 */
export async function openEngineApi(runtime: ContainerRuntimeName, d: DiscoveryEnv = realEnv): Promise<EngineApi> {
  if (runtime === 'kubernetes') throw new Error('the kubernetes runtime has no Docker Engine API: open it with openKubeIfChosen (kubernetes.ts)');
  const tried: string[] = [];
  for (const c of candidateEndpoints(runtime, d)) {
    const docker = clientFor(c.endpoint);
    try {
      await docker.ping();
      const version = (await docker.version()) as { Components?: Array<{ Name: string }> };
      const podman = version.Components?.some((x) => /podman/i.test(x.Name)) ?? false;
      return { docker, runtime: podman ? 'podman' : c.runtime, endpoint: c.endpoint };
    } catch (err) {
      tried.push(`${c.endpoint} (${(err as Error).message})`);
    }
  }
  const where = tried.length ? `tried ${tried.join(', ')}` : 'no socket found (set DOCKER_HOST, or CONTAINER_HOST for Podman)';
  throw new Error(`no ${runtime === 'auto' ? 'Docker or Podman' : runtime} daemon reachable: ${where}`);
}
